package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.CollectiveOps;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.SendMode;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;

/**
 * An MPI communicator. Each call is one native call; Java arrays are pinned for blocking calls
 * when the backend allows it and staged otherwise (see {@link Arg} and docs/buffers.md).
 */
final class MpiComm implements BackendComm, CollectiveOps {
    private final MpiBackend backend;
    final long handle;
    private final boolean freeable;
    private final int rank;
    private final int size;
    /**
     * MPI_TAG_UB, asked once when the communicator is made: a lazy first read was a branch the
     * JIT's profile had not seen for a new communicator, and taking it recompiled every send.
     */
    private final int tagUb;
    /** Intercommunicators (issue 10): whether this is one, and the ranks collectives and p2p address. */
    private final boolean inter;
    private final int peers;

    MpiComm(MpiBackend backend, long handle, boolean freeable) {
        this.backend = backend;
        this.handle = handle;
        this.freeable = freeable;
        this.rank = MpiNative.rank0(handle);
        this.size = MpiNative.size0(handle);
        this.inter = MpiInterNative.isInter0(handle);
        this.peers = inter ? MpiInterNative.remoteSize0(handle) : size;
        this.tagUb = MpiNative.tagUb0(handle);
    }

    /** For messages: MPI_COMM_WORLD, MPI_COMM_SELF or the size and this rank's place. */
    String describe() {
        if (this == backend.worldComm()) return "MPI_COMM_WORLD";
        if (this == backend.selfComm()) return "MPI_COMM_SELF";
        return "a communicator of " + size + " ranks (rank " + rank + " there)";
    }

    private MpiComm wrap(long h) {
        return h == 0 ? null : new MpiComm(backend, h, true);
    }

    private static long bytes(int count, TypeDesc t) {
        return t == null ? 0 : Buffers.spanBytes(count, t);
    }

    /**
     * Blocking-call argument: direct buffers go by address and small arrays through per-thread
     * staging, both in the thread's reused record {@code slot}; larger arrays are pinned unless
     * pinning is off or a user op may call back.
     */
    private Arg blocking(Buf b, long bytes, boolean read, boolean write, boolean userOp, int slot) {
        if (b != null && b.isDirect()) return Arg.direct(b, slot);
        if (b != null && b != Buf.IN_PLACE && bytes <= Arg.SMALL && b.isArray()
                && b.kind != io.github.mpi4j.spi.BaseKind.OBJECT) {
            return Arg.small(b, bytes, read, write, slot);
        }
        return Arg.of(b, bytes, read, write, !backend.pinArrays || userOp);
    }

    private static Arg staged(Buf b, long bytes, boolean read, boolean write) {
        return Arg.of(b, bytes, read, write, true);
    }

    /** Device memory goes to MPI as it is when the library is CUDA-aware (see {@link MpiDevice}). */
    @Override
    public <T> T capability(Class<T> kind) {
        if (kind == io.github.mpi4j.spi.DeviceMemory.class) return backend.device.cudaAware ? kind.cast(backend.device) : null;
        // Topologies (issue 10): MpiTopology.
        if (kind == io.github.mpi4j.spi.Topology.class) return kind.cast(new MpiTopology(this, backend));
        if (kind == io.github.mpi4j.spi.Intercommunication.class) return kind.cast(new MpiInter(backend, this));
        // MPI-IO (issue 11): MPI_File_* (MpiFile).
        if (kind == io.github.mpi4j.spi.FileIO.class) return kind.cast(MpiFile.over(this, backend));
        // One-sided windows (issue 11): MpiWindow.
        if (kind == io.github.mpi4j.spi.OneSided.class) return kind.cast(new MpiWindow.Factory(this, backend));
        // Spawning processes (issue 11 item 3): MpiSpawn.
        if (kind == io.github.mpi4j.spi.Spawning.class) return kind.cast(new MpiSpawn(backend, this));
        return BackendComm.super.capability(kind);
    }

    /** MPI runs the collectives itself: this communicator is its own collectives object. */
    @Override
    public CollectiveOps collectives() {
        return this;
    }

    // ---- management -------------------------------------------------------------------------

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int[] worldRanks() {
        return MpiNative.worldRanks0(handle);
    }

    @Override
    public int tagUpperBound() {
        return tagUb;
    }

