package io.github.mpi4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.spi.ToolProvider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Layers point one way: the public API (package {@code mpi}) sits on top, and nothing below it
 * depends on it, except {@code mpi.MPIException}, the one exception every layer throws. Constants
 * the backends need come from {@code io.github.mpi4j.spi.Mpi}. Users of the API may use all of it:
 * the benchmark programs in {@code io.github.mpi4j.bench}, like the examples.
 *
 * <p>Three public GPU classes have signatures that issue 9 fixes in terms of {@code mpi}:
 * {@code nccl.NcclComm} ({@code create(mpi.Intracomm)}, collectives taking {@code mpi.Datatype}
 * and {@code mpi.Op}), {@code nccl.HierarchicalComm} (the same) and {@code nccl.DeviceMesh}
 * ({@code comm(name)} is an {@code mpi.Intracomm}). They are facades: they name those types,
 * fully qualified, in their public signatures (and DeviceMesh in the one cast that hands out the
 * sub-communicator), import nothing of {@code mpi}, and reach the descriptors through
 * {@code spi.ApiBridge}; the engines below them ({@code RawNcclComm}, {@code HierarchicalEngine},
 * {@code MeshEngine}) are held to the rule like every other class.
 *
 * <p>Checked twice: on the sources (names in code), and on the built classes with {@code jdeps}
 * (what the bytecode really uses, including what imports and inlined constants hide). The jdeps
 * check also keeps the backend contract ({@code spi}) free of backends and start-up code, start-up
 * ({@code runtime}) free of concrete backends (it finds them through providers), the device
 * layer ({@code device}) on NCCL through the engine and the type mapping only (never a facade),
 * and the public memory types free of everything but the JDK. Each check is also run on a made-up
 * violation, so that a check that cannot fail is noticed.
 */
class LayeringTest {
    /** Packages that are users of the public API, beside it (see the class comment). */
    static final String[] API_USERS = {"io.github.mpi4j.bench"};
    /** The facades whose fixed public signatures name types of package mpi. */
    static final List<String> FACADES = List.of(
            "io.github.mpi4j.nccl.NcclComm",         // create(mpi.Intracomm), collectives on mpi.Datatype / mpi.Op
            "io.github.mpi4j.nccl.HierarchicalComm", // the same
            "io.github.mpi4j.nccl.DeviceMesh");      // create(mpi.Intracomm, ...), comm(name) returns mpi.Intracomm
    /** The only mpi types a facade may name. */
    static final List<String> FACADE_TYPES = List.of("Intracomm", "Datatype", "Op", "MPIException");

    /** What the device layer (device buffers in mpi calls) may use of package nccl: the engine, its types, its exception. */
    static final List<String> DEVICE_USES_OF_NCCL = List.of("io.github.mpi4j.nccl.RawNcclComm",
            "io.github.mpi4j.nccl.NcclTypes", "io.github.mpi4j.nccl.NcclException");

    private static final Pattern USE = Pattern.compile("(?<![\\w.])mpi\\.([A-Z]\\w*)");
    private static final Pattern IMPORT = Pattern.compile("(?m)^\\s*import\\s+(?:static\\s+)?mpi\\.([\\w.*]+)\\s*;");
    /** A public declaration (where a facade may name its mpi types), or a cast to one of them. */
    private static final Pattern FACADE_USE_PLACE = Pattern.compile("^\\s*public\\s.*\\(.*|.*\\(mpi\\.\\w+\\)\\s*\\w.*");
    /** Comments, then string and character literals: what is left is code. */
    private static final Pattern NOT_CODE = Pattern.compile(
            "/\\*.*?\\*/|//[^\\n]*|\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'", Pattern.DOTALL);

    @Test
    void nothingBelowTheApiDependsOnPackageMpiButMPIException() throws IOException {
        Path below = Path.of(Jobs.basedir(), "java", "io");
        List<String> offences = new ArrayList<>();
        int files = 0;
        try (Stream<Path> all = Files.walk(below)) {
            for (Path f : (Iterable<Path>) all.filter(p -> p.toString().endsWith(".java"))::iterator) {
                if (isApiUser(f)) continue;
                files++;
                offences.addAll(sourceOffences(below.relativize(f).toString(), className(f), Files.readString(f)));
            }
        }
        assertTrue(files > 50, "found the sources below the API (" + files + " files)");
        assertTrue(offences.isEmpty(), "classes below the public API use package mpi:\n" + String.join("\n", offences));
    }

