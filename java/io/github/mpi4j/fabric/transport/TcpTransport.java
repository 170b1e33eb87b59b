package io.github.mpi4j.fabric.transport;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;

/**
 * TCP between nodes (or between local ranks when forced): one non-blocking, authenticated
 * SocketChannel per peer, TCP_NODELAY. Frames are a 40-byte header and a payload; writes and
 * reads proceed as far as the socket allows and resume at the next poll. A payload whose
 * destination is known (a matched receive) is read straight into it, and payloads are written
 * straight from the sender's memory: direct buffers (typed ones too) through their memory,
 * arrays through {@link ArraySocketIo}; a per-connection staging buffer serves the rest (and
 * every array where libmpi4j_dl is not loaded). A frame claiming more than
 * {@link #maxPayload()} bytes is a protocol violation: the connection is dropped without
 * allocating anything.
 */
public final class TcpTransport implements Transport {
    private static final int STAGING = 256 * 1024;
    /**
     * Payloads up to this size that could be written straight from their memory are still
     * copied next to their header (one write of one segment); larger ones go out with their
     * header in one gathering write, uncopied.
     */
    private static final int COPY_MAX = 16 * 1024;

    private final Connection[] byPeer;
    private final Connection[] all;

    /** One connection's state. */
    public static final class Connection {
        final int peer;
        final SocketChannel channel;
        /** The socket's descriptor where arrays are read and written without staging ({@link ArraySocketIo}); else -1. */
        final int fd;
        // writing
        final ByteBuffer outHeader = ByteBuffer.allocateDirect(Header.BYTES).order(ByteOrder.BIG_ENDIAN);
        final ByteBuffer outStage = ByteBuffer.allocateDirect(STAGING).order(ByteOrder.nativeOrder());
        OutFrame writing;
        /** The payload's memory as bytes while a frame from a direct buffer is written; else null. */
        ByteBuffer outBytes;
        int stageFill;
        int stageSent;
        /** The frame being written sits whole (header and payload) in outStage. */
        boolean combined;
        /** Header and payload for a gathering write. */
        final ByteBuffer[] gather = new ByteBuffer[2];
        // reading
        final ByteBuffer inHeader = ByteBuffer.allocateDirect(Header.BYTES).order(ByteOrder.BIG_ENDIAN);
        final ByteBuffer inStage = ByteBuffer.allocateDirect(STAGING).order(ByteOrder.nativeOrder());
        Header reading;
        FrameSink.Target target;
        /** The target's memory as bytes while a payload is read into a direct buffer; else null. */
        ByteBuffer inBytes;
        byte[] payload;
        int payloadDone;
        boolean lost;

        public Connection(int peer, SocketChannel channel) throws IOException {
            this.peer = peer;
            this.channel = channel;
            channel.configureBlocking(false);
            this.fd = ArraySocketIo.descriptorOf(channel);
        }

        public int peer() {
            return peer;
        }
    }

    public TcpTransport(int worldSize, Connection[] connections) {
        this.byPeer = new Connection[worldSize];
        for (Connection c : connections) byPeer[c.peer] = c;
        this.all = connections;
    }

    @Override
    public int maxPayload() {
        return 1 << 20;
    }

    /**
     * Eager up to 512 KiB: a matched eager payload is read straight into the receive buffer,
     * while a rendezvous costs a round trip (~13 us on loopback here). With the limit at 256 KiB
     * the bandwidth of 512 KiB messages read 3.2-3.5 GB/s against 4.2-4.5 GB/s eager (raw
     * loopback 4.2; docs/performance.md, "Thirty-first session"). An unexpected eager message is
     * held in a byte[] of its size, within the unexpected-message budget.
     */
    @Override
    public int eagerLimit() {
        return 512 * 1024;
    }

    // ---- writing -------------------------------------------------------------------------------