    @Override
    public BackendComm dup() {
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Comm_dup", this);
        try {
            return keepGrid(wrap(MpiNative.dup0(handle)));
        } finally {
            m.exit();
        }
    }

    @Override
    public BackendComm split(int color, int key) {
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Comm_split", this);
        try {
            return wrap(MpiNative.split0(handle, color, key));
        } finally {
            m.exit();
        }
    }

    @Override
    public BackendComm splitShared(boolean sharedType, int key) {
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Comm_split_type", this);
        try {
            return wrap(MpiNative.splitShared0(handle, !sharedType, key));
        } finally {
            m.exit();
        }
    }

    @Override
    public BackendComm create(int[] ranks) {
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Comm_create", this);
        try {
            return wrap(MpiNative.create0(handle, ranks));
        } finally {
            m.exit();
        }
    }

    @Override
    public void free() {
        if (freeable) MpiNative.free0(handle);
    }

    // ---- point-to-point -----------------------------------------------------------------------

    @Override
    public void send(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        Arg a = blocking(buf, bytes(count, type), true, false, false, 0);
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Send", this);
        try {
            MpiNative.send0(handle, a.obj, a.mode, a.off, count, backend.type(type), dest, tag, MpiNative.sendMode(mode));
        } catch (RuntimeException | Error e) {
            a.release();
            throw e;
        } finally {
            m.exit();
        }
        a.done();
    }

    @Override
    public void recv(Buf buf, int count, TypeDesc type, int source, int tag, StatusData status) {
        Arg a = blocking(buf, bytes(count, type), false, true, false, 1);
        long received = 0;
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Recv", this);
        try {
            NativeStatus ns = NativeStatus.mine();
            MpiNative.recv0(handle, a.obj, a.mode, a.off, count, backend.type(type), source, tag, ns.address);
            ns.copyTo(status);
            received = status.bytes;
        } finally {
            m.exit();
            a.done(received);
        }
    }

    @Override
    public BackendRequest isend(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        return isendImpl(buf, count, type, dest, tag, mode, false);
    }

    @Override
    public BackendRequest irecv(Buf buf, int count, TypeDesc type, int source, int tag) {
        return irecvImpl(buf, count, type, source, tag, false);
    }

    @Override
    public BackendRequest sendInit(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        return isendImpl(buf, count, type, dest, tag, mode, true);
    }

    @Override
    public BackendRequest recvInit(Buf buf, int count, TypeDesc type, int source, int tag) {
        return irecvImpl(buf, count, type, source, tag, true);
    }

    private BackendRequest isendImpl(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode,
                                     boolean persistent) {
        if (buf != null && buf.isDirect()) {
            // Nothing to stage or to finish: no argument record (the rate of small messages).
            long h = MpiNative.isend0(handle, buf.base, MpiNative.RAW, Arg.directAddress(buf), count,
                    backend.type(type), dest, tag, MpiNative.sendMode(mode), persistent);
            return new MpiRequest(h, persistent, buf);
        }
        Arg a = staged(buf, bytes(count, type), true, false);
        long h;
        try {
            h = MpiNative.isend0(handle, a.obj, a.mode, a.off, count, backend.type(type), dest, tag,
                    MpiNative.sendMode(mode), persistent);
        } catch (RuntimeException | Error e) {
            a.release();
            throw e;
        }
        return new MpiRequest(h, persistent, buf, null, a);
    }

    private BackendRequest irecvImpl(Buf buf, int count, TypeDesc type, int source, int tag, boolean persistent) {
        if (buf != null && buf.isDirect()) {
            long h = MpiNative.irecv0(handle, buf.base, MpiNative.RAW, Arg.directAddress(buf), count,
                    backend.type(type), source, tag, persistent);
            return new MpiRequest(h, persistent, buf);
        }
        long bytes = bytes(count, type);
        // A small staged receive starts as a copy of the array and goes back whole, so its
        // completion needs no status (asking MPI for one through JNI cost more than the copy);
        // a larger one copies back only what arrived. Persistent ones always take the latter.
        boolean whole = !persistent && bytes <= Arg.SMALL;
        Arg a = staged(buf, bytes, whole, true);
        long h;
        try {
            h = MpiNative.irecv0(handle, a.obj, a.mode, a.off, count, backend.type(type), source, tag, persistent);
        } catch (RuntimeException | Error e) {
            a.release();
            throw e;
        }
        MpiRequest r = new MpiRequest(h, persistent, buf, null, a);
        r.receivesOnly = !whole;
        return r;
    }

