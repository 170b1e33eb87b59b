package io.github.mpi4j.spi;

/** The four MPI send modes. */
public enum SendMode {
    STANDARD, SYNCHRONOUS, BUFFERED, READY
}
