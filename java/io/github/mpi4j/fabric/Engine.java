package io.github.mpi4j.fabric;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.ProcessCopy;
import io.github.mpi4j.fabric.transport.FrameSink;
import io.github.mpi4j.fabric.transport.Header;
import io.github.mpi4j.fabric.transport.OutFrame;
import io.github.mpi4j.fabric.transport.Transport;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.StatusData;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;
import mpi.MPIException;

/**
 * The fabric's point-to-point engine for one rank: MPI matching (context, source, tag, with
 * wildcards; posted-receive and unexpected-message queues kept in arrival order, so messages
 * between a pair never overtake each other) over the transports, with two protocols:
 *
 * <ul>
 *   <li>eager: small messages travel in one frame ({@link #EAGER}); a synchronous send asks for
 *       an {@link #ACK} once matched;</li>
 *   <li>rendezvous: larger ones announce themselves ({@link #RTS}); once matched the receiver
 *       answers {@link #CTS} and the sender streams {@link #DATA} frames straight into the
 *       receive buffer, so an unexpected large message costs no buffering. Between processes
 *       of one node, an RTS for a direct buffer also says where the message lies in the
 *       sender's memory ({@link #FLAG_SINGLE_COPY}): the receiver then reads it from there
 *       itself, one copy instead of two ({@link ProcessCopy}), and answers {@link #ACK}; where
 *       it cannot, it answers CTS as usual.</li>
 * </ul>
 *
 * <p>Progress is made by whichever thread waits: {@link #progress()} writes queued frames and
 * polls the transports under one lock. Every wait has a deadline, and a lost peer fails every
 * wait from then on with an exception naming it.
 */
final class Engine implements FrameSink {
    static final int EAGER = 1, RTS = 2, CTS = 3, DATA = 4, ACK = 5, BYE = 6;
    /**
     * "Send me rendezvous only" (a = 1) or "eager again" (a = 0): the receiver holds too much
     * unexpected data from this sender ({@link UnexpectedBudget}).
     */
    static final int THROTTLE = 7;
    static final int FLAG_SYNC = 1;
    /** An RTS whose 8-byte payload is the message's address in the sending process. */
    static final int FLAG_SINGLE_COPY = 2;
    static final int SINGLE_COPY_INFO = 8;

    /** An operation in flight; fields are written under the engine lock, {@link #done} read without. */
    abstract static class Op {
        volatile boolean done;

        /** Completes the op with a release store (no full fence; the waiter reads {@link #done} volatile). */
        final void complete() {
            DONE.setRelease(this, true);
        }
        MPIException error;
        int source;
        int tag;
        long bytes;
        boolean cancelled;

        void fill(StatusData s) {
            if (s != null) s.set(source, tag, 0, cancelled, bytes);
        }
    }

    static final class SendOp extends Op {
        final int dest;
        final Buf buf;
        final long off;
        final long len;
        final boolean sync;
        long id;

        SendOp(int dest, Buf buf, long off, long len, boolean sync) {
            this.dest = dest;
            this.buf = buf;
            this.off = off;
            this.len = len;
            this.sync = sync;
        }

        /**
         * A send written whole at the call, shared by all of them: a send's status is the same
         * for every send (FabricComm.fillStatus), and nothing changes a completed operation.
         */
        static final SendOp WRITTEN = completed(-1, 0, 0);

        /**
         * A send that is complete already (written whole at the call, or a buffered send's
         * copy on its way), with the status a completed send reports.
         */
        static SendOp completed(int source, int tag, long len) {
            SendOp op = new SendOp(-1, null, 0, len, false);
            op.source = source;
            op.tag = tag;
            op.bytes = len;
            op.done = true;
            return op;
        }
    }

    static final class RecvOp extends Op {
        // Not final: the blocking receive reuses one RecvOp (see Engine.recv).
        int ctx;
        int wantSource;
        int wantTag;
        Buf buf;
        long off;
        long capacity;
        long id;
        long expected;
        long received;
        boolean truncated;
        /** Where an eager payload lands: made once per RecvOp, so a reused one allocates nothing. */
        private Target target;

        RecvOp(int ctx, int wantSource, int wantTag, Buf buf, long off, long capacity) {
            reset(ctx, wantSource, wantTag, buf, off, capacity);
        }

        /** Makes a receive new (again, for a reused one: the next blocking receive). */
        void reset(int ctx, int wantSource, int wantTag, Buf buf, long off, long capacity) {
            this.ctx = ctx;
            this.wantSource = wantSource;
            this.wantTag = wantTag;
            this.buf = buf;
            this.off = off;
            this.capacity = capacity;
            id = 0;
            expected = 0;
            received = 0;
            truncated = false;
            error = null;
            source = 0;
            tag = 0;
            bytes = 0;
            cancelled = false;
            DONE.set(this, false);  // plain: the op is published by the lock of the next post
        }

        /**
         * Where a payload lands: byte {@code at} of this receive's buffer. One target per receive,
         * pointed anew for each frame: a receive takes one frame at a time (its eager message,
         * or the DATA frames of its message, which come in order from one peer).
         */
        Target targetAt(long at) {
            Target t = target;
            if (t == null) target = t = new Target(buf, at, this);
            t.buf = buf;
            t.off = at;
            return t;
        }

        /** Drops a completed receive's references to the user's buffer while it waits to be reused. */
        void forgetBuffer() {
            buf = null;
            if (target != null) target.buf = null;
        }

        boolean matches(int src, int tg) {
            return (wantSource == Mpi.ANY_SOURCE || wantSource == src) && (wantTag == Mpi.ANY_TAG || wantTag == tg);
        }
    }

    /** A message that arrived before its receive: an eager payload, or an RTS. */
    private static final class Unexpected {
        final int peer;
        final Header h;
        final byte[] payload;

        Unexpected(int peer, Header h, byte[] payload) {
            this.peer = peer;
            this.h = h;
            this.payload = payload;
        }

        long length() {
            return h.kind == RTS ? h.b : h.payloadLen;
        }
    }

