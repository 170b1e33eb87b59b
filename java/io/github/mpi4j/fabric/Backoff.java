package io.github.mpi4j.fabric;

import java.util.concurrent.locks.LockSupport;

/**
 * How a fabric thread with nothing to do waits for work (issue 11): by the time since it last
 * had work, it spins ({@link Thread#onSpinWait}) for {@code spinNanos}, then yields its core
 * until {@code yieldNanos}, then parks, briefly at first (20 µs, about 60–80 µs with Linux's
 * timer slack) and longer the longer it stays idle (200 µs after 20 ms, 1 ms after 1 s), so a
 * job with no traffic stays quiet. One instance per waiting thread; not thread-safe.
 */
final class Backoff {
    private final long spinNanos;
    private final long yieldNanos;
    private boolean idle;
    private long idleSince;

    /** {@code oversubscribed}: more threads than cores want the CPU, so no spinning phase at all. */
    Backoff(long spinNanos, long yieldNanos, boolean oversubscribed) {
        this.spinNanos = oversubscribed ? 0 : spinNanos;
        this.yieldNanos = Math.max(this.spinNanos, yieldNanos);
    }

    /** There was work: the next idle period starts from scratch. */
    void busy() {
        idle = false;
    }

    /** Waits a little, by how long this thread has been idle; returns the idle time so far (ns). */
    long pause() {
        long now = System.nanoTime();
        if (!idle) {
            idle = true;
            idleSince = now;
        }
        long t = now - idleSince;
        if (t < spinNanos) {
            Thread.onSpinWait();
        } else if (t < yieldNanos) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNanos(t));
        }
        return t;
    }

    /** How long to park after {@code idleNanos} of idleness. */
    static long parkNanos(long idleNanos) {
        if (idleNanos < 20_000_000L) return 20_000;
        if (idleNanos < 1_000_000_000L) return 200_000;
        return 1_000_000;
    }
}
