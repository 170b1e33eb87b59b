package io.github.mpi4j.fabric.transport;

import io.github.mpi4j.spi.Buf;

/** Receives frames from transports (the point-to-point engine). */
public interface FrameSink {

    /**
     * Where a payload goes: {@code buf} from byte {@code off}; a null {@code buf} asks for the
     * payload as a byte array. {@code cookie} is the engine's own (the matched operation) and
     * comes back with the frame, so frames of different transports may interleave.
     */
    final class Target {
        // Not final: a receive the engine reuses keeps one target and points it anew.
        public Buf buf;
        public long off;
        public Object cookie;

        public Target(Buf buf, long off, Object cookie) {
            this.buf = buf;
            this.off = off;
            this.cookie = cookie;
        }

        /** Whether the payload goes to a buffer (else it is delivered as bytes). */
        public boolean direct() {
            return buf != null;
        }
    }

    /**
     * {@link #onHeader}'s answer for a frame the engine would rather read later: the transport
     * leaves it, and every later frame from that peer, unread for now. Given only to transports
     * that keep unread frames ({@link Transport#keepsUnreadFrames}).
     */
    Target LATER = new Target(null, 0, null);

    /**
     * A header arrived from {@code peer}; returns where its payload should land, or null when
     * the engine wants it as a byte array in {@link #onFrame}. Called before the payload is read.
     * {@code h} may be reused by the transport for its next frame once {@link #onFrame} returns.
     */
    Target onHeader(int peer, Header h);

    /**
     * The whole frame arrived, with the target {@link #onHeader} returned. {@code payload} holds
     * the bytes when that target was null or not direct (else null: they are in the buffer).
     */
    void onFrame(int peer, Header h, byte[] payload, Target target);

    /** {@code peer} is gone (connection lost, process dead); {@code why} says how. */
    void onPeerLost(int peer, String why);
}
