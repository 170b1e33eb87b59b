package io.github.mpi4j.memory;

/** Bounds check shared by the slices of this package. */
final class Ranges {
    private Ranges() {
    }

    static void check(long offset, long bytes, long size) {
        if (offset < 0 || bytes < 0 || offset > size - bytes) {
            throw new IndexOutOfBoundsException("slice of " + bytes + " bytes from offset " + offset
                    + " does not fit in " + size + " bytes");
        }
    }
}
