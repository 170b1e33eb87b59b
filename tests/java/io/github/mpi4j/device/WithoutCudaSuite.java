package io.github.mpi4j.device;

import io.github.mpi4j.memory.DeviceMemory;
import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Device memory in {@code mpi} calls where no CUDA runtime can be opened: every rank gets an
 * MPIException that says the memory must be staged and why CUDA is unavailable (nothing hangs,
 * nothing crashes), and host buffers keep working. The memory is a {@link DeviceMemory} range
 * (a framework's pointer): no DeviceBuffer can exist without CUDA.
 */
public class WithoutCudaSuite {
    @RankTest
    public void deviceMemoryIsRefusedWithTheReason(Intracomm c) {
        DeviceMemory m = DeviceMemory.of(0x10000, 4096, 0);
        int[] host = new int[8];
        MPIException e = Check.throwsMpi(MPI.ERR_BUFFER, () -> c.allReduce(m, host, 8, MPI.INT, MPI.SUM),
                "allReduce", "device memory", "is not accepted by the", "pinned host memory", "CUDA is unavailable");
        Check.isTrue(e.getMessage().contains("MPI4J_CUDA_LIBRARY") || e.getMessage().contains("no-such-dir"),
                "the message carries the loader's reason: " + e.getMessage());
        Check.throwsMpi(MPI.ERR_BUFFER, () -> c.bcast(m, 8, MPI.INT, 0), "bcast", "CUDA is unavailable");
        // Nothing to move: no CUDA needed.
        c.bcast(m, 0, MPI.INT, 0);
        int[] x = {c.getRank() + 1};
        c.allReduce(x, 1, MPI.INT, MPI.SUM);
        Check.equal((long) c.getSize() * (c.getSize() + 1) / 2, x[0], "host allReduce after the refusals");
    }
}
