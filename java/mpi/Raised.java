package mpi;

/**
 * Applies a window's error handler to the errors of its calls (MPI: a failing RMA call raises
 * its error on the window's handler). Once per failed call: calls made inside another window
 * call on the same thread (rAccumulate's accumulate) leave the error to the outermost one.
 */
final class Raised {
    private static final CallDepth DEPTH = new CallDepth();

    private Raised() {
    }

    /** Returns this thread's depth counter: the caller decrements it when the call ends (one lookup per call). */
    static int[] enter() {
        int[] d = DEPTH.counter();
        d[0]++;
        return d;
    }

    static void leave() {
        DEPTH.counter()[0]--;
    }

    /** In a failing call of {@code win}: applies {@code handler} when this is the outermost call; returns {@code e} to throw. */
    static MPIException on(Win win, Comm comm, Errhandler handler, MPIException e) {
        if (DEPTH.counter()[0] == 1) apply(comm, handler, e);
        return e;
    }

    /** MPI.ERRORS_RETURN: nothing; fatal handlers end the job; a user function gets the communicator and the code. */
    static void apply(Comm comm, Errhandler handler, MPIException e) {
        if (handler == null || handler == MPI.ERRORS_RETURN) return;
        int code = e.getErrorCode();
        if (handler.function != null) {
            handler.function.call(comm, code);
            return;
        }
        if (handler == MPI.ERRORS_ARE_FATAL || handler == MPI.ERRORS_ABORT) {
            System.out.flush();
            System.err.println("mpi4j: " + e.getMessage() + " (error code " + code + ") on a window of "
                    + comm.getName() + " with " + handler + ": aborting the job");
            System.err.flush();
            comm.abort(code == 0 ? 1 : code);
            // A backend that cannot end the job from here (ranks as threads in one JVM) throws instead.
        }
    }
}
