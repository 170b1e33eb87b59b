package mpi;

/** What applying an error handler does (MPI_Comm_call_errhandler); see docs/errors.md. */
final class Errhandlers {
    private Errhandlers() {
    }

    static void call(Comm comm, Errhandler handler, int errorCode) {
        if (handler.function != null) {
            handler.function.call(comm, errorCode);
            return;
        }
        if (handler == MPI.ERRORS_ARE_FATAL || handler == MPI.ERRORS_ABORT) {
            System.out.flush();
            System.err.println("mpi4j: error code " + errorCode + " raised on " + comm.getName() + " with "
                    + handler + ": aborting the job");
            System.err.flush();
            comm.abort(errorCode);
            // A backend that cannot end the job from here (ranks as threads in one JVM) throws instead.
            return;
        }
        // MPI.ERRORS_RETURN: the handler does nothing and MPI_Comm_call_errhandler returns
        // MPI_SUCCESS, so the call returns (Open MPI's bindings behave the same).
    }
}
