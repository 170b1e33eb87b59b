package mpi;

import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.BackendRequest;

/** A persistent request: set up once, then {@link #start()}ed and completed any number of times. */
public final class Prequest extends Request {
    Prequest(Session session, BackendRequest impl, Object keepAlive) {
        super(session, impl, keepAlive, null);
        this.active = false;
    }

    /** Starts the operation; complete it with waitFor/test like any request. */
    public void start() {
        if (impl == null) throw MPIException.of(MPI.ERR_REQUEST, "start: the persistent request has been freed");
        if (active) throw MPIException.of(MPI.ERR_REQUEST, "start: the persistent request is already active");
        session.check();
        impl.start();
        active = true;
    }

    public static void startAll(Prequest[] requests) {
        if (requests == null) throw MPIException.of(MPI.ERR_REQUEST, "startAll: requests is null");
        for (Prequest r : requests) {
            if (r != null) r.start();
        }
    }

    // ---- mpiJava 1.2 names ----

    public void Start() {
        start();
    }

    public static void Startall(Prequest[] requests) {
        startAll(requests);
    }
}
