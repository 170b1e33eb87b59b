package mpi;

/**
 * An MPI error. Unchecked, so programs written for the Open MPI bindings (which declared a
 * checked {@code MPIException}) and for mpiJava compile unchanged: {@code throws MPIException}
 * and {@code catch (MPIException e)} are both still legal.
 *
 * <p>Carries the MPI error class (one of the {@code MPI.ERR_*} constants), the error code
 * and a message that names the offending argument, its value and the limit it broke.
 */
public class MPIException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int errorCode;
    private final int errorClass;

    /** An error with the class and code of the MPI library and its message. */
    public MPIException(int errorCode, int errorClass, String message) {
        super(message);
        this.errorCode = errorCode;
        this.errorClass = errorClass;
    }

    /** An error found by mpi4j itself, with class {@code MPI.ERR_OTHER} unless given. */
    public MPIException(String message) {
        this(MPI.ERR_OTHER, MPI.ERR_OTHER, message);
    }

    public MPIException(Throwable cause) {
        super(cause == null ? null : cause.toString(), cause);
        this.errorCode = MPI.ERR_OTHER;
        this.errorClass = MPI.ERR_OTHER;
    }

    public MPIException(String message, Throwable cause) {
        super(message, cause);
        this.errorCode = MPI.ERR_OTHER;
        this.errorClass = MPI.ERR_OTHER;
    }

    /** An error of class {@code errorClass} found before any data moved. */
    public static MPIException of(int errorClass, String message) {
        return new MPIException(errorClass, errorClass, message);
    }

    public int getErrorCode() {
        return errorCode;
    }

    public int getErrorClass() {
        return errorClass;
    }
}
