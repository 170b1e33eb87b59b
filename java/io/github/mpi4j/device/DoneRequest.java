package io.github.mpi4j.device;

import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.StatusData;

/**
 * The request of a non-blocking collective that completed inside the call: NCCL-mode
 * collectives ({@link NcclPath}) wait for NCCL's stream before they return, so there is nothing
 * left to wait for. Waits and tests say complete at once; stateless, so one instance serves all.
 */
final class DoneRequest implements BackendRequest {
    static final DoneRequest INSTANCE = new DoneRequest();

    private DoneRequest() {
    }

    @Override
    public void waitFor(StatusData status) {
    }

    @Override
    public boolean test(StatusData status) {
        return true;
    }

    @Override
    public void cancel() {
        // Complete already: a cancel has no effect, as on any completed operation.
    }

    @Override
    public void free() {
    }
}