    private static final class Queues {
        final ArrayDeque<RecvOp> posted = new ArrayDeque<>();
        final ArrayDeque<Unexpected> unexpected = new ArrayDeque<>();
    }

    final int me;
    final int size;
    private final Transport[] transportOf;
    private final List<Transport> transports = new ArrayList<>();
    /** The same, as an array: the progress loop walks it without an iterator (nothing allocated per poll). */
    private final Transport[] transportList;
    /**
     * Frames waiting in {@link #outq}, over all peers: written under the lock, read without it by
     * {@link #poke}, which skips the lock when nothing is queued and no transport has input.
     */
    private volatile int queuedFrames;
    private final ArrayDeque<OutFrame>[] outq;
    private final ReentrantLock lock = new ReentrantLock();
    /**
     * The thread that may enter the engine without {@link #lock} while it is not {@link #shared}:
     * the first that entered (the rank's {@code MPI.Init}, or a rank thread of a threads world).
     */
    private volatile Thread owner;
    /**
     * Whether more than one thread may be inside at once, so that every entry takes the lock:
     * from the start under THREAD_MULTIPLE, else from the moment a second thread is handed work
     * ({@link #share}) or comes in. While only the owner enters, the lock is skipped: its
     * acquire and release are full fences, each waiting for the cache lines that the polling
     * peer pulls away, and they bounded the shared-memory small-message rate at about half of
     * C's (docs/performance.md, fourteenth and fifteenth sessions). Once set, it stays set.
     */
    private volatile boolean shared;
    /** What made it {@link #shared} (written before it; read after). */
    private String sharedBecause = "THREAD_MULTIPLE";
    private final Map<Integer, Queues> contexts = new HashMap<>();
    /** Memory that unexpected messages may hold here, per peer and in total. */
    private final UnexpectedBudget budget;
    /** Peers that asked this rank to send them rendezvous only (THROTTLE). */
    private final boolean[] rendezvousOnly;
    /** The operation {@link #waitFor} waits for now (see {@link #readLater}); null outside a wait. */
    private Op awaited;
    /** Peers whose transport can leave frames unread ({@link Transport#keepsUnreadFrames}). */
    private final boolean[] keepsUnread;

    /** Peers whose memory a single-copy read failed to read once: not tried again. */
    private final boolean[] singleCopyFailed;
    private final OpTable waiting = new OpTable();
    private long nextId = 1;
    private final long timeoutNanos;
    private volatile String failure;
    /** Peers that said goodbye (finalized): their connection closing is no failure. */
    private final boolean[] departed;
    private long lastPeerCheck;

    /**
     * More ranks (or rank threads) on this node than processors: a waiting rank gives its core
     * away at once instead of spinning, since the rank it waits for may need that very core
     * (Open MPI does the same when oversubscribed).
     */
    private final boolean oversubscribed;

    @SuppressWarnings("unchecked")
    Engine(int me, Transport[] transportOf, double timeoutSeconds, boolean oversubscribed, boolean multiThreaded) {
        this.me = me;
        this.shared = multiThreaded || !LOCK_ELISION;
        if (!LOCK_ELISION) sharedBecause = "MPI4J_ENGINE_LOCK_ELISION=0";
        this.oversubscribed = oversubscribed;
        this.size = transportOf.length;
        this.transportOf = transportOf;
        this.outq = new ArrayDeque[size];
        this.departed = new boolean[size];
        for (int i = 0; i < size; i++) outq[i] = new ArrayDeque<>();
        Map<Transport, Boolean> seen = new IdentityHashMap<>();
        for (Transport t : transportOf) if (t != null && seen.put(t, true) == null) transports.add(t);
        this.transportList = transports.toArray(new Transport[0]);
        this.timeoutNanos = (long) (timeoutSeconds * 1e9);
        this.budget = UnexpectedBudget.fromSettings(size);
        this.rendezvousOnly = new boolean[size];
        this.singleCopyFailed = new boolean[size];
        this.keepsUnread = new boolean[size];
        for (int p = 0; p < size; p++) keepsUnread[p] = transportOf[p] != null && transportOf[p].keepsUnreadFrames();
    }

    /** {@code MPI4J_ENGINE_LOCK_ELISION=0} (or the property) makes every entry take the lock, as before. */
    private static final boolean LOCK_ELISION = !"0".equals(System.getProperty("mpi4j.engine.lockElision",
            System.getenv().getOrDefault("MPI4J_ENGINE_LOCK_ELISION", "1")));

    /**
     * Another thread of this process is about to work in this engine (the progress thread, a
     * window's service, an intercommunicator's worker): from now on every entry takes the lock.
     * Called by the thread that hands the work over, before it does and outside the engine.
     */
    void share(String helper) {
        if (shared) return;
        sharedBecause = helper + " was handed work";
        shared = true;
    }

    /** Why the engine locks: null while it does not (for tests and diagnostics). */
    String sharedBecause() {
        return shared ? sharedBecause : null;
    }

    /** Whether the engine has left single-thread mode (for tests). */
    boolean isShared() {
        return shared;
    }

    /**
     * Whether the calling thread may enter without the lock: it is the owner (or the first to
     * enter) and no other thread has come in. A thread other than the owner (a THREAD_SERIALIZED program's second
     * thread) switches the engine to locking for good, before it enters.
     */
    private boolean alone() {
        if (shared) return false;
        Thread me = Thread.currentThread();
        Thread first = owner;
        if (first == me || first == null && OWNER.compareAndSet(this, null, me)) return true;
        sharedBecause = "thread " + me.getName() + " entered (the first was " + first + ")";
        shared = true;
        return false;
    }

    /** Enters the engine; returns whether it took the lock (for {@link #leave}). */
    boolean enter() {
        if (alone()) return false;
        lock.lock();
        return true;
    }

    void leave(boolean locked) {
        if (locked) lock.unlock();
    }

    /** Whether the transport to {@code worldRank} moves direct buffers without a staging copy. */
    boolean prefersDirectBuffers(int worldRank) {
        Transport t = transportOf[worldRank];
        return t != null && t.prefersDirectBuffers();
    }

    // =====================================================================================
    // Sending
    // =====================================================================================

