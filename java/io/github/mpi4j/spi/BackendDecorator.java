package io.github.mpi4j.spi;

/**
 * A layer around the backend {@code MPI.Init} chose, e.g. a GPU-aware communicator that moves
 * device memory with NCCL and hands the rest to the backend below. Decorators are found through
 * {@link java.util.ServiceLoader} ({@code META-INF/services/io.github.mpi4j.spi.BackendDecorator})
 * and applied in ascending {@link #order()} by {@code io.github.mpi4j.runtime.BackendSelector}.
 * Today one: {@code io.github.mpi4j.device.DeviceBuffers} (device buffers in {@code mpi} calls).
 */
public interface BackendDecorator {

    /** Lower wraps first (closer to the chosen backend). */
    int order();

    /** {@code backend} itself when this decorator does not apply here, or a backend around it. */
    Backend decorate(Backend backend);
}
