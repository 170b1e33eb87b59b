package io.github.mpi4j.nccl;

import static io.github.mpi4j.nccl.Expect.assertThrows;
import static io.github.mpi4j.nccl.Expect.assertTrue;

import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.testing.RankTest;
import java.util.concurrent.atomic.AtomicInteger;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Run with {@code FAKE_NCCL_FAULT=absent:1} (rank 1 of every communicator never takes part in an
 * operation) and a short {@code MPI4J_TIMEOUT}: every rank's {@code sync()} must end in an
 * exception within the deadline (its own, or NCCL's remote error once a peer reached its deadline
 * and aborted), abort the communicator, and leave it refusing later calls.
 */
public class NcclFaultSuite {
    /** The job's MPI4J_TIMEOUT, seconds. */
    static final int TIMEOUT_S = 4;

    @RankTest(minSize = 2)
    public void anAbsentRankMakesEverySyncThrowWithinTheDeadline(Intracomm comm) {
        try (NcclComm c = NcclComm.create(comm); DeviceBuffer d = DeviceBuffer.allocate(64, c.getDevice())) {
            d.copyFrom(new int[16]);
            c.allReduce(d, d, 16, MPI.INT, MPI.SUM);
            long start = System.nanoTime();
            NcclException e = assertThrows(NcclException.class, c::sync);
            double took = (System.nanoTime() - start) / 1e9;
            assertTrue(took < TIMEOUT_S + 5, "sync took " + took + " s, the deadline is " + TIMEOUT_S + " s");
            // The first rank to reach the deadline aborts; the others may see that as NCCL's remote error.
            int code = e.ncclResult();
            assertTrue(code == NcclException.DEADLINE || code == 6 /* ncclRemoteError */, e.toString());
            assertTrue(c.isAborted(), "the communicator was aborted");
            assertThrows(IllegalStateException.class, () -> c.allReduce(d, d, 16, MPI.INT, MPI.SUM));
        }
    }

    /**
     * abort() from another thread while this one waits in sync() on an operation that cannot
     * complete (rank 1 never takes part): the wait ends promptly, long before the deadline, with
     * an exception (the abort seen at the next poll, or NCCL's remote error once a peer's own
     * abort was seen first); no crash, and every later call is refused.
     */
    @RankTest(minSize = 2)
    public void anAbortFromAnotherThreadEndsAWaitingSyncPromptly(Intracomm comm) throws Exception {
        try (NcclComm c = NcclComm.create(comm); DeviceBuffer d = DeviceBuffer.allocate(64, c.getDevice())) {
            d.copyFrom(new int[16]);
            c.allReduce(d, d, 16, MPI.INT, MPI.SUM);
            Throwable[] thrown = new Throwable[1];
            long[] ended = new long[1];
            Thread waiter = new Thread(() -> {
                try {
                    c.sync();
                } catch (Throwable t) {
                    thrown[0] = t;
                } finally {
                    ended[0] = System.nanoTime();
                }
            }, "sync-waiter");
            waiter.start();
            Thread.sleep(300); // the waiter is polling by now
            long abortAt = System.nanoTime();
            c.abort();
            waiter.join(TIMEOUT_S * 2000L);
            assertTrue(!waiter.isAlive(), "the waiting sync ended");
            double took = (ended[0] - abortAt) / 1e9;
            assertTrue(took < TIMEOUT_S / 2.0, "the sync ended " + took + " s after the abort");
            assertTrue(thrown[0] instanceof IllegalStateException || thrown[0] instanceof NcclException,
                    "the waiting sync threw " + thrown[0]);
            assertTrue(c.isAborted(), "aborted");
            assertThrows(IllegalStateException.class, () -> c.allReduce(d, d, 16, MPI.INT, MPI.SUM));
            assertThrows(IllegalStateException.class, c::sync);
        }
    }

    /**
     * Aborts racing operations queued from another thread: each operation is queued, or throws
     * IllegalStateException (aborted here), or NcclException (a peer's abort, seen while the
     * launch that NCCL reported in progress was polled; the communicator is then aborted); no
     * crash.
     */
    @RankTest(minSize = 2)
    public void anAbortRacingOperationsOnAnotherThreadNeverCrashes(Intracomm comm) throws Exception {
        try (NcclComm c = NcclComm.create(comm); DeviceBuffer d = DeviceBuffer.allocate(64, c.getDevice())) {
            d.copyFrom(new int[16]);
            Throwable[] unexpected = new Throwable[1];
            AtomicInteger queued = new AtomicInteger();
            Thread worker = new Thread(() -> {
                try {
                    while (true) {
                        c.allReduce(d, d, 16, MPI.INT, MPI.SUM);
                        queued.incrementAndGet();
                    }
                } catch (IllegalStateException | NcclException expected) {
                    // aborted here or by a peer: the end of the loop
                } catch (Throwable t) {
                    unexpected[0] = t;
                }
            }, "queuer");
            worker.start();
            // Abort while it queues: once it has queued one (a fixed sleep was too short for a
            // starting thread under load), and a little later.
            long deadline = System.nanoTime() + TIMEOUT_S * 1_000_000_000L;
            while (queued.get() == 0 && worker.isAlive() && System.nanoTime() < deadline) Thread.sleep(1);
            Thread.sleep(20);
            c.abort();
            worker.join(TIMEOUT_S * 2000L);
            assertTrue(!worker.isAlive(), "the queuing thread ended");
            assertTrue(unexpected[0] == null, "the queuing thread threw " + unexpected[0]);
            assertTrue(queued.get() > 0, "some operations were queued before the abort");
        }
    }
}
