package mpi;

import io.github.mpi4j.spi.StatusData;

import io.github.mpi4j.spi.BackendComm;

/**
 * Applies a communicator's error handler to the errors of calls on it (MPI's rule: a call that
 * fails raises the error on the handler of its communicator; see docs/errors.md, "Error
 * handlers"). The {@code mpi} layer routes its calls through a few choke points: the bracket of
 * every collective ({@link #begin} / {@link #end}), the point-to-point implementations and the
 * completion of a request ({@link #enter} / {@link #leave}).
 *
 * <p>The handler runs once per failed call: calls opened inside another call on the same thread
 * (a sendRecv's receive, a constructor's split) leave the error to the outermost one, so an
 * error that mpi4j catches inside a call never reaches a handler. {@code MPI.ERRORS_RETURN}
 * leaves the exception to propagate; {@code MPI.ERRORS_ARE_FATAL} / {@code MPI.ERRORS_ABORT}
 * end the job as {@link Comm#abort} does; a user handler is called with the communicator and
 * the error code, and then the call throws the exception (as MPI returns the code).
 */
final class CallErrors {
    private CallErrors() {
    }

    /** How many calls are open on each thread. */
    private static final CallDepth DEPTH = new CallDepth();

    /** Opens a collective: the backend's bracket, then the call's depth. */
    static void begin(BackendComm c, String call, boolean nonBlocking) {
        c.beginCollective(call, nonBlocking);
        enter();
    }

    /** Closes a collective opened by {@link #begin}, then raises {@code failure} on {@code comm}'s handler. */
    static void end(Comm comm, BackendComm c, Throwable failure) {
        try {
            c.endCollective(failure);
        } finally {
            leave(comm, failure);
        }
    }

    /** A status a blocking receive fills and copies out before it returns (one per thread). */
    private static final ThreadLocal<StatusData> SCRATCH_STATUS = ThreadLocal.withInitial(StatusData::new);

    static StatusData scratchStatus() {
        StatusData d = SCRATCH_STATUS.get();
        d.set(0, 0, 0, false, 0);  // as a new StatusData
        d.objects = -1;
        return d;
    }

    /** Opens a call; returns this thread's depth counter for {@link #leave(int[], Comm, Throwable)}. */
    static int[] enter() {
        int[] depth = DEPTH.counter();
        depth[0]++;
        return depth;
    }

    /**
     * Closes a call opened by {@link #enter}; when it was the outermost one and {@code failure}
     * is an MPIException, applies {@code comm}'s error handler to it. Returns normally when the
     * caller is to rethrow {@code failure}.
     */
    static void leave(Comm comm, Throwable failure) {
        leave(DEPTH.counter(), comm, failure);
    }

    /** {@link #leave(Comm, Throwable)} with the counter {@link #enter} returned: one counter lookup a call. */
    static void leave(int[] depth, Comm comm, Throwable failure) {
        depth[0]--;
        if (depth[0] == 0 && comm != null && failure instanceof MPIException) {
            raise(comm, (MPIException) failure);
        }
    }

    private static void raise(Comm comm, MPIException e) {
        Errhandler handler = comm.errhandlerOrNull();
        if (handler == null || handler == MPI.ERRORS_RETURN) return;
        int code = e.getErrorCode();
        if (handler.function != null) {
            handler.function.call(comm, code);
            return;
        }
        if (handler == MPI.ERRORS_ARE_FATAL || handler == MPI.ERRORS_ABORT) {
            System.out.flush();
            System.err.println("mpi4j: " + e.getMessage() + " (error code " + code + ") on " + comm.getName()
                    + " with " + handler + ": aborting the job");
            System.err.flush();
            // The exit status is the error code, never 0, so the job is seen to fail.
            comm.abort(code == 0 ? 1 : code);
            // A backend that cannot end the job from here (ranks as threads in one JVM) throws instead.
        }
    }

    /** Gives a new communicator its parent's error handler (MPI: dup, split, create, topologies inherit it). */
    static <T> T inherit(Comm parent, T child) {
        if (child instanceof Comm && !((Comm) child).isNull()) {
            Errhandler h = parent.errhandlerOrNull();
            if (h != null) ((Comm) child).setErrhandler(h);
        }
        return child;
    }
}
