package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.nativeload.Capabilities;
import io.github.mpi4j.nativeload.MpiBridge;
import io.github.mpi4j.runtime.ThreadPolicy;
import io.github.mpi4j.spi.Mpi;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import mpi.MPIException;

/**
 * Asynchronous progress for the MPI backend, asked for with {@code MPI4J_ASYNC_PROGRESS=1} (or
 * {@code -Dmpi4j.mpi.asyncProgress=true}); off by default, as MPICH's
 * {@code MPIR_CVAR_ASYNC_PROGRESS} and Intel MPI's {@code I_MPI_ASYNC_PROGRESS} are.
 *
 * <p>Open MPI's non-blocking collectives (libnbc) and its rendezvous messages move only while
 * some thread of the process is inside an MPI call: a rank that starts an {@code iAllReduce}
 * and then computes gets its data moved when it calls {@code waitFor}, not while it computes.
 * With this setting a helper thread ({@code mpi4j-mpi-progress}) calls {@code MPI_Iprobe} on a
 * communicator of its own (a duplicate of {@code MPI_COMM_SELF} on which nothing is ever sent)
 * over and over while the process has non-blocking requests outstanding; every such call runs
 * the library's progress engine, which advances every pending operation.
 *
 * <p>Its price: MPI is initialized with {@code MPI_THREAD_MULTIPLE} (the helper calls MPI next
 * to the program's threads), which makes Open MPI take locks in every call and this backend
 * stage Java arrays in blocking calls instead of pinning them (docs/buffers.md); and while
 * requests are outstanding the helper keeps a core busy, yielding it to any other thread that
 * wants it (it is a {@code SCHED_BATCH} thread, {@link ThreadPolicy}). It steps aside while a
 * thread of the program is inside a blocking MPI call (which progresses the library itself)
 * and parks when nothing is outstanding.
 *
 * <p>On Open MPI it also pauses while an MPI file is open in the process: Open MPI's MPI-IO
 * component, ompio, is not safe with two threads in its progress function (a C program with a
 * thread calling MPI_Iprobe next to MPI_File_iwrite_at + MPI_Wait corrupted the heap within
 * 5,000 writes, Open MPI 4.1.4), and the alternative, ROMIO, crashes on
 * MPI_File_iwrite_at_all there with or without a second thread. docs/launching.md.
 */
final class MpiAsyncProgress {
    static final String VARIABLE = "MPI4J_ASYNC_PROGRESS";
    static final String PROPERTY = "mpi4j.mpi.asyncProgress";

    /** How long the helper naps while a thread of the program is in a blocking call. */
    static final long BLOCKED_NAP_NANOS = 1_000_000;

    /** The helper of this process while it runs (between MPI.Init and MPI.Finalize), else null. */
    private static volatile MpiAsyncProgress current;

    /** Non-blocking requests started and not yet completed or freed. */
    private final AtomicInteger outstanding = new AtomicInteger();
    /** Threads of the program inside a blocking MPI call. */
    private final AtomicInteger blocked = new AtomicInteger();
    /** MPI files open in this process, while they pause the helper ({@link #fileOpening}). */
    private final AtomicInteger openFiles = new AtomicInteger();
    /** Held by the helper around each progress call, so that {@link #fileOpening} can wait one out. */
    private final ReentrantLock probing = new ReentrantLock();
    /** The helper pauses while files are open (Open MPI). */
    private final boolean filesPause;
    /** The helper's own communicator (MPI_Comm, a duplicate of MPI_COMM_SELF). */
    private final long comm;
    private final Thread thread;
    private volatile boolean stopping;
    /** Why the helper is not a batch thread, or null when it is (read by tests). */
    volatile String notBatch;
    /** Progress calls made (written by the helper only; read by tests). */
    private volatile long polls;

    private MpiAsyncProgress(long comm, boolean filesPause) {
        this.comm = comm;
        this.filesPause = filesPause;
        this.thread = new Thread(this::run, "mpi4j-mpi-progress");
        thread.setDaemon(true);
    }

