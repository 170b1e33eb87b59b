package io.github.mpi4j;

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
 * the benchmark programs in {@code io.github.mpi4j.bench}, like the examples, and the few
 * classes of the public GPU API whose signatures issue 9 fixes in terms of {@code mpi}:
 * {@code nccl.NcclComm} ({@code create(mpi.Intracomm)}, collectives taking {@code mpi.Datatype}
 * and {@code mpi.Op}), {@code nccl.NcclTypes} (those types and ops to NCCL's),
 * {@code nccl.HierarchicalComm} (the same, across nodes through mpi calls) and
 * {@code nccl.DeviceMesh} ({@code comm(name)} is an {@code mpi.Intracomm}). Every other
 * class of {@code nccl} and {@code cuda} is held to the rule. Everything internal (spi, runtime, buffer, backends, fabric, nativeload, ...) stays
 * below the API.
 *
 * <p>Checked twice: on the sources (names in code), and on the built classes with {@code jdeps}
 * (what the bytecode really uses, including what imports and inlined constants hide). The jdeps
 * check also keeps the backend contract ({@code spi}) free of backends and start-up code, start-up
 * ({@code runtime}) free of concrete backends (it finds them through providers), the device
 * layer ({@code device}) on NCCL through {@code nccl.RawNcclComm} only (the other NCCL classes are
 * API over {@code mpi}), and the public memory types free of everything but the JDK.
 */
class LayeringTest {
    /** Packages that are users of the public API, beside it (see the class comment). */
    static final String[] API_USERS = {"io.github.mpi4j.bench"};
    /** Single classes of the public GPU API whose fixed signatures use package mpi. */
    static final List<String> API_USER_CLASSES = List.of(
            "io.github.mpi4j.nccl.NcclComm",         // create(mpi.Intracomm), collectives on mpi.Datatype / mpi.Op
            "io.github.mpi4j.nccl.NcclTypes",        // mpi.Datatype / mpi.Op to NCCL's enums
            "io.github.mpi4j.nccl.HierarchicalComm", // create(mpi.Intracomm); its inter-node step is mpi calls
            "io.github.mpi4j.nccl.DeviceMesh");      // create(mpi.Intracomm, ...), comm(name) returns mpi.Intracomm

    /**
     * What the device layer (device buffers in mpi calls) may use of package nccl: the classes
     * without mpi types. Everything else there is public API over package mpi.
     */
    static final List<String> DEVICE_USES_OF_NCCL = List.of("io.github.mpi4j.nccl.RawNcclComm",
            "io.github.mpi4j.nccl.NcclException");

    private static final Pattern USE = Pattern.compile("(?<![\\w.])mpi\\.([A-Z]\\w*)");
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
                String code = NOT_CODE.matcher(Files.readString(f)).replaceAll(" ");
                Matcher m = USE.matcher(code);
                while (m.find()) {
                    if (!m.group(1).equals("MPIException")) offences.add(below.relativize(f) + ": mpi." + m.group(1));
                }
            }
        }
        assertTrue(files > 50, "found the sources below the API (" + files + " files)");
        assertTrue(offences.isEmpty(), "classes below the public API use package mpi:\n" + String.join("\n", offences));
    }

    /** Whether source file {@code f} is in one of {@link #API_USERS} (exactly the package, not below it). */
    static boolean isApiUser(Path f) {
        String dir = f.getParent().toString().replace('\\', '/');
        for (String p : API_USERS) if (dir.endsWith("/" + p.replace('.', '/'))) return true;
        String file = f.toString().replace('\\', '/');
        for (String c : API_USER_CLASSES) if (file.endsWith("/" + c.replace('.', '/') + ".java")) return true;
        return false;
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
        List<String> offences = new ArrayList<>();
        String[] backends = {"io.github.mpi4j.backend", "io.github.mpi4j.fabric"};
        for (String[] d : deps) {
            String from = d[0], to = d[1], edge = from + " -> " + to;
            boolean inApi = packageOf(from).equals("mpi") || java.util.Arrays.asList(API_USERS).contains(packageOf(from))
                    || API_USER_CLASSES.contains(from.replaceFirst("\\$.*", ""));
            if (!inApi && packageOf(to).equals("mpi") && !to.equals("mpi.MPIException")) {
                offences.add(edge + " (below the public API)");
            }
            if (under(from, "io.github.mpi4j.spi")) {
                for (String b : backends) if (under(to, b)) offences.add(edge + " (the backend contract uses a backend)");
                if (under(to, "io.github.mpi4j.runtime")) offences.add(edge + " (the backend contract uses start-up code)");
            }
            if (under(from, "io.github.mpi4j.device") && packageOf(to).equals("io.github.mpi4j.nccl")
                    && !DEVICE_USES_OF_NCCL.contains(to.replaceFirst("\\$.*", ""))) {
                offences.add(edge + " (the device layer reaches NCCL through nccl.RawNcclComm only)");
            }
            if (under(from, "io.github.mpi4j.runtime")) {
                for (String b : backends) if (under(to, b)) offences.add(edge + " (start-up names a concrete backend)");
            }
            if (under(from, "io.github.mpi4j.memory") && !under(to, "io.github.mpi4j.memory") && !to.startsWith("java.")) {
                offences.add(edge + " (the public memory types need only the JDK)");
            }
        }
        assertTrue(offences.isEmpty(), "layering broken in the built classes:\n" + String.join("\n", offences));
    }
}
