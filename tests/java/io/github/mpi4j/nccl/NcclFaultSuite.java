package io.github.mpi4j.nccl;

import static io.github.mpi4j.nccl.Expect.assertThrows;
import static io.github.mpi4j.nccl.Expect.assertTrue;

import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.testing.RankTest;
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
}
