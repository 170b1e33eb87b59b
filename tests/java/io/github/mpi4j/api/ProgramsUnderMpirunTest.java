package io.github.mpi4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole programs under the system mpirun: the examples and the user-style programs of
 * tests/programs (compiled here with javac against the built classes, as users compile against
 * the jar), and the Init/Finalize lifecycle checks. The user-style programs also run through
 * mpi4jrun on the fabric backend.
 */
class ProgramsUnderMpirunTest {
    @TempDir
    static Path examples;

    @BeforeAll
    static void compileExamples() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "-cp", Jobs.classpath(), "-d", examples.toString()));
        for (String dir : List.of("examples", "tests/programs")) {
            try (var files = Files.list(Path.of(Jobs.basedir(), dir))) {
                files.filter(p -> p.toString().endsWith(".java")).forEach(p -> cmd.add(p.toString()));
            }
        }
        Jobs.Result r = Jobs.run(cmd, null, 120);
        assertEquals(0, r.exitCode, "examples and user-style programs must compile unchanged against mpi4j\n" + r);
    }

    private static Jobs.Result mpirun(int np, String... javaArgs) throws Exception {
        Requirements.assumeMpi(Jobs.Launcher.MPIRUN, "programs under mpirun");
        List<String> args = new ArrayList<>(List.of("-cp", Jobs.classpath() + ":" + examples));
        args.addAll(List.of(javaArgs));
        return Jobs.run(Jobs.mpirun(np, args, false), null, 120);
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void hello(int np) throws Exception {
        Jobs.Result r = mpirun(np, "Hello");
        assertEquals(0, r.exitCode, r.toString());
        for (int rank = 0; rank < np; rank++) {
            assertEquals(1, count(r.output, "Hello from rank " + rank + " of " + np + "\\b"), r.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void ring(int np) throws Exception {
        Jobs.Result r = mpirun(np, "Ring");
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(np, count(r.output, "Rank \\d+ is done"), r.toString());
        assertEquals(10, count(r.output, "decremented the token"), r.toString());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void pi(int np) throws Exception {
        Jobs.Result r = mpirun(np, "Pi", "200000");
        assertEquals(0, r.exitCode, r.toString());
        Matcher m = Pattern.compile("pi ~ (\\d\\.\\d+) from (\\d+) darts on (\\d+) ranks").matcher(r.output);
        assertTrue(m.find(), r.toString());
        assertEquals(200000L * np, Long.parseLong(m.group(2)));
        assertEquals(np, Integer.parseInt(m.group(3)));
        assertEquals(Math.PI, Double.parseDouble(m.group(1)), 0.02);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void mpiJavaStyleProgram(int np) throws Exception {
        Jobs.Result r = mpirun(np, "PingPongObjects");
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(1, count(r.output, "objects ok"), r.toString());
    }

    /** The same program through mpi4j's own launcher (fabric backend, ranks as processes). */
    private static Jobs.Result mpi4jrun(int np, String... javaArgs) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(Jobs.basedir(), "launch", "mpi4jrun").toString(),
                "-np", Integer.toString(np), "-cp", Jobs.classpath() + ":" + examples));
        cmd.addAll(List.of(javaArgs));
        return Jobs.run(cmd, null, 120);
    }

    private static void allRanksOk(Jobs.Result r, String marker, int np) {
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(0, count(r.output, "FAILED"), r.toString());
        for (int rank = 0; rank < np; rank++) {
            assertEquals(1, count(r.output, marker + " OK " + rank + " " + np + " "), r.toString());
        }
    }

    /**
     * tests/programs: a broad Open MPI bindings program (OmpiStyleProgram) and an mpiJava 1.2 /
     * MPJ Express program (MpiJavaStyleProgram), each under mpirun and through mpi4jrun on the
     * fabric, at 1-4 ranks; results checked in the programs from rank and size.
     */
    static Stream<Arguments> userStylePrograms() {
        List<Arguments> cases = new ArrayList<>();
        for (String launcher : List.of("mpirun", "mpi4jrun")) {
            for (String[] program : new String[][] {{"OmpiStyleProgram", "OMPI-STYLE"},
                {"MpiJavaStyleProgram", "MPIJAVA-STYLE"}}) {
                for (int np = 1; np <= 4; np++) cases.add(Arguments.of(program[0], launcher, np, program[1]));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} under {1}, np={2}")
    @MethodSource("userStylePrograms")
    void userStyleProgram(String program, String launcher, int np, String marker) throws Exception {
        Jobs.Result r = launcher.equals("mpirun") ? mpirun(np, program) : mpi4jrun(np, program);
        allRanksOk(r, marker, np);
    }

    /**
     * The same programs under MPICH's launcher: the loader must pick the MPICH-ABI bridge
     * (libmpi.so.12) from Hydra's variables. A smoke set; the suites run in MpiSuitesTest.
     */
    @ParameterizedTest(name = "{0} under mpiexec.hydra, np={1}")
    @CsvSource({"Hello, 3", "OmpiStyleProgram, 2", "MpiJavaStyleProgram, 3"})
    void underMpich(String program, int np) throws Exception {
        Requirements.assumeMpi(Jobs.Launcher.MPICH, "programs under mpiexec.hydra");
        List<String> args = new ArrayList<>(List.of("-cp", Jobs.classpath() + ":" + examples, program));
        Jobs.Result r = Jobs.run(Jobs.mpich(np, args), null, 120);
        if (program.equals("Hello")) {
            assertEquals(0, r.exitCode, r.toString());
            for (int rank = 0; rank < np; rank++) {
                assertEquals(1, count(r.output, "Hello from rank " + rank + " of " + np + "\\b"), r.toString());
            }
        } else {
            allRanksOk(r, program.equals("OmpiStyleProgram") ? "OMPI-STYLE" : "MPIJAVA-STYLE", np);
        }
    }

    @Test
    void lifecycle() throws Exception {
        Jobs.Result r = mpirun(2, LifecycleProgram.class.getName());
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(2, count(r.output, "LIFECYCLE OK \\d 2 mpi"), r.toString());
    }
}
