package io.github.mpi4j.backend.mpi;

/**
 * The JNI entry points for derived datatypes ({@code native/mpi4j_mpi_types.c}): an MPI
 * datatype built from a compiled type map ({@link io.github.mpi4j.spi.TypeMap}), and its free.
 * Arguments are checked in Java before they get here.
 */
final class MpiTypeNative {
    private MpiTypeNative() {
    }

    /**
     * MPI_Type_create_struct of blocks {@code counts[i]} items of {@code leaves[i]} (predefined
     * handles) at byte {@code displs[i]}, resized to {@code lb}/{@code extent} and committed.
     */
    static native long create0(int[] counts, long[] displs, long[] leaves, long lb, long extent);

    /** MPI_Type_free. */
    static native void free0(long handle);

    /** MPI's own view of a type: {lb, extent, true lb, true extent, size} in bytes (for tests and checks). */
    static native long[] bounds0(long handle);
}