    @Override
    public boolean write(OutFrame f) {
        Connection c = byPeer[f.peer];
        if (c.lost) return true; // the engine reports the loss; drop what would go there
        try {
            if (c.writing != f) {
                c.writing = f;
                f.progress = 0;
                c.stageFill = 0;
                c.stageSent = 0;
                int len = f.header.payloadLen;
                ByteBuffer direct = len > 0 && f.payload.isDirect() ? BufAccess.directBytes(f.payload, false) : null;
                boolean straight = direct != null || (len > 0 && c.fd >= 0 && ArraySocketIo.applies(f.payload));
                c.combined = len <= (straight ? COPY_MAX : STAGING - Header.BYTES);
                if (c.combined) {
                    // Small frames leave in one write (one segment with TCP_NODELAY, one
                    // syscall): the header and payload are copied into the staging buffer.
                    f.header.write(c.outStage.duplicate().order(ByteOrder.BIG_ENDIAN), 0);
                    if (len > 0) BufAccess.get(f.payload, f.payloadOff, c.outStage, Header.BYTES, len);
                    c.stageFill = Header.BYTES + len;
                } else {
                    c.outHeader.clear();
                    f.header.write(c.outHeader, 0);
                    c.outHeader.limit(Header.BYTES).position(0);
                    c.outBytes = direct;
                }
            }
            if (c.combined) {
                ByteBuffer view = c.outStage.duplicate();
                view.limit(c.stageFill).position(c.stageSent);
                c.stageSent += c.channel.write(view);
                if (c.stageSent < c.stageFill) return false;
                f.progress = f.header.payloadLen;
                c.stageFill = 0;
                c.stageSent = 0;
                c.combined = false;
                c.writing = null;
                return true;
            }
            int len = f.header.payloadLen;
            if (c.outHeader.hasRemaining()) {
                writeWithHeader(c, f, len);
                if (c.outHeader.hasRemaining()) return false;
            }
            while (f.progress < len) {
                if (!writePayload(c, f, len)) return false;
            }
            c.writing = null;
            c.outBytes = null;
            return true;
        } catch (IOException e) {
            c.lost = true;
            return true;
        }
    }

    /**
     * Writes the rest of the header and as much of the payload as the socket takes, in one
     * gathering write where the payload's memory can be written straight (one segment for a
     * message that fits, no copy); else the header alone.
     */
    private void writeWithHeader(Connection c, OutFrame f, int len) throws IOException {
        Buf p = f.payload;
        if (c.outBytes != null) {
            ByteBuffer view = unsent(c, f, len);
            int from = view.position();
            c.gather[0] = c.outHeader;
            c.gather[1] = view;
            c.channel.write(c.gather);
            c.gather[0] = c.gather[1] = null;
            f.progress += view.position() - from;
        } else if (len > 0 && c.fd >= 0 && ArraySocketIo.applies(p)) {
            int head = c.outHeader.remaining();
            int n = ArraySocketIo.writeWithHeader(c.fd, c.outHeader, c.outHeader.position(), head, p,
                    f.payloadOff + f.progress, (int) (len - f.progress));
            int h = Math.min(n, head);
            c.outHeader.position(c.outHeader.position() + h);
            f.progress += n - h;
        } else {
            c.channel.write(c.outHeader);
        }
    }

    /** The rest of the payload of {@code f}, from a direct buffer's memory ({@code c.outBytes}). */
    private static ByteBuffer unsent(Connection c, OutFrame f, int len) {
        Buf p = f.payload;
        ByteBuffer view = c.outBytes.duplicate();
        int from = (int) ((long) p.offset * p.kind.bytes + f.payloadOff + f.progress);
        view.limit(from + (int) (len - f.progress)).position(from);
        return view;
    }

    /** Writes the next piece of the payload; false when the socket is full. */
    private boolean writePayload(Connection c, OutFrame f, int len) throws IOException {
        Buf p = f.payload;
        if (c.outBytes != null) {
            // Straight from the direct buffer's memory (typed buffers too): no staging copy.
            int n = c.channel.write(unsent(c, f, len));
            f.progress += n;
            return n > 0 || f.progress >= len;
        }
        if (c.fd >= 0 && ArraySocketIo.applies(p)) {
            // Straight from the array: no staging copy.
            int n = ArraySocketIo.write(c.fd, p, f.payloadOff + f.progress, (int) (len - f.progress));
            f.progress += n;
            return n > 0 || f.progress >= len;
        }
        if (c.stageSent == c.stageFill) {
            int n = (int) Math.min(STAGING, len - f.progress);
            n -= n % Math.max(1, p.kind.bytes);
            if (n == 0) n = (int) (len - f.progress);
            BufAccess.get(p, f.payloadOff + f.progress, c.outStage, 0, n);
            c.stageFill = n;
            c.stageSent = 0;
        }
        ByteBuffer view = c.outStage.duplicate();
        view.limit(c.stageFill).position(c.stageSent);
        int n = c.channel.write(view);
        c.stageSent += n;
        if (c.stageSent == c.stageFill) {
            f.progress += c.stageFill;
            c.stageFill = 0;
            c.stageSent = 0;
        }
        return n > 0;
    }

