package io.github.mpi4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link EnvironmentProgram} in real processes: under Open MPI's mpirun and MPICH's launcher (MPI
 * backend) and under mpi4jrun (fabric). Abort and ERRORS_ARE_FATAL must end every rank with the given exit status,
 * well before the job's timeout; the library version must be callable before Init.
 */
class EnvironmentProgramsTest {
    private static Jobs.Result run(String launcher, int np, String... programArgs) throws Exception {
        List<String> java = new ArrayList<>(List.of("-cp", Jobs.classpath(), EnvironmentProgram.class.getName()));
        java.addAll(List.of(programArgs));
        if (launcher.equals("mpirun")) {
            Requirements.assumeMpi(Jobs.Launcher.MPIRUN, "EnvironmentProgram under mpirun");
            return Jobs.run(Jobs.mpirun(np, java, false), null, 90);
        }
        if (launcher.equals("mpich")) {
            Requirements.assumeMpi(Jobs.Launcher.MPICH, "EnvironmentProgram under MPICH");
            return Jobs.run(Jobs.mpich(np, java), null, 90);
        }
        return Jobs.run(Jobs.mpi4jrun(np, List.of(), java), null, 90);
    }

    @ParameterizedTest(name = "{0} np={1}")
    @CsvSource({"mpirun, 1", "mpich, 1", "mpi4jrun, 2"})
    void libVersionBeforeInitAndAfterFinalize(String launcher, int np) throws Exception {
        Jobs.Result r = run(launcher, np, "version");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("@@LIB before="), r.toString());
        String expected = launcher.equals("mpirun") ? "Open MPI" : launcher.equals("mpich") ? "MPICH" : "mpi4j fabric";
        assertTrue(r.output.contains(expected), r.toString());
    }

    @ParameterizedTest(name = "{0} {1} np={2} code={3}")
    @CsvSource({"mpirun, abort, 3, 7", "mpirun, fatal, 2, 5", "mpi4jrun, abort, 3, 7", "mpi4jrun, fatal, 2, 5"})
    void abortEndsEveryRankWithTheCode(String launcher, String mode, int np, int code) throws Exception {
        long start = System.nanoTime();
        Jobs.Result r = run(launcher, np, mode, Integer.toString(code));
        double seconds = (System.nanoTime() - start) / 1e9;
        assertFalse(r.timedOut, r.toString());
        assertTrue(r.output.contains("@@ABORTING"), r.toString());
        assertFalse(r.output.contains("@@STILL RUNNING") || r.output.contains("@@RECEIVED"), r.toString());
        assertEquals(code, r.exitCode, "exit status of the job\n" + r);
        assertTrue(seconds < 60, "the job ended in " + seconds + " s");
    }
}
