package io.github.mpi4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The two topology programs of tests/programs, compiled with javac against the built classes as
 * users compile against the jar, then run: TopologyOmpiProgram (Open MPI bindings: CartComm,
 * GraphComm, neighbour collectives) and TopologyMpiJavaProgram (mpiJava 1.2 / MPJ Express:
 * Cartcomm, Graphcomm, public parameter fields), one on MPI under mpirun and the other on the
 * fabric under mpi4jrun (TopologySuite runs both styles on every backend; this proves that whole
 * programs compile and run as they are). The programs check their results against values
 * computed from rank and size.
 */
class TopologyProgramsTest {
    @TempDir
    static Path classes;

    @BeforeAll
    static void compile() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "-cp", Jobs.classpath(), "-d", classes.toString()));
        for (String p : List.of("TopologyOmpiProgram", "TopologyMpiJavaProgram")) {
            cmd.add(Path.of(Jobs.basedir(), "tests", "programs", p + ".java").toString());
        }
        Jobs.Result r = Jobs.run(cmd, null, 120);
        assertEquals(0, r.exitCode, "the topology programs must compile unchanged against mpi4j\n" + r);
    }

    @ParameterizedTest(name = "{0} under {1}, np={2}")
    @CsvSource({"TopologyMpiJavaProgram, mpirun, 4", "TopologyOmpiProgram, mpi4jrun, 3"})
    void program(String program, String launcher, int np) throws Exception {
        List<String> javaArgs = List.of("-cp", Jobs.classpath() + ":" + classes, program);
        List<String> cmd;
        if (launcher.equals("mpirun")) {
            Requirements.assumeMpi(Jobs.Launcher.MPIRUN, program + " under mpirun");
            cmd = Jobs.mpirun(np, javaArgs, false);
        } else {
            cmd = Jobs.mpi4jrun(np, List.of(), javaArgs);
        }
        Jobs.Result r = Jobs.run(cmd, null, 120);
        String marker = program.equals("TopologyOmpiProgram") ? "TOPOLOGY-OMPI" : "TOPOLOGY-MPIJAVA";
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(0, count(r.output, "FAILED"), r.toString());
        for (int rank = 0; rank < np; rank++) {
            assertEquals(1, count(r.output, marker + " OK " + rank + " " + np + " "), r.toString());
        }
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) n++;
        return n;
    }
}
