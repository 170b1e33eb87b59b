package io.github.mpi4j.spi;

/**
 * The request of an operation that was done at the call (a file access, for example): complete
 * from the start, it reports the operation's status once and then, inactive, an empty one.
 */
public final class CompletedRequest implements BackendRequest {
    private StatusData result;

    public CompletedRequest(StatusData result) {
        this.result = result;
    }

    @Override
    public void waitFor(StatusData status) {
        test(status);
    }

    @Override
    public boolean test(StatusData status) {
        StatusData r = result;
        result = null;
        if (status != null) {
            if (r != null) status.set(r.source, r.tag, r.error, r.cancelled, r.bytes);
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
