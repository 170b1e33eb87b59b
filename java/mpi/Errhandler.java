package mpi;

/**
 * An error handler: {@code MPI.ERRORS_RETURN} (the default), {@code MPI.ERRORS_ARE_FATAL},
 * {@code MPI.ERRORS_ABORT}, or a user function ({@link Comm#createErrhandler}). mpi4j runs MPI
 * with MPI_ERRORS_RETURN and turns every error of a call into an {@link MPIException}, whatever
 * the handler; {@link Comm#callErrhandler} applies the handler: throws, aborts the job, or calls
 * the user function. See docs/errors.md.
 */
public final class Errhandler {
    private final String name;
    /** The user function of a handler made by {@link Comm#createErrhandler}; null for the predefined ones. */
    final ErrhandlerFunction function;

    Errhandler(String name) {
        this(name, null);
    }

    Errhandler(String name, ErrhandlerFunction function) {
        this.name = name;
        this.function = function;
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
