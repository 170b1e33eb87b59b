package io.github.mpi4j.fabric.transport;

/**
 * Moves frames between ranks: in-process queues, shared-memory rings, or TCP. Frames to one
 * peer arrive in the order written. The engine calls every method under its own lock, so
 * implementations need no locking of their own for these calls.
 */
public interface Transport {

    /** Largest payload one frame may carry. */
    int maxPayload();

    /** Payloads up to this many bytes go eagerly; larger messages use rendezvous. */
    int eagerLimit();

    /**
     * Writes as much of {@code f} as it can without blocking; returns true once the whole frame
     * is written (the caller may then reuse the payload memory).
     */
    boolean write(OutFrame f);

    /** Reads arriving frames and hands them to {@code sink}; returns how many it handled. */
    int poll(FrameSink sink);

    /** Checks that the peers this transport serves are alive; reports losses to {@code sink}. */
    default void checkPeers(FrameSink sink) {
    }

    /** A short name for messages ("local", "shm", "tcp"). */
    String name();

    void close();
}
