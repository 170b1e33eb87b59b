package io.github.mpi4j.fabric;

import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.StatusData;

/** A non-blocking point-to-point operation of the fabric. */
class FabricRequest implements BackendRequest {
    final FabricComm comm;
    Engine.Op op;
    /** Other operations that must also finish (the send half of a sendRecv, a bsend copy...). */
    private final String what;
    /** An {@code irecv}'s request, which {@link #released} gives back to its communicator for the next one. */
    private final boolean reusable;

    FabricRequest(FabricComm comm, Engine.Op op, String what) {
        this(comm, op, what, false);
    }

    FabricRequest(FabricComm comm, Engine.Op op, String what, boolean reusable) {
        this.comm = comm;
        this.op = op;
        this.what = what;
        this.reusable = reusable;
    }

    @Override
    public void waitFor(StatusData status) {
        if (op == null) return;
        comm.engine.waitFor(op, what);
        comm.fillStatus(op, status);
    }

    @Override
    public boolean test(StatusData status) {
        if (op == null) return true;
        if (!op.done) {
            comm.engine.poke();
            comm.engine.checkFailure();
            if (!op.done) return false;
        }
        if (op.error != null) throw op.error;
        comm.fillStatus(op, status);
        return true;
    }

    @Override
    public void cancel() {
        if (op instanceof Engine.RecvOp) comm.engine.cancel((Engine.RecvOp) op);
    }

    @Override
    public void free() {
        // The operation goes on to completion; nothing to release.
    }

    /**
     * A receive that completed normally (not cancelled, no error: nothing in the engine refers
     * to its operation any more) goes back to its communicator with its operation, to be posted
     * again by the next {@code irecv}.
     */
    @Override
    public void released() {
        if (reusable && op instanceof Engine.RecvOp && Engine.reusable((Engine.RecvOp) op)) comm.giveBackRecv(this);
    }
}
