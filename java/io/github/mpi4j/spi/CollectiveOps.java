package io.github.mpi4j.spi;

/** All collectives of a communicator, blocking and non-blocking: what {@link BackendComm#collectives()} returns. */
public interface CollectiveOps extends BlockingCollectives, NonBlockingCollectives {
}
