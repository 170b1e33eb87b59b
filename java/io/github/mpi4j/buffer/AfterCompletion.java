package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.StatusData;

/**
 * A non-blocking request that runs one action when it completes (in the wait or test that sees
 * it done): unpacking packed data into the user's buffer, for the calls that pack at the edges
 * outside {@link PackingComm} (allToAllw, neighbour and intercommunicator collectives). A
 * cancelled request does not run it.
 */
public final class AfterCompletion implements BackendRequest {
    private final BackendRequest inner;
    private final Runnable action;
    private boolean done;

    private AfterCompletion(BackendRequest inner, Runnable action) {
        this.inner = inner;
        this.action = action;
    }

    /** {@code r}, running {@code action} once when it completes; {@code r} itself when there is nothing to run. */
    public static BackendRequest of(BackendRequest r, Runnable action) {
        return action == null || r == null ? r : new AfterCompletion(r, action);
    }

    private void finish(StatusData s) {
        if (done) return;
        done = true;
        if (!s.cancelled) action.run();
    }

    @Override
    public void waitFor(StatusData status) {
        StatusData s = status != null ? status : new StatusData();
        inner.waitFor(s);
        finish(s);
    }

    @Override
    public boolean test(StatusData status) {
        StatusData s = status != null ? status : new StatusData();
        if (!inner.test(s)) return false;
        finish(s);
        return true;
    }

    @Override
    public void cancel() {
        inner.cancel();
    }

    @Override
    public void free() {
        inner.free();
    }
}