    @Override
    public void sendRecv(Buf sendBuf, int sendCount, TypeDesc sendType, int dest, int sendTag, Buf recvBuf,
                         int recvCount, TypeDesc recvType, int source, int recvTag, StatusData status) {
        Arg.admit(sendBuf);
        Arg.admit(recvBuf);
        Arg s = blocking(sendBuf, bytes(sendCount, sendType), true, false, false, 0);
        Arg r = blocking(recvBuf, bytes(recvCount, recvType), false, true, false, 1);
        long received = 0;
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Sendrecv", this);
        try {
            NativeStatus ns = NativeStatus.mine();
            MpiNative.sendRecv0(handle, s.obj, s.mode, s.off, sendCount, backend.type(sendType), dest, sendTag,
                    r.obj, r.mode, r.off, recvCount, backend.type(recvType), source, recvTag, ns.address);
            ns.copyTo(status);
            received = status.bytes;
        } finally {
            m.exit();
            s.done();
            r.done(received);
        }
    }

    @Override
    public void sendRecvReplace(Buf buf, int count, TypeDesc type, int dest, int sendTag, int source, int recvTag,
                                StatusData status) {
        Arg a = blocking(buf, bytes(count, type), true, true, false, 0);
        long received = 0;
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Sendrecv_replace", this);
        try {
            NativeStatus ns = NativeStatus.mine();
            MpiNative.sendRecvReplace0(handle, a.obj, a.mode, a.off, count, backend.type(type), dest, sendTag, source,
                    recvTag, ns.address);
            ns.copyTo(status);
            received = status.bytes;
        } finally {
            m.exit();
            a.done(received);
        }
    }

    @Override
    public void probe(int source, int tag, StatusData status) {
        NativeStatus ns = NativeStatus.mine();
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Probe", this);
        try {
            MpiNative.probe0(handle, source, tag, ns.address);
        } finally {
            m.exit();
        }
        if (status != null) ns.copyTo(status);
    }

    @Override
    public boolean iprobe(int source, int tag, StatusData status) {
        NativeStatus ns = NativeStatus.mine();
        boolean found = MpiNative.iprobe0(handle, source, tag, ns.address);
        if (found && status != null) ns.copyTo(status);
        return found;
    }

    // ---- collectives: shared plumbing ------------------------------------------------------------

    /**
     * Runs a collective given its buffer arguments: blocking calls pin or stage as allowed and
     * finish at once; non-blocking ones stage arrays and finish in the request.
     */
    private interface Call {
        long run(Arg s, Arg r);
    }

    private BackendRequest run(String name, boolean nb, Buf s, long sBytes, Buf r, long rBytes, boolean reduce,
                               MpiUserOps.Use userOp, Object keep, Call call) {
        MpiRequest request = null;
        try {
            boolean user = userOp != null;
            // A reduction reads the receive buffer only when it is in place.
            boolean readRecv = s == Buf.IN_PLACE;
            Arg.admit(s);
            Arg.admit(r);
            if (user) {
                // MPI would hand device addresses to the Java function, which cannot read them.
                Arg.hostOnly(s, "a user-defined op");
                Arg.hostOnly(r, "a user-defined op");
            }
            Arg sa = nb ? staged(s, sBytes, true, false) : blocking(s, sBytes, true, false, user, 0);
            Arg ra = nb ? staged(r, rBytes, readRecv || !reduce, true) : blocking(r, rBytes, readRecv || !reduce, true,
                    user, 1);
            long h;
            MpiWatchdog.Mark m = nb ? null : MpiWatchdog.enter(name, this);
            try {
                h = call.run(sa, ra);
            } catch (RuntimeException e) {
                sa.release();
                ra.release();
                throw e;
            } finally {
                if (m != null) m.exit();
            }
            if (nb) {
                request = new MpiRequest(h, false, keep, userOp, sa, ra);
            } else {
                sa.done();
                ra.done();
            }
        } catch (RuntimeException | Error e) {
            // The operation never started (or failed in MPI): the op is not in use any more.
            if (userOp != null) MpiUserOps.end(userOp);
            throw e;
        }
        // A blocking call is over; a non-blocking one ends its use of the op at completion.
        if (!nb && userOp != null) MpiUserOps.endAndRethrow(userOp);
        return request;
    }

