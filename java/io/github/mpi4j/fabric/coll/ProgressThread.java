package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.runtime.ThreadPolicy;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The one progress thread of the process ("mpi4j-progress", a daemon): it advances the
 * non-blocking collectives in flight, so that a rank that computes without calling MPI does not
 * stall its peers waiting for its part. It never blocks on a task: a task that another thread
 * is advancing (a caller in {@code waitFor}) is skipped, and one a caller waits for is left to
 * it. With nothing pending it parks; while tasks move data it goes round at once, and while
 * they wait for their peers it backs off to short sleeps, so it takes little CPU from ranks
 * that compute. It is a batch thread where it can be ({@link ThreadPolicy}): waking it does not
 * stop the caller.
 */
public final class ProgressThread {
    /** Something to advance. */
    public interface Task {
        /** What {@link #tryAdvance} did. */
        enum Outcome {
            /** Completed or failed, or another thread took it over: the thread drops it. */
            FINISHED,
            /** Moved on (data moved, a step ran): try again at once. */
            WORKED,
            /** Waiting for its peers (or another thread held it). */
            IDLE
        }

        /** Advances without blocking. */
        Outcome tryAdvance();
    }

    private static final ConcurrentLinkedQueue<Task> ADDED = new ConcurrentLinkedQueue<>();
    private static Thread thread;
    /** How long the thread yields its core between tries before it parks, once its tasks wait for peers. */
    static final long YIELD_NANOS = Long.getLong("mpi4j.progress.yield.us", 1000) * 1000;

    private ProgressThread() {
    }

    /** Adds a task; the thread starts with the first one. */
    public static void add(Task task) {
        ADDED.add(task);
        LockSupport.unpark(thread());
    }

    private static synchronized Thread thread() {
        if (thread == null) {
            thread = new Thread(ProgressThread::loop, "mpi4j-progress");
            thread.setDaemon(true);
            thread.start();
        }
        return thread;
    }

    /** Why the thread runs with the default scheduling policy, or null when it is a batch thread ({@link ThreadPolicy}). */
    static volatile String notBatch = "not started";

    private static void loop() {
        notBatch = ThreadPolicy.batchThisThread();
        ArrayList<Task> tasks = new ArrayList<>();
        long idleSince = 0;  // when the current stretch without work began (0: there was work)
        while (true) {
            Task t;
            while ((t = ADDED.poll()) != null) tasks.add(t);
            if (tasks.isEmpty()) {
                // An add() after the poll unparks first, and park then returns at once.
                LockSupport.park(ProgressThread.class);
                idleSince = 0;
                continue;
            }
            boolean worked = false;
            for (int i = tasks.size() - 1; i >= 0; i--) {
                Task.Outcome o;
                try {
                    o = tasks.get(i).tryAdvance();
                } catch (RuntimeException | Error e) {
                    o = Task.Outcome.FINISHED; // a task reports its own failures; never let one stop the thread
                }
                if (o == Task.Outcome.FINISHED) tasks.remove(i);
                if (o != Task.Outcome.IDLE) worked = true;
            }
            // While data flows, go on at once (a call's rendezvous pieces and reduction steps
            // need many rounds; backing off after each one made a call left to this thread
            // take longer than waiting for it); when its peers are not there yet, back off.
            if (worked) {
                idleSince = 0;
                continue;
            }
            // By time, not rounds (a round's cost varies a hundredfold with the JIT and the
            // load): yield for YIELD_NANOS, then park briefly, longer after 20 ms.
            long now = System.nanoTime();
            if (idleSince == 0) idleSince = now;
            long idle = now - idleSince;
            if (idle < YIELD_NANOS) Thread.yield();
            else LockSupport.parkNanos(idle < 20_000_000L ? 20_000 : 200_000);
        }
    }
}
