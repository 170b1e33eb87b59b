package io.github.mpi4j.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.mpi4j.testing.Jobs;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 7 item 1 on the MPI backend: a blocking MPI call that a peer never enters cannot be
 * cancelled, so after MPI4J_TIMEOUT the watchdog reports rank, call and elapsed time and aborts
 * the job; never a silent hang.
 */
class MpiWatchdogTest {
    private static Jobs.Result run(int np, String timeout, String... args) throws Exception {
        assumeTrue(Jobs.mpirunAvailable(), "mpirun is not on PATH: install Open MPI to run this test");
        List<String> javaArgs = new java.util.ArrayList<>(List.of("-cp", Jobs.classpath(),
                RootFailsCollectiveProgram.class.getName()));
        javaArgs.addAll(List.of(args));
        return Jobs.run(Jobs.mpirun(np, javaArgs, false), Map.of("MPI4J_TIMEOUT", timeout), 60);
    }

    @Test
    void rootFailingScatterEndsTheJobAfterTheTimeout() throws Exception {
        int timeout = 3;
        long t0 = System.nanoTime();
        Jobs.Result r = run(3, "" + timeout);
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertFalse(r.timedOut, "the job hung: " + r);
        assertNotEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("ROOT REFUSED: "), r.toString());
        assertFalse(r.output.contains("SCATTER RETURNED"), r.toString());
        // A non-root (rank 1 or 2) names itself, the call and the time waited.
        Matcher m = Pattern.compile("mpi4j: rank ([12]): MPI_Scatter on \\S+ has not completed after (\\d+) s "
                + "\\(MPI4J_TIMEOUT=" + timeout + "\\)").matcher(r.output);
        assertTrue(m.find(), r.toString());
        assertTrue(Integer.parseInt(m.group(2)) >= timeout, r.toString());
        // The JVMs take a few seconds to start on a loaded machine; the root sleeps 120 s.
        assertTrue(seconds < timeout + 30, "the job took " + seconds + " s\n" + r);
    }

    /** A root late by a third of the deadline is no failure: the watchdog must not fire early. */
    @Test
    void lateRootWithinTheTimeoutCompletes() throws Exception {
        Jobs.Result r = run(3, "3", "slow");
        assertEquals(0, r.exitCode, r.toString());
        for (int rank = 0; rank < 3; rank++) assertTrue(r.output.contains("SLOW ROOT OK " + rank), r.toString());
        assertFalse(r.output.contains("has not completed"), r.toString());
    }

    @Test
    void badTimeoutFailsInit() throws Exception {
        Jobs.Result r = run(1, "soon");
        assertNotEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("MPI4J_TIMEOUT='soon' is not a number of seconds"), r.toString());
    }
}
