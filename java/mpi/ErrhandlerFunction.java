package mpi;

/**
 * A user error handler (MPI_Comm_create_errhandler's function), made into an
 * {@link Errhandler} by {@link Comm#createErrhandler}: called with the communicator and the
 * error code when a call on that communicator fails, and by {@link Comm#callErrhandler}.
 */
@FunctionalInterface
public interface ErrhandlerFunction {
    void call(Comm comm, int errorCode);
}
