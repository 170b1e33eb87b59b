package io.github.mpi4j.fabric.bootstrap;

/**
 * The rendezvous store of a fabric job: ranks publish how to reach them and read how to reach
 * the others. Implementations: an authenticated TCP client of the store hosted by the launcher
 * (or rank 0), and an in-memory one for ranks running as threads of one JVM.
 */
public interface KeyValueStore extends AutoCloseable {

    /** Publishes {@code value} under {@code key} (keys are written once). */
    void put(String key, byte[] value);

    /**
     * The value of {@code key}, waiting until some rank has put it.
     *
     * @throws mpi.MPIException if it does not appear within {@code timeoutNanos}, or the store is gone
     */
    byte[] get(String key, long timeoutNanos);

    @Override
    void close();
}