    private static int eagerLimit(Transport t, boolean collective) {
        return collective ? t.collectiveEagerLimit() : t.eagerLimit();
    }

    /** Starts sending {@code len} bytes of {@code buf} from byte {@code off}. */
    SendOp isend(int ctx, int dest, int tag, Buf buf, long off, long len, boolean sync) {
        return isend(ctx, dest, tag, buf, off, len, sync, false);
    }

    /** {@link #isend}; a collective's message when {@code collective} ({@link Transport#collectiveEagerLimit}). */
    SendOp isend(int ctx, int dest, int tag, Buf buf, long off, long len, boolean sync, boolean collective) {
        checkFailure();
        if (buf.isNative()) buf = BufAccess.forJava(buf); // host memory viewed, device memory refused
        SendOp op = new SendOp(dest, buf, off, len, sync);
        op.source = me;
        op.tag = tag;
        op.bytes = len;
        Transport t = transportOf[dest];
        boolean locked = enter();
        try {
            if (len <= eagerLimit(t, collective) && !rendezvousOnly[dest]) {
                if (sync) {
                    op.id = register(op);
                }
                Header h = new Header(EAGER, ctx, me, tag, (int) len, sync ? FLAG_SYNC : 0, op.id, len);
                enqueue(new OutFrame(dest, h, buf, off, sync ? null : op::complete));
            } else {
                op.id = register(op);
                int flags = sync ? FLAG_SYNC : 0;
                long at = ProcessCopy.ENABLED && t.processOf(dest) != 0 ? ProcessCopy.readableAddress(buf, off) : 0;
                if (at != 0) {
                    byte[] info = new byte[SINGLE_COPY_INFO];
                    ByteBuffer.wrap(info).putLong(at);
                    frame(dest, RTS, ctx, tag, SINGLE_COPY_INFO, flags | FLAG_SINGLE_COPY, op.id, len,
                            new Buf(info, BaseKind.BYTE, 0, SINGLE_COPY_INFO), 0, null);
                } else {
                    frame(dest, RTS, ctx, tag, 0, flags, op.id, len, null, 0, null);
                }
            }
        } finally {
            leave(locked);
        }
        return op;
    }

    /** Reused by {@link #sendNow} (under the lock) for transports that want a header object. */
    private final Header scratch = new Header();

    /**
     * The allocation-free path of a blocking standard send: when nothing is queued for
     * {@code dest}, the message is small enough to go eagerly and the transport takes the frame
     * whole right now, it is sent (the buffer may be reused) and this returns true; otherwise it
     * does nothing and returns false, and the caller takes the general path ({@link #isend}).
     */
    boolean sendNow(int ctx, int dest, int tag, Buf buf, long len, boolean collective) {
        if (buf.isNative()) return false;
        Transport t = transportOf[dest];
        if (len > eagerLimit(t, collective) || rendezvousOnly[dest] || failure != null) return false;
        boolean locked = enter();
        try {
            if (!outq[dest].isEmpty()) return false;
            return t.writeEager(dest, EAGER, me, ctx, tag, buf, (int) len, scratch);
        } finally {
            leave(locked);
        }
    }

    private long register(Op op) {
        long id = nextId++;
        waiting.put(id, op);
        return id;
    }

    /** Writes {@code f} now if nothing is queued before it, else queues it. Under the lock. */
    private void enqueue(OutFrame f) {
        ArrayDeque<OutFrame> q = outq[f.peer];
        if (q.isEmpty() && transportOf[f.peer].write(f)) {
            if (f.done != null) f.done.run();
            return;
        }
        q.add(f);
        queuedFrames++;
    }

    /**
     * Sends a frame of {@code len} payload bytes of {@code buf} from byte {@code off}. With
     * nothing queued for {@code peer} and a transport that takes it whole at once, it is written
     * from the reused {@link #scratch} header and nothing is allocated (the control frames and
     * DATA frames of a rendezvous); otherwise it is queued as an {@link OutFrame}.
     * {@code completes}: a send that is done once this frame is written, or null. Under the lock.
     */
    private void frame(int peer, int kind, int ctx, int tag, int len, int flags, long a, long b, Buf buf, long off,
                       SendOp completes) {
        if (outq[peer].isEmpty()) {
            Header h = scratch;
            h.kind = kind;
            h.ctx = ctx;
            h.src = me;
            h.tag = tag;
            h.payloadLen = len;
            h.flags = flags;
            h.a = a;
            h.b = b;
            if (transportOf[peer].writeWhole(peer, h, buf, off)) {
                if (completes != null) completes.complete();
                return;
            }
        }
        Header h = new Header(kind, ctx, me, tag, len, flags, a, b);
        enqueue(new OutFrame(peer, h, buf, off, completes == null ? null : completes::complete));
    }

    private void control(int peer, int kind, long a, long b) {
        frame(peer, kind, 0, 0, 0, 0, a, b, null, 0, null);
    }

    /** After a CTS: stream the message in DATA frames; the send completes with the last one. */
    private void startData(SendOp op, long recvId) {
        int chunk = transportOf[op.dest].maxPayload();
        if (op.len == 0) {
            op.complete();
            return;
        }
        for (long at = 0; at < op.len; at += chunk) {
            int n = (int) Math.min(chunk, op.len - at);
            boolean last = at + n >= op.len;
            frame(op.dest, DATA, 0, 0, n, 0, recvId, at, op.buf, op.off + at, last ? op : null);
        }
    }

    // =====================================================================================
    // Receiving
    // =====================================================================================

    /** Posts a receive of up to {@code capacity} bytes into {@code buf} from byte {@code off}. */
    RecvOp irecv(int ctx, int source, int tag, Buf buf, long off, long capacity) {
        checkFailure();
        if (buf.isNative()) buf = BufAccess.forJava(buf); // host memory viewed, device memory refused
        return post(new RecvOp(ctx, source, tag, buf, off, capacity));
    }

