package mpi;

/**
 * An error handler: {@code MPI.ERRORS_RETURN} (the default), {@code MPI.ERRORS_ARE_FATAL},
 * {@code MPI.ERRORS_ABORT}, or a user function ({@link Comm#createErrhandler}). When a call on a
 * communicator fails (and in {@link Comm#callErrhandler}) its handler applies: the call throws
 * an {@link MPIException}, the job aborts, or the user function is called and then the call
 * throws. New communicators inherit their parent's handler. See docs/errors.md.
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
