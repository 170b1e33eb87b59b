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

    /** Waits a little before poll number {@code poll} (0, 1, ...). */
    static void pause(int poll) {
        if (poll < 100) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(Math.min(5_000_000L, 50_000L * (poll - 99)));
        }
    }
}
