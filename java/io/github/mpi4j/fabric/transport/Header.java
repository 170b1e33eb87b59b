package io.github.mpi4j.fabric.transport;

import java.nio.ByteBuffer;

/**
 * The fixed 40-byte header of every fabric frame. Fields {@link #a} and {@link #b} mean different
 * things per kind (see {@code Protocol}). Encoded in native byte order on shared memory and in
 * big-endian on TCP (each side decodes with the order it encoded).
 */
public final class Header {
    public static final int BYTES = 40;

    public int kind;
    public int ctx;
    public int src;
    public int tag;
    /** Bytes of payload that follow this header in the frame. */
    public int payloadLen;
    public int flags;
    public long a;
    public long b;

    public Header() {
    }

    public Header(int kind, int ctx, int src, int tag, int payloadLen, int flags, long a, long b) {
        this.kind = kind;
        this.ctx = ctx;
        this.src = src;
        this.tag = tag;
        this.payloadLen = payloadLen;
        this.flags = flags;
        this.a = a;
        this.b = b;
    }

    public void write(ByteBuffer buf, int at) {
        buf.putInt(at, kind);
        writeAfterKind(buf, at);
    }

    /** {@link #write} but for {@link #kind}, the first int, which a shared-memory ring stores last. */
    public void writeAfterKind(ByteBuffer buf, int at) {
        buf.putInt(at + 4, ctx);
        buf.putInt(at + 8, src);
        buf.putInt(at + 12, tag);
        buf.putInt(at + 16, payloadLen);
        buf.putInt(at + 20, flags);
        buf.putLong(at + 24, a);
        buf.putLong(at + 32, b);
    }

    /** Decodes into this header (reused by transports that deliver one frame at a time); returns it. */
    public Header readFrom(ByteBuffer buf, int at) {
        kind = buf.getInt(at);
        ctx = buf.getInt(at + 4);
        src = buf.getInt(at + 8);
        tag = buf.getInt(at + 12);
        payloadLen = buf.getInt(at + 16);
        flags = buf.getInt(at + 20);
        a = buf.getLong(at + 24);
        b = buf.getLong(at + 32);
        return this;
    }

    /** A copy, for a sink that keeps a header a transport reuses. */
    public Header copy() {
        return new Header(kind, ctx, src, tag, payloadLen, flags, a, b);
    }

    public static Header read(ByteBuffer buf, int at) {
        return new Header(buf.getInt(at), buf.getInt(at + 4), buf.getInt(at + 8), buf.getInt(at + 12),
                buf.getInt(at + 16), buf.getInt(at + 20), buf.getLong(at + 24), buf.getLong(at + 32));
    }

    @Override
    public String toString() {
        return "Header[kind=" + kind + ", ctx=" + ctx + ", src=" + src + ", tag=" + tag + ", len=" + payloadLen
                + ", a=" + a + ", b=" + b + "]";
    }
}