    /**
     * Per thread: the four count/displacement arrays of a blocking v-collective, in native memory
     * reused from call to call (a blocking call is over before the thread's next one starts).
     */
    private static final ThreadLocal<IntBuffer[]> V_ARGS = ThreadLocal.withInitial(() -> new IntBuffer[4]);

    /**
     * {@code a[0..n)} in native memory: a reused per-thread buffer ({@code slot} 0..3) for a
     * blocking call, a fresh one for a non-blocking call (the request keeps it until completion).
     */
    private static IntBuffer ints(int[] a, int n, boolean nb, int slot) {
        if (a == null) return null;
        IntBuffer b;
        if (nb) {
            b = ByteBuffer.allocateDirect(4 * n).order(ByteOrder.nativeOrder()).asIntBuffer();
        } else {
            IntBuffer[] cache = V_ARGS.get();
            b = cache[slot];
            if (b == null || b.capacity() < n) {
                b = ByteBuffer.allocateDirect(4 * Math.max(n, 16)).order(ByteOrder.nativeOrder()).asIntBuffer();
                cache[slot] = b;
            }
            b.clear();
        }
        b.put(a, 0, n);
        return b;
    }

    /** Items a v-variant buffer spans (furthest block end). */
    private static long vItems(int[] counts, int[] displs, int n) {
        long end = 0;
        for (int i = 0; i < n; i++) if (counts[i] > 0) end = Math.max(end, (long) displs[i] + counts[i]);
        return end;
    }

    private static long vBytes(int[] counts, int[] displs, int n, TypeDesc t) {
        if (counts == null || t == null) return 0;
        long items = vItems(counts, displs, n);
        return items == 0 ? 0 : (items - 1) * t.extent + Math.max(t.size, t.extent);
    }

    private long typeOrZero(TypeDesc t) {
        return t == null ? 0 : backend.type(t);
    }

    // ---- collectives ------------------------------------------------------------------------------

    private BackendRequest barrierImpl(boolean nb) {
        long h;
        MpiWatchdog.Mark m = nb ? null : MpiWatchdog.enter("MPI_Barrier", this);
        try {
            h = MpiNative.barrier0(handle, nb);
        } finally {
            if (m != null) m.exit();
        }
        return nb ? new MpiRequest(h, false, null, null) : null;
    }

    @Override
    public void barrier() {
        barrierImpl(false);
    }

    @Override
    public BackendRequest iBarrier() {
        return barrierImpl(true);
    }

    private BackendRequest bcastImpl(boolean nb, Buf buf, int count, TypeDesc type, int root) {
        long t = backend.type(type);
        boolean isRoot = isRoot(root);
        long bytes = bytes(count, type);
        // The root's buffer is read, the others' written: model it as a receive buffer.
        Arg a = nb ? staged(buf, bytes, isRoot, !isRoot) : blocking(buf, bytes, isRoot, !isRoot, false, 0);
        long h;
        MpiWatchdog.Mark m = nb ? null : MpiWatchdog.enter("MPI_Bcast", this);
        try {
            h = MpiNative.bcast0(handle, a.obj, a.mode, a.off, count, t, root, nb);
        } catch (RuntimeException e) {
            a.release();
            throw e;
        } finally {
            if (m != null) m.exit();
        }
        if (!nb) {
            a.done();
            return null;
        }
        return new MpiRequest(h, false, buf, null, a);
    }

    @Override
    public void bcast(Buf buf, int count, TypeDesc type, int root) {
        bcastImpl(false, buf, count, type, root);
    }

    @Override
    public BackendRequest iBcast(Buf buf, int count, TypeDesc type, int root) {
        return bcastImpl(true, buf, count, type, root);
    }

    private BackendRequest reduceImpl(boolean nb, boolean all, Buf s, Buf r, int count, TypeDesc type, OpDesc op,
                                      int root) {
        // MPICH refuses a null sendbuf at MPI_ROOT of an intercommunicator, where MPI ignores it.
        if (inter && s == null && r != null) s = r;
        long t = backend.type(type);
        long bytes = bytes(count, type);
        // Last before run(), which ends the use of a user op on every path.
        MpiUserOps.Use user = op.code == OpCode.USER ? backend.beginUserOp(op, type) : null;
        long o = backend.op(op, type, user);
        return run(all ? "MPI_Allreduce" : "MPI_Reduce", nb, s, bytes, r, r == null ? 0 : bytes, true, user, new Object[] {s, r},
                (sa, ra) -> MpiNative.reduce0(handle, sa.obj, sa.mode, sa.off, ra.obj, ra.mode, ra.off, count, t, o,
                        root, all, nb));
    }

