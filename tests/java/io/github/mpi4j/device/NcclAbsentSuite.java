package io.github.mpi4j.device;

import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * NCCL mode ({@code MPI4J_DEVICE_COLLECTIVES=nccl}) where CUDA opens (the fake) but no NCCL
 * does: every rank gets an exception that says the communicator is in NCCL mode and why NCCL
 * is unavailable, at the first eligible call and again at every later one, at once (no hang);
 * calls NCCL mode does not take keep working.
 */
public class NcclAbsentSuite {
    @RankTest
    public void everyRankGetsTheReason(Intracomm c) {
        int n = c.getSize();
        try (DeviceBuffer d = DeviceBuffer.allocate(64)) {
            for (int attempt = 0; attempt < 2; attempt++) {
                MPIException e = Check.throwsMpi(MPI.ERR_OTHER, () -> c.allReduce(d, 4, MPI.INT, MPI.SUM), "allReduce",
                        "NCCL mode", "MPI4J_DEVICE_COLLECTIVES", "could not be made");
                Check.isTrue(e.getMessage().contains("NCCL is unavailable") || e.getMessage().contains("could not take part"),
                        "the message says why: " + e.getMessage());
            }
            // Host memory too: the mode, not the buffer, decides.
            Check.throwsMpi(MPI.ERR_OTHER, () -> c.bcast(new int[4], 4, MPI.INT, 0), "bcast", "NCCL mode");
            // A call NCCL cannot do takes the staged path and works.
            d.copyFrom(new int[] {c.getRank() + 1});
            int[] all = new int[n];
            c.gather(d, 1, MPI.INT, all, 1, MPI.INT, 0);
            if (c.getRank() == 0) for (int q = 0; q < n; q++) Check.equal(q + 1, all[q], "gather item " + q);
            short[] s = {(short) (c.getRank() + 1)};
            c.allReduce(s, 1, MPI.SHORT, MPI.SUM);
            Check.equal((long) n * (n + 1) / 2, s[0], "allReduce of MPI.SHORT (not NCCL's)");
        }
    }
}
