package io.github.mpi4j.fabric.transport;

import io.github.mpi4j.spi.Buf;

/**
 * A frame waiting to be written: a header and optionally a payload taken from a user buffer
 * ({@code payloadLen} bytes of {@code payload} from byte {@code payloadOff}). Transports may
 * write it in several steps; {@link #done} runs once it is fully written.
 */
public final class OutFrame {
    public final int peer;
    public final Header header;
    public final Buf payload;
    public final long payloadOff;
    /** Bytes already written by a transport that writes incrementally. */
    public long progress;
    public final Runnable done;

    public OutFrame(int peer, Header header, Buf payload, long payloadOff, Runnable done) {
        this.peer = peer;
        this.header = header;
        this.payload = payload;
        this.payloadOff = payloadOff;
        this.done = done;
    }

    public int totalBytes() {
        return Header.BYTES + header.payloadLen;
    }
}
