package io.github.mpi4j.fabric;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.locks.LockSupport;
import mpi.MPIException;

/**
 * The target side of a fabric window whose ranks cannot load and store each other's memory
 * (different processes over user memory, different nodes; see {@link TransportWindow}): one
 * daemon thread per window and rank that takes the requests other ranks (and this one) send on
 * the window's private communicator and applies them to this rank's window memory. So passive
 * target works without the target calling anything, and every operation on this rank's window
 * runs on one thread, one after the other: accumulates, fetch-and-op and compare-and-swap are
 * atomic with respect to each other (MPI's rule for same-op accumulates, element-wise and more).
 * Requests from one origin are applied in the order it sent them (the fabric never reorders the
 * messages of a pair).
 *
 * <p>Wire format of a request (native byte order): {@link #HEADER} bytes — kind, reply tag,
 * window byte offset (long), run count, op code, element type id, data bytes, lock type — then
 * the target runs (offset, length pairs, {@link RmaRuns}), then the packed data. A reply starts
 * with a status word and the length of an error text, then the text, then the data.
 */
final class RmaService implements Runnable {
    static final int TAG_REQUEST = 1;
    static final int PUT = 1, GET = 2, ACCUMULATE = 3, GET_ACCUMULATE = 4, COMPARE_AND_SWAP = 5, LOCK = 6,
            UNLOCK = 7, FLUSH = 8, CANCEL = 9;
    static final int HEADER = 40, REPLY_HEADER = 8;
    private static final int LOCK_EXCLUSIVE = 1;

    private final FabricComm comm;
    private final Engine engine;
    private final int ctx;
    private final Buf mem;
    private final long memBytes;
    /** Dynamic windows: attached memory by its address (first byte), and the next address to hand out. */
    private final java.util.concurrent.ConcurrentSkipListMap<Long, Buf> attached =
            new java.util.concurrent.ConcurrentSkipListMap<>();
    private long nextAddress = 1L << 32;
    private final String name;
    private volatile boolean stopping;
    private volatile String died;
    private final Thread thread;
    /**
     * The idle policy (issue 11): spin while requests came recently (within {@link #SPIN_NANOS}
     * of the last one; not when the node is oversubscribed), yield up to {@link #YIELD_NANOS},
     * then park, longer the longer the window stays idle ({@link Backoff}); a request that another
     * thread of this process receives for the window unparks the service at once
     * ({@link Engine#wakeOnArrival}).
     */
    static final long SPIN_NANOS = 200_000, YIELD_NANOS = 2_000_000;
    /** Waits of the service for its own sends and receives (one thread: the service's). */
    private final Backoff replies;

    // ---- passive-target lock of this rank's window (touched by the service thread only) ----
    private int exclusiveHolder = -1;
    private int readers;
    private final ArrayDeque<long[]> waiting = new ArrayDeque<>(); // {origin, replyTag, lockType}
    /** An error a request without a reply (put, accumulate) met, reported by the origin's next flush. */
    private final String[] deferred;

    RmaService(FabricComm comm, Buf mem, long memBytes, String name) {
        this.comm = comm;
        this.engine = comm.engine;
        this.ctx = comm.p2pContext();
        this.mem = mem;
        this.memBytes = memBytes;
        this.name = name;
        this.deferred = new String[comm.size()];
        this.replies = new Backoff(SPIN_NANOS, YIELD_NANOS, engine.oversubscribed());
        engine.share("a window's service thread");
        this.thread = new Thread(this, "mpi4j-rma-" + name + "-rank" + comm.rank());
        thread.setDaemon(true);
        thread.start();
    }

    /** Why the service stopped serving before the window was freed, or null. */
    String failure() {
        return died;
    }

