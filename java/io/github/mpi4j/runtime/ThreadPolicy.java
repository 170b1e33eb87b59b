package io.github.mpi4j.runtime;

import io.github.mpi4j.buffer.HostViews;

/**
 * The scheduling policy of mpi4j's own helper threads. The progress thread asks to be a batch
 * thread (Linux {@code SCHED_BATCH}): as fair as any other, but its wake-ups do not preempt
 * the thread on the core. A non-blocking collective wakes it inside the call; on a node where
 * every core was busy, the kernel stopped the caller there and ran the progress thread on the
 * caller's core for its first step (a 16 MiB copy: 1-2 ms), so the call returned that much
 * later and the program lost the time it meant to compute in ({@code docs/performance.md},
 * "Thirty-fifth session"). As a batch thread it runs at once on an idle core, else when the
 * running thread's slice ends. The MPI backend's asynchronous progress helper asks for it too.
 *
 * <p>Needs {@code libmpi4j_dl}; without it, or with {@code -Dmpi4j.progress.batch=false}, the
 * thread keeps the default policy. Nothing else depends on it.
 */
public final class ThreadPolicy {
    private ThreadPolicy() {
    }

    /** Whether helper threads ask for the batch policy ({@code -Dmpi4j.progress.batch}, default true). */
    static final boolean BATCH = !"false".equals(System.getProperty("mpi4j.progress.batch"));

    /**
     * Makes the calling thread a batch thread where it can; returns null when it did, else why
     * not (the library is missing, the property turned it off, or the kernel's errno).
     */
    public static String batchThisThread() {
        return batchThisThread(BATCH);
    }

    static String batchThisThread(boolean enabled) {
        if (!enabled) return "-Dmpi4j.progress.batch=false";
        if (!HostViews.available()) return HostViews.unavailableReason();
        int errno = batch0();
        return errno == 0 ? null : "sched_setscheduler(SCHED_BATCH) failed with errno " + errno;
    }

    private static native int batch0();

    /** What {@link #moveTo0} returns when the thread may run on one CPU only (nothing to move). */
    static final int MOVE_NOT_NEEDED = -100_000;

    /**
     * Moves the calling thread to the {@code index}-th of the CPUs it may run on (counted modulo
     * their number) and leaves it free to run on all of them again: a placement hint, not a
     * binding. The ranks of a node call it at the end of Init with their rank on the node, so
     * their main threads start the program on separate cores. Without it, two ranks that had
     * been waiting in Init's last barrier sometimes woke on the same core of a 2-core node and
     * shared it for about 8.5 ms while the other core idled, until the kernel's load balancer
     * moved one: the first 5,000 round trips of a ping-pong then averaged 1.0-1.2 µs a message
     * instead of 0.17 ({@code docs/performance.md}, "Thirty-eighth session"). Returns null when
     * the thread moved or had only one CPU to run on, else why not (no library, or the
     * kernel's errno).
     */
    public static String moveThisThread(int index) {
        if (!HostViews.available()) return HostViews.unavailableReason();
        int got = moveTo0(index);
        if (got >= 0 || got == MOVE_NOT_NEEDED) return null;
        return "sched_setaffinity failed with errno " + -got;
    }

    private static native int moveTo0(int index);
}
