package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.Mpi;
import java.nio.IntBuffer;
import java.util.concurrent.atomic.AtomicReference;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Win;
import org.junit.jupiter.api.Test;

/**
 * The engine skips its lock while one thread uses it (issue 12, item 1: the lock's fences bound
 * the small-message rate), and takes it for good from the moment a second thread may come in:
 * a helper the library hands work to (the progress thread, a window's service, an
 * intercommunicator's worker) or a second thread of the program. Ranks as threads of one JVM
 * below THREAD_MULTIPLE; each case checks the data that moved against values computed from the
 * ranks, and that the engine went into (or stayed out of) locking mode.
 */
class EngineSharingTest {
    private static final int SERIALIZED = Mpi.THREAD_SERIALIZED;

    @Test
    void oneThreadPerRankKeepsTheEngineUnshared() throws Exception {
        RankThreads.run(2, 60, SERIALIZED, (world, engine) -> {
            pingPong(world, 2000);
            int[] sum = new int[1];
            world.allReduce(new int[] {world.getRank() + 1}, sum, 1, MPI.INT, MPI.SUM);
            assertEquals(3, sum[0], "allReduce of rank + 1");
            assertEquals(null, engine.sharedBecause(), "rank " + world.getRank() + ": only its thread used the engine");
        });
    }

    @Test
    void threadMultipleLocksFromTheStart() throws Exception {
        RankThreads.run(2, 60, Mpi.THREAD_MULTIPLE, (world, engine) -> {
            assertEquals("THREAD_MULTIPLE", engine.sharedBecause(), "every entry takes the lock");
            pingPong(world, 100);
        });
    }

    @Test
    void aSecondThreadOfTheRankSwitchesToLocking() throws Exception {
        RankThreads.run(2, 60, SERIALIZED, (world, engine) -> {
            pingPong(world, 100);
            assertFalse(engine.isShared());
            // THREAD_SERIALIZED: another thread of rank 0 sends while its rank thread waits.
            if (world.getRank() == 0) {
                AtomicReference<Throwable> failed = new AtomicReference<>();
                Thread other = new Thread(() -> {
                    try {
                        for (int i = 0; i < 500; i++) world.send(new int[] {i * 3 + 1}, 1, MPI.INT, 1, 5);
                    } catch (Throwable e) {
                        failed.set(e);
                    }
                }, "second-thread");
                other.start();
                other.join();
                if (failed.get() != null) throw new AssertionError("the second thread failed", failed.get());
                assertTrue(engine.isShared(), "a second thread entered: the engine locks from now on");
                assertTrue(engine.sharedBecause().startsWith("thread second-thread entered"), engine.sharedBecause());
            } else {
                int[] got = new int[1];
                for (int i = 0; i < 500; i++) {
                    world.recv(got, 1, MPI.INT, 0, 5);
                    assertEquals(i * 3 + 1, got[0], "message " + i + " from rank 0's second thread");
                }
            }
            pingPong(world, 100);  // the rank thread again, now with the lock
        });
    }

    @Test
    void aNonBlockingCollectiveHandsTheEngineToTheProgressThread() throws Exception {
        RankThreads.run(2, 60, SERIALIZED, (world, engine) -> {
            int rank = world.getRank();
            int n = 1 << 16;  // large enough not to finish at the call
            double[] mine = new double[n], sum = new double[n];
            for (int i = 0; i < n; i++) mine[i] = rank * 1000.0 + i;
            Request r = world.iAllReduce(mine, sum, n, MPI.DOUBLE, MPI.SUM);
            boolean startedPending = engine.isShared();
            pingPong(world, 200);  // the rank thread keeps using the engine meanwhile
            r.waitFor();
            for (int i = 0; i < n; i++) assertEquals(1000.0 + 2.0 * i, sum[i], "element " + i);
            assertTrue(startedPending, "the progress thread may advance the call: the engine locks from its start");
            assertEquals("the progress thread was handed work", engine.sharedBecause());
        });
    }

    @Test
    void aWindowsServiceThreadSharesTheEngine() throws Exception {
        // Two nodes (as far as the window knows): it goes through the transport and its service.
        RankThreads.run(2, 60, SERIALIZED, new int[] {0, 1}, (world, engine) -> {
            int rank = world.getRank();
            IntBuffer mem = MPI.newIntBuffer(4);
            Win win = new Win(mem, 4, 4, MPI.INFO_NULL, world);
            assertEquals("a window's service thread was handed work", engine.sharedBecause(),
                    "a window's service thread serves requests in the engine");
            win.fence(0);
            IntBuffer value = MPI.newIntBuffer(1).put(0, rank * 10 + 7);
            win.put(value, 1, MPI.INT, 1 - rank, 0, 1, MPI.INT);
            win.fence(0);
            assertEquals((1 - rank) * 10 + 7, mem.get(0), "what the other rank put");
            win.free();
            pingPong(world, 100);
        });
    }

    @Test
    void anIntercommunicatorsWorkerSharesTheEngine() throws Exception {
        RankThreads.run(2, 60, SERIALIZED, (world, engine) -> {
            int rank = world.getRank();
            Intracomm self = world.split(rank, 0);
            Intercomm inter = world.createIntercomm(self, 0, 1 - rank, 31);
            int[] got = new int[1];
            inter.allReduce(new int[] {rank + 5}, got, 1, MPI.INT, MPI.SUM);
            assertEquals(1 - rank + 5, got[0], "the other group's sum");
            assertEquals("an intercommunicator's worker thread was handed work", engine.sharedBecause(),
                    "intercommunicator collectives run on a worker thread, and say so before it enters");
            inter.free();
            self.free();
        });
    }

    /** Rank 0 and 1 exchange {@code n} messages whose contents follow from the round and the sender. */
    private static void pingPong(Intracomm world, int n) {
        int rank = world.getRank();
        int[] out = new int[2], in = new int[2];
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                out[0] = i;
                out[1] = 0;
                world.send(out, 2, MPI.INT, 1, 9);
                world.recv(in, 2, MPI.INT, 1, 9);
                assertArrayEquals(new int[] {i * 2, 1}, in, "reply " + i);
            } else {
                world.recv(in, 2, MPI.INT, 0, 9);
                assertArrayEquals(new int[] {i, 0}, in, "message " + i);
                out[0] = in[0] * 2;
                out[1] = 1;
                world.send(out, 2, MPI.INT, 0, 9);
            }
        }
    }
}
