package io.github.mpi4j.spi;

/** What a backend needs to know of a reduction operation. Owned by {@code mpi.Op}. */
public final class OpDesc {
    public final String name;
    public final OpCode code;
    /** For USER ops, the Java function; null for predefined ones. */
    public final UserReduction function;
    public final boolean commutative;
    /**
     * Which backends hold native resources for a user op, each with its own handle (on the MPI
     * backend: the MPI_Op and its callback slot), and whether it was freed; {@code Op.free()}
     * hands each handle to its backend's {@link Backend#freeOp}.
     */
    public final Lifecycle lifecycle = new Lifecycle();

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
