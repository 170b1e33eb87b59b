package mpjbuf;

/**
 * MPJ Express's message-buffer exception, present so that MPJ Express programs which
 * {@code import mpjbuf.*;} (its group and communicator test programs do, without using the
 * package) compile unchanged. mpi4j has no mpjbuf layer: nothing throws this; errors arrive as
 * {@link mpi.MPIException}.
 */
public class BufferException extends Exception {
    private static final long serialVersionUID = 1L;

    public BufferException(String message) {
        super(message);
    }

    public BufferException(String message, Throwable cause) {
        super(message, cause);
    }
}
