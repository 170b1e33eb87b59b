package io.github.mpi4j.spi;

/**
 * The request of an operation that was done at the call (a file access, a small send written
 * whole into a transport): complete from the start, it reports the operation's status once and
 * then, inactive, an empty one. It keeps the status as fields, not as a {@link StatusData}: the
 * message-rate path makes one per send.
 */
public final class CompletedRequest implements BackendRequest {
    private final int source;
    private final int tag;
    private final int error;
    private final boolean cancelled;
    private final long bytes;
    private boolean reported;

    private static final StatusData EMPTY = new StatusData();

    /** @param result the operation's status, or null for an empty one */
    public CompletedRequest(StatusData result) {
        StatusData r = result != null ? result : EMPTY;
        this.source = r.source;
        this.tag = r.tag;
        this.error = r.error;
        this.cancelled = r.cancelled;
        this.bytes = r.bytes;
    }

    /** A completed send or receive of {@code bytes} with this source and tag (ranks of the communicator). */
    public CompletedRequest(int source, int tag, long bytes) {
        this.source = source;
        this.tag = tag;
        this.error = 0;
        this.cancelled = false;
        this.bytes = bytes;
    }

    @Override
    public void waitFor(StatusData status) {
        test(status);
    }

    @Override
    public boolean test(StatusData status) {
        boolean first = !reported;
        reported = true;
        if (status != null) {
            if (first) status.set(source, tag, error, cancelled, bytes);
            else status.set(0, 0, 0, false, 0);
        }
        return true;
    }

    @Override
    public void cancel() {
        // Complete already: a cancel has no effect, as on any completed operation.
    }

    @Override
    public void free() {
    }
}