    /** The source check finds each kind of violation (a check that cannot fail would pass this test file unnoticed). */
    @Test
    void theSourceCheckFindsViolations() {
        String engine = "io.github.mpi4j.nccl.RawNcclComm", facade = "io.github.mpi4j.nccl.NcclComm";
        assertTrue(sourceOffences("a", engine, "package x;\nimport mpi.MPIException;\nclass A { }").isEmpty(),
                "MPIException is allowed");
        assertEquals(1, sourceOffences("a", engine, "import mpi.Datatype;\nclass A { }").size(), "an import");
        assertEquals(1, sourceOffences("a", engine, "import static mpi.MPI.INT;\nclass A { }").size(), "a static import");
        assertEquals(1, sourceOffences("a", engine, "class A { void f(mpi.Op o) { } }").size(), "a qualified name");
        assertEquals(1, sourceOffences("a", facade, "import mpi.Intracomm;\nclass A { }").size(), "a facade's import");
        assertTrue(sourceOffences("a", facade, "class A {\n    public void f(mpi.Datatype t, mpi.Op o) {\n    }\n}").isEmpty(),
                "a facade's public signature");
        assertEquals(1, sourceOffences("a", facade, "class A {\n    public void f(mpi.Comm c) {\n    }\n}").size(),
                "a facade's signature with another mpi type");
        assertEquals(1, sourceOffences("a", facade, "class A {\n    void f() {\n        int x = mpi.MPI.UNDEFINED;\n    }\n}").size(),
                "a facade's body");
        assertTrue(sourceOffences("a", engine, "class A { /* mpi.Comm */ String s = \"mpi.Comm\"; }").isEmpty(),
                "comments and strings do not count");
    }

    /**
     * What source file {@code file} (class {@code className}, text {@code text}) does wrong: an
     * import of package mpi other than MPIException; outside the facades any mpi type but
     * MPIException; in a facade any mpi type but {@link #FACADE_TYPES}, or one outside a public
     * declaration or a cast.
     */
    static List<String> sourceOffences(String file, String className, String text) {
        List<String> offences = new ArrayList<>();
        String code = NOT_CODE.matcher(text).replaceAll(m -> m.group().replaceAll("[^\\n]", " "));
        Matcher imports = IMPORT.matcher(code);
        while (imports.find()) {
            if (!imports.group(1).equals("MPIException")) offences.add(file + ": import mpi." + imports.group(1));
        }
        String noImports = IMPORT.matcher(code).replaceAll(" ");
        boolean facade = FACADES.contains(className);
        for (String line : noImports.split("\n")) {
            Matcher m = USE.matcher(line);
            while (m.find()) {
                String type = m.group(1);
                if (type.equals("MPIException")) continue;
                if (!facade) {
                    offences.add(file + ": mpi." + type);
                } else if (!FACADE_TYPES.contains(type)) {
                    offences.add(file + ": mpi." + type + " (a facade may name mpi." + String.join(", mpi.", FACADE_TYPES) + ")");
                } else if (!FACADE_USE_PLACE.matcher(line).matches()) {
                    offences.add(file + ": mpi." + type + " outside a public signature: " + line.trim());
                }
            }
        }
        return offences;
    }

    /** The class a source file under java/ holds. */
    private static String className(Path f) {
        String p = f.toString().replace('\\', '/');
        return p.substring(p.indexOf("/java/") + 6, p.length() - ".java".length()).replace('/', '.');
    }

    /** Whether source file {@code f} is in one of {@link #API_USERS} (exactly the package, not below it). */
    static boolean isApiUser(Path f) {
        String dir = f.getParent().toString().replace('\\', '/');
        for (String p : API_USERS) if (dir.endsWith("/" + p.replace('.', '/'))) return true;
        return className(f).equals("io.github.mpi4j.Mpi4j"); // a program (the launcher's entry point)
    }

