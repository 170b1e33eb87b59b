package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.Mpi;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.junit.jupiter.api.Test;

/**
 * A wait that nothing completes ends at the fabric's deadline with an exception that says so,
 * and the rank goes on working. The wait sets its deadline at its first check, a few hundred
 * idle rounds in, not on entry (a clock read per wait cost the small-message path), so this
 * pins both edges: never before the deadline, and not long after it.
 */
class WaitDeadlineTest {
    private static final double DEADLINE_S = 1.0;

    @Test
    void receivesNobodySendsEndAtTheDeadlineAndTheRanksGoOn() throws Exception {
        RankThreads.run(2, DEADLINE_S, 30, Mpi.THREAD_MULTIPLE, new int[2], (world, engine) -> {
            int rank = world.getRank(), peer = 1 - rank;
            // A blocking receive, then a non-blocking one's wait: tags 7 and 8 are never sent.
            long start = System.nanoTime();
            MPIException blocking = assertThrows(MPIException.class, () -> world.recv(new int[1], 1, MPI.INT, peer, 7));
            assertWithinDeadline(start, blocking, "rank " + rank + " recv");
            Request pending = world.iRecv(new int[1], 1, MPI.INT, peer, 8);
            start = System.nanoTime();
            MPIException waited = assertThrows(MPIException.class, pending::waitFor);
            assertWithinDeadline(start, waited, "rank " + rank + " iRecv's wait");
            // The ranks still talk: each sends its rank + 10 to the other on a fresh tag.
            int[] got = new int[1];
            world.sendRecv(new int[] {rank + 10}, 1, MPI.INT, peer, 9, got, 1, MPI.INT, peer, 9);
            assertArrayEquals(new int[] {peer + 10}, got, "rank " + rank + " after the timeouts");
        });
    }

    private static void assertWithinDeadline(long startNanos, MPIException e, String what) {
        double waited = (System.nanoTime() - startNanos) / 1e9;
        assertTrue(e.getMessage().contains("no completion within " + DEADLINE_S + " s"),
                what + ": the message names the deadline: " + e.getMessage());
        assertEquals(Mpi.ERR_OTHER, e.getErrorClass(), what + ": error class");
        assertTrue(waited >= DEADLINE_S, what + " ended after " + waited + " s, before the " + DEADLINE_S + " s deadline");
        assertTrue(waited < DEADLINE_S + 4, what + " ended " + waited + " s after it began, long after the deadline");
    }
}
