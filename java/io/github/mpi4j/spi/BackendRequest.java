package io.github.mpi4j.spi;

/**
 * A backend's non-blocking operation. Completion fills a {@link StatusData}. After
 * completion (wait or a true test) the request is inactive; calling wait again returns an
 * empty status at once, as MPI does for inactive requests.
 */
public interface BackendRequest {
    /** Blocks until complete; fills {@code status} (may be null). */
    void waitFor(StatusData status);

    /** Returns true and fills {@code status} if complete; false otherwise. Never blocks long. */
    boolean test(StatusData status);

    /** Asks for cancellation; completion must still be waited for. */
    void cancel();

    /** Releases the request; an operation still running goes on to completion. */
    void free();

    /**
     * The API has reported this request's completion and holds it no more: no method of it is
     * called again, so the backend may reuse what it holds (a receive's operation, the request
     * itself). Not called for persistent requests, nor after {@link #free()}.
     */
    default void released() {
    }

    /** True for persistent requests (which {@link #start()} re-activates). */
    default boolean isPersistent() {
        return false;
    }

    /** Starts a persistent request. */
    default void start() {
        throw new UnsupportedOperationException("not a persistent request");
    }
}
