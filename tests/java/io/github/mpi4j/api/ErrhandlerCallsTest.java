package io.github.mpi4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mpi.MPI;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Error handlers applied to the errors of calls (issue 10 item 7): {@link ErrhandlerCallsSuite}
 * on the MPI backend (Open MPI, MPICH) and the fabric with ranks as threads, and
 * {@link ErrhandlerCallsProgram} (ERRORS_ARE_FATAL in a failing call ends the job with the
 * error code) in real processes under mpirun and mpi4jrun.
 */
class ErrhandlerCallsTest {

    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(ErrhandlerCallsSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 1, 3)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(ErrhandlerCallsSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(ErrhandlerCallsSuite.class, 1, 2, 3, 4);
    }

    @ParameterizedTest(name = "{0} {1} np={2}")
    @CsvSource({"mpirun, send, 2", "mpirun, bcast, 2", "mpi4jrun, send, 3", "mpi4jrun, bcast, 2"})
    void errorsAreFatalEndsTheJobWithTheErrorCode(String launcher, String mode, int np) throws Exception {
        List<String> java = new ArrayList<>(List.of("-cp", Jobs.classpath(), ErrhandlerCallsProgram.class.getName(),
                mode));
        Jobs.Result r;
        if (launcher.equals("mpirun")) {
            Requirements.assumeMpi(Jobs.Launcher.MPIRUN, "ErrhandlerCallsProgram under mpirun");
            r = Jobs.run(Jobs.mpirun(np, java, false), null, 90);
        } else {
            r = Jobs.run(Jobs.mpi4jrun(np, List.of(), java), null, 90);
        }
        int expected = mode.equals("send") ? MPI.ERR_RANK : MPI.ERR_ROOT;
        assertFalse(r.timedOut, r.toString());
        assertTrue(r.output.contains("@@FAILING"), r.toString());
        assertTrue(r.output.contains("ERRORS_ARE_FATAL"), "the handler says why\n" + r);
        assertFalse(r.output.contains("@@STILL RUNNING") || r.output.contains("@@RECEIVED"), r.toString());
        assertEquals(expected, r.exitCode, "exit status of the job\n" + r);
    }
}