    // ---- reading -------------------------------------------------------------------------------

    @Override
    public int poll(FrameSink sink) {
        int handled = 0;
        for (Connection c : all) {
            if (c.lost) continue;
            try {
                while (readOne(c, sink)) handled++;
            } catch (IOException e) {
                c.lost = true;
                sink.onPeerLost(c.peer, "lost its TCP connection (" + e.getMessage() + ")");
            }
        }
        return handled;
    }

    /** Advances the frame being read on {@code c}; true when a whole frame was delivered. */
    private boolean readOne(Connection c, FrameSink sink) throws IOException {
        if (c.reading == null) {
            int n = c.channel.read(c.inHeader);
            if (n < 0) throw new IOException("connection closed by rank " + c.peer);
            if (c.inHeader.hasRemaining()) return false;
            Header h = Header.read(c.inHeader, 0);
            c.inHeader.clear();
            if (h.payloadLen < 0 || h.payloadLen > maxPayload()) {
                c.lost = true;
                sink.onPeerLost(c.peer, "sent a frame claiming " + h.payloadLen + " bytes (limit " + maxPayload()
                        + "); connection dropped");
                return false;
            }
            c.reading = h;
            c.target = sink.onHeader(c.peer, h);
            c.payload = c.target == null || !c.target.direct() ? new byte[h.payloadLen] : null;
            c.inBytes = c.payload == null && c.target.buf.isDirect() ? BufAccess.directBytes(c.target.buf, true) : null;
            c.payloadDone = 0;
        }
        Header h = c.reading;
        while (c.payloadDone < h.payloadLen) {
            int n = readPayload(c, h.payloadLen);
            if (n < 0) throw new IOException("connection closed by rank " + c.peer);
            if (n == 0) return false;
        }
        c.reading = null;
        c.inBytes = null;
        FrameSink.Target t = c.target;
        c.target = null;
        byte[] payload = c.payload;
        c.payload = null;
        sink.onFrame(c.peer, h, payload, t);
        return true;
    }

    private int readPayload(Connection c, int len) throws IOException {
        int want = len - c.payloadDone;
        if (c.payload != null) {
            int n;
            if (c.fd >= 0) {
                n = ArraySocketIo.read(c.fd, c.payload, BaseKind.BYTE, c.payloadDone, want);
            } else {
                n = c.channel.read(ByteBuffer.wrap(c.payload, c.payloadDone, want));
            }
            if (n > 0) c.payloadDone += n;
            return n;
        }
        Buf t = c.target.buf;
        if (c.inBytes != null) {
            // Straight into the direct buffer's memory (typed buffers too): no staging copy.
            ByteBuffer view = c.inBytes.duplicate();
            int from = (int) ((long) t.offset * t.kind.bytes + c.target.off + c.payloadDone);
            view.limit(from + want).position(from);
            int n = c.channel.read(view);
            if (n > 0) c.payloadDone += n;
            return n;
        }
        if (c.fd >= 0 && ArraySocketIo.applies(t)) {
            // Straight into the array: no staging copy (a read may end inside an element; the
            // next one completes it in place).
            int n = ArraySocketIo.read(c.fd, t.base, t.kind, (long) t.offset * t.kind.bytes + c.target.off
                    + c.payloadDone, want);
            if (n > 0) c.payloadDone += n;
            return n;
        }
        // Other memory (booleans, typed buffers of the other byte order, or no native library):
        // through the staging buffer. A read may end inside an element (and a message of
        // MPI.BYTE over an int[] may too): BufAccess writes partial elements by
        // read-modify-write, so the next read completes them.
        ByteBuffer stage = c.inStage.duplicate();
        stage.clear().limit(Math.min(STAGING, want));
        int n = c.channel.read(stage);
        if (n <= 0) return n;
        BufAccess.put(c.inStage, 0, t, c.target.off + c.payloadDone, n);
        c.payloadDone += n;
        return n;
    }

    @Override
    public boolean prefersDirectBuffers() {
        return true;
    }

    @Override
    public String name() {
        return "tcp";
    }

    @Override
    public void close() {
        for (Connection c : all) {
            try {
                c.channel.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
