package io.github.mpi4j.fabric;

import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.StatusData;

/**
 * A non-blocking send that was complete at the call (a small message written whole into the
 * transport): one small object that reports the status a completed send has, in place of an
 * operation and a request around it (the message-rate path allocates as little as it can).
 */
final class SentRequest implements BackendRequest {
    private final int source;
    private final int tag;
    private final long bytes;

    /** @param source the sender's rank in the communicator */
    SentRequest(int source, int tag, long bytes) {
        this.source = source;
        this.tag = tag;
        this.bytes = bytes;
    }

    @Override
    public void waitFor(StatusData status) {
        if (status != null) status.set(source, tag, 0, false, bytes);
    }

    @Override
    public boolean test(StatusData status) {
        waitFor(status);
        return true;
    }

    @Override
    public void cancel() {
        // Sent already: nothing to cancel (MPI lets a cancel of a completed send do nothing).
    }

    @Override
    public void free() {
        // Nothing held.
    }
}
