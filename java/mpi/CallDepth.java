package mpi;

/**
 * A count of the calls open on each thread, so that a call opened inside another one (a
 * sendRecv's receive, an rAccumulate's accumulate) leaves its error to the outermost call.
 *
 * <p>Every call of the API looks its thread's counter up. Most programs call MPI from one thread,
 * which finds its counter in {@link #owner} with one compare instead of a thread-local lookup (a
 * few ns of a small message's budget: docs/performance.md, "Forty-third session"). The first
 * thread to call holds that slot until it ends; other threads look theirs up as before and
 * write nothing shared, so threads calling at once (ranks as threads) do not pass a line
 * between their cores. Only a thread stores its own pair there, and the pair's fields are
 * final, so a thread that finds itself there holds its own counter.
 */
final class CallDepth {
    private final ThreadLocal<int[]> perThread = ThreadLocal.withInitial(() -> new int[1]);

    /** A thread and its counter. */
    private static final class Pair {
        final Thread thread;
        final int[] depth;

        Pair(Thread thread, int[] depth) {
            this.thread = thread;
            this.depth = depth;
        }
    }

    private Pair owner = new Pair(null, null);

    /** This thread's counter: element 0 is the number of its calls open now. */
    int[] counter() {
        Thread me = Thread.currentThread();
        Pair p = owner;
        if (p.thread == me) return p.depth;
        int[] depth = perThread.get();
        // A free slot, or its thread ended (getState reads a field; isAlive is a native call in JDK 17).
        if (p.thread == null || p.thread.getState() == Thread.State.TERMINATED) owner = new Pair(me, depth);
        return depth;
    }

    /** Whether this thread holds the slot (for tests). */
    boolean heldByThisThread() {
        return owner.thread == Thread.currentThread();
    }
}
