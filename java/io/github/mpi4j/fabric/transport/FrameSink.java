package io.github.mpi4j.fabric.transport;

import io.github.mpi4j.spi.Buf;

/** Receives frames from transports (the point-to-point engine). */
public interface FrameSink {

    /** Where a payload goes: {@code buf} from byte {@code off}. */
    final class Target {
        public final Buf buf;
        public final long off;

        public Target(Buf buf, long off) {
            this.buf = buf;
            this.off = off;
        }
    }

    /**
     * A header arrived from {@code peer}; returns where its payload should land, or null when
     * the engine wants it as a byte array in {@link #onFrame}. Called before the payload is read.
     */
    Target onHeader(int peer, Header h);

    /**
     * The whole frame arrived. {@code payload} holds the bytes when {@link #onHeader} returned
     * null (else null: they are already in the target).
     */
    void onFrame(int peer, Header h, byte[] payload);

    /** {@code peer} is gone (connection lost, process dead); {@code why} says how. */
    void onPeerLost(int peer, String why);
}
