package io.github.mpi4j.spi;

import java.util.concurrent.locks.LockSupport;

/**
 * Polling pause: spins briefly (latency), then yields, then parks with growing sleeps so a
 * long wait does not burn a core. One instance per wait.
 */
public final class Backoff {
    private static final int SPINS = 2_000;
    private static final int YIELDS = 200;
    private static final long MAX_PARK_NANOS = 1_000_000;
    private int calls;
    private long parkNanos = 1_000;

    public void pause() {
        int c = calls++;
        if (c < SPINS) {
            Thread.onSpinWait();
        } else if (c < SPINS + YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNanos);
            parkNanos = Math.min(MAX_PARK_NANOS, parkNanos * 2);
        }
    }
}
