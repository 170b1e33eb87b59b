package mpi;

/**
 * An error handler. mpi4j always runs MPI with MPI_ERRORS_RETURN and turns every error into an
 * {@link MPIException}; {@code MPI.ERRORS_ARE_FATAL} is accepted for compatibility and means
 * the exception is left to end the program (an uncaught exception ends the rank, and the
 * launcher then ends the job), rather than MPI aborting inside the library.
 */
public final class Errhandler {
    private final String name;

    Errhandler(String name) {
        this.name = name;
    }

    public void free() {
    }

    public boolean isNull() {
        return false;
    }

    @Override
    public String toString() {
        return name;
    }
}
