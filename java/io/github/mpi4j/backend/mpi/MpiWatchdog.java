package io.github.mpi4j.backend.mpi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The deadline of blocking MPI calls. MPI cannot cancel a blocking call, so a rank whose peer
 * never enters a collective (for example a root that failed validation in Java and threw) would
 * wait forever. Each thread marks when it enters and leaves a blocking native call (a plain and
 * a release store, no allocation); one daemon thread per process looks at the marks and, when
 * one call has lasted {@code MPI4J_TIMEOUT} seconds (default 600, as on the fabric), prints the
 * rank, the call and the time waited and ends the whole job with MPI_Abort.
 */
final class MpiWatchdog {
    private MpiWatchdog() {
    }

    /** Default deadline in seconds, the fabric's (docs/launching.md). */
    /** Exit status of a job ended by the watchdog (the status timeout(1) uses). */
    static final int ABORT_CODE = 124;

    /** One thread's current blocking call. Written by that thread only. */
    static final class Mark {
        final WeakReference<Thread> thread;
        /**
         * Odd while the thread is inside a blocking call; counts calls otherwise. Written with
         * release stores ({@link #STATE}), not volatile ones: a volatile store is a full fence on
         * x86, two per blocking call, each waiting for the message stores the call has just made
         * to reach the peer's cache; the watchdog only needs to see the value some
         * microseconds later.
         */
        private int state;
        private int depth;
        private String call;
        private MpiComm comm;
        /** This call was counted by {@link MpiAsyncProgress#enteredBlocking}. */
        private boolean progressing;
        // Read and written by the watchdog thread only.
        private int seenState;
        private long seenSince;

        Mark(Thread t) {
            thread = new WeakReference<>(t);
        }

        /** Leaves the blocking call entered with {@link MpiWatchdog#enter}. */
        void exit() {
            if (--depth == 0) {
                STATE.setRelease(this, state + 1);
                if (progressing) {
                    progressing = false;
                    MpiAsyncProgress.leftBlocking();
                }
            }
        }
    }

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Mark.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final ConcurrentLinkedQueue<Mark> MARKS = new ConcurrentLinkedQueue<>();
    private static final ThreadLocal<Mark> MARK = ThreadLocal.withInitial(() -> {
        Mark m = new Mark(Thread.currentThread());
        MARKS.add(m);
        return m;
    });

    /**
     * Marks this thread as inside blocking call {@code call} (an MPI function name) on
     * {@code comm} (null for request completions); pair with {@code exit()} in a finally block.
     */
    static Mark enter(String call, MpiComm comm) {
        Mark m = MARK.get();
        if (m.depth++ == 0) {
            m.call = call;
            m.comm = comm;
            STATE.setRelease(m, m.state + 1);
            m.progressing = MpiAsyncProgress.enteredBlocking();
        }
        return m;
    }

    private static volatile Thread watcher;

    /** Starts the process's watchdog (once, after MPI_Init). */
    static synchronized void start(double timeoutSeconds, int worldRank, long worldHandle) {
        if (watcher != null) return;
        long timeoutNanos = (long) (timeoutSeconds * 1e9);
        long periodMillis = (long) Math.max(10, Math.min(1000, timeoutSeconds * 1000 / 4));
        Thread t = new Thread(() -> watch(timeoutSeconds, timeoutNanos, periodMillis, worldRank, worldHandle),
                "mpi4j-mpi-watchdog");
        t.setDaemon(true);
        watcher = t;
        t.start();
    }

    /** Stops the watchdog (MPI_Finalize is next: no call may reach MPI from it afterwards). */
    static synchronized void stop() {
        Thread t = watcher;
        watcher = null;
        if (t != null) t.interrupt();
    }

    private static void watch(double timeoutSeconds, long timeoutNanos, long periodMillis, int rank, long world) {
        while (watcher == Thread.currentThread()) {
            try {
                Thread.sleep(periodMillis);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Iterator<Mark> it = MARKS.iterator(); it.hasNext(); ) {
                Mark m = it.next();
                int s = (int) STATE.getAcquire(m);
                if ((s & 1) == 0) {
                    Thread owner = m.thread.get();
                    if (owner == null || !owner.isAlive()) it.remove();
                    m.seenState = s;
                    continue;
                }
                if (s != m.seenState) {
                    // A new call since the last look: count from now, so the deadline is never early.
                    m.seenState = s;
                    m.seenSince = now;
                    continue;
                }
                if (now - m.seenSince >= timeoutNanos && watcher == Thread.currentThread()) {
                    expire(m, (now - m.seenSince) / 1_000_000_000L, timeoutSeconds, rank, world);
                    return;
                }
            }
        }
    }

    private static void expire(Mark m, long seconds, double timeoutSeconds, int rank, long world) {
        MpiComm comm = m.comm;
        String where = comm == null ? "" : " on " + comm.describe();
        String timeout = timeoutSeconds == Math.rint(timeoutSeconds) ? Long.toString((long) timeoutSeconds)
                : Double.toString(timeoutSeconds);
        System.out.flush();
        System.err.println("mpi4j: rank " + rank + ": " + m.call + where + " has not completed after " + seconds
                + " s (MPI4J_TIMEOUT=" + timeout + "); a peer may have failed before entering it, or be stuck or "
                + "busy elsewhere; aborting the job (raise MPI4J_TIMEOUT if ranks legitimately wait this long)");
        System.err.flush();
        // MPI_Abort from this thread normally ends every rank; should it block on a lock held by
        // the stuck call, end this process anyway, which makes mpirun end the job.
        Thread halt = new Thread(() -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                // halt now
            }
            Runtime.getRuntime().halt(ABORT_CODE);
        }, "mpi4j-mpi-watchdog-halt");
        halt.setDaemon(true);
        halt.start();
        try {
            MpiNative.abort0(world, ABORT_CODE);
        } catch (RuntimeException e) {
            System.err.println("mpi4j: rank " + rank + ": MPI_Abort failed (" + e.getMessage() + "); exiting");
        }
        Runtime.getRuntime().halt(ABORT_CODE);
    }
}
