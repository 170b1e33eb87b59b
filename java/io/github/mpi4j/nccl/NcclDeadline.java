package io.github.mpi4j.nccl;

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

    static final double DEFAULT_SECONDS = 600;

    /** The deadline in seconds; a bad value is an exception naming it. */
    static double seconds() {
        String v = System.getProperty("mpi4j.timeout", System.getenv("MPI4J_TIMEOUT"));
        if (v == null || v.isBlank()) return DEFAULT_SECONDS;
        double t;
        try {
            t = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("MPI4J_TIMEOUT='" + v + "' is not a number of seconds");
        }
        if (!(t > 0)) throw new IllegalArgumentException("MPI4J_TIMEOUT must be > 0, got " + v);
        return t;
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