    /** Each class-level dependency in target/classes, as "from -> to", from {@code jdeps -verbose:class}. */
    private static List<String[]> classDependencies() {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("no jdeps in this JDK"));
        Path classes = Path.of(Jobs.basedir(), "target", "classes");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = jdeps.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                "-verbose:class", classes.toString());
        assertTrue(rc == 0, "jdeps failed (" + rc + "): " + err.toString(StandardCharsets.UTF_8));
        List<String[]> deps = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            // "   a.b.C     -> d.e.F     classes": lines that start with a blank are class edges.
            String[] f = line.trim().split("\\s+");
            if (line.startsWith(" ") && f.length >= 3 && f[1].equals("->")) deps.add(new String[] {f[0], f[2]});
        }
        return deps;
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }

    private static boolean under(String className, String pkg) {
        return packageOf(className).equals(pkg) || className.startsWith(pkg + ".");
    }

    @Test
    void jdepsAgreesThatLayersPointOneWay() {
        List<String[]> deps = classDependencies();
        assertTrue(deps.size() > 1000, "jdeps listed the class dependencies (" + deps.size() + ")");
        List<String> offences = dependencyOffences(deps);
        assertTrue(offences.isEmpty(), "layering broken in the built classes:\n" + String.join("\n", offences));
    }

    /** The dependency check finds each kind of violation in made-up edges. */
    @Test
    void theDependencyCheckFindsViolations() {
        String[][] allowed = {
            {"mpi.Comm", "io.github.mpi4j.spi.ApiBridge"},
            {"io.github.mpi4j.bench.NcclBench", "mpi.MPI"},
            {"io.github.mpi4j.nccl.RawNcclComm", "mpi.MPIException"},
            {"io.github.mpi4j.nccl.NcclComm", "mpi.Datatype"},
            {"io.github.mpi4j.nccl.DeviceMesh", "mpi.Intracomm"},
            {"io.github.mpi4j.device.NcclPath", "io.github.mpi4j.nccl.RawNcclComm"},
            {"io.github.mpi4j.device.NcclPath", "io.github.mpi4j.nccl.NcclTypes$Mapped"},
        };
        for (String[] e : allowed) {
            assertTrue(dependencyOffences(List.<String[]>of(e)).isEmpty(), e[0] + " -> " + e[1] + " is allowed");
        }
        String[][] broken = {
            {"io.github.mpi4j.nccl.RawNcclComm", "mpi.Datatype"},
            {"io.github.mpi4j.nccl.HierarchicalEngine", "mpi.Intracomm"},
            {"io.github.mpi4j.nccl.NcclComm", "mpi.MPI"},
            {"io.github.mpi4j.nccl.NcclComm$1", "mpi.Comm"},
            {"io.github.mpi4j.device.NcclPath", "io.github.mpi4j.nccl.NcclComm"},
            {"io.github.mpi4j.spi.Buf", "io.github.mpi4j.fabric.FabricComm"},
            {"io.github.mpi4j.runtime.Session", "io.github.mpi4j.backend.mpi.MpiBackend"},
            {"io.github.mpi4j.memory.NativeMemory", "io.github.mpi4j.spi.Buf"},
        };
        for (String[] e : broken) {
            assertEquals(1, dependencyOffences(List.<String[]>of(e)).size(), e[0] + " -> " + e[1] + " is refused");
        }
    }

    /** The edges of {@code deps} ({from, to} class names) that break a layering rule, each with the rule. */
    static List<String> dependencyOffences(List<String[]> deps) {
        List<String> offences = new ArrayList<>();
        String[] backends = {"io.github.mpi4j.backend", "io.github.mpi4j.fabric"};
        for (String[] d : deps) {
            String from = d[0], to = d[1], edge = from + " -> " + to;
            String fromClass = from.replaceFirst("\\$.*", "");
            boolean inApi = packageOf(from).equals("mpi") || java.util.Arrays.asList(API_USERS).contains(packageOf(from));
            boolean facade = FACADES.contains(fromClass);
            if (!inApi && packageOf(to).equals("mpi") && !to.equals("mpi.MPIException")
                    && !(facade && FACADE_TYPES.contains(to.substring("mpi.".length())))) {
                offences.add(edge + (facade ? " (a facade names only mpi." + String.join(", mpi.", FACADE_TYPES) + ")"
                        : " (below the public API)"));
            }
            if (under(from, "io.github.mpi4j.spi")) {
                for (String b : backends) if (under(to, b)) offences.add(edge + " (the backend contract uses a backend)");
                if (under(to, "io.github.mpi4j.runtime")) offences.add(edge + " (the backend contract uses start-up code)");
            }
            if (under(from, "io.github.mpi4j.device") && packageOf(to).equals("io.github.mpi4j.nccl")
                    && !DEVICE_USES_OF_NCCL.contains(to.replaceFirst("\\$.*", ""))) {
                offences.add(edge + " (the device layer reaches NCCL through " + String.join(", ", DEVICE_USES_OF_NCCL) + " only)");
            }
            if (under(from, "io.github.mpi4j.runtime")) {
                for (String b : backends) if (under(to, b)) offences.add(edge + " (start-up names a concrete backend)");
            }
            if (under(from, "io.github.mpi4j.memory") && !under(to, "io.github.mpi4j.memory") && !to.startsWith("java.")) {
                offences.add(edge + " (the public memory types need only the JDK)");
            }
        }
        return offences;
    }
}
