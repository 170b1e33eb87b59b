package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BackendRequest;

/**
 * Non-blocking requests that run one action when they complete (in the wait or test that sees
 * them done): unpacking packed data into the user's buffer, for the calls that pack at the edges
 * outside {@link PackingComm} (allToAllw, neighbour and intercommunicator collectives). A
 * cancelled request does not run it.
 */
public final class AfterCompletion {
    private AfterCompletion() {
    }

    /** {@code r}, running {@code action} once when it completes; {@code r} itself when there is nothing to run. */
    public static BackendRequest of(BackendRequest r, Runnable action) {
        return Unpacking.after(r, action);
    }
}
