package io.github.mpi4j.nccl;

import io.github.mpi4j.spi.ApiBridge;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * The arguments of the public NCCL classes that are {@code mpi} objects, checked and turned into
 * their {@code spi} descriptors through {@link ApiBridge}: the facades pass them on as
 * {@code Object}, so that nothing here (or in the engines) depends on package {@code mpi}. A null
 * argument is an {@link IllegalArgumentException} naming it, as for every other argument.
 */
final class ApiArgs {
    private ApiArgs() {
    }

    /** The backend communicator of {@code comm} (an {@code mpi.Intracomm}). */
    static BackendComm comm(String what, Object comm) {
        if (comm == null) throw new IllegalArgumentException(what + ": comm is null");
        return ApiBridge.get().backendOf(comm, what);
    }

    static TypeDesc type(String what, Object type) {
        if (type == null) throw new IllegalArgumentException(what + ": type is null");
        return ApiBridge.get().typeOf(type, what, "type");
    }

    static OpDesc op(String what, Object op) {
        if (op == null) throw new IllegalArgumentException(what + ": op is null");
        return ApiBridge.get().opOf(op, what);
    }

    /** The NCCL type that reduces {@code type} (an {@code mpi.Datatype}), or an exception naming it. */
    static NcclTypes.Mapped reduction(String what, Object type) {
        return NcclTypes.forReduction(what, type(what, type));
    }

    /** The NCCL type that moves {@code type} (an {@code mpi.Datatype}), or an exception naming it. */
    static NcclTypes.Mapped movement(String what, Object type) {
        return NcclTypes.forMovement(what, type(what, type));
    }

    /** NCCL's op for {@code op} (an {@code mpi.Op}), or an exception naming it. */
    static int ncclOp(String what, Object op) {
        return NcclTypes.forOp(what, op(what, op));
    }
}
