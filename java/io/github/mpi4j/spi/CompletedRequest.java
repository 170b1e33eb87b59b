package io.github.mpi4j.spi;

/**
 * The request of an operation that was done at the call (a file access, a one-sided operation):
 * complete from the start, it reports the operation's status once and then, inactive, an empty
 * one. A small send written whole into a transport takes the shared {@link #SEND} instead.
 */
public final class CompletedRequest implements BackendRequest {
    private final int source;
    private final int tag;
    private final int error;
    private final boolean cancelled;
    private final long bytes;
    private boolean reported;

    private static final StatusData EMPTY = new StatusData();

    /**
     * The request of a send done at the call. A send's status is the same for every send
     * ({@link StatusData#setSend}), so this one stateless instance serves them all and the
     * message-rate path allocates no backend request.
     */
    public static final BackendRequest SEND = new SendDone();

    private static final class SendDone implements BackendRequest {
        @Override
        public void waitFor(StatusData status) {
            test(status);
        }

        @Override
        public boolean test(StatusData status) {
            if (status != null) status.setSend(false);
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

    /** @param result the operation's status, or null for an empty one */
    public CompletedRequest(StatusData result) {
        StatusData r = result != null ? result : EMPTY;
        this.source = r.source;
        this.tag = r.tag;
        this.error = r.error;
        this.cancelled = r.cancelled;
        this.bytes = r.bytes;
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