    @Override
    public void reduce(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op, int root) {
        reduceImpl(false, false, sendBuf, recvBuf, count, type, op, root);
    }

    @Override
    public BackendRequest iReduce(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op, int root) {
        return reduceImpl(true, false, sendBuf, recvBuf, count, type, op, root);
    }

    @Override
    public void allReduce(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op) {
        reduceImpl(false, true, sendBuf, recvBuf, count, type, op, 0);
    }

    @Override
    public BackendRequest iAllReduce(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op) {
        return reduceImpl(true, true, sendBuf, recvBuf, count, type, op, 0);
    }

    /** MPI names of the {@code MpiNative} selectors GATHER, SCATTER, ALLGATHER, ALLTOALL. */
    private static final String[] COLL_NAMES = {"MPI_Gather", "MPI_Scatter", "MPI_Allgather", "MPI_Alltoall"};
    private static final String[] VCOLL_NAMES = {"MPI_Gatherv", "MPI_Scatterv", "MPI_Allgatherv", "MPI_Alltoallv"};

    /** gather, scatter, allgather, alltoall: same argument shape. */
    private BackendRequest collImpl(boolean nb, int kind, Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt,
                                    int root) {
        long sth = typeOrZero(st);
        long rth = typeOrZero(rt);
        boolean isRoot = isRoot(root);
        long sItems = kind == MpiNative.SCATTER && isRoot || kind == MpiNative.ALLTOALL ? (long) sc * peers : sc;
        long rItems = kind == MpiNative.GATHER && isRoot || kind == MpiNative.ALLGATHER
                || kind == MpiNative.ALLTOALL ? (long) rc * peers : rc;
        long sBytes = st == null ? 0 : bytes((int) Math.min(Integer.MAX_VALUE, sItems), st);
        long rBytes = rt == null ? 0 : bytes((int) Math.min(Integer.MAX_VALUE, rItems), rt);
        return run(COLL_NAMES[kind], nb, s, sBytes, r, rBytes, false, null, new Object[] {s, r},
                (sa, ra) -> MpiNative.coll0(kind, handle, sa.obj, sa.mode, sa.off, sc, sth, ra.obj, ra.mode, ra.off,
                        rc, rth, root, nb));
    }

