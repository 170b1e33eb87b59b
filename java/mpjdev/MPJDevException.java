package mpjdev;

/**
 * MPJ Express's device-layer exception, present so that MPJ Express programs which
 * {@code import mpjdev.*;} (many of its own test programs do, without using the package) compile
 * unchanged. mpi4j has no device layer: nothing throws this; errors arrive as
 * {@link mpi.MPIException}.
 */
public class MPJDevException extends Exception {
    private static final long serialVersionUID = 1L;

    public MPJDevException(String message) {
        super(message);
    }

    public MPJDevException(String message, Throwable cause) {
        super(message, cause);
    }
}
