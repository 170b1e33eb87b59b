package io.github.mpi4j.spi;

/** What a backend needs to know of a reduction operation. Owned by {@code mpi.Op}. */
public final class OpDesc {
    public final String name;
    public final OpCode code;
    /** For USER ops, the Java function; null for predefined ones. */
    public final UserReduction function;
    public final boolean commutative;
    /** A backend's own handle for a user op (e.g. an MPI_Op), created lazily. */
    public volatile long backendHandle;

    public OpDesc(String name, OpCode code, UserReduction function, boolean commutative) {
        this.name = name;
        this.code = code;
        this.function = function;
        this.commutative = commutative;
    }

    @Override
    public String toString() {
        return name;
    }
}
