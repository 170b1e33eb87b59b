package io.github.mpi4j.fabric;

import io.github.mpi4j.buffer.TypeMapCopy;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.CompletedRequest;
import io.github.mpi4j.spi.BackendWindow;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;
import mpi.MPIException;

/**
 * A fabric window whose ranks reach each other's memory through the transport (shared-memory
 * rings or TCP): windows over user memory between processes, and any window between nodes (or
 * when {@code MPI4J_RMA=transport} / {@code MPI4J_TRANSPORT=tcp} ask for it). Each rank's
 * {@link RmaService} thread applies the requests aimed at its memory, so passive-target epochs
 * need nothing from the target.
 *
 * <p>Puts and accumulates are sent and not answered (their data is copied into the request, so
 * the origin buffer is free when the call returns); gets, get-accumulates, fetch-and-op and
 * compare-and-swap wait for the target's reply. {@code flush}, {@code unlock}, {@code fence}
 * and {@code complete} wait until the targets have applied everything sent before (a flush
 * request, answered after the earlier requests: a pair's messages never overtake each other),
 * and report errors the target found meanwhile. Lock requests queue at the target (first come,
 * first served) and are answered when granted; {@code MPI.MODE_NOCHECK} sends nothing.
 */
final class TransportWindow implements BackendWindow {
    /** mpi.MPI's values. */
    private static final int LOCK_SHARED = 2, NOCHECK = 1;
    /** Room in a reply for an error text. */
    private static final int TEXT_ROOM = 1024;

    private final FabricComm sync;
    private final FabricComm rma;
    private final Engine engine;
    private final int ctx;
    private final int rank;
    private final int size;
    private final Buf base;
    private final int[] dispUnits;
    private final RmaService service;
    private final AtomicInteger tags = new AtomicInteger();
    /** Targets sent puts or accumulates that no flush has confirmed yet. */
    private final boolean[] dirty;
    /** Targets locked with MODE_NOCHECK: no lock was taken there. */
    private final boolean[] unchecked;
    private final double timeout;
    private final PscwEpochs pscw;
    /** Request-based gets towards each target whose replies may still be coming (guarded by itself). */
    private final java.util.ArrayDeque<Pending>[] pending;

    /** Collective over {@code sync} (a private duplicate the window owns); {@code base} null: a dynamic window. */
    TransportWindow(FabricComm sync, Buf base, long bytes, int dispUnit, double timeout) {
        this.sync = sync;
        this.pscw = new PscwEpochs(sync);
        this.timeout = timeout;
        this.rank = sync.rank();
        this.size = sync.size();
        this.base = base;
        this.dirty = new boolean[size];
        this.unchecked = new boolean[size];
        @SuppressWarnings("unchecked")
        java.util.ArrayDeque<Pending>[] q = new java.util.ArrayDeque[size];
        for (int i = 0; i < size; i++) q[i] = new java.util.ArrayDeque<>();
        this.pending = q;
        this.rma = (FabricComm) sync.dup();
        this.engine = rma.engine;
        this.ctx = rma.p2pContext();
        int[] all = new int[size];
        sync.bracketed("Win", () -> sync.collectives().allGather(new Buf(new int[] {dispUnit}, BaseKind.INT, 0, 1), 1,
                Predefined.T_INT, new Buf(all, BaseKind.INT, 0, size), 1, Predefined.T_INT));
        this.dispUnits = all;
        this.service = new RmaService(rma, base, bytes, "Win");
        barrier("Win");
    }

    private void barrier(String call) {
        sync.bracketed(call, () -> sync.collectives().barrier());
    }

    // ---- requests ------------------------------------------------------------------------------

    private int nextTag() {
        return 16 + (tags.getAndIncrement() & 0x3fffffff);
    }