    /** Whether the setting asks for the helper; read before MPI_Init, so a bad value fails first. */
    static boolean requested(Map<String, String> env) {
        String v = System.getProperty(PROPERTY, env.get(VARIABLE));
        if (v == null || v.isBlank()) return false;
        switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "1": case "true": case "yes": case "on":
                return true;
            case "0": case "false": case "no": case "off":
                return false;
            default:
                throw MPIException.of(Mpi.ERR_ARG,
                        "MPI.Init (mpi): " + VARIABLE + " must be 1 or 0 (true/false, yes/no, on/off), got '" + v + "'");
        }
    }

    /** The thread level to ask MPI_Init_thread for: THREAD_MULTIPLE when the helper is wanted. */
    static int levelToAsk(int required, boolean requested) {
        return requested ? Math.max(required, Mpi.THREAD_MULTIPLE) : required;
    }

    /**
     * Starts the helper after MPI_Init when it was asked for; returns null when it runs, else
     * why not (not asked for, or the library did not give THREAD_MULTIPLE).
     */
    static String start(boolean requested, int provided, long selfComm) {
        if (!requested) return VARIABLE + " is not set";
        if (provided < Mpi.THREAD_MULTIPLE) {
            return "the MPI library gave thread level " + provided + ", not MPI_THREAD_MULTIPLE (3)";
        }
        boolean filesPause = Capabilities.mpiFamily() == MpiBridge.Family.OPEN_MPI;
        MpiAsyncProgress p = new MpiAsyncProgress(MpiNative.dup0(selfComm), filesPause);
        current = p;
        p.thread.start();
        return null;
    }

    /** Stops the helper before MPI_Finalize and frees its communicator; waits for it up to 10 s. */
    static void stop() {
        MpiAsyncProgress p = current;
        if (p == null) return;
        current = null;
        p.stopping = true;
        LockSupport.unpark(p.thread);
        try {
            p.thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // A helper still inside MPI_Iprobe after 10 s means the library is stuck; leave its
        // communicator to MPI_Finalize rather than free it under the call.
        if (!p.thread.isAlive()) MpiNative.free0(p.comm);
    }

    /** The running helper, or null (for tests). */
    static MpiAsyncProgress current() {
        return current;
    }

    long polls() {
        return polls;
    }

    /** Requests counted as outstanding now (for tests). */
    int outstanding() {
        return outstanding.get();
    }

    /** A non-blocking request began; returns whether it was counted (pass that to {@link #finished}). */
    static boolean started() {
        MpiAsyncProgress p = current;
        if (p == null) return false;
        if (p.outstanding.getAndIncrement() == 0) LockSupport.unpark(p.thread);
        return true;
    }

    /** A request counted by {@link #started} completed or was freed. */
    static void finished() {
        MpiAsyncProgress p = current;
        if (p != null) p.outstanding.decrementAndGet();
    }

    /**
     * An MPI file is about to be opened: from now until {@link #fileClosed} the helper makes no
     * progress calls (where files pause it), and this returns only once a call it was making has
     * ended. Returns whether it was counted (pass that to {@link #fileClosed}).
     */
    static boolean fileOpening() {
        MpiAsyncProgress p = current;
        if (p == null || !p.filesPause) return false;
        p.openFiles.incrementAndGet();
        p.probing.lock();
        p.probing.unlock();
        return true;
    }

    /** A file counted by {@link #fileOpening} was closed, or failed to open. */
    static void fileClosed() {
        MpiAsyncProgress p = current;
        if (p != null) p.openFiles.decrementAndGet();
    }

    /** A thread enters a blocking MPI call; returns whether it was counted (pass that to {@link #leftBlocking}). */
    static boolean enteredBlocking() {
        MpiAsyncProgress p = current;
        if (p == null) return false;
        p.blocked.incrementAndGet();
        return true;
    }

    /** A thread counted by {@link #enteredBlocking} left its blocking call. */
    static void leftBlocking() {
        MpiAsyncProgress p = current;
        if (p != null) p.blocked.decrementAndGet();
    }

    private void run() {
        notBatch = ThreadPolicy.batchThisThread();
        while (!stopping) {
            if (outstanding.get() <= 0) {
                // A started() after the read unparks first, and park then returns at once.
                LockSupport.park(this);
                continue;
            }
            if (blocked.get() > 0 || openFiles.get() > 0) {
                // A blocked thread progresses the library itself (open files: the class comment).
                // Waking every 20 µs to look again doubled a 1 MiB iAllReduce waited for at once
                // at np 4 on 2 cores (0.8 -> 1.6 ms), four helpers taking turns with the ranks; a
                // nap of BLOCKED_NAP_NANOS did not.
                LockSupport.parkNanos(this, BLOCKED_NAP_NANOS);
                continue;
            }
            probing.lock();
            try {
                if (openFiles.get() == 0) {
                    MpiNative.iprobe0(comm, 0, 0, 0);
                    polls++;
                }
            } catch (RuntimeException e) {
                System.err.println("mpi4j: asynchronous progress stopped: MPI_Iprobe failed: " + e.getMessage());
                return;
            } finally {
                probing.unlock();
            }
            Thread.yield();
        }
    }
}
