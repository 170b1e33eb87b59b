package mpi;

/**
 * A count of the calls open on each thread, so that a call opened inside another one (a
 * sendRecv's receive, an rAccumulate's accumulate) leaves its error to the outermost call.
 *
 * <p>Every call of the API looks its thread's counter up. Most programs call MPI from one thread,
 * which finds its counter in {@link #last} with one compare instead of a thread-local lookup (a
 * few ns of a small message's budget, measured in docs/performance.md, "Forty-third session").
 * Only a thread stores its own pair there, and the pair's fields are final, so a thread that
 * finds itself there holds its own counter; another thread reads a miss and looks its own up.
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

    private Pair last = new Pair(null, null);

    /** This thread's counter: element 0 is the number of its calls open now. */
    int[] counter() {
        Thread me = Thread.currentThread();
        Pair p = last;
        if (p.thread == me) return p.depth;
        int[] depth = perThread.get();
        last = new Pair(me, depth);
        return depth;
    }
}
