package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.Backend;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.atomic.AtomicReference;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Worlds;
import org.junit.jupiter.api.Test;

/**
 * Issue 7 item 5: a freed communicator leaves nothing behind on the fabric — no matching queues
 * in the engine, no worker thread, no heap. Many cycles of (dup, a blocking and a non-blocking
 * collective, a sendRecv, free) on a world of three rank threads; the heap after GC and the
 * engine's context count must come back to where they were.
 */
class FreedCommMemoryTest {
    private static final int RANKS = 3;
    private static final int CYCLES = 20_000;
    /** Allowed growth over all cycles: the old code kept about 0.6 KB per communicator and rank (~36 MB here). */
    private static final long MAX_GROWTH = 1L << 20;

    @Test
    void freedCommunicatorsReleaseEverything() throws Exception {
        Backend[] backends = FabricBackend.threads(RANKS, 60);
        long[] heap = new long[2];
        int[] contexts = new int[RANKS * 2];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[RANKS];
        for (int r = 0; r < RANKS; r++) {
            int rank = r;
            threads[r] = new Thread(() -> {
                try {
                    Intracomm world = Worlds.worldOf(backends[rank]);
                    Engine engine = ((FabricBackend) backends[rank]).engine;
                    cycles(world, 2_000); // warm up: code compiled, pools filled
                    world.barrier();
                    if (rank == 0) heap[0] = usedHeapAfterGc();
                    world.barrier();
                    contexts[rank] = engine.contextCount();
                    cycles(world, CYCLES);
                    world.barrier();
                    contexts[RANKS + rank] = engine.contextCount();
                    if (rank == 0) heap[1] = usedHeapAfterGc();
                    world.barrier();
                    Worlds.finish(world);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    for (Backend b : backends) ((FabricBackend) b).fail("rank " + rank + " failed: " + e);
                }
            }, "rank-" + r);
            threads[r].setDaemon(true);
            threads[r].start();
        }
        for (Thread t : threads) t.join(60_000);
        if (failure.get() != null) throw new AssertionError("a rank failed", failure.get());
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
