package io.github.mpi4j.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Tells a benchmark's warm-up when this JVM's JIT has stopped compiling: the time since a
 * compilation last finished, read from the compiler's accumulated time. A steady state in
 * which the compiler still works is not one: a method that reaches its C2 threshold late
 * takes a core away (or, under {@code -Xbatch}, stops its caller) inside the timed loop.
 * Where the JVM cannot tell, it counts as quiet (the warm-up then ends by its other rules).
 */
final class JitQuiet {
    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private final boolean known = jit != null && jit.isCompilationTimeMonitoringSupported();
    private long lastTotal = known ? jit.getTotalCompilationTime() : 0;
    private long changedAt = System.nanoTime();

    /** Whether no compilation has finished in the last {@code nanos} ns (since this object's creation at most). */
    boolean quietFor(long nanos) {
        if (!known) return true;
        long now = System.nanoTime();
        long total = jit.getTotalCompilationTime();
        if (total != lastTotal) {
            lastTotal = total;
            changedAt = now;
        }
        return now - changedAt >= nanos;
    }
}
