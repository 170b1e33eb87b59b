package io.github.mpi4j.runtime;

import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.Mpi;
import mpi.MPIException;

/**
 * The life of one rank's MPI: not started, running on a backend, or finalized. The global
 * session backs {@code MPI.COMM_WORLD}; tests that run ranks as threads make one per thread.
 * Every API call checks its session first, so calls before Init or after Finalize fail with
 * a clear exception instead of reaching a backend.
 */
public final class Session {
    private static final int NEW = 0, ACTIVE = 1, FINALIZED = 2;

    private volatile int state = NEW;
    private volatile Backend backend;
    private Thread initThread;

    /** A session not yet started (the global one, before MPI.Init). */
    public Session() {
    }

    /** A session already running on {@code backend}. */
    public Session(Backend backend) {
        start(backend);
    }

    public synchronized void start(Backend backend) {
        if (state == ACTIVE) {
            throw MPIException.of(Mpi.ERR_OTHER, "MPI.Init: MPI is already initialized");
        }
        if (state == FINALIZED) {
            throw MPIException.of(Mpi.ERR_OTHER, "MPI.Init: MPI was finalized and cannot be initialized again");
        }
        this.backend = backend;
        this.initThread = Thread.currentThread();
        this.state = ACTIVE;
    }

    /** Marks the session finalized; returns the backend to shut down. */
    public synchronized Backend finish() {
        check();
        state = FINALIZED;
        return backend;
    }

    /** Throws unless the session is running. */
    /** Whether MPI.Init ran and MPI.Finalize did not (what {@link #check} checks, without throwing). */
    public boolean active() {
        return state == ACTIVE;
    }

    public void check() {
        int s = state;
        if (s != ACTIVE) {
            throw notActive(s);
        }
    }

    /** The backend, after checking the session runs. */
    public Backend backend() {
        check();
        return backend;
    }

    public boolean isInitialized() {
        return state != NEW;
    }

    public boolean isFinalized() {
        return state == FINALIZED;
    }

    public Thread initThread() {
        return initThread;
    }

    private static MPIException notActive(int s) {
        return MPIException.of(Mpi.ERR_OTHER, s == NEW
                ? "MPI is not initialized: call MPI.Init (or MPI.InitThread) first"
                : "MPI is finalized: no MPI call is allowed after MPI.Finalize");
    }
}
