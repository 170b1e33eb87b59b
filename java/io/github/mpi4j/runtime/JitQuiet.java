package io.github.mpi4j.runtime;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Tells whether this JVM's JIT has stopped compiling: the time since a compilation last
 * finished, read from the compiler's accumulated time. The warm start waits for it before
 * {@code Init} returns, and the overlap benchmark's warm-up before it times anything: code
 * the compiler still works on is not at its steady state, and a method that reaches its C2
 * threshold late takes a core away (or, under {@code -Xbatch}, stops its caller).
 */
public final class JitQuiet {
    private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    private final boolean known = jit != null && jit.isCompilationTimeMonitoringSupported();
    private long lastTotal = known ? jit.getTotalCompilationTime() : 0;
    private long changedAt = System.nanoTime();

    /** Whether this JVM reports its compilation time (if not, {@link #quietFor} is always true). */
    public boolean known() {
        return known;
    }

    /** Whether no compilation has finished in the last {@code nanos} ns (since this object's creation at most). */
    public boolean quietFor(long nanos) {
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
