package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.StatusData;

/** A request that unpacks when it completes (and packs again at each start when persistent). */
public final class Unpacking implements BackendRequest {
    private final BackendRequest inner;
    private final Runnable onStart;
    private final java.util.function.LongConsumer onDone;
    private boolean done;

    Unpacking(BackendRequest inner, Runnable onStart, java.util.function.LongConsumer onDone) {
        this.inner = inner;
        this.onStart = onStart;
        this.onDone = onDone;
    }

    private void finish(StatusData s) {
        if (!done) {
            done = true;
            if (onDone != null && !s.cancelled) onDone.accept(s.bytes);
        }
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

    @Override
    public boolean isPersistent() {
        return inner.isPersistent();
    }

    @Override
    public void start() {
        if (onStart != null) onStart.run();
        done = false;
        inner.start();
    }

    /**
     * {@code r}, giving {@code onDone} the bytes it moved once it completes (not when cancelled);
     * what {@code onDone} refers to stays reachable as long as the request.
     */
    public static BackendRequest whenDone(BackendRequest r, java.util.function.LongConsumer onDone) {
        return new Unpacking(r, null, onDone);
    }

    /** {@code r}, running {@code unpack} once when it completes; {@code r} itself when there is nothing to run. */
    static BackendRequest after(BackendRequest r, Runnable unpack) {
        return unpack == null || r == null ? r : new Unpacking(r, null, bytes -> unpack.run());
    }
}
