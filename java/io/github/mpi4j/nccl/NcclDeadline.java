package io.github.mpi4j.nccl;

import io.github.mpi4j.spi.Timeout;
import java.util.concurrent.locks.LockSupport;

/**
 * The deadline of every NCCL wait: {@code -Dmpi4j.timeout} or {@code MPI4J_TIMEOUT} seconds
 * (default 600, as the fabric's and the MPI watchdog's), and the back-off between polls (a spin
 * first, then sleeps growing to 5 ms, so a quick operation is seen at once and a long one costs
 * no CPU).
 */
final class NcclDeadline {
    private NcclDeadline() {
    }

    /** The deadline in seconds ({@link Timeout}: a bad value is an exception naming it). */
    static double seconds() {
        return Timeout.seconds(System.getenv(), "NCCL");
    }

    /** System.nanoTime() at which a wait starting now gives up. */
    static long from(long startNanos) {
        return startNanos + (long) (seconds() * 1e9);
    }

    /** What a wait on a communicator polls (see {@link #await}). */
    interface Probe {
        /** False once the communicator was aborted or closed (by any thread): the wait ends. */
        boolean open();

        /** Whether the awaited work is complete (for sync: the communicator's stream is idle). */
        boolean done();

        /** {@code ncclCommGetAsyncError}: SUCCESS, IN_PROGRESS or the error. */
        int asyncError();
    }

    /** {@link #await}'s result when the communicator was aborted or closed during the wait. */
    static final int STOPPED = Integer.MIN_VALUE;

    /**
     * Polls until the work is done and the communicator's state is {@code ncclSuccess}: returns
     * {@link NcclNative#SUCCESS}, else the asynchronous error, {@link NcclException#DEADLINE} once
     * {@code deadline} (System.nanoTime()) passes, or {@link #STOPPED}.
     *
     * <p>"Done" is read before the state, and success needs both: an operation that fails still
     * completes its stream work (NCCL ends the kernel; the fake finishes it without effect), so
     * an idle stream alone proves nothing. Reading the state first would let a failure that lands
     * between the two reads pass as success; and IN_PROGRESS (a non-blocking communicator that
     * has not yet queued an operation) is never success.
     */
    static int await(Probe probe, long deadline) {
        for (int poll = 0; ; poll++) {
            if (!probe.open()) return STOPPED;
            boolean done = probe.done();
            int s = probe.asyncError();
            if (s != NcclNative.SUCCESS && s != NcclNative.IN_PROGRESS) return s;
            if (done && s == NcclNative.SUCCESS) return NcclNative.SUCCESS;
            if (System.nanoTime() - deadline > 0) return NcclException.DEADLINE;
            pause(poll);
        }
    }

    /** Waits a little before poll number {@code poll} (0, 1, ...). */
    static void pause(int poll) {
        if (poll < 100) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(Math.min(5_000_000L, 50_000L * (poll - 99)));
        }
    }
}
