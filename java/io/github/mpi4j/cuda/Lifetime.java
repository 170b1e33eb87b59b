package io.github.mpi4j.cuda;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The life of a native resource (device memory, a stream, an event) that several Java threads
 * may use while one closes it: calls {@link #enter} before touching the handle and
 * {@link #exit} after; {@link #close} marks it closed, and the release runs exactly once, when
 * the last call in flight has left. So a close racing a copy never frees memory under it, and
 * every call after the close fails with an exception instead of reaching CUDA with a stale
 * handle.
 */
final class Lifetime {
    private static final long CLOSED = 1L << 62;

    private final AtomicLong state = new AtomicLong();
    private final Runnable release;

    Lifetime(Runnable release) {
        this.release = release;
    }

    /** Whether the caller may use the resource; if true, it must call {@link #exit} after. */
    boolean enter() {
        while (true) {
            long s = state.get();
            if ((s & CLOSED) != 0) return false;
            if (state.compareAndSet(s, s + 1)) return true;
        }
    }

    void exit() {
        if (state.decrementAndGet() == CLOSED) {
            try {
                release.run();
            } catch (RuntimeException e) {
                // The closer has returned already; nobody is left to tell.
            }
        }
    }

    boolean isClosed() {
        return (state.get() & CLOSED) != 0;
    }

    /** Closes; releases now if nothing is in flight. Returns false if it was closed already. */
    boolean close() {
        while (true) {
            long s = state.get();
            if ((s & CLOSED) != 0) return false;
            if (state.compareAndSet(s, s | CLOSED)) {
                if (s == 0) release.run();
                return true;
            }
        }
    }
}
