package io.github.mpi4j.fileio;

import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.Timeout;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import mpi.MPIException;

/**
 * Where the accesses of one open file that complete later run: independent ones (positional
 * I/O, the shared pointer) on a small pool of daemon threads, collective ones on one thread in
 * call order. Every rank calls collectives in the same order and the collective lane runs them
 * in that order, so their exchanges over the file's communicator match; a blocking collective
 * called while collective work is still queued goes through the lane too (after it), never
 * beside it. Every wait has the deadline of {@link Timeout}.
 */
final class FileLanes {
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final String name;
    private final long deadlineNanos;
    private ExecutorService independent;
    private ExecutorService collective;
    /** Collective tasks queued or running. Only this rank's calling thread adds to it. */
    private final AtomicInteger collectivePending = new AtomicInteger();
    private final AtomicInteger independentPending = new AtomicInteger();

    FileLanes(String name) {
        this.name = name;
        double s = Timeout.seconds(System.getenv(), "File");
        this.deadlineNanos = (long) (s * 1e9);
    }

    /** An access that goes on after the call, beside others; it may be cancelled until it starts. */
    synchronized FileRequest independent(String call, Supplier<Long> body) {
        if (independent == null) independent = Executors.newFixedThreadPool(2, daemons("io"));
        FileRequest r = new FileRequest(call, true);
        independentPending.incrementAndGet();
        r.future = independent.submit(() -> {
            try {
                return r.run(body);
            } finally {
                independentPending.decrementAndGet();
            }
        });
        return r;
    }

    /** A collective access that goes on after the call, after the collectives called before it. */
    synchronized FileRequest collective(String call, Supplier<Long> body) {
        FileRequest r = new FileRequest(call, false);
        collectivePending.incrementAndGet();
        r.future = lane().submit(() -> {
            try {
                return r.run(body);
            } finally {
                collectivePending.decrementAndGet();
            }
        });
        return r;
    }

    /** A blocking collective: at once when no collective is queued, else in the lane after them. */
    <T> T blocking(String call, Supplier<T> body) {
        if (collectivePending.get() == 0) return body.get();
        Future<T> f;
        synchronized (this) {
            collectivePending.incrementAndGet();
            f = lane().submit(() -> {
                try {
                    return body.get();
                } finally {
                    collectivePending.decrementAndGet();
                }
            });
        }
        return await(call, f);
    }

    void blocking(String call, Runnable body) {
        blocking(call, () -> {
            body.run();
            return null;
        });
    }

    /** Waits for everything queued (close), then stops the threads. */
    void close(String call) {
        ExecutorService i, c;
        synchronized (this) {
            i = independent;
            c = collective;
            independent = null;
            collective = null;
        }
        long end = System.nanoTime() + deadlineNanos;
        for (ExecutorService e : new ExecutorService[] {c, i}) {
            if (e == null) continue;
            e.shutdown();
            try {
                if (!e.awaitTermination(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    e.shutdownNow();
                    throw MPIException.of(Mpi.ERR_OTHER, call + ": " + name + ": accesses still running after "
                            + deadlineNanos / 1e9 + " s (MPI4J_TIMEOUT)");
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                e.shutdownNow();
                throw MPIException.of(Mpi.ERR_OTHER, call + ": interrupted while accesses of " + name + " finish");
            }
        }
    }

    private ExecutorService lane() {
        if (collective == null) collective = Executors.newSingleThreadExecutor(daemons("collective"));
        return collective;
    }

    private ThreadFactory daemons(String what) {
        return r -> {
            Thread t = new Thread(r, "mpi4j-file-" + what + "-" + THREADS.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private <T> T await(String call, Future<T> f) {
        try {
            return f.get(deadlineNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw MPIException.of(Mpi.ERR_OTHER, call + ": " + name + ": not complete after " + deadlineNanos / 1e9
                    + " s (MPI4J_TIMEOUT)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw MPIException.of(Mpi.ERR_OTHER, call + ": interrupted while waiting for " + name);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException) throw (RuntimeException) c;
            if (c instanceof Error) throw (Error) c;
            throw MPIException.of(Mpi.ERR_IO, call + ": " + name + ": " + c);
        }
    }

    /**
     * The request of one access running in a lane. Waits have the deadline; a failure of the
     * access is thrown by the wait (or the test) that completes it. Cancel works until the access
     * starts (independent ones only: a collective's peers count on it); a cancelled request
     * reports cancelled and no bytes.
     */
    final class FileRequest implements BackendRequest {
        private static final int QUEUED = 0, RUNNING = 1, CANCELLED = 2;
        private final String call;
        private final boolean cancellable;
        private final AtomicInteger state = new AtomicInteger(QUEUED);
        private volatile Future<Long> future;
        private boolean completed;

        FileRequest(String call, boolean cancellable) {
            this.call = call;
            this.cancellable = cancellable;
        }

        long run(Supplier<Long> body) {
            if (!state.compareAndSet(QUEUED, RUNNING)) return -1L;
            return body.get();
        }

        @Override
        public void waitFor(StatusData status) {
            if (completed) {
                if (status != null) status.set(0, 0, 0, false, 0);
                return;
            }
            completed = true;
            long n = await(call, future);
            if (status != null) status.set(0, 0, 0, n < 0, Math.max(0, n));
        }

        @Override
        public boolean test(StatusData status) {
            if (!completed && !future.isDone()) return false;
            waitFor(status);
            return true;
        }

        @Override
        public void cancel() {
            if (cancellable) state.compareAndSet(QUEUED, CANCELLED);
        }

        @Override
        public void free() {
            // The access goes on to completion; nobody waits for it.
        }
    }
}