    @Override
    public void gather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        collImpl(false, MpiNative.GATHER, s, sc, st, r, rc, rt, root);
    }

    @Override
    public BackendRequest iGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        return collImpl(true, MpiNative.GATHER, s, sc, st, r, rc, rt, root);
    }

    @Override
    public void scatter(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        collImpl(false, MpiNative.SCATTER, s, sc, st, r, rc, rt, root);
    }

    @Override
    public BackendRequest iScatter(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        return collImpl(true, MpiNative.SCATTER, s, sc, st, r, rc, rt, root);
    }

    @Override
    public void allGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        collImpl(false, MpiNative.ALLGATHER, s, sc, st, r, rc, rt, -1);
    }

    @Override
    public BackendRequest iAllGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        return collImpl(true, MpiNative.ALLGATHER, s, sc, st, r, rc, rt, -1);
    }

    @Override
    public void allToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        collImpl(false, MpiNative.ALLTOALL, s, sc, st, r, rc, rt, -1);
    }

    @Override
    public BackendRequest iAllToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        return collImpl(true, MpiNative.ALLTOALL, s, sc, st, r, rc, rt, -1);
    }

    /** The v-variants: counts and displacements travel in direct IntBuffers kept by the request. */
    private BackendRequest vcollImpl(boolean nb, int kind, Buf s, int sc, int[] scounts, int[] sdispls,
                                     TypeDesc st, Buf r, int rc, int[] rcounts, int[] rdispls, TypeDesc rt,
                                     int root) {
        long sth = typeOrZero(st);
        long rth = typeOrZero(rt);
        IntBuffer scB = ints(scounts, peers, nb, 0), sdB = ints(sdispls, peers, nb, 1);
        IntBuffer rcB = ints(rcounts, peers, nb, 2), rdB = ints(rdispls, peers, nb, 3);
        long sBytes = scounts != null ? vBytes(scounts, sdispls, peers, st) : bytes(sc, st);
        long rBytes = rcounts != null ? vBytes(rcounts, rdispls, peers, rt) : bytes(rc, rt);
        return run(VCOLL_NAMES[kind], nb, s, sBytes, r, rBytes, false, null, new Object[] {s, r, scB, sdB, rcB, rdB},
                (sa, ra) -> MpiNative.vcoll0(kind, handle, sa.obj, sa.mode, sa.off, sc, scB, sdB, sth, ra.obj,
                        ra.mode, ra.off, rc, rcB, rdB, rth, root, nb));
    }

    @Override
    public void gatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt, int root) {
        vcollImpl(false, MpiNative.GATHER, s, sc, null, null, st, r, 0, rcounts, displs, rt, root);
    }

    @Override
    public BackendRequest iGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt,
                                   int root) {
        return vcollImpl(true, MpiNative.GATHER, s, sc, null, null, st, r, 0, rcounts, displs, rt, root);
    }

    @Override
    public void scatterv(Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        vcollImpl(false, MpiNative.SCATTER, s, 0, scounts, displs, st, r, rc, null, null, rt, root);
    }

    @Override
    public BackendRequest iScatterv(Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt,
                                    int root) {
        return vcollImpl(true, MpiNative.SCATTER, s, 0, scounts, displs, st, r, rc, null, null, rt, root);
    }

    @Override
    public void allGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt) {
        vcollImpl(false, MpiNative.ALLGATHER, s, sc, null, null, st, r, 0, rcounts, displs, rt, -1);
    }

    @Override
    public BackendRequest iAllGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs,
                                      TypeDesc rt) {
        return vcollImpl(true, MpiNative.ALLGATHER, s, sc, null, null, st, r, 0, rcounts, displs, rt, -1);
    }

    @Override
    public void allToAllv(Buf s, int[] scounts, int[] sdispls, TypeDesc st, Buf r, int[] rcounts, int[] rdispls,
                          TypeDesc rt) {
        vcollImpl(false, MpiNative.ALLTOALL, s, 0, scounts, sdispls, st, r, 0, rcounts, rdispls, rt, -1);
    }

    @Override
    public BackendRequest iAllToAllv(Buf s, int[] scounts, int[] sdispls, TypeDesc st, Buf r, int[] rcounts,
                                     int[] rdispls, TypeDesc rt) {
        return vcollImpl(true, MpiNative.ALLTOALL, s, 0, scounts, sdispls, st, r, 0, rcounts, rdispls, rt, -1);
    }

    private BackendRequest reduceScatterImpl(boolean nb, boolean block, Buf s, Buf r, int[] rcounts, int rcount,
                                             TypeDesc type, OpDesc op) {
        long t = backend.type(type);
        long total = block ? (long) rcount * size : sum(rcounts);
        long mine = block ? rcount : rcounts[rank];
        IntBuffer rcB = block ? null : ints(rcounts, size, nb, 2);
        long sBytes = s == Buf.IN_PLACE ? 0 : bytes((int) total, type);
        long rBytes = bytes((int) (s == Buf.IN_PLACE ? total : mine), type);
        // Last before run(), which ends the use of a user op on every path.
        MpiUserOps.Use user = op.code == OpCode.USER ? backend.beginUserOp(op, type) : null;
        long o = backend.op(op, type, user);
        return run(block ? "MPI_Reduce_scatter_block" : "MPI_Reduce_scatter", nb, s, sBytes, r, rBytes, true, user,
                new Object[] {s, r, rcB},
                (sa, ra) -> MpiNative.reduceScatter0(handle, sa.obj, sa.mode, sa.off, ra.obj, ra.mode, ra.off, rcB,
                        rcount, t, o, block, nb));
    }

    private long sum(int[] counts) {
        long t = 0;
        for (int i = 0; i < size; i++) t += counts[i];
        return t;
    }

    @Override
    public void reduceScatter(Buf s, Buf r, int[] rcounts, TypeDesc type, OpDesc op) {
        reduceScatterImpl(false, false, s, r, rcounts, 0, type, op);
    }

    @Override
    public BackendRequest iReduceScatter(Buf s, Buf r, int[] rcounts, TypeDesc type, OpDesc op) {
        return reduceScatterImpl(true, false, s, r, rcounts, 0, type, op);
    }

    @Override
    public void reduceScatterBlock(Buf s, Buf r, int rcount, TypeDesc type, OpDesc op) {
        reduceScatterImpl(false, true, s, r, null, rcount, type, op);
    }

    @Override
    public BackendRequest iReduceScatterBlock(Buf s, Buf r, int rcount, TypeDesc type, OpDesc op) {
        return reduceScatterImpl(true, true, s, r, null, rcount, type, op);
    }

    private BackendRequest scanImpl(boolean nb, boolean exclusive, Buf s, Buf r, int count, TypeDesc type,
                                    OpDesc op) {
        long t = backend.type(type);
        long bytes = bytes(count, type);
        // Last before run(), which ends the use of a user op on every path.
        MpiUserOps.Use user = op.code == OpCode.USER ? backend.beginUserOp(op, type) : null;
        long o = backend.op(op, type, user);
        return run(exclusive ? "MPI_Exscan" : "MPI_Scan", nb, s, bytes, r, bytes, true, user, new Object[] {s, r},
                (sa, ra) -> MpiNative.scan0(handle, sa.obj, sa.mode, sa.off, ra.obj, ra.mode, ra.off, count, t, o,
                        exclusive, nb));
    }

    @Override
    public void scan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        scanImpl(false, false, s, r, count, type, op);
    }

    @Override
    public BackendRequest iScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        return scanImpl(true, false, s, r, count, type, op);
    }

    @Override
    public void exScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        scanImpl(false, true, s, r, count, type, op);
    }

    @Override
    public BackendRequest iExScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        return scanImpl(true, true, s, r, count, type, op);
    }

    // ---- matched probes (issue 10) ----

    @Override
    public io.github.mpi4j.spi.BackendMessage mprobe(int source, int tag, StatusData status) {
        long[] st = new long[3];
        long h;
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Mprobe", this);
        try {
            h = MpiProbeNative.mprobe0(handle, source, tag, st);
        } finally {
            m.exit();
        }
        MpiMessage.fill(status, st);
        return new MpiMessage(this, h);
    }

    @Override
    public io.github.mpi4j.spi.BackendMessage improbe(int source, int tag, StatusData status) {
        long[] st = new long[3];
        long h = MpiProbeNative.improbe0(handle, source, tag, st);
        if (h == 0) return null;
        MpiMessage.fill(status, st);
        return new MpiMessage(this, h);
    }

    /** MPI_Mrecv of {@code message}: buffers as in {@link #recv}. */
    void mrecv(long message, Buf buf, int count, TypeDesc type, StatusData status) {
        Arg a = blocking(buf, bytes(count, type), false, true, false, 1);
        long[] st = new long[3];
        long received = 0;
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Mrecv", this);
        try {
            MpiProbeNative.mrecv0(message, a.obj, a.mode, a.off, count, backend.type(type), st);
            received = st[2];
        } finally {
            m.exit();
            a.done(received);
        }
        MpiMessage.fill(status, st);
    }

    /** MPI_Imrecv of {@code message}: buffers as in {@link #irecv}. */
    BackendRequest imrecv(long message, Buf buf, int count, TypeDesc type) {
        Arg a = staged(buf, bytes(count, type), false, true);
        long h;
        try {
            h = MpiProbeNative.imrecv0(message, a.obj, a.mode, a.off, count, backend.type(type));
        } catch (RuntimeException | Error e) {
            a.release();
            throw e;
        }
        MpiRequest r = new MpiRequest(h, false, buf, null, a);
        r.receivesOnly = true;
        return r;
    }

    // ---- topologies (issue 10; see MpiTopology) ----

    /** A Cartesian grid that MPI runs as a distributed graph (see MpiTopology.Grid); duplicates keep it. */
    volatile MpiTopology.Grid grid;

    private BackendComm keepGrid(BackendComm copy) {
        if (copy != null) ((MpiComm) copy).grid = grid;
        return copy;
    }

    // ---- intercommunicators (issue 10) --------------------------------------------------------

    boolean isInter() {
        return inter;
    }

    @Override
    public int peerCount() {
        return peers;
    }

    /** Whether this rank is the root: its rank on an intracommunicator, MPI.ROOT on an intercommunicator. */
    private boolean isRoot(int root) {
        return inter ? root == io.github.mpi4j.spi.Mpi.ROOT : rank == root;
    }
}
