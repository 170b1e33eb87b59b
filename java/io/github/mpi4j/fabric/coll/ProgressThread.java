package io.github.mpi4j.fabric.coll;

import java.util.ArrayList;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The one progress thread of the process ("mpi4j-progress", a daemon): it advances the
 * non-blocking collectives in flight, so that a rank that computes without calling MPI does not
 * stall its peers waiting for its part. It never blocks on a task: a task that another thread
 * is advancing (a caller in {@code waitFor}) is skipped. With nothing pending it parks; while
 * tasks are pending but idle it backs off to short sleeps, so it takes little CPU from ranks
 * that compute.
 */
public final class ProgressThread {
    /** Something to advance. */
    public interface Task {
        /** Advances without blocking; true once finished (completed or failed), when it is dropped. */
        boolean tryAdvance();
    }

    private static final ConcurrentLinkedQueue<Task> ADDED = new ConcurrentLinkedQueue<>();
    private static Thread thread;

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

    private static void loop() {
        ArrayList<Task> tasks = new ArrayList<>();
        int idle = 0;
        while (true) {
            Task t;
            while ((t = ADDED.poll()) != null) tasks.add(t);
            if (tasks.isEmpty()) {
                // An add() after the poll unparks first, and park then returns at once.
                LockSupport.park(ProgressThread.class);
                idle = 0;
                continue;
            }
            int before = tasks.size();
            for (int i = tasks.size() - 1; i >= 0; i--) {
                boolean finished;
                try {
                    finished = tasks.get(i).tryAdvance();
                } catch (RuntimeException | Error e) {
                    finished = true; // a task reports its own failures; never let one stop the thread
                }
                if (finished) tasks.remove(i);
            }
            idle = tasks.size() < before ? 0 : idle + 1;
            if (idle < 64) Thread.yield();
            else LockSupport.parkNanos(idle < 1024 ? 20_000 : 200_000);
        }
    }
}
