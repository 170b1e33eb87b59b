package io.github.mpi4j.fabric;

import java.util.concurrent.locks.LockSupport;

/**
 * How a rank waits for the fabric: spin, then yield, then park, by time.
 *
 * <ul>
 *   <li>The first {@link #SPIN_ROUNDS} idle rounds only spin, without reading the clock: a
 *       small message's answer comes within them (a round is tens of nanoseconds once compiled).</li>
 *   <li>Then it spins on until {@code MPI4J_SPIN_US} (50 µs) have passed since the idle run began,
 *       yields the core until {@code MPI4J_YIELD_US} (2 ms), and then parks 20 µs at a time, 200 µs
 *       after 10 ms, so a long wait costs almost no CPU.</li>
 *   <li>When the node has more ranks than cores, a waiting rank yields from the start: the rank
 *       it waits for may need its core.</li>
 * </ul>
 *
 * <p>Going by time matters in a fresh JVM: before the JIT has compiled the wait loop a round
 * costs microseconds, and a policy counted in rounds spun for milliseconds while the compiler
 * threads (which make the loop fast) waited for a core. Spinning 50 µs then yielding hands the
 * core to them within a few message times.
 */
final class WaitPolicy {
    private WaitPolicy() {
    }

    static final int SPIN_ROUNDS = 64;
    static final long SPIN_NANOS = micros("MPI4J_SPIN_US", 50) * 1000;
    static final long YIELD_NANOS = Math.max(SPIN_NANOS, micros("MPI4J_YIELD_US", 2000) * 1000);

    private static long micros(String name, long dflt) {
        String v = System.getenv(name);
        if (v == null || v.isBlank()) return dflt;
        try {
            long n = Long.parseLong(v.trim());
            if (n >= 0) return n;
        } catch (NumberFormatException ignored) {
            // fall through to the default, as for any unusable value
        }
        System.err.println("mpi4j: ignoring " + name + "=" + v + " (not a number of microseconds >= 0)");
        return dflt;
    }

    /**
     * One idle round; {@code idle} counts the rounds of this idle run, {@code since} is what the
     * previous call returned (0 at the start of a run). Returns when the run began, or 0 while
     * it is still in its first rounds.
     */
    static long pause(int idle, long since, boolean oversubscribed) {
        if (idle < SPIN_ROUNDS && !oversubscribed) {
            Thread.onSpinWait();
            return since;
        }
        long now = System.nanoTime();
        if (since == 0) since = now;
        long waited = now - since;
        if (!oversubscribed && waited < SPIN_NANOS) {
            Thread.onSpinWait();
        } else if (waited < YIELD_NANOS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(waited < 10_000_000L ? 20_000 : 200_000);
        }
        return since;
    }
}
