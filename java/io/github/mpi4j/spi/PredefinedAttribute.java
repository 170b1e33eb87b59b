package io.github.mpi4j.spi;

/**
 * Keys of the predefined attributes of MPI_COMM_WORLD, as {@code mpi.MPI} numbers them
 * ({@code MPI.TAG_UB} ... {@code MPI.UNIVERSE_SIZE}); backends answer them through
 * {@link Backend#predefinedAttribute(int)}.
 */
public final class PredefinedAttribute {
    private PredefinedAttribute() {
    }

    public static final int TAG_UB = 0, HOST = 1, IO = 2, WTIME_IS_GLOBAL = 3, APPNUM = 4, LASTUSEDCODE = 5,
            UNIVERSE_SIZE = 6;

    /** Number of keys (the values above are 0 .. COUNT-1). */
    public static final int COUNT = 7;
}
