package io.github.mpi4j.fabric.transport;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.SharedStores;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Shared memory between the ranks of one node. Every rank owns an inbox: a file under
 * /dev/shm holding one single-producer/single-consumer ring per local sender. A ring is a
 * 128-byte header (the consumer's head) followed by a power-of-two data area and {@link #SLACK}
 * bytes more. Frames (header + payload, padded to 8 bytes) are written whole but for their first
 * int, which is never 0 (a kind, or the short form's bit): the frame after it must read 0 until
 * it is written, and the frame is published by a release store of its first int. The reader
 * acquires the first int at its head (0: nothing yet), copies the frame out and releases the
 * head, which the writer reads only every {@link #HEAD_REFRESH_BYTES}. So a small message moves
 * the cache lines of its frame and nothing else, as Open MPI's fast boxes do; a separate tail
 * index moved a second line per message (8-byte latency 1.16-1.19x C with it, about 1.0x
 * without; docs/performance.md, sixteenth session). For the same reason the writer keeps the
 * ring zeroed a few lines past its tail ({@link #ZERO_AHEAD}), a line at a time, after it
 * publishes: a small frame then finds the next frame's mark already 0 and writes only its own
 * lines. Clearing that mark just before the release store had meant, whenever it fell in the
 * next line, taking that line back from the reader's core before the frame could be seen (8-byte
 * latency about 0.39 µs instead of 0.32 with the cores apart, 0.145 instead of 0.13 together;
 * forty-second session). Positions only grow; index = position mod capacity. A frame of up to
 * {@code SLACK} bytes is contiguous even where it crosses the end of the data area (it runs on
 * into the slack), so headers and eager messages never wrap:
 * only the payloads of larger frames wrap to the start. No two unread frames can both reach
 * into the slack, as they would have to be more than a ring apart.
 *
 * <p>Why: a branch that a method's profile never saw taken is left out of the code the JIT
 * compiles, and taking it later throws that code away. A ring's first wrapped header, and a
 * writer's first re-read of the head, came only after thousands of small messages, once the
 * send and receive paths were compiled, and each recompiled them (stalls of 1–3 ms in the first
 * seconds of a job, docs/performance.md).
 *
 * <p>Large messages travel as a stream of frames of at most a quarter ring each (rendezvous
 * DATA), so sender and receiver copy concurrently.
 *
 * <p>After the rings an inbox file may hold the rank's collective arena ({@link ShmArena}),
 * which the collectives read and write directly; the transport never touches it.
 */
public final class ShmTransport implements Transport {
    public static final int RING_HEADER = 128;
    /**
     * Messages up to this size go eagerly (a ring of less than 256 KiB lowers it to a quarter
     * ring). 64 KiB rather than 16: at 16–64 KiB a rendezvous's three steps cost more than the
     * extra copy, most of all with more ranks than cores, where each step waits for a peer to be
     * scheduled (np 4 bcast of 32 KiB on 2 cores: 93–143 µs at 16 KiB, 38–45 µs at 64 KiB;
     * docs/performance.md, tenth session).
     */
    private static final int EAGER_LIMIT = 64 * 1024;
    /**
     * Bytes after a ring's data area that a frame crossing its end runs on into: at least an
     * eager frame's most (65,576), in whole pages so that rings and the collective arena after
     * them keep the alignment of their offsets (copies into misaligned rings measured slower).
     */
    static final int SLACK = 68 * 1024;
    /**
     * A writer reads the ring's head again once it has written this much since it last did, not
     * only when the ring looks full: so the re-read is a branch taken regularly (see above).
     */
    static final int HEAD_REFRESH_BYTES = 64 * 1024;

    static {
        if (SLACK < padded(Header.BYTES + EAGER_LIMIT)) throw new AssertionError("ring slack below an eager frame");
    }

    private static final int HEAD = 0;
    /** Bytes kept free after a frame for the next frame's mark, which must read 0. */
    private static final int NEXT_MARK = 8;
    /**
     * How far past the start of its tail's cache line a writer keeps the ring zeroed (three
     * lines): far enough that the next small frame's mark is already 0.
     */
    private static final int ZERO_AHEAD = 192;
    /**
     * A frame's header comes in one of two forms, told apart by the top bit of its first int.
     * The short form (16 bytes: kind and flags, payload length, context, tag) is for frames whose
     * {@code a} is 0 and {@code b} the payload length, from the ring's own sender: every plain
     * eager message. An 8-byte message then takes 24 bytes of ring instead of 48, so a cache
     * line holds almost three instead of one and a bit; each line the polling reader takes away
     * from the writer costs it a transfer (about 220 ns across this guest's core complexes), and
     * per message that was what separated the small-message rate from C's (Open MPI's fast boxes
     * have 8-byte headers). docs/performance.md, fifteenth session.
     */
    private static final int SHORT_FORM = 0x8000_0000;
    static final int SHORT_HEADER = 16;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle INTS = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final int me;
    private final int capacity;
    private final long mask;
    private final int[] localIndexOf;     // world rank -> index among local ranks, or -1
    private final int[] worldOfLocal;     // local index -> world rank
    private final long[] pids;            // world rank -> pid (for liveness)
    private final MappedByteBuffer inbox;
    private final MappedByteBuffer[] outboxes; // local index -> the peer's inbox
    private final long[] tails;           // local index -> my tail in that peer's ring for me
    private final long[] headsSeen;       // local index -> last head read there
    private final long[] zeroedTo;        // local index -> that ring reads 0 from my tail up to here
    private final SharedStores[] stores;  // local index -> how large payloads are stored into its ring
    private final long[] readHeads;       // local index -> my head in my inbox ring from that peer
    private final boolean[] broken;       // local index -> that peer wrote a malformed frame: not read again
    /** How much a writer writes between reads of a ring's head: {@link #HEAD_REFRESH_BYTES}, or a smaller ring's size. */
    private final int refreshBytes;
    /** Where my ring lies in each peer's inbox, and its data area. */
    private final int myBase, myData;
    /**
     * The header of the frame being delivered, reused for every frame (no allocation per
     * message): a sink that keeps a header past {@code onFrame} copies it.
     */
    private final Header received = new Header();

    /** Size of a rank's inbox file for {@code localRanks} senders. */
    public static long inboxBytes(int localRanks, int capacity) {
        return (long) localRanks * ringStride(capacity);
    }

    private static long ringStride(int capacity) {
        return RING_HEADER + capacity + SLACK;
    }

    /**
     * Creates (and maps) this rank's inbox file, followed by a collective arena of up to
     * {@code arenaBytes} (see {@link ShmArena}). The arena is allocated before the file is
     * mapped and left out when tmpfs has no room for it; the mapping's capacity minus
     * {@link #inboxBytes} is the arena actually made (0 or {@code arenaBytes}).
     */
    public static MappedByteBuffer createInbox(Path file, int localRanks, int capacity, long arenaBytes)
            throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            long size = inboxBytes(localRanks, capacity);
            long arena = ShmArena.allocate(ch, size, arenaBytes);
            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, 0, size + arena);
            m.order(ByteOrder.nativeOrder());
            return m;
        }
    }

    /** Maps another rank's inbox, with the {@code arenaBytes} of arena its owner made. */
    public static MappedByteBuffer mapInbox(Path file, int localRanks, int capacity, long arenaBytes)
            throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, 0,
                    inboxBytes(localRanks, capacity) + arenaBytes);
            m.order(ByteOrder.nativeOrder());
            return m;
        }
    }

    /**
     * @param worldOfLocal world ranks on this node, in local-index order
     * @param inbox        this rank's mapped inbox
     * @param outboxes     the mapped inboxes of the local ranks (by local index; own entry unused)
     */
    public ShmTransport(int me, int worldSize, int[] worldOfLocal, long[] pids, int capacity, MappedByteBuffer inbox,
                        MappedByteBuffer[] outboxes) {
        if (Integer.bitCount(capacity) != 1) throw new IllegalArgumentException("ring capacity must be a power of two");
        this.me = me;
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.refreshBytes = Math.min(capacity, HEAD_REFRESH_BYTES);
        this.worldOfLocal = worldOfLocal;
        this.localIndexOf = new int[worldSize];
        java.util.Arrays.fill(localIndexOf, -1);
        for (int i = 0; i < worldOfLocal.length; i++) localIndexOf[worldOfLocal[i]] = i;
        this.myBase = ringBase(localIndexOf[me]);
        this.myData = myBase + RING_HEADER;
        this.pids = pids;
        this.inbox = inbox;
        this.outboxes = outboxes;
        int n = worldOfLocal.length;
        this.tails = new long[n];
        this.headsSeen = new long[n];
        this.zeroedTo = new long[n];
        this.stores = new SharedStores[n];
        for (int i = 0; i < n; i++) stores[i] = new SharedStores();
        this.readHeads = new long[n];
        this.broken = new boolean[n];
    }

    private int ringBase(int localIndex) {
        return (int) (localIndex * ringStride(capacity));
    }

    @Override
    public int maxPayload() {
        return capacity / 4;
    }

    @Override
    public boolean keepsUnreadFrames() {
        return true;
    }

    /** Its peers are processes of this node (each ring is shared between two of them). */
    @Override
    public long processOf(int peer) {
        return peer == me || peer < 0 || peer >= pids.length ? 0 : Math.max(0, pids[peer]);
    }

    @Override
    public int eagerLimit() {
        return Math.min(EAGER_LIMIT, capacity / 4);
    }

    /** Whether a frame of {@code need} bytes lies in one piece (into the slack): writer and reader must agree. */
    private static boolean contiguous(int need) {
        return need <= SLACK;
    }

    private static int padded(int n) {
        return (n + 7) & ~7;
    }

    @Override
    public boolean write(OutFrame f) {
        return writeWhole(f.peer, f.header, f.payload, f.payloadOff);
    }

    /** Frames go into the ring whole or not at all, so this is every write. */
    @Override
    public boolean writeWhole(int peer, Header h, Buf payload, long payloadOff) {
        int len = h.payloadLen;
        if (h.a == 0 && h.b == len && h.src == me && (h.flags & ~0xff) == 0 && (h.kind & ~0xffff) == 0) {
            return writeShort(localIndexOf[peer], h.kind, h.flags, h.ctx, h.tag, payload, payloadOff, len);
        }
        if (h.kind == 0) throw new IllegalArgumentException("frame kind 0 (the mark of an unwritten frame)");
        int peerLocal = localIndexOf[peer];
        int need = padded(Header.BYTES + len);
        long tail = tails[peerLocal];
        if (!room(peerLocal, tail, need)) return false;
        MappedByteBuffer ring = outboxes[peerLocal];
        h.writeAfterKind(ring, myData + (int) (tail & mask));  // a header never wraps (SLACK)
        putPayload(peerLocal, ring, tail, Header.BYTES, need, payload, payloadOff, len);
        publish(peerLocal, ring, tail, need, h.kind);
        return true;
    }

    /**
     * A plain eager message (the per-message path of small sends) with the short header, written
     * from the arguments: no header object to fill and read back.
     */
    @Override
    public boolean writeEager(int peer, int kind, int src, int ctx, int tag, Buf payload, int len, Header scratch) {
        if (src != me || (kind & ~0xffff) != 0) {
            return Transport.super.writeEager(peer, kind, src, ctx, tag, payload, len, scratch);  // the long form
        }
        return writeShort(localIndexOf[peer], kind, 0, ctx, tag, payload, 0, len);
    }

    /** A frame with the short header (see {@link #SHORT_FORM}), whole or not at all. */
    private boolean writeShort(int peerLocal, int kind, int flags, int ctx, int tag, Buf payload, long payloadOff,
                               int len) {
        int need = padded(SHORT_HEADER + len);
        long tail = tails[peerLocal];
        if (!room(peerLocal, tail, need)) return false;
        MappedByteBuffer ring = outboxes[peerLocal];
        int at = myData + (int) (tail & mask);  // a header never wraps (SLACK)
        ring.putInt(at + 4, len);
        ring.putInt(at + 8, ctx);
        ring.putInt(at + 12, tag);
        putPayload(peerLocal, ring, tail, SHORT_HEADER, need, payload, payloadOff, len);
        publish(peerLocal, ring, tail, need, SHORT_FORM | flags << 16 | kind);
        return true;
    }

    /**
     * The payload of a frame of {@code need} bytes at {@code tail}, after its header: large ones
     * through the ring's {@link SharedStores}, which streams them past the cache where plain
     * stores would first have to take each line back from the reader's core.
     */
    private void putPayload(int peerLocal, ByteBuffer ring, long tail, int headerBytes, int need, Buf payload,
                            long payloadOff, int len) {
        if (len == 0) return;
        SharedStores out = stores[peerLocal];
        if (contiguous(need)) {
            out.copy(payload, payloadOff, ring, myData + (int) (tail & mask) + headerBytes, len);  // may run into SLACK
        } else {
            putWrapping(out, ring, myData, tail + headerBytes, payload, payloadOff, len);
        }
    }

    /**
     * Whether a frame of {@code need} bytes, and the next frame's mark after it, fit in the ring
     * to that peer; re-reads its head every {@link #refreshBytes}.
     */
    private boolean room(int peerLocal, long tail, int need) {
        long end = tail + need + NEXT_MARK;
        if (end - headsSeen[peerLocal] <= refreshBytes) return true;
        headsSeen[peerLocal] = (long) LONGS.getAcquire(outboxes[peerLocal], myBase + HEAD);
        return end - headsSeen[peerLocal] <= capacity;
    }

    /**
     * Publishes the frame written at {@code tail} (all of it but its first int): makes sure the
     * next frame's mark reads 0, then stores this frame's first int, never 0, with release
     * semantics. The reader polls that int at its head, so a message moves its frame's lines and
     * nothing else. Then it zeroes the ring up to {@link #ZERO_AHEAD} past the new tail's line,
     * where the reader is done with it: those stores come before the next frame's release store,
     * so the reader sees them first, and they are made while the peer is busy with this frame.
     */
    private void publish(int peerLocal, MappedByteBuffer ring, long tail, int need, int mark) {
        long next = tail + need;
        long zeroed = zeroedTo[peerLocal];
        if (next + NEXT_MARK > zeroed) {  // a large frame, or a ring too full to zero ahead
            ring.putInt(myData + (int) (next & mask), 0);
            zeroed = next + NEXT_MARK;
        }
        tails[peerLocal] = next;
        INTS.setRelease(ring, myData + (int) (tail & mask), mark);
        long upTo = (next & -64L) + ZERO_AHEAD;
        if (zeroed < upTo && upTo - headsSeen[peerLocal] <= capacity) {  // never over frames not yet read
            for (long p = zeroed; p < upTo; p += 8) ring.putLong(myData + (int) (p & mask), 0L);
            zeroed = upTo;
        }
        zeroedTo[peerLocal] = zeroed;
    }

    private void putWrapping(SharedStores out, ByteBuffer ring, int data, long pos, Buf src, long srcOff, int n) {
        int at = (int) (pos & mask);
        int first = Math.min(n, capacity - at);
        out.copy(src, srcOff, ring, data + at, first);
        if (first < n) out.copy(src, srcOff + first, ring, data, n - first);
    }

    private void getPayload(ByteBuffer ring, int data, long pos, Buf dst, long dstOff, int n) {
        int at = (int) (pos & mask);
        int first = Math.min(n, capacity - at);
        BufAccess.put(ring, data + at, dst, dstOff, first);
        if (first < n) BufAccess.put(ring, data, dst, dstOff + first, n - first);
    }

    /** A frame is waiting in some ring of this inbox (racy read of our own head: a stale one says yes). */
    @Override
    public boolean hasInput() {
        for (int i = 0; i < worldOfLocal.length; i++) {
            if (worldOfLocal[i] == me || broken[i]) continue;
            if ((int) INTS.getAcquire(inbox, ringBase(i) + RING_HEADER + (int) (readHeads[i] & mask)) != 0) return true;
        }
        return false;
    }

    @Override
    public int poll(FrameSink sink) {
        int handled = 0;
        for (int i = 0; i < worldOfLocal.length; i++) {
            int peer = worldOfLocal[i];
            if (peer == me || broken[i]) continue;
            int base = ringBase(i);
            int data = base + RING_HEADER;
            long head = readHeads[i];
            while (true) {
                int at = (int) (head & mask);
                int first = (int) INTS.getAcquire(inbox, data + at);  // the frame's mark; the header never wraps (SLACK)
                if (first == 0) break;
                Header h = received;
                int headerBytes;
                if ((first & SHORT_FORM) != 0) {
                    h.kind = first & 0xffff;
                    h.flags = (first >>> 16) & 0xff;
                    h.payloadLen = inbox.getInt(data + at + 4);
                    h.ctx = inbox.getInt(data + at + 8);
                    h.tag = inbox.getInt(data + at + 12);
                    h.src = peer;
                    h.a = 0;
                    h.b = h.payloadLen;
                    headerBytes = SHORT_HEADER;
                } else {
                    h.readFrom(inbox, data + at);  // its kind is the mark
                    headerBytes = Header.BYTES;
                }
                int len = h.payloadLen;
                if (len < 0 || len > maxPayload()) {
                    sink.onPeerLost(peer, "sent a malformed frame over shared memory (payload " + len + " bytes)");
                    broken[i] = true;  // where its next frame starts is unknown: read nothing more from it
                    return handled;
                }
                FrameSink.Target t = sink.onHeader(peer, h);
                if (t == FrameSink.LATER) break;  // left in the ring, with what follows it
                boolean direct = t != null && t.direct();
                int need = padded(headerBytes + len);
                byte[] copy = null;
                if (len > 0) {
                    Buf into = direct ? t.buf : null;
                    long intoOff = direct ? t.off : 0;
                    if (!direct) {
                        copy = new byte[len];
                        into = new Buf(copy, BaseKind.BYTE, 0, len);
                    }
                    if (contiguous(need)) BufAccess.put(inbox, data + at + headerBytes, into, intoOff, len);
                    else getPayload(inbox, data, head + headerBytes, into, intoOff, len);
                } else if (!direct) {
                    copy = new byte[0];
                }
                head += need;
                readHeads[i] = head;
                LONGS.setRelease(inbox, base + HEAD, head);
                sink.onFrame(peer, h, direct ? null : copy, t);
                handled++;
            }
        }
        return handled;
    }

    @Override
    public void checkPeers(FrameSink sink) {
        for (int peer : worldOfLocal) {
            if (peer == me || pids[peer] <= 0) continue;
            boolean alive = ProcessHandle.of(pids[peer]).map(ProcessHandle::isAlive).orElse(false);
            if (!alive) sink.onPeerLost(peer, "(pid " + pids[peer] + ") is no longer running");
        }
    }

    @Override
    public String name() {
        return "shm";
    }

    @Override
    public void close() {
        // Mappings go with the buffers; the files were unlinked once every rank had mapped them.
    }

    /** Removes {@code file} if present. */
    public static void unlink(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // the launcher removes leftovers of the job too
        }
    }
}
