package io.github.mpi4j.fabric;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.fabric.coll.CollChannel;
import io.github.mpi4j.fabric.coll.Schedule;
import io.github.mpi4j.fabric.coll.Collectives;
import io.github.mpi4j.fabric.coll.SharedSlots;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.CollectiveOps;
import io.github.mpi4j.spi.CompletedRequest;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.SendMode;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.util.Arrays;
import java.util.Comparator;
import mpi.MPIException;

/**
 * A communicator of the fabric: its members (world ranks), this rank's place among them, and a
 * context id agreed by all members. User messages travel on context {@code 2*id}, collective
 * traffic on {@code 2*id+1}, so the two never match each other, nor another communicator's.
 */
final class FabricComm implements BackendComm, CollChannel {
    /** Tags are 31-bit; keep the top values for nothing in particular but stay within MPI's minimum. */
    static final int TAG_UB = Integer.MAX_VALUE;

    final FabricBackend backend;
    final Engine engine;
    private final int[] members;
    private final int[] rankOfWorld;
    private final int rank;
    private final int id;
    private final int p2pCtx;
    private final int collCtx;
    private final int[] nodes;
    private final Collectives coll;
    private final SharedSlots slots;
    private final CollSequencer calls;
    /** Some member is reached by a transport that moves direct buffers without a copy (TCP). */
    private final boolean directTemporaries;

    FabricComm(FabricBackend backend, int[] members, int id) {
        this.backend = backend;
        this.engine = backend.engine;
        this.members = members;
        this.rankOfWorld = new int[engine.size];
        Arrays.fill(rankOfWorld, -1);
        for (int i = 0; i < members.length; i++) rankOfWorld[members[i]] = i;
        this.rank = rankOfWorld[engine.me];
        this.id = id;
        this.p2pCtx = 2 * id;
        this.collCtx = 2 * id + 1;
        this.nodes = new int[members.length];
        for (int i = 0; i < members.length; i++) nodes[i] = backend.nodeOfWorld(members[i]);
        this.slots = backend.sharedSlots(members);
        boolean direct = false;
        for (int m : members) direct |= m != engine.me && engine.prefersDirectBuffers(m);
        this.directTemporaries = direct;
        this.calls = new CollSequencer(this, engine, collCtx, members);
        this.coll = new Collectives(this);
    }

