package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.api.Test;

/**
 * Issue 7 item 5: a freed communicator leaves nothing behind on the fabric — no matching queues
 * in the engine, no worker thread, no heap. Many cycles of (dup, a blocking and now and then a
 * non-blocking collective, a sendRecv, free) on a world of three rank threads; the heap after GC
 * and the engine's context count must come back to where they were.
 */
class FreedCommMemoryTest {
    private static final int RANKS = 3;
    private static final int CYCLES = 20_000;
    /** Allowed growth over all cycles: the old code kept about 0.6 KB per communicator and rank (~35 MB here). */
    private static final long MAX_GROWTH = 1L << 20;

    @Test
    void freedCommunicatorsReleaseEverything() throws Exception {
        long[] heap = new long[2];
        int[] contexts = new int[RANKS * 2];
        RankThreads.run(RANKS, 60, (world, engine) -> {
            int rank = world.getRank();
            cycles(world, 2_000); // warm up: code compiled, pools filled
            world.barrier();
            if (rank == 0) heap[0] = usedHeapAfterGc();
            world.barrier();
            contexts[rank] = settledContextCount(engine);
            cycles(world, CYCLES);
            world.barrier();
            contexts[RANKS + rank] = settledContextCount(engine);
            if (rank == 0) heap[1] = usedHeapAfterGc();
            world.barrier();
        });
        for (int r = 0; r < RANKS; r++) {
            assertEquals(contexts[r], contexts[RANKS + r], "engine contexts of rank " + r + " before and after "
                    + CYCLES + " freed communicators");
        }
        long growth = heap[1] - heap[0];
        System.out.println("FreedCommMemoryTest: heap after GC " + heap[0] / 1024 + " KiB -> " + heap[1] / 1024
                + " KiB over " + CYCLES + " cycles on " + RANKS + " ranks");
        assertTrue(growth < MAX_GROWTH, "heap grew by " + growth / 1024 + " KiB over " + CYCLES
                + " dup/free cycles on " + RANKS + " ranks (" + growth / CYCLES / RANKS + " bytes per communicator)");
    }

    private static void cycles(Intracomm world, int n) {
        int rank = world.getRank(), size = world.getSize();
        int[] one = {rank + 1}, sum = new int[1], got = new int[1];
        for (int i = 0; i < n; i++) {
            Intracomm c = world.dup();
            c.allReduce(one, sum, 1, MPI.INT, MPI.SUM);
            if (sum[0] != size * (size + 1) / 2) throw new AssertionError("allReduce gave " + sum[0]);
            if (i % 16 == 0) {
                Request r = c.iAllReduce(one, sum, 1, MPI.INT, MPI.SUM);
                r.waitFor();
            }
            c.sendRecv(one, 1, MPI.INT, (rank + 1) % size, 5, got, 1, MPI.INT, (rank - 1 + size) % size, 5);
            if (got[0] != (rank - 1 + size) % size + 1) throw new AssertionError("sendRecv gave " + got[0]);
            c.free();
        }
    }

    /** The engine's context count, once the workers of freed communicators have let theirs go. */
    private static int settledContextCount(Engine engine) throws InterruptedException {
        Thread.sleep(50);
        return engine.contextCount();
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
            least = Math.min(least, mem.getHeapMemoryUsage().getUsed());
        }
        return least;
    }
}
