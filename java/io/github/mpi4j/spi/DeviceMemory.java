package io.github.mpi4j.spi;

/**
 * Capability: buffers in device (GPU) memory (issue 9). A communicator that returns this moves
 * device memory itself (a CUDA-aware MPI, NCCL, the hierarchical communicator); one that does
 * not gets no device buffer: the device layer ({@code io.github.mpi4j.device}) stages it through
 * pinned host memory first, or refuses with a clear exception.
 */
public interface DeviceMemory {

    /** Name of the device API the buffers belong to ("cuda"). */
    String deviceApi();

    /** Whether buffers on device {@code device} may be passed to this communicator's calls. */
    boolean accepts(int device);

    /**
     * Waits until the operations this communicator queued on its device stream are done
     * (NCCL-style calls return before the data has moved).
     */
    void synchronize();
}