    // ---- CollChannel: byte ranges on the collective context ---------------------------------

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return members.length;
    }

    @Override
    public CollOp isend(int peer, int tag, Buf buf, long off, long len) {
        if (off == 0 && engine.sendNow(collCtx, members[peer], tag, buf, len, true)) {
            return SENT;  // written whole (a barrier's empty message, a small piece): nothing to track
        }
        Engine.Op op = engine.isend(collCtx, members[peer], tag, buf, off, len, false, true);
        calls.track(op);
        return new Pending(op);
    }

    @Override
    public CollOp irecv(int peer, int tag, Buf buf, long off, long len) {
        Engine.Op op = engine.irecv(collCtx, members[peer], tag, buf, off, len);
        calls.track(op);
        return new Pending(op);
    }

    @Override
    public void waitAll(CollOp... ops) {
        for (CollOp o : ops) {
            if (o != null) calls.waitFor(((Pending) o).op);
        }
    }

    @Override
    public int tag() {
        return calls.tag();
    }

    @Override
    public BackendRequest start(Schedule schedule) {
        return calls.start(schedule);
    }

    /** This communicator's rank of world rank {@code worldRank}, or -1. */
    int rankOfWorld(int worldRank) {
        return worldRank >= 0 && worldRank < rankOfWorld.length ? rankOfWorld[worldRank] : -1;
    }

    // ---- collective calls: numbered, and failing at every rank when one fails -----------------

    @Override
    public void beginCollective(String call, boolean nonBlocking) {
        calls.begin(call);
    }

    @Override
    public void endCollective(Throwable failure) {
        calls.end(failure);
    }

    /** Runs {@code body} as a collective call (or as part of the API's call already open). */
    private <T> T call(String name, java.util.function.Supplier<T> body) {
        calls.begin(name);
        Throwable failure = null;
        try {
            return body.get();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            calls.end(failure);
        }
    }

    private void call(String name, Runnable body) {
        call(name, () -> {
            body.run();
            return null;
        });
    }

    @Override
    public int[] nodeOf() {
        return nodes;
    }

    @Override
    public SharedSlots sharedSlots() {
        return slots;
    }

    @Override
    public boolean directTemporaries() {
        return directTemporaries;
    }

    /** What {@link #isend} returns for a message {@link Engine#sendNow} wrote at the call. */
    private static final Pending SENT = new Pending(Engine.SendOp.completed(-1, 0, 0));

    private static final class Pending implements CollOp {
        final Engine.Op op;

        Pending(Engine.Op op) {
            this.op = op;
        }

        @Override
        public boolean isDone() {
            return op.done;
        }
    }

    // ---- management --------------------------------------------------------------------------

    @Override
    public int[] worldRanks() {
        return members.clone();
    }

    @Override
    public int tagUpperBound() {
        return TAG_UB;
    }

    /** A context id unused by every member: one more than the largest any of them has used. */
    private int agreeOnId() {
        int[] mine = {backend.nextContextId()};
        int[] max = new int[1];
        coll.allReduce(new Buf(mine, BaseKind.INT, 0, 1), new Buf(max, BaseKind.INT, 0, 1), 1,
                io.github.mpi4j.spi.Predefined.T_INT, FabricBackend.MAX);
        backend.contextIdUsed(max[0]);
        return max[0];
    }

    @Override
    public BackendComm dup() {
        return call("dup", () -> withNeighbours(new FabricComm(backend, members, agreeOnId())));
    }

    @Override
    public BackendComm split(int color, int key) {
        return call("split", () -> splitNow(color, key));
    }

    private BackendComm splitNow(int color, int key) {
        int n = members.length;
        int[] mine = {color, key};
        int[] all = new int[2 * n];
        coll.allGather(new Buf(mine, BaseKind.INT, 0, 2), 2, io.github.mpi4j.spi.Predefined.T_INT,
                new Buf(all, BaseKind.INT, 0, 2 * n), 2, io.github.mpi4j.spi.Predefined.T_INT);
        int newId = agreeOnId();
        if (color < 0) return null;
        Integer[] same = new Integer[n];
        int count = 0;
        for (int r = 0; r < n; r++) if (all[2 * r] == color) same[count++] = r;
        Integer[] order = Arrays.copyOf(same, count);
        Arrays.sort(order, Comparator.<Integer>comparingInt(r -> all[2 * r + 1]).thenComparingInt(r -> r));
        int[] newMembers = new int[count];
        for (int i = 0; i < count; i++) newMembers[i] = members[order[i]];
        return new FabricComm(backend, newMembers, newId);
    }

    @Override
    public BackendComm splitShared(boolean sharedType, int key) {
        return split(sharedType ? nodes[rank] : -1, key);
    }

    @Override
    public BackendComm create(int[] ranks) {
        return call("create", () -> createNow(ranks));
    }

    private BackendComm createNow(int[] ranks) {
        int newId = agreeOnId();
        int[] newMembers = new int[ranks.length];
        boolean in = false;
        for (int i = 0; i < ranks.length; i++) {
            newMembers[i] = members[ranks[i]];
            in |= ranks[i] == rank;
        }
        return in ? new FabricComm(backend, newMembers, newId) : null;
    }

    @Override
    public void free() {
        calls.shutdown(() -> {
            engine.release(p2pCtx);
            engine.release(collCtx);
        });
    }

    // ---- point-to-point ------------------------------------------------------------------------

    void fillStatus(Engine.Op op, StatusData s) {
        if (s == null) return;
        if (op instanceof Engine.SendOp) {
            s.setSend(op.cancelled);
            return;
        }
        int src = op.source;
        int commSource = src == Mpi.PROC_NULL || src == Mpi.ANY_SOURCE ? src : rankOfWorld[src];
        s.set(commSource, op.tag, 0, op.cancelled, op.bytes);
    }

    private Engine.Op procNull() {
        Engine.RecvOp op = new Engine.RecvOp(p2pCtx, Mpi.PROC_NULL, Mpi.ANY_TAG, null, 0, 0);
        op.source = Mpi.PROC_NULL;
        op.tag = Mpi.ANY_TAG;
        op.done = true;
        return op;
    }

    private Engine.Op startSend(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        if (dest == Mpi.PROC_NULL) return procNull();
        long len = Buffers.spanBytes(count, type);
        if (mode == SendMode.BUFFERED) return backend.bufferedSend(this, p2pCtx, members[dest], tag, buf, len);
        return engine.isend(p2pCtx, members[dest], tag, buf, 0, len, mode == SendMode.SYNCHRONOUS);
    }

    private Engine.Op startRecv(Buf buf, int count, TypeDesc type, int source, int tag) {
        if (source == Mpi.PROC_NULL) return procNull();
        return engine.irecv(p2pCtx, worldSource(source), tag, buf, 0, Buffers.spanBytes(count, type));
    }

    /**
     * Posts {@code op}, a receive that completed normally, again for {@code len} bytes from
     * {@code source} (not PROC_NULL): the persistent receive's restart and a reused iRecv.
     */
    private Engine.RecvOp restartRecv(Engine.RecvOp op, Buf buf, long len, int source, int tag) {
        return engine.irecvAgain(op, p2pCtx, worldSource(source), tag, buf, 0, len);
    }

    /** The world rank that a receive from {@code source} (a rank here, or ANY_SOURCE) names. */
    private int worldSource(int source) {
        return source == Mpi.ANY_SOURCE ? Mpi.ANY_SOURCE : members[source];
    }

    @Override
    public void send(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        if (sentWhole(buf, Buffers.spanBytes(count, type), dest, tag, mode)) {
            return;  // small message written whole into the transport: done, nothing allocated
        }
        engine.waitFor(startSend(buf, count, type, dest, tag, mode), "send");
    }

    /**
     * A standard or ready send that {@link Engine#sendNow} could write whole at the call (small,
     * nothing queued before it); false, with nothing sent, otherwise.
     */
    private boolean sentWhole(Buf buf, long len, int dest, int tag, SendMode mode) {
        return (mode == SendMode.STANDARD || mode == SendMode.READY) && dest != Mpi.PROC_NULL
                && engine.sendNow(p2pCtx, members[dest], tag, buf, len, false);
    }

    @Override
    public void recv(Buf buf, int count, TypeDesc type, int source, int tag, StatusData status) {
        if (source == Mpi.PROC_NULL) {
            fillStatus(procNull(), status);
            return;
        }
        engine.recv(p2pCtx, worldSource(source), tag, buf, Buffers.spanBytes(count, type), status, rankOfWorld,
                "recv");
    }

    @Override
    public BackendRequest isend(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        long len = Buffers.spanBytes(count, type);
        if (sentWhole(buf, len, dest, tag, mode)) {
            // Complete at the call, as eager sends are in MPI libraries (no queued frame, header
            // or completion callback), and nothing allocated.
            return CompletedRequest.SEND;
        }
        return new FabricRequest(this, startSend(buf, count, type, dest, tag, mode), "isend");
    }

    @Override
    public BackendRequest irecv(Buf buf, int count, TypeDesc type, int source, int tag) {
        if (source == Mpi.PROC_NULL) return new FabricRequest(this, procNull(), "irecv");
        FabricRequest spare = takeSpareRecv();
        if (spare == null) return new FabricRequest(this, startRecv(buf, count, type, source, tag), "irecv", true);
        spare.op = restartRecv((Engine.RecvOp) spare.op, buf, Buffers.spanBytes(count, type), source, tag);
        return spare;
    }

    /**
     * Receive requests whose completion the API reported and let go of
     * ({@link FabricRequest#released}), each with its completed operation: {@link #irecv} posts
     * them again, so a window of receives allocates only the API's own {@code Request} objects.
     * Taken and given back inside the engine (under its lock when threads share it).
     */
    private final FabricRequest[] spareRecvs = new FabricRequest[SPARE_RECVS];
    private int spareRecvCount;
    /** Enough for a window of OSU's osu_mbw_mr (64) several times over; more are left to the GC. */
    static final int SPARE_RECVS = 256;

    private FabricRequest takeSpareRecv() {
        boolean locked = engine.enter();
        try {
            if (spareRecvCount == 0) return null;
            FabricRequest r = spareRecvs[--spareRecvCount];
            spareRecvs[spareRecvCount] = null;
            return r;
        } finally {
            engine.leave(locked);
        }
    }

    void giveBackRecv(FabricRequest r) {
        ((Engine.RecvOp) r.op).forgetBuffer();
        boolean locked = engine.enter();
        try {
            if (spareRecvCount < SPARE_RECVS) spareRecvs[spareRecvCount++] = r;
        } finally {
            engine.leave(locked);
        }
    }

    @Override
    public void sendRecv(Buf sendBuf, int sendCount, TypeDesc sendType, int dest, int sendTag, Buf recvBuf,
                         int recvCount, TypeDesc recvType, int source, int recvTag, StatusData status) {
        Engine.Op r = startRecv(recvBuf, recvCount, recvType, source, recvTag);
        Engine.Op s = startSend(sendBuf, sendCount, sendType, dest, sendTag, SendMode.STANDARD);
        engine.waitFor(s, "sendRecv");
        engine.waitFor(r, "sendRecv");
        fillStatus(r, status);
    }

    @Override
    public void sendRecvReplace(Buf buf, int count, TypeDesc type, int dest, int sendTag, int source, int recvTag,
                                StatusData status) {
        long len = Buffers.spanBytes(count, type);
        Buf copy = BufAccess.allocate(BaseKind.BYTE, len, false);
        BufAccess.copy(buf, 0, copy, 0, len);
        Engine.Op r = startRecv(buf, count, type, source, recvTag);
        Engine.Op s = dest == Mpi.PROC_NULL ? procNull()
                : engine.isend(p2pCtx, members[dest], sendTag, copy, 0, len, false);
        engine.waitFor(s, "sendRecvReplace");
        engine.waitFor(r, "sendRecvReplace");
        fillStatus(r, status);
    }

    @Override
    public void probe(int source, int tag, StatusData status) {
        if (source == Mpi.PROC_NULL) {
            status.setEmpty(Mpi.PROC_NULL, Mpi.ANY_TAG);
            return;
        }
        engine.probe(p2pCtx, source == Mpi.ANY_SOURCE ? source : members[source], tag, status, "probe");
        status.source = rankOfWorld[status.source];
    }

    @Override
    public boolean iprobe(int source, int tag, StatusData status) {
        if (source == Mpi.PROC_NULL) {
            status.setEmpty(Mpi.PROC_NULL, Mpi.ANY_TAG);
            return true;
        }
        if (!engine.iprobe(p2pCtx, source == Mpi.ANY_SOURCE ? source : members[source], tag, status)) return false;
        status.source = rankOfWorld[status.source];
        return true;
    }

    @Override
    public BackendRequest sendInit(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        return new PersistentSend(buf, count, type, dest, tag, mode);
    }

    @Override
    public BackendRequest recvInit(Buf buf, int count, TypeDesc type, int source, int tag) {
        return new PersistentRecv(buf, count, type, source, tag);
    }

    /** A persistent request: each start() begins the operation again with the saved arguments. */
    private abstract class Persistent extends FabricRequest {
        final Buf buf;
        final int count;
        final TypeDesc type;
        /** The destination of a send, the source of a receive (ranks of this communicator). */
        final int peer;
        final int tag;
        final long len;

        Persistent(String what, Buf buf, int count, TypeDesc type, int peer, int tag) {
            super(FabricComm.this, null, what);
            this.buf = buf;
            this.count = count;
            this.type = type;
            this.peer = peer;
            this.tag = tag;
            this.len = Buffers.spanBytes(count, type);
        }

        @Override
        public boolean isPersistent() {
            return true;
        }
    }

    /**
     * A persistent send. A start whose message is written whole at once (small, nothing queued
     * before it) completes there with the shared {@link Engine.SendOp#WRITTEN}: a window of
     * persistent sends allocates nothing.
     */
    private final class PersistentSend extends Persistent {
        private final SendMode mode;

        PersistentSend(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
            super("persistent send", buf, count, type, dest, tag);
            this.mode = mode;
        }

        @Override
        public void start() {
            op = sentWhole(buf, len, peer, tag, mode) ? Engine.SendOp.WRITTEN
                    : startSend(buf, count, type, peer, tag, mode);
        }
    }

    /**
     * A persistent receive. It keeps its receive operation and posts it again at each start
     * once it completed normally (a cancelled or failed one is replaced): a window of persistent
     * receives allocates nothing.
     */
    private final class PersistentRecv extends Persistent {
        private Engine.RecvOp last;

        PersistentRecv(Buf buf, int count, TypeDesc type, int source, int tag) {
            super("persistent receive", buf, count, type, source, tag);
        }

        @Override
        public void start() {
            Engine.RecvOp r = last;
            if (peer == Mpi.PROC_NULL || r == null || !Engine.reusable(r)) {
                op = startRecv(buf, count, type, peer, tag);
                last = op instanceof Engine.RecvOp && peer != Mpi.PROC_NULL ? (Engine.RecvOp) op : null;
                return;
            }
            op = restartRecv(r, buf, len, peer, tag);
        }
    }

    // ---- collectives: the schedules of coll.Collectives, run inside the API's bracket ---------

    @Override
    public CollectiveOps collectives() {
        return coll;
    }

    /** The barrier of MPI.Finalize: not a call of the API, so it opens its own bracket. */
    void finalizeBarrier() {
        call("finalize", () -> coll.barrier());
    }

    // ---- intercommunicators and ports (issue 10) -------------------------------------------

    @Override
    public <T> T capability(Class<T> kind) {
        if (kind == io.github.mpi4j.spi.Intercommunication.class) return kind.cast(new FabricInterOps(this));
        if (kind == io.github.mpi4j.spi.Topology.class) return kind.cast(new FabricTopology(this));
        // MPI-IO (issue 11): FileChannel positional I/O.
        if (kind == io.github.mpi4j.spi.FileIO.class) return kind.cast(io.github.mpi4j.fileio.ChannelFile.over(this));
        // One-sided windows (issue 11): FabricWindow.
        if (kind == io.github.mpi4j.spi.OneSided.class) return kind.cast(new FabricWindow.Factory(this));
        // Spawning processes (issue 11 item 3): FabricSpawn.
        if (kind == io.github.mpi4j.spi.Spawning.class) return kind.cast(new FabricSpawn.Ops(this));
        return BackendComm.super.capability(kind);
    }

    @Override
    public String toString() {
        return "FabricComm[id=" + id + ", rank " + rank + " of " + members.length + "]";
    }

    // ---- matched probes (issue 10) ----

    @Override
    public io.github.mpi4j.spi.BackendMessage mprobe(int source, int tag, StatusData status) {
        int src = source == Mpi.ANY_SOURCE ? source : members[source];
        Object m = engine.takeMatchingBlocking(p2pCtx, src, tag, status, "mProbe");
        status.source = rankOfWorld[status.source];
        return new FabricMessage(this, m);
    }

    @Override
    public io.github.mpi4j.spi.BackendMessage improbe(int source, int tag, StatusData status) {
        int src = source == Mpi.ANY_SOURCE ? source : members[source];
        Object m = engine.takeMatching(p2pCtx, src, tag, status);
        if (m == null) return null;
        status.source = rankOfWorld[status.source];
        return new FabricMessage(this, m);
    }

    /** Starts receiving a matched message (see {@link FabricMessage}). */
    Engine.Op startMatchedRecv(Object matched, Buf buf, int count, TypeDesc type) {
        return engine.receiveMatched(p2pCtx, matched, buf, 0, Buffers.spanBytes(count, type));
    }

    void waitMatched(Engine.Op op, String what) {
        engine.waitFor(op, what);
    }

    // ---- topologies (issue 10; see FabricTopology) ----

    /** This rank's neighbours when a topology constructor made this communicator; its duplicates keep them. */
    volatile io.github.mpi4j.spi.Neighbours neighbours;

    private FabricComm withNeighbours(FabricComm copy) {
        copy.neighbours = neighbours;
        return copy;
    }

    // ---- one-sided through the transport (issue 11; see TransportWindow) ----

    /** The context of this communicator's point-to-point messages. */
    int p2pContext() {
        return p2pCtx;
    }

    /** World rank of this communicator's rank {@code r}. */
    int worldOf(int r) {
        return members[r];
    }
}
