package io.github.mpi4j.device;

import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.StatusData;

/**
 * The request of a non-blocking call whose device buffers were staged: when the backend's
 * request completes (wait, or a test that returns true), the written buffers are copied back to
 * device memory before completion is reported, so the data is there when the program sees the
 * request done. A persistent request keeps its pinned memory until it is freed and copies in
 * again at each start.
 */
final class StagedRequest implements BackendRequest {
    private final BackendRequest inner;
    private final Staging staging;
    /** A receive copies back only what arrived. */
    private final boolean receive;
    private boolean active;

    private StagedRequest(BackendRequest inner, Staging staging, boolean receive) {
        this.inner = inner;
        this.staging = staging;
        this.receive = receive;
        this.active = !inner.isPersistent();
    }

    /** {@code inner} itself when nothing was staged. */
    static BackendRequest of(BackendRequest inner, Staging staging, boolean receive) {
        return staging.isEmpty() || inner == null ? inner : new StagedRequest(inner, staging, receive);
    }

    @Override
    public void waitFor(StatusData status) {
        StatusData s = status != null || !receive ? status : new StatusData();
        inner.waitFor(s);
        completed(s);
    }

    @Override
    public boolean test(StatusData status) {
        StatusData s = status != null || !receive ? status : new StatusData();
        if (!inner.test(s)) return false;
        completed(s);
        return true;
    }

    private synchronized void completed(StatusData s) {
        if (!active) return; // an inactive request completes at once, with nothing to copy
        active = false;
        long received = receive && s != null && !s.cancelled ? s.bytes : receive ? 0 : -1;
        if (inner.isPersistent()) {
            staging.copyBack(received);
        } else {
            staging.finish(received);
        }
    }

    @Override
    public void cancel() {
        inner.cancel();
    }

    @Override
    public synchronized void free() {
        inner.free();
        // Memory of an operation still running stays with it (it is never reused); else it goes back.
        if (!active) staging.release();
    }

    @Override
    public boolean isPersistent() {
        return inner.isPersistent();
    }

    @Override
    public synchronized void start() {
        staging.refresh();
        inner.start();
        active = true;
    }
}
