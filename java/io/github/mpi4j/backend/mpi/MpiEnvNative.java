package io.github.mpi4j.backend.mpi;

/**
 * JNI entry points of the MPI bridge for the environment (native/mpi4j_mpi_env.c): predefined
 * attributes. Loaded with the rest of the bridge by {@link MpiNative}'s library.
 */
final class MpiEnvNative {
    private MpiEnvNative() {
    }

    /** What {@link #worldAttr0} returns when MPI has no value for the key (flag false). */
    static final long ABSENT = Long.MIN_VALUE;

    /**
     * The value of predefined attribute {@code key} ({@code spi.PredefinedAttribute}) on
     * MPI_COMM_WORLD, special ranks translated to mpi4j's values; {@link #ABSENT} if unset.
     */
    static native long worldAttr0(int key);
}
