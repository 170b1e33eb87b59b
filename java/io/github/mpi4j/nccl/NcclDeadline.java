package io.github.mpi4j.nccl;

import io.github.mpi4j.spi.Timeout;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * The deadline of every NCCL wait: {@code -Dmpi4j.timeout} or {@code MPI4J_TIMEOUT} seconds
 * (default 600, as the fabric's and the MPI watchdog's), and the back-off between polls (a spin
 * first, then yields, then sleeps growing to 1 ms, so a quick operation is seen at once, a long
 * one costs no CPU, and no wait overshoots by more than about 3%).
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

    /**
     * A wait on the communicator's state alone (its creation, a split, a launch): always open,
     * nothing else to be done, the state from {@code asyncError}.
     */
    static Probe stateOnly(IntSupplier asyncError) {
        return new Probe() {
            @Override
            public boolean open() {
                return true;
            }

            @Override
            public boolean done() {
                return true;
            }

            @Override
            public int asyncError() {
                return asyncError.getAsInt();
            }
        };
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
        long started = System.nanoTime();
        while (true) {
            if (!probe.open()) return STOPPED;
            boolean done = probe.done();
            int s = probe.asyncError();
            if (s != NcclNative.SUCCESS && s != NcclNative.IN_PROGRESS) return s;
            if (done && s == NcclNative.SUCCESS) return NcclNative.SUCCESS;
            if (System.nanoTime() - deadline > 0) return NcclException.DEADLINE;
            pause(started);
        }
    }

    /** How long a wait spins before it yields, and yields before it sleeps (nanoseconds). */
    static final long SPIN_NANOS = 100_000, YIELD_NANOS = 1_000_000;

    /**
     * Waits a little before the next poll of a wait that began at {@code startedNanos}
     * (System.nanoTime()): spins for the first 100 µs, yields the core up to 1 ms, then sleeps a
     * 32nd of the time waited so far (20 µs to 1 ms, so a timed sync overshoots by about 3% at
     * most). By time, not by the number of polls: a sleep after a hundred quick polls made a group
     * of a send and a receive on an H200 cost 138 µs where C took 5.8 (NcclDeadlineTest times the
     * pattern: 130 µs before, under 80 now), and NcclBench's small sizes measured the sleeps.
     */
    private static void pause(long startedNanos) {
        long waited = System.nanoTime() - startedNanos;
        if (waited < SPIN_NANOS) {
            Thread.onSpinWait();
        } else if (waited < YIELD_NANOS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(1_000_000L, Math.max(20_000L, waited / 32)));
        }
    }
}
