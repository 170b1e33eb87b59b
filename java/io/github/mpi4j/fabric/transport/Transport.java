package io.github.mpi4j.fabric.transport;

import io.github.mpi4j.spi.Buf;

/**
 * Moves frames between ranks: in-process queues, shared-memory rings, or TCP. Frames to one
 * peer arrive in the order written. The engine calls every method under its own lock, so
 * implementations need no locking of their own for these calls.
 */
public interface Transport {

    /** Largest payload one frame may carry. */
    int maxPayload();

    /**
     * Whether frames may stay unread where they arrived ({@link FrameSink#LATER}): a shared-memory
     * ring holds them at no cost, a socket's data has to be read to get at what follows.
     */
    default boolean keepsUnreadFrames() {
        return false;
    }

    /** Payloads up to this many bytes go eagerly; larger messages use rendezvous. */
    int eagerLimit();

    /** Messages of a collective go eagerly up to here at most, whatever {@link #eagerLimit()} is. */
    int COLLECTIVE_EAGER_CAP = 256 * 1024;

    /**
     * The eager limit of a collective's messages: a schedule's message often reaches a rank
     * before that rank has posted its receive, and a large eager one is then held in a heap
     * copy, where a rendezvous waits and lands in place. With TCP's 512 KiB limit for them too, a
     * 2 MiB allreduce at np 4 took 4.6-8.4 ms against 3.0-4.5 (docs/performance.md,
     * "Thirty-first session").
     */
    default int collectiveEagerLimit() {
        return Math.min(eagerLimit(), COLLECTIVE_EAGER_CAP);
    }

    /**
     * Writes as much of {@code f} as it can without blocking; returns true once the whole frame
     * is written (the caller may then reuse the payload memory).
     */
    boolean write(OutFrame f);

    /**
     * The allocation-free path of small messages: writes the frame ({@code h} and
     * {@code h.payloadLen} bytes of {@code payload} from byte {@code payloadOff}) whole, or
     * nothing; returns whether it did. The transport keeps no reference to {@code h} or
     * {@code payload}. Transports that write frames in steps (TCP) or keep them (in-process
     * queues) say false, and the caller takes the queued path.
     */
    default boolean writeWhole(int peer, Header h, Buf payload, long payloadOff) {
        return false;
    }

    /**
     * {@link #writeWhole} for a plain eager message of {@code len} bytes from this rank (no flags,
     * {@code a} 0, {@code b} the length): the per-message path of small sends. This default fills
     * {@code scratch} and writes it; shared memory writes its short header straight from the
     * arguments, with no header to fill and read back.
     */
    default boolean writeEager(int peer, int kind, int src, int ctx, int tag, Buf payload, int len, Header scratch) {
        scratch.kind = kind;
        scratch.ctx = ctx;
        scratch.src = src;
        scratch.tag = tag;
        scratch.payloadLen = len;
        scratch.flags = 0;
        scratch.a = 0;
        scratch.b = len;
        return writeWhole(peer, scratch, payload, 0);
    }

    /**
     * Whether a frame may have arrived (a cheap hint read without the engine's lock; true when
     * the transport cannot tell without polling). False lets an idle wait skip the lock.
     */
    default boolean hasInput() {
        return true;
    }

    /**
     * The process id of {@code peer} when it is another process of this node, so that a
     * receiver may read a large message straight out of its memory (the engine's single copy);
     * 0 otherwise.
     */
    default long processOf(int peer) {
        return 0;
    }

    /**
     * Whether payloads in direct buffers move without a staging copy while arrays take one (TCP:
     * the socket reads and writes native memory). Collectives then keep their temporaries in
     * direct memory.
     */
    default boolean prefersDirectBuffers() {
        return false;
    }

    /** Reads arriving frames and hands them to {@code sink}; returns how many it handled. */
    int poll(FrameSink sink);

    /** Checks that the peers this transport serves are alive; reports losses to {@code sink}. */
    default void checkPeers(FrameSink sink) {
    }

    /** A short name for messages ("local", "shm", "tcp"). */
    String name();

    void close();
}