    /** A request with room for {@code dataBytes} of data after the header and runs. */
    private static ByteBuffer request(int kind, int tag, long offset, long[] runs, int op, int typeId, long dataBytes,
                                      int lockType) {
        if (dataBytes > Integer.MAX_VALUE - RmaService.HEADER - 16L * (runs.length / 2)) {
            throw MPIException.of(Mpi.ERR_COUNT, "Win: " + dataBytes + " bytes in one RMA operation exceed the fabric's "
                    + "limit of 2 GiB");
        }
        int n = RmaService.HEADER + 8 * runs.length + (int) dataBytes;
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.nativeOrder());
        b.putInt(0, kind).putInt(4, tag).putLong(8, offset).putInt(16, runs.length / 2).putInt(20, op)
                .putInt(24, typeId).putInt(28, (int) dataBytes).putInt(32, lockType);
        for (int i = 0; i < runs.length; i++) b.putLong(RmaService.HEADER + 8 * i, runs[i]);
        return b;
    }

    private static int dataAt(ByteBuffer req) {
        return RmaService.HEADER + 16 * req.getInt(16);
    }

    private static Buf buf(ByteBuffer b) {
        return new Buf(b, BaseKind.BYTE, 0, b.capacity());
    }

    private void send(int target, ByteBuffer req) {
        engine.isend(ctx, rma.worldOf(target), RmaService.TAG_REQUEST, buf(req), 0, req.capacity(), false);
    }

    /** Sends {@code req} (whose reply tag is {@code tag}) and waits for the reply of up to {@code dataBytes}. */
    private ByteBuffer call(String call, int target, ByteBuffer req, int tag, long dataBytes) {
        ByteBuffer rep = ByteBuffer.allocate((int) (RmaService.REPLY_HEADER + Math.max(dataBytes, TEXT_ROOM)))
                .order(ByteOrder.nativeOrder());
        Engine.RecvOp r = engine.irecv(ctx, rma.worldOf(target), tag, buf(rep), 0, rep.capacity());
        send(target, req);
        try {
            engine.waitWith(r, call + ": waiting for rank " + target + "'s window", waits());
        } catch (MPIException e) {
            engine.cancel(r);
            throw e;
        }
        RmaService.check(call, target, rep);
        return rep;
    }

    private long at(int target, long disp) {
        return disp * dispUnits[target];
    }

    @Override
    public Buf base() {
        return base;
    }

    @Override
    public void put(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp, int targetCount,
                    TypeDesc targetType) {
        long[] runs = RmaRuns.of(targetType, targetCount);
        long n = RmaRuns.bytes(runs);
        ByteBuffer req = request(RmaService.PUT, 0, at(target, targetDisp), runs, 0, 0, n, 0);
        if (n > 0) TypeMapCopy.pack(origin, originType, originCount, buf(req), dataAt(req));
        send(target, req);
        dirty[target] = true;
    }

    @Override
    public void get(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp, int targetCount,
                    TypeDesc targetType) {
        long[] runs = RmaRuns.of(targetType, targetCount);
        long n = RmaRuns.bytes(runs);
        int tag = nextTag();
        ByteBuffer rep = call("Win.get", target, request(RmaService.GET, tag, at(target, targetDisp), runs, 0, 0, 0, 0),
                tag, n);
        RmaRuns.unpack(buf(rep), RmaService.dataAt(rep), origin, originType, originCount);
    }

    @Override
    public void accumulate(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                           int targetCount, TypeDesc targetType, OpDesc op) {
        TypeDesc leaf = RmaRuns.accumulateLeaf("Win.accumulate", originType, targetType);
        long[] runs = RmaRuns.of(targetType, targetCount);
        long n = RmaRuns.bytes(runs);
        ByteBuffer req = request(RmaService.ACCUMULATE, 0, at(target, targetDisp), runs, op.code.ordinal(),
                leaf.predefinedId, n, 0);
        if (n > 0) TypeMapCopy.pack(origin, originType, originCount, buf(req), dataAt(req));
        send(target, req);
        dirty[target] = true;
    }

    @Override
    public void getAccumulate(Buf origin, int originCount, TypeDesc originType, Buf result, int resultCount,
                              TypeDesc resultType, int target, long targetDisp, int targetCount, TypeDesc targetType,
                              OpDesc op) {
        TypeDesc leaf = RmaRuns.accumulateLeaf("Win.getAccumulate", origin == null ? null : originType, targetType);
        long[] runs = RmaRuns.of(targetType, targetCount);
        long n = RmaRuns.bytes(runs);
        boolean data = origin != null && op.code != OpCode.NO_OP;
        int tag = nextTag();
        ByteBuffer req = request(RmaService.GET_ACCUMULATE, tag, at(target, targetDisp), runs, op.code.ordinal(),
                leaf.predefinedId, data ? n : 0, 0);
        if (data && n > 0) TypeMapCopy.pack(origin, originType, originCount, buf(req), dataAt(req));
        ByteBuffer rep = call("Win.getAccumulate", target, req, tag, n);
        RmaRuns.unpack(buf(rep), RmaService.dataAt(rep), result, resultType, resultCount);
    }

    @Override
    public void fetchAndOp(Buf origin, Buf result, TypeDesc type, int target, long targetDisp, OpDesc op) {
        getAccumulate(origin, 1, type, result, 1, type, target, targetDisp, 1, type, op);
    }

    @Override
    public void compareAndSwap(Buf origin, Buf compare, Buf result, TypeDesc type, int target, long targetDisp) {
        long[] runs = RmaRuns.of(type, 1);
        int n = (int) type.size;
        int tag = nextTag();
        ByteBuffer req = request(RmaService.COMPARE_AND_SWAP, tag, at(target, targetDisp), runs, 0, type.predefinedId,
                2L * n, 0);
        TypeMapCopy.pack(origin, type, 1, buf(req), dataAt(req));
        TypeMapCopy.pack(compare, type, 1, buf(req), dataAt(req) + n);
        ByteBuffer rep = call("Win.compareAndSwap", target, req, tag, n);
        RmaRuns.unpack(buf(rep), RmaService.dataAt(rep), result, type, 1);
    }

    /**
     * MPI_Rput: the data is copied into the request message at the call, so the operation is
     * locally complete at once (its completion at the target is what flush/unlock wait for).
     */
    @Override
    public BackendRequest rPut(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                               int targetCount, TypeDesc targetType) {
        put(origin, originCount, originType, target, targetDisp, targetCount, targetType);
        return new CompletedRequest(null);
    }

    /** MPI_Raccumulate: locally complete at the call, as {@link #rPut}. */
    @Override
    public BackendRequest rAccumulate(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                                      int targetCount, TypeDesc targetType, OpDesc op) {
        accumulate(origin, originCount, originType, target, targetDisp, targetCount, targetType, op);
        return new CompletedRequest(null);
    }

    /** MPI_Rget: the request is sent now; the returned request completes when the data is in {@code origin}. */
    @Override
    public BackendRequest rGet(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                               int targetCount, TypeDesc targetType) {
        long[] runs = RmaRuns.of(targetType, targetCount);
        long n = RmaRuns.bytes(runs);
        int tag = nextTag();
        return start("Win.rGet", target, request(RmaService.GET, tag, at(target, targetDisp), runs, 0, 0, 0, 0), tag,
                n, origin, originType, originCount);
    }

    /** MPI_Rget_accumulate: as {@link #rGet}; the request completes when the old target data is in {@code result}. */
    @Override
    public BackendRequest rGetAccumulate(Buf origin, int originCount, TypeDesc originType, Buf result,
                                         int resultCount, TypeDesc resultType, int target, long targetDisp,
                                         int targetCount, TypeDesc targetType, OpDesc op) {
        TypeDesc leaf = RmaRuns.accumulateLeaf("Win.rGetAccumulate", origin == null ? null : originType, targetType);
        long[] runs = RmaRuns.of(targetType, targetCount);
        long n = RmaRuns.bytes(runs);
        boolean data = origin != null && op.code != OpCode.NO_OP;
        int tag = nextTag();
        ByteBuffer req = request(RmaService.GET_ACCUMULATE, tag, at(target, targetDisp), runs, op.code.ordinal(),
                leaf.predefinedId, data ? n : 0, 0);
        if (data && n > 0) TypeMapCopy.pack(origin, originType, originCount, buf(req), dataAt(req));
        return start("Win.rGetAccumulate", target, req, tag, n, result, resultType, resultCount);
    }

    /** Posts the receive of the reply, sends {@code req}, and returns the request that completes with the reply. */
    private Pending start(String call, int target, ByteBuffer req, int tag, long dataBytes, Buf dst, TypeDesc type,
                          int count) {
        ByteBuffer rep = ByteBuffer.allocate((int) (RmaService.REPLY_HEADER + Math.max(dataBytes, TEXT_ROOM)))
                .order(ByteOrder.nativeOrder());
        Engine.RecvOp r = engine.irecv(ctx, rma.worldOf(target), tag, buf(rep), 0, rep.capacity());
        Pending p = new Pending(call, target, r, rep, dst, type, count);
        synchronized (pending) {
            pending[target].add(p);
        }
        send(target, req);
        return p;
    }

    /** The waits of the origin: spin, yield, then park ({@link Backoff}), by time. */
    private Backoff waits() {
        return new Backoff(WAIT_SPIN_NANOS, WAIT_YIELD_NANOS, engine.oversubscribed());
    }

    private static final long WAIT_SPIN_NANOS = 100_000, WAIT_YIELD_NANOS = 2_000_000;

    /**
     * A request-based get (rGet, rGetAccumulate) whose reply may still be coming. It completes
     * (the reply unpacked into the origin's buffer) once: by its own wait or test, or by the
     * flush, unlock, fence or complete that ends it, whichever comes first; requests complete in
     * any order.
     */
    private final class Pending implements BackendRequest {
        private final String call;
        private final int target;
        private final Engine.RecvOp op;
        private final ByteBuffer rep;
        private final Buf dst;
        private final TypeDesc type;
        private final int count;
        private boolean finished;
        private MPIException error;
        private boolean reported;

        Pending(String call, int target, Engine.RecvOp op, ByteBuffer rep, Buf dst, TypeDesc type, int count) {
            this.call = call;
            this.target = target;
            this.op = op;
            this.rep = rep;
            this.dst = dst;
            this.type = type;
            this.count = count;
        }

        /** Finishes the operation if its reply came (or, {@code block}, waiting for it); false if not yet. */
        synchronized boolean finish(boolean block) {
            if (!finished) {
                if (!op.done) {
                    if (!block) {
                        engine.poke();
                        engine.checkFailure();
                        if (!op.done) return false;
                    } else {
                        try {
                            engine.waitWith(op, call + ": waiting for rank " + target + "'s window", waits());
                        } catch (MPIException e) {
                            engine.cancel(op);
                            done(e);
                            return true;
                        }
                    }
                }
                MPIException e = op.error;
                if (e == null) {
                    try {
                        RmaService.check(call, target, rep);
                        RmaRuns.unpack(buf(rep), RmaService.dataAt(rep), dst, type, count);
                    } catch (MPIException x) {
                        e = x;
                    }
                }
                done(e);
            }
            return true;
        }

        private void done(MPIException e) {
            finished = true;
            error = e;
            synchronized (pending) {
                pending[target].remove(this);
            }
        }

        /** Throws the operation's error once, to the first of its request and a synchronization call. */
        synchronized void report() {
            if (error != null && !reported) {
                reported = true;
                throw error;
            }
        }

        @Override
        public void waitFor(StatusData status) {
            finish(true);
            report();
            if (status != null) status.set(0, 0, 0, false, 0);
        }

        @Override
        public boolean test(StatusData status) {
            if (!finish(false)) return false;
            report();
            if (status != null) status.set(0, 0, 0, false, 0);
            return true;
        }

        @Override
        public void cancel() {
            // RMA operations cannot be cancelled; the request completes with its operation.
        }

        @Override
        public void free() {
            // The operation goes on; the next flush, unlock or fence towards the target completes it.
        }
    }

    /** Completes every request-based get towards {@code target} (their data lands); throws the first error. */
    private void finishPending(int target) {
        while (true) {
            Pending p;
            synchronized (pending) {
                p = pending[target].peek();
            }
            if (p == null) return;
            p.finish(true);
            p.report();
        }
    }

    // ---- synchronization -------------------------------------------------------------------------

    /** Waits until {@code target} applied everything this rank sent it; throws what it found wrong. */
    private void settle(String call, int target) {
        finishPending(target);
        if (!dirty[target]) return;
        int tag = nextTag();
        call(call, target, request(RmaService.FLUSH, tag, 0, new long[0], 0, 0, 0, 0), tag, 0);
        dirty[target] = false;
    }

    private void settleAll(String call) {
        for (int t = 0; t < size; t++) settle(call, t);
    }

    @Override
    public void fence(int assertion) {
        settleAll("Win.fence");
        barrier("Win.fence");
    }

    @Override
    public void post(int[] group, int assertion) {
        pscw.post(group);
    }

    @Override
    public void start(int[] group, int assertion) {
        pscw.start(group);
    }

    @Override
    public void complete() {
        for (int target : pscw.startGroup()) settle("Win.complete", target);
        pscw.complete();
    }

    @Override
    public void waitForExposure() {
        pscw.waitForExposure();
    }

    @Override
    public boolean testExposure() {
        return pscw.testExposure();
    }

    @Override
    public void lock(int lockType, int target, int assertion) {
        if ((assertion & NOCHECK) != 0) {
            unchecked[target] = true;
            return;
        }
        int tag = nextTag();
        try {
            call("Win.lock", target, request(RmaService.LOCK, tag, 0, new long[0], 0, 0, 0, lockType), tag, 0);
        } catch (MPIException e) {
            // Give the request up at the target (or release the lock if it was granted meanwhile).
            send(target, request(RmaService.CANCEL, tag, 0, new long[0], 0, 0, 0, 0));
            throw MPIException.of(e.getErrorClass(), "Win.lock: rank " + target + "'s window was not granted within "
                    + timeout + " s (MPI4J_TIMEOUT): " + e.getMessage());
        }
    }

    @Override
    public void unlock(int target) {
        if (unchecked[target]) {
            unchecked[target] = false;
            settle("Win.unlock", target);
            return;
        }
        finishPending(target);
        int tag = nextTag();
        call("Win.unlock", target, request(RmaService.UNLOCK, tag, 0, new long[0], 0, 0, 0, 0), tag, 0);
        dirty[target] = false;
    }

    @Override
    public void lockAll(int assertion) {
        int locked = 0;
        try {
            for (; locked < size; locked++) lock(LOCK_SHARED, locked, assertion);
        } catch (RuntimeException e) {
            for (int i = 0; i < locked; i++) unlock(i);
            throw e;
        }
    }

    @Override
    public void unlockAll() {
        RuntimeException first = null;
        for (int i = 0; i < size; i++) {
            try {
                unlock(i);
            } catch (RuntimeException e) {
                if (first == null) first = e;
            }
        }
        if (first != null) throw first;
    }

    @Override
    public void flush(int target) {
        settle("Win.flush", target);
    }

    @Override
    public void flushAll() {
        settleAll("Win.flushAll");
    }

    /** The origin data was copied into the request: the origin buffer is free already. */
    @Override
    public void flushLocal(int target) {
    }

    @Override
    public void sync() {
        VarHandle.fullFence();
    }

    // ---- memory ----------------------------------------------------------------------------------

    @Override
    public Buf sharedQuery(int target, int[] dispUnit) {
        throw MPIException.of(Mpi.ERR_WIN, "Win.sharedQuery: this window's memory is reached through the transport, "
                + "not shared (use Win.allocateShared)");
    }

    @Override
    public long attach(Buf memory, long bytes) {
        if (base != null) throw MPIException.of(Mpi.ERR_WIN, "Win.attach: not a dynamic window");
        return service.attach(memory, bytes);
    }

    @Override
    public void detach(Buf memory) {
        if (base != null) throw MPIException.of(Mpi.ERR_WIN, "Win.detach: not a dynamic window");
        service.detach(memory);
    }

    @Override
    public void free() {
        settleAll("Win.free");
        barrier("Win.free");
        service.stop(timeout);
        rma.free();
        sync.free();
    }
}