    /**
     * {@link #irecv} with a receive made before, which must have completed normally (not
     * cancelled, no error: then nothing in the engine refers to it any more). A persistent
     * receive posts its one operation again at each start, and allocates nothing.
     */
    RecvOp irecvAgain(RecvOp op, int ctx, int source, int tag, Buf buf, long off, long capacity) {
        checkFailure();
        if (buf.isNative()) buf = BufAccess.forJava(buf);
        op.reset(ctx, source, tag, buf, off, capacity);
        return post(op);
    }

    /** Whether {@code op} may be posted again by {@link #irecvAgain}. */
    static boolean reusable(RecvOp op) {
        return op.done && !op.cancelled && op.error == null;
    }

    /**
     * A spare receive for blocking receives: taken by one, given back once it completed
     * normally (then nothing refers to it any more), so a blocking receive allocates nothing.
     * Threads that find it taken make their own.
     */
    private volatile RecvOp spareRecv = new RecvOp(0, 0, 0, null, 0, 0);
    private static final VarHandle SPARE;
    private static final VarHandle DONE;
    /** {@link #owner} and {@link #unexpectedArrivals}. */
    private static final VarHandle OWNER;
    private static final VarHandle ARRIVALS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SPARE = l.findVarHandle(Engine.class, "spareRecv", RecvOp.class);
            DONE = l.findVarHandle(Op.class, "done", boolean.class);
            OWNER = l.findVarHandle(Engine.class, "owner", Thread.class);
            ARRIVALS = l.findVarHandle(Engine.class, "unexpectedArrivals", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A blocking receive: posts, waits and fills {@code status} with the world source; throws
     * what the receive failed with.
     */
    void recv(int ctx, int source, int tag, Buf buf, long capacity, StatusData status, int[] rankOfWorld,
              String what) {
        checkFailure();
        if (buf.isNative()) buf = BufAccess.forJava(buf);
        RecvOp op = (RecvOp) SPARE.getAndSet(this, null);
        if (op == null) op = new RecvOp(ctx, source, tag, buf, 0, capacity);
        else op.reset(ctx, source, tag, buf, 0, capacity);
        waitFor(post(op), what);
        if (status != null) {
            int src = op.source;
            status.set(src == Mpi.ANY_SOURCE ? src : rankOfWorld[src], op.tag, 0, op.cancelled, op.bytes);
        }
        op.forgetBuffer();  // keep no user buffer alive
        SPARE.setRelease(this, op);  // (a release store: no full fence on the hot path)
    }

    private RecvOp post(RecvOp op) {
        boolean locked = enter();
        try {
            Queues q = queues(op.ctx);
            Unexpected first = q.unexpected.peekFirst();
            if (first != null && op.matches(first.peer, first.h.tag)) {
                // The oldest message matches (a stream of messages from one peer): no iterator.
                q.unexpected.pollFirst();
                credit(first);
                accept(op, first.peer, first.h, first.payload);
                return op;
            }
            if (first != null) {  // (no iterator allocated on the common paths)
                for (Iterator<Unexpected> it = q.unexpected.iterator(); it.hasNext(); ) {
                    Unexpected u = it.next();
                    if (op.matches(u.peer, u.h.tag)) {
                        it.remove();
                        credit(u);
                        accept(op, u.peer, u.h, u.payload);
                        return op;
                    }
                }
            }
            q.posted.add(op);
        } finally {
            leave(locked);
        }
        return op;
    }

    /** A posted receive meets its message (eager payload in hand, or an RTS). Under the lock. */
    private void accept(RecvOp op, int peer, Header h, byte[] payload) {
        op.source = peer;
        op.tag = h.tag;
        if (h.kind == EAGER) {
            int n = payload.length;
            long fit = Math.min(n, op.capacity);
            if (fit > 0) BufAccess.copyFromBytes(payload, op.buf, op.off, (int) fit);
            finishRecv(op, n, peer, h);
        } else {
            if ((h.flags & FLAG_SINGLE_COPY) != 0 && readFromSender(op, peer, h, payload)) return;
            op.expected = h.b;
            op.truncated = h.b > op.capacity;
            op.id = register(op);
            control(peer, CTS, h.a, op.id);
            if (h.b == 0) completeRendezvous(op);
        }
    }

    /**
     * Receives a rendezvous message by reading it out of the sender's memory (where the RTS says
     * it lies) and tells the sender it is done (ACK). False, having changed nothing the protocol
     * depends on, where this receive's memory cannot take a single copy or the read fails (no
     * permission to read other processes, say): then the caller answers CTS as usual and the
     * message comes in DATA frames. Under the lock.
     */
    private boolean readFromSender(RecvOp op, int peer, Header h, byte[] payload) {
        // Only the memory of the peer's own process, as its transport knows it: never a process
        // that the frame names (or one on another node, whose frames come through TCP).
        long pid = transportOf[peer].processOf(peer);
        if (pid == 0 || singleCopyFailed[peer] || payload == null || !ProcessCopy.canReceive(op.buf)) return false;
        long fit = Math.min(h.b, op.capacity);
        if (fit > 0 && ProcessCopy.read(pid, ByteBuffer.wrap(payload).getLong(0), op.buf, op.off, fit) != fit) {
            singleCopyFailed[peer] = true;  // it would fail again: the two-copy path from now on
            return false;
        }
        op.bytes = fit;
        if (h.b > op.capacity) op.error = truncated(op, h.b);
        control(peer, ACK, h.a, 0);
        op.complete();
        return true;
    }

    private void finishRecv(RecvOp op, long n, int peer, Header h) {
        op.bytes = Math.min(n, op.capacity);
        if (n > op.capacity) {
            op.error = truncated(op, n);
        }
        if ((h.flags & FLAG_SYNC) != 0) control(peer, ACK, h.a, 0);
        op.complete();
    }

    private void completeRendezvous(RecvOp op) {
        waiting.remove(op.id);
        op.bytes = Math.min(op.expected, op.capacity);
        if (op.truncated) op.error = truncated(op, op.expected);
        op.complete();
    }

    private static MPIException truncated(RecvOp op, long n) {
        return new MPIException(Mpi.ERR_TRUNCATE, Mpi.ERR_TRUNCATE, "receive: message of " + n
                + " bytes from rank " + op.source + " (tag " + op.tag + ") is longer than the receive buffer ("
                + op.capacity + " bytes)");
    }

    /** The last context looked up: almost every lookup repeats it (no boxing, no hashing). */
    private int lastCtx = -1;
    private Queues lastQueues;

    private Queues queues(int ctx) {
        if (ctx == lastCtx && lastQueues != null) return lastQueues;
        Queues q = contexts.computeIfAbsent(ctx, k -> new Queues());
        lastCtx = ctx;
        lastQueues = q;
        return q;
    }

    /** Cancels a receive that has not matched yet. */
    void cancel(RecvOp op) {
        boolean locked = enter();
        try {
            if (!op.done && queues(op.ctx).posted.remove(op)) {
                op.cancelled = true;
                op.source = Mpi.ANY_SOURCE;
                op.tag = Mpi.ANY_TAG;
                op.done = true;
            }
        } finally {
            leave(locked);
        }
    }

    /**
     * Gives up an operation of a failed collective: a receive that has not matched leaves the
     * posted queue, a send stops waiting for its CTS or ACK (a late one is ignored). Data
     * already flowing for a matched message completes as usual.
     */
    void abandon(Op op) {
        boolean locked = enter();
        try {
            if (op.done) return;
            if (op instanceof RecvOp) {
                RecvOp r = (RecvOp) op;
                if (queues(r.ctx).posted.remove(r)) {
                    r.cancelled = true;
                    r.done = true;
                }
            } else if (op instanceof SendOp) {
                SendOp s = (SendOp) op;
                if (s.id != 0 && waiting.get(s.id) == s) {
                    waiting.remove(s.id);
                    s.cancelled = true;
                    s.done = true;
                }
            }
        } finally {
            leave(locked);
        }
    }

    /** Drops the unexpected messages of {@code ctx} whose tag {@code stray} accepts; returns how many. */
    int discard(int ctx, IntPredicate stray) {
        boolean locked = enter();
        try {
            Queues q = contexts.get(ctx);
            if (q == null) return 0;
            int n = 0;
            for (Iterator<Unexpected> it = q.unexpected.iterator(); it.hasNext(); ) {
                Unexpected u = it.next();
                if (stray.test(u.h.tag)) {
                    it.remove();
                    credit(u);
                    n++;
                }
            }
            return n;
        } finally {
            leave(locked);
        }
    }

    /**
     * Forgets context {@code ctx} (its communicator was freed): its queues go, with any message
     * that arrived for it unreceived. Receives still posted on it keep it until they complete.
     */
    void release(int ctx) {
        boolean locked = enter();
        try {
            Queues q = contexts.get(ctx);
            if (q == null) return;
            for (Unexpected u : q.unexpected) credit(u);
            q.unexpected.clear();
            if (q.posted.isEmpty()) contexts.remove(ctx);
            if (lastCtx == ctx) {
                lastCtx = -1;
                lastQueues = null;
            }
        } finally {
            leave(locked);
        }
    }

    /** Contexts with queues (tests: freed communicators leave none behind). */
    int contextCount() {
        boolean locked = enter();
        try {
            return contexts.size();
        } finally {
            leave(locked);
        }
    }

    /** Messages waiting for a receive, over all contexts (tests: failed collectives leave none). */
    int unexpectedCount() {
        boolean locked = enter();
        try {
            int n = 0;
            for (Queues q : contexts.values()) n += q.unexpected.size();
            return n;
        } finally {
            leave(locked);
        }
    }

    /** Status of the first waiting message that {@code (source, tag)} matches, or false. */
    boolean iprobe(int ctx, int source, int tag, StatusData status) {
        checkFailure();
        boolean locked = enter();
        try {
            progress();
            for (Unexpected u : queues(ctx).unexpected) {
                if ((source == Mpi.ANY_SOURCE || source == u.peer) && (tag == Mpi.ANY_TAG || tag == u.h.tag)) {
                    status.set(u.peer, u.h.tag, 0, false, u.length());
                    return true;
                }
            }
            return false;
        } finally {
            leave(locked);
        }
    }

    // =====================================================================================
    // Frames arriving (FrameSink), always under the lock
    // =====================================================================================

    @Override
    public Target onHeader(int peer, Header h) {
        String bad = malformation(peer, h);
        if (bad != null) {
            violation(peer, h, bad, null);
            return null;
        }
        switch (h.kind) {
            case EAGER: {
                RecvOp op = takePosted(peer, h);
                if (op == null) return readLater(peer, h) ? LATER : null;
                // A message longer than the buffer comes as bytes; what fits is copied in onFrame.
                return h.payloadLen > op.capacity ? new Target(null, 0, op) : op.targetAt(op.off);
            }
            case DATA: {
                RecvOp op = dataTarget(peer, h);
                // Past the buffer's capacity (a truncated message): the part that fits is copied in onFrame.
                if (op == null || h.b + h.payloadLen > op.capacity) return null;
                return op.targetAt(op.off + h.b);
            }
            default:
                return null;
        }
    }

    /**
     * Whether an eager message that no receive waits for stays in its ring for now: only while
     * the wait in progress is already over (so nobody needs what follows it), only from
     * {@link #READ_LATER_FROM} bytes, and only in single-thread mode. The next receive is then
     * usually posted before the message is read, which lands it in the receiver's buffer with
     * one copy, where reading it now takes two and a heap array. A stream of blocking 64 KiB
     * sends otherwise ran the receiver behind the sender, whose unexpected messages piled up to
     * the budget (hundreds of MiB) and whose collections copied them: 7-175 us a message
     * (docs/performance.md, forty-first session). Anyone else's poll reads it as before.
     */
    private boolean readLater(int peer, Header h) {
        Op a = awaited;
        return a != null && h.payloadLen >= READ_LATER_FROM && a.done && !shared && keepsUnread[peer];
    }

    /** Unexpected eager messages from this size up may be left in their ring ({@link #readLater}). */
    static final int READ_LATER_FROM = 4 * 1024;

    /**
     * What is wrong with the fields every frame must have right (it comes from the rank it names,
     * is of a known kind, has non-negative lengths), or null. No side effects: onHeader reports
     * the violation, onFrame then drops the same frame.
     */
    private static String malformation(int peer, Header h) {
        if (h.src != peer) return "source rank " + h.src + " on rank " + peer + "'s connection";
        if (h.kind < EAGER || h.kind > THROTTLE) return "unknown kind " + h.kind;
        if (h.payloadLen < 0) return "negative length " + h.payloadLen;
        if (h.kind == RTS && h.b < 0) return "negative length " + h.b;
        if (h.kind == RTS && h.payloadLen != ((h.flags & FLAG_SINGLE_COPY) != 0 ? SINGLE_COPY_INFO : 0)) {
            return "a request to send with " + h.payloadLen + " payload bytes";
        }
        return null;
    }

    /**
     * The receive a DATA frame fills, once its fields are checked against it: the receive is
     * waiting for a message of {@code peer}, and the frame's bytes lie inside the message that
     * {@code peer} announced and after what already arrived. Null for a frame to drop: one for no
     * receive of ours, or one that broke the protocol (then the receive has failed).
     */
    private RecvOp dataTarget(int peer, Header h) {
        Op o = waiting.get(h.a);
        if (!(o instanceof RecvOp)) return null;
        RecvOp op = (RecvOp) o;
        if (peer != op.source) {
            violation(peer, h, "data for a receive that matched rank " + op.source + "'s message", op);
            return null;
        }
        long len = h.payloadLen;
        if (h.b < 0 || h.b > op.expected - len || op.received > op.expected - len) {
            violation(peer, h, "offset " + h.b + " and length " + len + " outside the " + op.expected
                    + "-byte message it announced (" + op.received + " bytes arrived)", op);
            return null;
        }
        return op;
    }

    /**
     * {@code peer} broke the protocol (it holds the job secret but sent a frame that no correct
     * rank sends): nothing of the frame is written, {@code victim} (the receive it aimed at)
     * fails, and the peer counts as lost, so every wait from now on fails naming it.
     */
    private void violation(int peer, Header h, String what, RecvOp victim) {
        String why = "broke the fabric protocol: a frame of kind " + h.kind + " with " + what + " (" + h + ")";
        if (victim != null && !victim.done) {
            waiting.remove(victim.id);
            victim.error = MPIException.of(Mpi.ERR_OTHER, "receive: rank " + peer + " " + why);
            victim.done = true;
        }
        if (failure == null) failure = "rank " + peer + " " + why;
    }

    /** See {@link #unexpectedArrivals()}; written under the lock. */
    private volatile long unexpectedArrivals;

    /** Queues a message that arrived before its receive, within the budget. Under the lock. */
    private void queueUnexpected(int peer, Header h, byte[] payload) {
        // The transport may reuse h for its next frame: keep a copy.
        queues(h.ctx).unexpected.add(new Unexpected(peer, h.copy(), payload));
        ARRIVALS.setRelease(this, unexpectedArrivals + 1);  // (no full fence per message; readers read it volatile)
        arrived(h.ctx);
        long bytes = payload == null ? 0 : payload.length;
        if (budget.charge(peer, bytes) && !departed[peer]) {
            budget.setThrottled(peer, true);
            control(peer, THROTTLE, 1, 0);
        } else if (budget.hardLimit(peer)) {
            violation(peer, h, budget.heldFrom(peer) + " bytes of unreceived eager messages after being asked for "
                    + "rendezvous only (budget " + budget.perPeer + " bytes, MPI4J_UNEXPECTED_PEER_MB)", null);
        }
    }

    /**
     * How many messages have been queued as unexpected so far, on any context (counted under the
     * lock, read without it). While it stays the same no new message can be waiting in a queue,
     * so a wait that looks for one kind of message (collective failure notices) need not search.
     */
    long unexpectedArrivals() {
        return unexpectedArrivals;
    }

    /** An unexpected message left its queue (received, discarded, or its context freed). Under the lock. */
    private void credit(Unexpected u) {
        if (budget.credit(u.peer, u.payload == null ? 0 : u.payload.length)) {
            budget.setThrottled(u.peer, false);
            if (!departed[u.peer]) control(u.peer, THROTTLE, 0, 0);
        }
    }

    /** Bytes held by unexpected messages from {@code peer} (tests). */
    long unexpectedBytesFrom(int peer) {
        boolean locked = enter();
        try {
            return budget.heldFrom(peer);
        } finally {
            leave(locked);
        }
    }

    /** Removes and returns the first posted receive matching a message from {@code peer}. */
    private RecvOp takePosted(int peer, Header h) {
        Queues q = queues(h.ctx);
        RecvOp first = q.posted.peekFirst();
        if (first == null) return null;
        if (first.matches(peer, h.tag)) {  // the common case, without an iterator
            q.posted.pollFirst();
            return first;
        }
        for (Iterator<RecvOp> it = q.posted.iterator(); it.hasNext(); ) {
            RecvOp op = it.next();
            if (op.matches(peer, h.tag)) {
                it.remove();
                return op;
            }
        }
        return null;
    }

    @Override
    public void onFrame(int peer, Header h, byte[] payload, Target target) {
        if (malformation(peer, h) != null) return;  // reported by onHeader
        switch (h.kind) {
            case EAGER: {
                // A receive may have been posted while the payload was still arriving.
                RecvOp op = target != null ? (RecvOp) target.cookie : takePosted(peer, h);
                if (op != null) {
                    op.source = peer;
                    op.tag = h.tag;
                    if (payload != null) {
                        long fit = Math.min(payload.length, op.capacity);
                        if (fit > 0) BufAccess.copy(new Buf(payload, BaseKind.BYTE, 0, payload.length), 0, op.buf,
                                op.off, fit);
                    }
                    finishRecv(op, h.payloadLen, peer, h);
                } else {
                    queueUnexpected(peer, h, payload);
                }
                break;
            }
            case RTS: {
                RecvOp op = takePosted(peer, h);
                if (op != null) accept(op, peer, h, payload);
                else queueUnexpected(peer, h, payload);
                break;
            }
            case CTS: {
                Op op = waiting.remove(h.a);
                if (op instanceof SendOp) startData((SendOp) op, h.b);
                break;
            }
            case DATA: {
                RecvOp op = target != null ? (RecvOp) target.cookie : dataTarget(peer, h);
                if (op != null && !op.done) {
                    if (payload != null && h.b < op.capacity) {
                        // The part of a truncated message that still fits.
                        long fit = Math.min(payload.length, op.capacity - h.b);
                        BufAccess.copy(new Buf(payload, BaseKind.BYTE, 0, payload.length), 0, op.buf, op.off + h.b,
                                fit);
                    }
                    op.received += h.payloadLen;
                    if (op.received >= op.expected) completeRendezvous(op);
                }
                break;
            }
            case ACK: {
                Op op = waiting.remove(h.a);
                if (op != null) op.complete();
                break;
            }
            case BYE:
                departed[peer] = true;
                break;
            case THROTTLE:
                rendezvousOnly[peer] = h.a != 0;
                break;
            default:
                break;  // unknown kinds were refused by malformation()
        }
    }

    @Override
    public void onPeerLost(int peer, String why) {
        if (peer >= 0 && departed[peer]) return;
        if (failure == null) failure = peer >= 0 ? "rank " + peer + " " + why : why;
    }

    // =====================================================================================
    // Progress and waiting
    // =====================================================================================

    /** Writes what the transports accept and delivers what arrived. Under the lock. */
    private int progress() {
        int work = 0;
        for (int p = 0; p < size; p++) {
            ArrayDeque<OutFrame> q = outq[p];
            OutFrame f;
            while ((f = q.peek()) != null && transportOf[p].write(f)) {
                q.poll();
                queuedFrames--;
                if (f.done != null) f.done.run();
                work++;
            }
        }
        for (int i = 0; i < transportList.length; i++) work += transportList[i].poll(this);
        return work;
    }

    private boolean inputWaiting() {
        for (Transport t : transportList) if (t.hasInput()) return true;
        return false;
    }

    /** One round of progress if no other thread is making it; returns the work done. */
    int poke() {
        // The common idle round: nothing to write, nothing arrived - no lock, no atomic.
        if (queuedFrames == 0 && !inputWaiting()) return 0;
        boolean locked = !alone();
        if (locked && !lock.tryLock()) return 0;
        try {
            return progress();
        } finally {
            leave(locked);
        }
    }

    /** Waits until {@code op} completes, making progress; throws its error, a peer loss or a timeout. */
    void waitFor(Op op, String what) {
        waitFor(op, what, null);
    }

    /**
     * The same, but returns early, with {@code op} not done, once {@code stop} says so (asked
     * every few idle rounds, so it may cost a little: collectives read failure notices in it).
     */
    void waitFor(Op op, String what, BooleanSupplier stop) {
        if (op.done) {
            if (op.error != null) throw op.error;
            return;
        }
        // The deadline is set at the first check, 256 idle rounds in: most waits end sooner, and
        // a clock read on entry showed in the small-message profiles (about 3 ns of a 165 ns
        // one-way 8-byte latency in an A/B, twenty-fifth session).
        long deadline = 0;
        int idle = 0;
        long idleSince = 0;
        Op outer = awaited;
        awaited = op;
        try {
            // One way out of the loop (op.done after a poke), not a second test at its head: a way
            // out that the JIT's profile has not seen taken is compiled as a trap, and taking it
            // once recompiled every send and receive path this loop is inlined into.
            while (true) {
                int work = poke();
                if (op.done) break;
                if (work > 0) {
                    idle = 0;
                    idleSince = 0;
                    continue;
                }
                idle++;
                if (stop != null && (idle & 0x3f) == 0 && stop.getAsBoolean()) {
                    if (!op.done) return;
                    break;
                }
                if ((idle & 0xff) == 0) deadline = checkWait(deadline, what);
                idleSince = pause(idle, idleSince);
            }
        } finally {
            awaited = outer;
        }
        if (op.error != null) throw op.error;
    }

    /**
     * Every few idle rounds of a wait: a lost peer, a failure notice or the deadline ends it.
     * A {@code deadline} of 0 is not set yet: it becomes {@code timeoutNanos} from now. Returns
     * the deadline.
     */
    private long checkWait(long deadline, String what) {
        long now = System.nanoTime();
        if (deadline == 0) deadline = now + timeoutNanos;
        checkPeers(now);
        checkFailure();
        if (now - deadline > 0) {
            throw MPIException.of(Mpi.ERR_OTHER, what + ": no completion within " + timeoutNanos / 1e9
                    + " s (the fabric's deadline; set MPI4J_TIMEOUT to change it)");
        }
        return deadline;
    }

    /**
     * One idle round of a wait ({@link WaitPolicy}): spin first (latency), then yield, then
     * sleep briefly so a long wait does not burn a core; when oversubscribed, yield from the
     * start. The phases go by time, not by rounds, since a round costs 30x more before the JIT
     * has compiled the loop than after (by rounds, an interpreted rank spun for milliseconds
     * while the compiler threads waited for its core). Returns when this idle run began
     * (0 while it is short enough that the clock is not read).
     */
    private long pause(int idle, long idleSince) {
        return WaitPolicy.pause(idle, idleSince, oversubscribed);
    }

    private void checkPeers(long now) {
        if (now - lastPeerCheck < 50_000_000L) return;
        lastPeerCheck = now;
        boolean locked = !alone();
        if (locked && !lock.tryLock()) return;
        try {
            for (Transport t : transports) t.checkPeers(this);
        } finally {
            leave(locked);
        }
    }

    void checkFailure() {
        String f = failure;
        if (f != null) {
            throw MPIException.of(Mpi.ERR_OTHER, "the fabric lost a peer: " + f);
        }
    }

    /** Blocks until a message matching (source, tag) is waiting; fills {@code status}. */
    void probe(int ctx, int source, int tag, StatusData status, String what) {
        long deadline = System.nanoTime() + timeoutNanos;
        int idle = 0;
        long idleSince = 0;
        while (!iprobe(ctx, source, tag, status)) {
            idle++;
            if ((idle & 0xff) == 0) {
                checkPeers(System.nanoTime());
                if (System.nanoTime() - deadline > 0) {
                    throw MPIException.of(Mpi.ERR_OTHER, what + ": no message within " + timeoutNanos / 1e9 + " s");
                }
            }
            idleSince = pause(idle, idleSince);
        }
    }

    /** Writes every queued frame (before closing: peers may still be waiting for them). */
    void flush() {
        long deadline = System.nanoTime() + Math.min(timeoutNanos, 30_000_000_000L);
        int idle = 0;
        long idleSince = 0;
        while (true) {
            boolean empty = true;
            boolean locked = enter();
            try {
                progress();
                for (ArrayDeque<OutFrame> q : outq) empty &= q.isEmpty();
            } finally {
                leave(locked);
            }
            if (empty || failure != null || System.nanoTime() - deadline > 0) return;
            idleSince = pause(++idle, idleSince);
        }
    }

    /** Tells every peer this rank is done (after the final barrier), so its exit is no failure. */
    void sayGoodbye() {
        boolean locked = enter();
        try {
            for (int p = 0; p < size; p++) if (p != me) control(p, BYE, 0, 0);
        } finally {
            leave(locked);
        }
        flush();
    }

    void close() {
        for (Transport t : transports) t.close();
    }

    // ---- matched probes (issue 10) ----

    /**
     * MPI_Improbe: the first waiting message that (source, tag) matches, taken out of the
     * unexpected queue so no other receive can match it, its status in {@code status}; or null.
     * The result is an opaque token for {@link #receiveMatched}. Its memory leaves the unexpected
     * budget now: the message belongs to the program from here on.
     */
    Object takeMatching(int ctx, int source, int tag, StatusData status) {
        checkFailure();
        boolean locked = enter();
        try {
            progress();
            for (Iterator<Unexpected> it = queues(ctx).unexpected.iterator(); it.hasNext(); ) {
                Unexpected u = it.next();
                if ((source == Mpi.ANY_SOURCE || source == u.peer) && (tag == Mpi.ANY_TAG || tag == u.h.tag)) {
                    it.remove();
                    credit(u);
                    status.set(u.peer, u.h.tag, 0, false, u.length());
                    return u;
                }
            }
            return null;
        } finally {
            leave(locked);
        }
    }

    /** MPI_Mprobe: {@link #takeMatching} until a message comes, within the deadline. */
    Object takeMatchingBlocking(int ctx, int source, int tag, StatusData status, String what) {
        long deadline = System.nanoTime() + timeoutNanos;
        int idle = 0;
        long idleSince = 0;
        Object m;
        while ((m = takeMatching(ctx, source, tag, status)) == null) {
            idle++;
            if ((idle & 0xff) == 0) {
                checkPeers(System.nanoTime());
                if (System.nanoTime() - deadline > 0) {
                    throw MPIException.of(Mpi.ERR_OTHER, what + ": no message within " + timeoutNanos / 1e9 + " s");
                }
            }
            idleSince = pause(idle, idleSince);
        }
        return m;
    }

    /** Receives a message taken by {@link #takeMatching} into {@code buf}: as a receive that found it waiting. */
    RecvOp receiveMatched(int ctx, Object matched, Buf buf, long off, long capacity) {
        checkFailure();
        if (buf.isNative()) buf = BufAccess.forJava(buf);
        Unexpected u = (Unexpected) matched;
        RecvOp op = new RecvOp(ctx, u.peer, u.h.tag, buf, off, capacity);
        boolean locked = enter();
        try {
            accept(op, u.peer, u.h, u.payload);
        } finally {
            leave(locked);
        }
        return op;
    }

    // ---- issue 11 (h23): waking RMA service threads, waits with a Backoff ----

    /** Threads to unpark when a message arrives unexpected on a context (RMA services), as parallel arrays. */
    private static final class Wakers {
        final int[] ctx;
        final Thread[] thread;

        Wakers(int[] ctx, Thread[] thread) {
            this.ctx = ctx;
            this.thread = thread;
        }
    }

    private volatile Wakers wakers = new Wakers(new int[0], new Thread[0]);

    /**
     * Unpark {@code thread} whenever a message arrives unexpected on {@code ctx} while another
     * thread of this process makes progress (a window's RMA service, parked, is woken by the
     * rank's own waits); {@code thread} null removes the entry.
     */
    synchronized void wakeOnArrival(int ctx, Thread thread) {
        Wakers w = wakers;
        int n = 0;
        int[] c = new int[w.ctx.length + 1];
        Thread[] t = new Thread[c.length];
        for (int i = 0; i < w.ctx.length; i++) {
            if (w.ctx[i] == ctx) continue;
            c[n] = w.ctx[i];
            t[n++] = w.thread[i];
        }
        if (thread != null) {
            c[n] = ctx;
            t[n++] = thread;
        }
        wakers = new Wakers(java.util.Arrays.copyOf(c, n), java.util.Arrays.copyOf(t, n));
    }

    /** Under the lock: a message was queued unexpected on {@code ctx}. */
    private void arrived(int ctx) {
        Wakers w = wakers;
        for (int i = 0; i < w.ctx.length; i++) {
            if (w.ctx[i] == ctx) {
                Thread t = w.thread[i];
                if (t != Thread.currentThread()) java.util.concurrent.locks.LockSupport.unpark(t);
                return;
            }
        }
    }

    /** More ranks on this node than processors (waiting threads should not spin). */
    boolean oversubscribed() {
        return oversubscribed;
    }

    /** {@link #waitFor(Op, String)} with its idle pauses taken from {@code backoff} (by time, not rounds). */
    void waitWith(Op op, String what, Backoff backoff) {
        if (!op.done) {
            long deadline = 0; // (set at the first check, as in waitFor)
            backoff.busy();
            int idle = 0;
            while (!op.done) {
                if (poke() > 0) {
                    backoff.busy();
                    continue;
                }
                if (op.done) break;
                if ((++idle & 0xff) == 0) deadline = checkWait(deadline, what);
                backoff.pause();
            }
        }
        if (op.error != null) throw op.error;
    }
}