    /** Stops the thread (after the collective free: no request is in flight), waiting at most {@code seconds}. */
    void stop(double seconds) {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join((long) (seconds * 1000) + 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        StatusData status = new StatusData();
        engine.wakeOnArrival(ctx, thread);
        try {
            serveLoop(status);
        } finally {
            engine.wakeOnArrival(ctx, null);
        }
    }

    private void serveLoop(StatusData status) {
        Backoff idle = new Backoff(SPIN_NANOS, YIELD_NANOS, engine.oversubscribed());
        while (!stopping) {
            Object m;
            try {
                m = engine.takeMatching(ctx, Mpi.ANY_SOURCE, TAG_REQUEST, status);
            } catch (RuntimeException e) {
                if (!stopping) died = "the fabric failed under " + name + "'s RMA service: " + e.getMessage();
                return;
            }
            if (m == null) {
                idle.pause();
                continue;
            }
            idle.busy();
            int origin = comm.rankOfWorld(status.source);
            try {
                long len = status.bytes;
                Buf req = new Buf(ByteBuffer.allocate((int) len).order(ByteOrder.nativeOrder()), BaseKind.BYTE, 0,
                        (int) len);
                Engine.RecvOp op = engine.receiveMatched(ctx, m, req, 0, len);
                engine.waitWith(op, name + ": receiving an RMA request of rank " + origin, replies);
                serveOrAnswer(origin, (ByteBuffer) req.base);
            } catch (RuntimeException e) {
                if (stopping) return;
                died = name + "'s RMA service failed on a request of rank " + origin + ": " + e.getMessage();
                return;
            }
        }
    }

    /** Serves a request; one that cannot be applied is answered with the error (or reported at the next flush). */
    private void serveOrAnswer(int origin, ByteBuffer r) {
        try {
            serve(origin, r);
        } catch (MPIException | IndexOutOfBoundsException | NullPointerException e) {
            int tag = r.getInt(4);
            String why = "cannot apply a request: " + e.getMessage();
            if (tag != 0) {
                reply(origin, tag, why, null, 0);
            } else if (deferred[origin] == null) {
                deferred[origin] = why;
            }
        }
    }

    private void serve(int origin, ByteBuffer r) {
        int kind = r.getInt(0), tag = r.getInt(4);
        long offset = r.getLong(8);
        int nRuns = r.getInt(16), opCode = r.getInt(20), typeId = r.getInt(24), dataBytes = r.getInt(28);
        int lockType = r.getInt(32);
        long[] runs = new long[2 * nRuns];
        for (int i = 0; i < runs.length; i++) runs[i] = r.getLong(HEADER + 8 * i);
        int dataAt = HEADER + 16 * nRuns;
        Buf req = new Buf(r, BaseKind.BYTE, 0, r.capacity());
        switch (kind) {
            case LOCK:
                lock(origin, tag, lockType);
                return;
            case UNLOCK:
                unlock(origin);
                reply(origin, tag, takeDeferred(origin), null, 0);
                return;
            case CANCEL:
                cancel(origin, tag);
                return;
            case FLUSH:
                reply(origin, tag, takeDeferred(origin), null, 0);
                return;
            default:
                break;
        }
        String bad = check(offset, runs);
        if (bad != null) {
            if (tag == 0) {
                if (deferred[origin] == null) deferred[origin] = bad;
            } else {
                reply(origin, tag, bad, null, 0);
            }
            return;
        }
        long n = RmaRuns.bytes(runs);
        Buf mem = this.mem;
        if (mem == null) { // dynamic: the attached memory holding the addressed bytes
            java.util.Map.Entry<Long, Buf> e = attached.floorEntry(offset);
            mem = e.getValue();
            offset -= e.getKey();
        }
        switch (kind) {
            case PUT:
                RmaRuns.scatter(req, dataAt, mem, offset, runs);
                return;
            case ACCUMULATE: {
                TypeDesc leaf = RmaRuns.type(typeId);
                RmaRuns.reduce(RmaRuns.op(opCode), leaf, req, dataAt, mem, offset, runs);
                return;
            }
            case GET: {
                Buf out = replyBuf(n);
                RmaRuns.gather(mem, offset, runs, out, REPLY_HEADER);
                send(origin, tag, out);
                return;
            }
            case GET_ACCUMULATE: {
                Buf out = replyBuf(n);
                RmaRuns.gather(mem, offset, runs, out, REPLY_HEADER);
                if (dataBytes > 0) {
                    RmaRuns.reduce(RmaRuns.op(opCode), RmaRuns.type(typeId), req, dataAt, mem, offset, runs);
                }
                send(origin, tag, out);
                return;
            }
            case COMPARE_AND_SWAP: {
                // data: the new value, then the compare value; one element of n bytes.
                Buf out = replyBuf(n);
                RmaRuns.gather(mem, offset, runs, out, REPLY_HEADER);
                ByteBuffer o = (ByteBuffer) out.base;
                boolean equal = true;
                for (int i = 0; i < n; i++) equal &= o.get(REPLY_HEADER + i) == r.get(dataAt + (int) n + i);
                if (equal) RmaRuns.scatter(req, dataAt, mem, offset, runs);
                send(origin, tag, out);
                return;
            }
            default:
                if (tag != 0) reply(origin, tag, "unknown RMA request kind " + kind, null, 0);
        }
    }

    /** Null when the runs from {@code offset} lie inside this rank's window, else why not. */
    private String check(long offset, long[] runs) {
        long end = RmaRuns.end(runs);
        if (mem == null) {
            java.util.Map.Entry<Long, Buf> e = attached.floorEntry(offset);
            Buf b = e == null ? null : e.getValue();
            long len = b == null ? 0 : (long) b.length * b.kind.bytes;
            if (b == null || offset - e.getKey() > len - end) {
                return "bytes [" + offset + ", " + (offset + end) + ") are not inside memory attached to rank "
                        + comm.rank() + "'s dynamic window";
            }
            return null;
        }
        if (offset < 0 || offset > memBytes - end) {
            return "bytes [" + offset + ", " + (offset + end) + ") lie outside rank " + comm.rank() + "'s window of "
                    + memBytes + " bytes";
        }
        return null;
    }

    private String takeDeferred(int origin) {
        String d = deferred[origin];
        deferred[origin] = null;
        return d;
    }

    /** MPI_Win_attach at this rank: the memory gets the next free address range (4 GiB apart). */
    synchronized long attach(Buf memory, long bytes) {
        for (java.util.Map.Entry<Long, Buf> e : attached.entrySet()) {
            if (e.getValue().base == memory.base) {
                throw MPIException.of(Mpi.ERR_BASE, "Win.attach: this memory is attached already (at address "
                        + e.getKey() + ")");
            }
        }
        long at = nextAddress;
        nextAddress += 1L << 32;
        attached.put(at, new Buf(memory.base, memory.kind, memory.offset, (int) (bytes / memory.kind.bytes)));
        return at;
    }

    /** MPI_Win_detach: RMA to that memory fails from now on. */
    synchronized void detach(Buf memory) {
        for (java.util.Map.Entry<Long, Buf> e : attached.entrySet()) {
            if (e.getValue().base == memory.base) {
                attached.remove(e.getKey());
                return;
            }
        }
        throw MPIException.of(Mpi.ERR_BASE, "Win.detach: this memory is not attached to the window");
    }

    // ---- locks ----------------------------------------------------------------------------

    private boolean grantable(long type) {
        if (exclusiveHolder >= 0) return false;
        return type != LOCK_EXCLUSIVE || readers == 0;
    }

    private void lock(int origin, int tag, int type) {
        if (waiting.isEmpty() && grantable(type)) {
            grant(origin, tag, type);
        } else {
            waiting.add(new long[] {origin, tag, type});
        }
    }

    private void grant(int origin, int tag, long type) {
        if (type == LOCK_EXCLUSIVE) {
            exclusiveHolder = origin;
        } else {
            readers++;
        }
        reply(origin, tag, null, null, 0);
    }

    private void unlock(int origin) {
        if (exclusiveHolder == origin) {
            exclusiveHolder = -1;
        } else if (readers > 0) {
            readers--;
        }
        while (!waiting.isEmpty() && grantable(waiting.peek()[2])) {
            long[] w = waiting.poll();
            grant((int) w[0], (int) w[1], w[2]);
        }
    }

    /** The origin gave up waiting for a lock: drop the request, or release the lock if it was granted meanwhile. */
    private void cancel(int origin, int tag) {
        for (Iterator<long[]> it = waiting.iterator(); it.hasNext(); ) {
            long[] w = it.next();
            if (w[0] == origin && w[1] == tag) {
                it.remove();
                return;
            }
        }
        unlock(origin);
    }

    // ---- replies --------------------------------------------------------------------------

    private static Buf replyBuf(long dataBytes) {
        int n = (int) (REPLY_HEADER + dataBytes);
        return new Buf(ByteBuffer.allocate(n).order(ByteOrder.nativeOrder()), BaseKind.BYTE, 0, n);
    }

    private void reply(int origin, int tag, String error, Buf data, long n) {
        if (error != null && error.length() > 300) error = error.substring(0, 300) + "...";
        byte[] text = error == null ? new byte[0] : error.getBytes(StandardCharsets.UTF_8);
        int len = REPLY_HEADER + text.length;
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.nativeOrder());
        b.putInt(0, error == null ? 0 : Mpi.ERR_DISP).putInt(4, text.length);
        b.put(REPLY_HEADER, text, 0, text.length);
        send(origin, tag, new Buf(b, BaseKind.BYTE, 0, len));
    }

    private void send(int origin, int tag, Buf b) {
        Engine.SendOp s = engine.isend(ctx, comm.worldOf(origin), tag, b, 0, b.length, false);
        engine.waitWith(s, name + ": replying to rank " + origin, replies);
    }

    /** Throws the error a reply carries. */
    static void check(String call, int target, ByteBuffer reply) {
        int status = reply.getInt(0);
        if (status == 0) return;
        byte[] text = new byte[reply.getInt(4)];
        reply.get(REPLY_HEADER, text, 0, text.length);
        throw MPIException.of(status, call + ": rank " + target + ": " + new String(text, StandardCharsets.UTF_8));
    }

    /** Where the data of a reply starts (after the header and the error text). */
    static int dataAt(ByteBuffer reply) {
        return REPLY_HEADER + reply.getInt(4);
    }
}
