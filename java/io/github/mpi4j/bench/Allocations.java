package io.github.mpi4j.bench;

import java.lang.management.ManagementFactory;

/**
 * Heap bytes allocated by the calling thread (HotSpot's per-thread allocation counter), so a
 * benchmark can show that a hot path allocates nothing in steady state.
 */
final class Allocations {
    private static final com.sun.management.ThreadMXBean BEAN = bean();

    private Allocations() {
    }

    private static com.sun.management.ThreadMXBean bean() {
        java.lang.management.ThreadMXBean b = ManagementFactory.getThreadMXBean();
        if (!(b instanceof com.sun.management.ThreadMXBean)) return null;
        com.sun.management.ThreadMXBean s = (com.sun.management.ThreadMXBean) b;
        if (!s.isThreadAllocatedMemorySupported()) return null;
        s.setThreadAllocatedMemoryEnabled(true);
        return s;
    }

    /** Whether this JVM counts allocations per thread. */
    static boolean counted() {
        return BEAN != null;
    }

    /** Bytes allocated so far by the calling thread, or 0 where not counted. */
    static long ofThisThread() {
        return BEAN == null ? 0 : BEAN.getCurrentThreadAllocatedBytes();
    }
}
