package io.github.mpi4j.device;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.CollectiveOps;
import io.github.mpi4j.spi.DeviceMemory;
import io.github.mpi4j.spi.Intercommunication;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.SendMode;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.Topology;
import io.github.mpi4j.spi.TypeDesc;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A backend communicator that takes device buffers: each call with device memory stages it
 * through pinned host memory ({@link Staging}) around the backend's own call, unless the
 * backend moves device memory itself ({@link DeviceMemory} capability: a CUDA-aware MPI). Calls
 * without device memory go straight through. Every rank decides alone, from its own buffers,
 * and what goes on the wire is the same either way, so ranks that pass host memory, device
 * memory or a mix meet in the same operation and no call communicates to agree.
 *
 * <p>Spans are those the {@code mpi} layer checked: {@code count} items of the type, blocks of
 * every rank for gathers and scatters, the furthest block end for the v-variants. Buffers that
 * are not significant at a rank (the receive buffer of a gather off the root) are handed on as
 * null, as the backend contract allows, so they are neither copied nor refused.
 *
 * <p>In NCCL mode ({@link CollectiveMode}, set by the info key or the environment, the same on
 * every rank) the collectives NCCL can do go through NCCL on every rank ({@link NcclPath}),
 * host buffers included: the choice depends on the call, its type, op and count only. The rest
 * take the path above, which meets host memory on the wire too.
 */
final class StagedComm implements BackendComm, CollectiveOps {
    final BackendComm inner;
    private final DeviceLayer layer;
    /** The backend's name, for refusals. */
    private final String backend;
    private final CollectiveOps coll;
    /** The backend's own capability (a CUDA-aware MPI), or null: decided once per communicator. */
    private final DeviceMemory direct;
    /** Host (staging, per buffer) or NCCL (every eligible collective, every rank): see {@link CollectiveMode}. */
    private volatile CollectiveMode mode;
    /** The NCCL path, made at the first NCCL-mode collective; null before. */
    private NcclPath nccl;

    private StagedComm(BackendComm inner, DeviceLayer layer) {
        this.inner = inner;
        this.layer = layer;
        this.backend = layer.backend;
        this.coll = inner.collectives();
        this.direct = inner.capability(DeviceMemory.class);
        this.mode = layer.defaultMode;
    }

    static StagedComm wrap(BackendComm c, DeviceLayer layer) {
        return c == null ? null : c instanceof StagedComm ? (StagedComm) c : new StagedComm(c, layer);
    }

    /** A communicator made from this one, on the same backend (with the default mode: hints are not inherited, as getInfo shows). */
    private StagedComm wrap(BackendComm c) {
        return wrap(c, layer);
    }

    static BackendComm unwrap(BackendComm c) {
        return c instanceof StagedComm ? ((StagedComm) c).inner : c;
    }

    // ---- plumbing ---------------------------------------------------------------------------

    private static boolean device(Buf a) {
        return Staging.isDevice(a);
    }

    // ---- NCCL mode: the decision uses the call's type, op and count only (the same on every rank) ----

    /** The NCCL path when this communicator is in NCCL mode and NCCL reduces {@code type} with {@code op}, else null. */
    private NcclPath ncclReduce(int count, TypeDesc type, OpDesc op) {
        if (mode != CollectiveMode.NCCL || count <= 0 || !NcclPath.reducible(type, op)) {
            return null;
        }
        return ncclPath();
    }

    /** The NCCL path when this communicator is in NCCL mode and NCCL moves {@code type}, else null. */
    private NcclPath ncclMove(int count, TypeDesc type) {
        if (mode != CollectiveMode.NCCL || count <= 0 || !NcclPath.movable(type)) return null;
        return ncclPath();
    }

    private synchronized NcclPath ncclPath() {
        if (nccl == null) nccl = layer.ncclPath(inner);
        return nccl;
    }

    /** A non-blocking NCCL-mode call completed inside the call: its request is complete already. */
    private static BackendRequest done() {
        return DoneRequest.INSTANCE;
    }

    private static boolean device(Buf a, Buf b) {
        return Staging.isDevice(a) || Staging.isDevice(b);
    }

    private Staging staging(String call, OpDesc op) {
        return new Staging(call, backend, direct, op);
    }

    private static long span(long count, TypeDesc t) {
        return t == null ? 0 : Buffers.spanBytes(count, t);
    }

    /** Bytes a v-variant buffer spans: up to the furthest block end. */
    private static long vSpan(int[] counts, int[] displs, TypeDesc t) {
        if (counts == null || displs == null || t == null) return 0;
        long end = 0;
        for (int i = 0; i < counts.length && i < displs.length; i++) {
            if (counts[i] > 0) end = Math.max(end, (long) displs[i] + counts[i]);
        }
        return span(end, t);
    }

    private static long sum(int[] a) {
        long s = 0;
        for (int v : a) s += v;
        return s;
    }

    private boolean isRoot(int root) {
        return inner.rank() == root;
    }

    /** A blocking call: copies back after it returned, gives the memory back either way. */
    private static void run(Staging st, Runnable call) {
        try {
            call.run();
        } catch (RuntimeException | Error e) {
            st.release();
            throw e;
        }
        st.finish();
    }

    /** A non-blocking call: the request copies back when it completes. */
    private static BackendRequest start(Staging st, boolean receive, Supplier<BackendRequest> call) {
        BackendRequest r;
        try {
            r = call.get();
        } catch (RuntimeException | Error e) {
            st.release();
            throw e;
        }
        return StagedRequest.of(r, st, receive);
    }

    // ---- basics and management ----------------------------------------------------------

    @Override
    public int rank() {
        return inner.rank();
    }

    @Override
    public int size() {
        return inner.size();
    }

    @Override
    public int[] worldRanks() {
        return inner.worldRanks();
    }

    @Override
    public int tagUpperBound() {
        return inner.tagUpperBound();
    }

    @Override
    public BackendComm dup() {
        return wrap(inner.dup());
    }

    @Override
    public BackendComm split(int color, int key) {
        return wrap(inner.split(color, key));
    }

    @Override
    public BackendComm splitShared(boolean sharedType, int key) {
        return wrap(inner.splitShared(sharedType, key));
    }

    @Override
    public BackendComm create(int[] ranks) {
        return wrap(inner.create(ranks));
    }

    @Override
    public void free() {
        NcclPath p;
        synchronized (this) {
            p = nccl;
            nccl = null;
        }
        try {
            layer.free(p);
        } finally {
            inner.free();
        }
    }

    /**
     * Hints of {@code Comm.setInfo} / {@code dupWithInfo}: {@link CollectiveMode#KEY} sets the
     * mode (a bad value is an exception naming key and value, and changes nothing); the backend
     * sees them too.
     */
    @Override
    public void hints(Map<String, String> hints) {
        CollectiveMode m = CollectiveMode.fromHints(hints, mode);
        inner.hints(hints);
        mode = m;
    }

    @Override
    public void beginCollective(String call, boolean nonBlocking) {
        inner.beginCollective(call, nonBlocking);
    }

    @Override
    public void endCollective(Throwable failure) {
        inner.endCollective(failure);
    }

    @Override
    public CollectiveOps collectives() {
        return this;
    }

    @Override
    public <T> T capability(Class<T> kind) {
        // DeviceMemory stays the backend's own (a CUDA-aware MPI): staging is this layer's business.
        T c = inner.capability(kind);
        if (c == null) return null;
        if (kind == Intercommunication.class) return kind.cast(new Inter((Intercommunication) c));
        if (kind == Topology.class) return kind.cast(new Topo((Topology) c));
        // Spawning (issue 11): the spawned intercommunicators are staged too.
        if (kind == io.github.mpi4j.spi.Spawning.class) {
            return kind.cast(new io.github.mpi4j.spi.SpawningDecorator((io.github.mpi4j.spi.Spawning) c, this::wrap));
        }
        return c;
    }

    // ---- point-to-point -------------------------------------------------------------------

    @Override
    public void send(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        if (!device(buf)) {
            inner.send(buf, count, type, dest, tag, mode);
            return;
        }
        Staging st = staging("send", null);
        Buf b = st.in(buf, span(count, type));
        run(st, () -> inner.send(b, count, type, dest, tag, mode));
    }

    /** A receive buffer: with a dense type only the bytes that arrive are written (and copied back). */
    private static Buf receiveBuf(Staging st, Buf buf, long span, TypeDesc type) {
        return Staging.dense(type) ? st.out(buf, span, true) : st.inOut(buf, span);
    }

    @Override
    public void recv(Buf buf, int count, TypeDesc type, int source, int tag, StatusData status) {
        if (!device(buf)) {
            inner.recv(buf, count, type, source, tag, status);
            return;
        }
        Staging st = staging("recv", null);
        Buf b = receiveBuf(st, buf, span(count, type), type);
        StatusData s = status != null ? status : new StatusData();
        try {
            inner.recv(b, count, type, source, tag, s);
        } catch (RuntimeException | Error e) {
            st.release();
            throw e;
        }
        st.finish(Staging.dense(type) ? s.bytes : -1);
    }

    @Override
    public BackendRequest isend(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        if (!device(buf)) return inner.isend(buf, count, type, dest, tag, mode);
        Staging st = staging("iSend", null);
        Buf b = st.in(buf, span(count, type));
        return start(st, false, () -> inner.isend(b, count, type, dest, tag, mode));
    }

    @Override
    public BackendRequest irecv(Buf buf, int count, TypeDesc type, int source, int tag) {
        if (!device(buf)) return inner.irecv(buf, count, type, source, tag);
        Staging st = staging("iRecv", null);
        Buf b = receiveBuf(st, buf, span(count, type), type);
        return start(st, Staging.dense(type), () -> inner.irecv(b, count, type, source, tag));
    }

    @Override
    public void sendRecv(Buf sendBuf, int sendCount, TypeDesc sendType, int dest, int sendTag, Buf recvBuf,
                         int recvCount, TypeDesc recvType, int source, int recvTag, StatusData status) {
        if (!device(sendBuf, recvBuf)) {
            inner.sendRecv(sendBuf, sendCount, sendType, dest, sendTag, recvBuf, recvCount, recvType, source, recvTag,
                    status);
            return;
        }
        Staging st = staging("sendRecv", null);
        Buf s = st.in(sendBuf, span(sendCount, sendType));
        Buf r = receiveBuf(st, recvBuf, span(recvCount, recvType), recvType);
        StatusData stat = status != null ? status : new StatusData();
        try {
            inner.sendRecv(s, sendCount, sendType, dest, sendTag, r, recvCount, recvType, source, recvTag, stat);
        } catch (RuntimeException | Error e) {
            st.release();
            throw e;
        }
        st.finish(Staging.dense(recvType) ? stat.bytes : -1);
    }

    @Override
    public void sendRecvReplace(Buf buf, int count, TypeDesc type, int dest, int sendTag, int source, int recvTag,
                                StatusData status) {
        if (!device(buf)) {
            inner.sendRecvReplace(buf, count, type, dest, sendTag, source, recvTag, status);
            return;
        }
        Staging st = staging("sendRecvReplace", null);
        Buf b = st.inOut(buf, span(count, type));
        StatusData stat = status != null ? status : new StatusData();
        try {
            inner.sendRecvReplace(b, count, type, dest, sendTag, source, recvTag, stat);
        } catch (RuntimeException | Error e) {
            st.release();
            throw e;
        }
        st.finish(Staging.dense(type) ? stat.bytes : -1);
    }

    @Override
    public void probe(int source, int tag, StatusData status) {
        inner.probe(source, tag, status);
    }

    @Override
    public boolean iprobe(int source, int tag, StatusData status) {
        return inner.iprobe(source, tag, status);
    }

    @Override
    public BackendRequest sendInit(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        if (!device(buf)) return inner.sendInit(buf, count, type, dest, tag, mode);
        Staging st = staging("sendInit", null);
        Buf b = st.in(buf, span(count, type));
        return start(st, false, () -> inner.sendInit(b, count, type, dest, tag, mode));
    }

    @Override
    public BackendRequest recvInit(Buf buf, int count, TypeDesc type, int source, int tag) {
        if (!device(buf)) return inner.recvInit(buf, count, type, source, tag);
        Staging st = staging("recvInit", null);
        Buf b = receiveBuf(st, buf, span(count, type), type);
        return start(st, Staging.dense(type), () -> inner.recvInit(b, count, type, source, tag));
    }

    // ---- collectives ------------------------------------------------------------------------
    // Each stages its buffers as the operation uses them, then runs the backend's blocking or
    // non-blocking form; {@code nb} picks which.

    @Override
    public void barrier() {
        coll.barrier();
    }

    @Override
    public BackendRequest iBarrier() {
        return coll.iBarrier();
    }

    /** The root's buffer is read, the others' written whole (dense types) or in part. */
    private Buf bcastBuf(Staging st, Buf buf, int count, TypeDesc type, int root) {
        return isRoot(root) ? st.in(buf, span(count, type)) : st.out(buf, span(count, type), Staging.dense(type));
    }

    @Override
    public void bcast(Buf buf, int count, TypeDesc type, int root) {
        NcclPath n = ncclMove(count, type);
        if (n != null) {
            n.bcast("bcast", buf, count, type, root);
            return;
        }
        if (!device(buf)) {
            coll.bcast(buf, count, type, root);
            return;
        }
        Staging st = staging("bcast", null);
        Buf b = bcastBuf(st, buf, count, type, root);
        run(st, () -> coll.bcast(b, count, type, root));
    }

    @Override
    public BackendRequest iBcast(Buf buf, int count, TypeDesc type, int root) {
        NcclPath n = ncclMove(count, type);
        if (n != null) {
            n.bcast("iBcast", buf, count, type, root);
            return done();
        }
        if (!device(buf)) return coll.iBcast(buf, count, type, root);
        Staging st = staging("iBcast", null);
        Buf b = bcastBuf(st, buf, count, type, root);
        return start(st, false, () -> coll.iBcast(b, count, type, root));
    }

    /** Send and receive buffers of a reduction to one or all ranks: {@code significant} says whether this rank's receive buffer is. */
    private static Buf[] reduceBufs(Staging st, Buf sendBuf, Buf recvBuf, long span, TypeDesc type,
                                    boolean significant) {
        Buf s = st.in(sendBuf, span);
        Buf r;
        if (!significant) r = device(recvBuf) ? null : recvBuf;
        else if (sendBuf == Buf.IN_PLACE) r = st.inOut(recvBuf, span);
        else r = st.out(recvBuf, span, Staging.dense(type));
        return new Buf[] {s, r};
    }

    @Override
    public void reduce(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op, int root) {
        NcclPath n = ncclReduce(count, type, op);
        if (n != null) {
            n.reduce("reduce", sendBuf, recvBuf, count, type, op, root);
            return;
        }
        if (!device(sendBuf, recvBuf)) {
            coll.reduce(sendBuf, recvBuf, count, type, op, root);
            return;
        }
        Staging st = staging("reduce", op);
        Buf[] b = reduceBufs(st, sendBuf, recvBuf, span(count, type), type, isRoot(root));
        run(st, () -> coll.reduce(b[0], b[1], count, type, op, root));
    }

    @Override
    public BackendRequest iReduce(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op, int root) {
        NcclPath n = ncclReduce(count, type, op);
        if (n != null) {
            n.reduce("iReduce", sendBuf, recvBuf, count, type, op, root);
            return done();
        }
        if (!device(sendBuf, recvBuf)) return coll.iReduce(sendBuf, recvBuf, count, type, op, root);
        Staging st = staging("iReduce", op);
        Buf[] b = reduceBufs(st, sendBuf, recvBuf, span(count, type), type, isRoot(root));
        return start(st, false, () -> coll.iReduce(b[0], b[1], count, type, op, root));
    }

    @Override
    public void allReduce(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op) {
        NcclPath n = ncclReduce(count, type, op);
        if (n != null) {
            n.allReduce("allReduce", sendBuf, recvBuf, count, type, op);
            return;
        }
        if (!device(sendBuf, recvBuf)) {
            coll.allReduce(sendBuf, recvBuf, count, type, op);
            return;
        }
        Staging st = staging("allReduce", op);
        Buf[] b = reduceBufs(st, sendBuf, recvBuf, span(count, type), type, true);
        run(st, () -> coll.allReduce(b[0], b[1], count, type, op));
    }

    @Override
    public BackendRequest iAllReduce(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op) {
        NcclPath n = ncclReduce(count, type, op);
        if (n != null) {
            n.allReduce("iAllReduce", sendBuf, recvBuf, count, type, op);
            return done();
        }
        if (!device(sendBuf, recvBuf)) return coll.iAllReduce(sendBuf, recvBuf, count, type, op);
        Staging st = staging("iAllReduce", op);
        Buf[] b = reduceBufs(st, sendBuf, recvBuf, span(count, type), type, true);
        return start(st, false, () -> coll.iAllReduce(b[0], b[1], count, type, op));
    }

    @Override
    public void allReduceMany(Buf[] sendBufs, Buf[] recvBufs, int[] counts, TypeDesc type, OpDesc op) {
        boolean any = false;
        for (int i = 0; i < counts.length; i++) any |= device(sendBufs[i], recvBufs[i]);
        if (!any) {
            coll.allReduceMany(sendBufs, recvBufs, counts, type, op);
            return;
        }
        Staging st = staging("allReduce", op);
        Buf[] s = new Buf[counts.length];
        Buf[] r = new Buf[counts.length];
        for (int i = 0; i < counts.length; i++) {
            Buf[] b = reduceBufs(st, sendBufs[i], recvBufs[i], span(counts[i], type), type, true);
            s[i] = b[0];
            r[i] = b[1];
        }
        run(st, () -> coll.allReduceMany(s, r, counts, type, op));
    }

    /**
     * A buffer that receives blocks of every rank ({@code span} bytes): written whole with a dense
     * type, read and written when the send buffer is IN_PLACE; null off the root when not significant.
     */
    private static Buf gatheredBuf(Staging st, Buf recvBuf, long span, TypeDesc type, boolean inPlace,
                                   boolean whole, boolean significant) {
        if (!significant) return device(recvBuf) ? null : recvBuf;
        if (inPlace) return st.inOut(recvBuf, span);
        return st.out(recvBuf, span, whole && Staging.dense(type));
    }

    @Override
    public void gather(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int recvCount, TypeDesc recvType,
                       int root) {
        if (!device(sendBuf, recvBuf)) {
            coll.gather(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, root);
            return;
        }
        Staging st = staging("gather", null);
        Buf s = st.in(sendBuf, span(sendCount, sendType));
        Buf r = gatheredBuf(st, recvBuf, span((long) size() * recvCount, recvType), recvType,
                sendBuf == Buf.IN_PLACE, true, isRoot(root));
        run(st, () -> coll.gather(s, sendCount, sendType, r, recvCount, recvType, root));
    }

    @Override
    public BackendRequest iGather(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int recvCount,
                                  TypeDesc recvType, int root) {
        if (!device(sendBuf, recvBuf)) return coll.iGather(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, root);
        Staging st = staging("iGather", null);
        Buf s = st.in(sendBuf, span(sendCount, sendType));
        Buf r = gatheredBuf(st, recvBuf, span((long) size() * recvCount, recvType), recvType,
                sendBuf == Buf.IN_PLACE, true, isRoot(root));
        return start(st, false, () -> coll.iGather(s, sendCount, sendType, r, recvCount, recvType, root));
    }

    @Override
    public void gatherv(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int[] recvCounts, int[] displs,
                        TypeDesc recvType, int root) {
        if (!device(sendBuf, recvBuf)) {
            coll.gatherv(sendBuf, sendCount, sendType, recvBuf, recvCounts, displs, recvType, root);
            return;
        }
        Staging st = staging("gatherv", null);
        Buf s = st.in(sendBuf, span(sendCount, sendType));
        Buf r = gatheredBuf(st, recvBuf, vSpan(recvCounts, displs, recvType), recvType, sendBuf == Buf.IN_PLACE,
                false, isRoot(root));
        run(st, () -> coll.gatherv(s, sendCount, sendType, r, recvCounts, displs, recvType, root));
    }

    @Override
    public BackendRequest iGatherv(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int[] recvCounts,
                                   int[] displs, TypeDesc recvType, int root) {
        if (!device(sendBuf, recvBuf)) {
            return coll.iGatherv(sendBuf, sendCount, sendType, recvBuf, recvCounts, displs, recvType, root);
        }
        Staging st = staging("iGatherv", null);
        Buf s = st.in(sendBuf, span(sendCount, sendType));
        Buf r = gatheredBuf(st, recvBuf, vSpan(recvCounts, displs, recvType), recvType, sendBuf == Buf.IN_PLACE,
                false, isRoot(root));
        return start(st, false, () -> coll.iGatherv(s, sendCount, sendType, r, recvCounts, displs, recvType, root));
    }

    /** The root's send buffer of a scatter ({@code span} bytes, read); null elsewhere when device memory. */
    private Buf scatteredBuf(Staging st, Buf sendBuf, long span, int root) {
        if (!isRoot(root)) return device(sendBuf) ? null : sendBuf;
        return st.in(sendBuf, span);
    }

    @Override
    public void scatter(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int recvCount, TypeDesc recvType,
                        int root) {
        if (!device(sendBuf, recvBuf)) {
            coll.scatter(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, root);
            return;
        }
        Staging st = staging("scatter", null);
        Buf s = scatteredBuf(st, sendBuf, span((long) size() * sendCount, sendType), root);
        Buf r = st.out(recvBuf, span(recvCount, recvType), Staging.dense(recvType));
        run(st, () -> coll.scatter(s, sendCount, sendType, r, recvCount, recvType, root));
    }

    @Override
    public BackendRequest iScatter(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int recvCount,
                                   TypeDesc recvType, int root) {
        if (!device(sendBuf, recvBuf)) {
            return coll.iScatter(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType, root);
        }
        Staging st = staging("iScatter", null);
        Buf s = scatteredBuf(st, sendBuf, span((long) size() * sendCount, sendType), root);
        Buf r = st.out(recvBuf, span(recvCount, recvType), Staging.dense(recvType));
        return start(st, false, () -> coll.iScatter(s, sendCount, sendType, r, recvCount, recvType, root));
    }

    @Override
    public void scatterv(Buf sendBuf, int[] sendCounts, int[] displs, TypeDesc sendType, Buf recvBuf, int recvCount,
                         TypeDesc recvType, int root) {
        if (!device(sendBuf, recvBuf)) {
            coll.scatterv(sendBuf, sendCounts, displs, sendType, recvBuf, recvCount, recvType, root);
            return;
        }
        Staging st = staging("scatterv", null);
        Buf s = scatteredBuf(st, sendBuf, isRoot(root) ? vSpan(sendCounts, displs, sendType) : 0, root);
        Buf r = st.out(recvBuf, span(recvCount, recvType), Staging.dense(recvType));
        run(st, () -> coll.scatterv(s, sendCounts, displs, sendType, r, recvCount, recvType, root));
    }

    @Override
    public BackendRequest iScatterv(Buf sendBuf, int[] sendCounts, int[] displs, TypeDesc sendType, Buf recvBuf,
                                    int recvCount, TypeDesc recvType, int root) {
        if (!device(sendBuf, recvBuf)) {
            return coll.iScatterv(sendBuf, sendCounts, displs, sendType, recvBuf, recvCount, recvType, root);
        }
        Staging st = staging("iScatterv", null);
        Buf s = scatteredBuf(st, sendBuf, isRoot(root) ? vSpan(sendCounts, displs, sendType) : 0, root);
        Buf r = st.out(recvBuf, span(recvCount, recvType), Staging.dense(recvType));
        return start(st, false, () -> coll.iScatterv(s, sendCounts, displs, sendType, r, recvCount, recvType, root));
    }

    @Override
    public void allGather(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int recvCount,
                          TypeDesc recvType) {
        NcclPath n = ncclMove(recvCount, recvType); // the receive side: the same at every rank
        if (n != null) {
            n.allGather("allGather", sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
            return;
        }
        if (!device(sendBuf, recvBuf)) {
            coll.allGather(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
            return;
        }
        Staging st = staging("allGather", null);
        Buf s = st.in(sendBuf, span(sendCount, sendType));
        Buf r = gatheredBuf(st, recvBuf, span((long) size() * recvCount, recvType), recvType,
                sendBuf == Buf.IN_PLACE, true, true);
        run(st, () -> coll.allGather(s, sendCount, sendType, r, recvCount, recvType));
    }

    @Override
    public BackendRequest iAllGather(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int recvCount,
                                     TypeDesc recvType) {
        NcclPath n = ncclMove(recvCount, recvType);
        if (n != null) {
            n.allGather("iAllGather", sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
            return done();
        }
        if (!device(sendBuf, recvBuf)) return coll.iAllGather(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
        Staging st = staging("iAllGather", null);
        Buf s = st.in(sendBuf, span(sendCount, sendType));
        Buf r = gatheredBuf(st, recvBuf, span((long) size() * recvCount, recvType), recvType,
                sendBuf == Buf.IN_PLACE, true, true);
        return start(st, false, () -> coll.iAllGather(s, sendCount, sendType, r, recvCount, recvType));
    }

    @Override
    public void allGatherv(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int[] recvCounts, int[] displs,
                           TypeDesc recvType) {
        if (!device(sendBuf, recvBuf)) {
            coll.allGatherv(sendBuf, sendCount, sendType, recvBuf, recvCounts, displs, recvType);
            return;
        }
        Staging st = staging("allGatherv", null);
        Buf s = st.in(sendBuf, span(sendCount, sendType));
        Buf r = gatheredBuf(st, recvBuf, vSpan(recvCounts, displs, recvType), recvType, sendBuf == Buf.IN_PLACE,
                false, true);
        run(st, () -> coll.allGatherv(s, sendCount, sendType, r, recvCounts, displs, recvType));
    }

    @Override
    public BackendRequest iAllGatherv(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int[] recvCounts,
                                      int[] displs, TypeDesc recvType) {
        if (!device(sendBuf, recvBuf)) {
            return coll.iAllGatherv(sendBuf, sendCount, sendType, recvBuf, recvCounts, displs, recvType);
        }
        Staging st = staging("iAllGatherv", null);
        Buf s = st.in(sendBuf, span(sendCount, sendType));
        Buf r = gatheredBuf(st, recvBuf, vSpan(recvCounts, displs, recvType), recvType, sendBuf == Buf.IN_PLACE,
                false, true);
        return start(st, false, () -> coll.iAllGatherv(s, sendCount, sendType, r, recvCounts, displs, recvType));
    }

    @Override
    public void allToAll(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int recvCount,
                         TypeDesc recvType) {
        if (!device(sendBuf, recvBuf)) {
            coll.allToAll(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
            return;
        }
        Staging st = staging("allToAll", null);
        Buf s = st.in(sendBuf, span((long) size() * sendCount, sendType));
        Buf r = gatheredBuf(st, recvBuf, span((long) size() * recvCount, recvType), recvType,
                sendBuf == Buf.IN_PLACE, true, true);
        run(st, () -> coll.allToAll(s, sendCount, sendType, r, recvCount, recvType));
    }

    @Override
    public BackendRequest iAllToAll(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int recvCount,
                                    TypeDesc recvType) {
        if (!device(sendBuf, recvBuf)) return coll.iAllToAll(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
        Staging st = staging("iAllToAll", null);
        Buf s = st.in(sendBuf, span((long) size() * sendCount, sendType));
        Buf r = gatheredBuf(st, recvBuf, span((long) size() * recvCount, recvType), recvType,
                sendBuf == Buf.IN_PLACE, true, true);
        return start(st, false, () -> coll.iAllToAll(s, sendCount, sendType, r, recvCount, recvType));
    }

    @Override
    public void allToAllv(Buf sendBuf, int[] sendCounts, int[] sendDispls, TypeDesc sendType, Buf recvBuf,
                          int[] recvCounts, int[] recvDispls, TypeDesc recvType) {
        if (!device(sendBuf, recvBuf)) {
            coll.allToAllv(sendBuf, sendCounts, sendDispls, sendType, recvBuf, recvCounts, recvDispls, recvType);
            return;
        }
        Staging st = staging("allToAllv", null);
        Buf s = st.in(sendBuf, vSpan(sendCounts, sendDispls, sendType));
        Buf r = gatheredBuf(st, recvBuf, vSpan(recvCounts, recvDispls, recvType), recvType, sendBuf == Buf.IN_PLACE,
                false, true);
        run(st, () -> coll.allToAllv(s, sendCounts, sendDispls, sendType, r, recvCounts, recvDispls, recvType));
    }

    @Override
    public BackendRequest iAllToAllv(Buf sendBuf, int[] sendCounts, int[] sendDispls, TypeDesc sendType, Buf recvBuf,
                                     int[] recvCounts, int[] recvDispls, TypeDesc recvType) {
        if (!device(sendBuf, recvBuf)) {
            return coll.iAllToAllv(sendBuf, sendCounts, sendDispls, sendType, recvBuf, recvCounts, recvDispls, recvType);
        }
        Staging st = staging("iAllToAllv", null);
        Buf s = st.in(sendBuf, vSpan(sendCounts, sendDispls, sendType));
        Buf r = gatheredBuf(st, recvBuf, vSpan(recvCounts, recvDispls, recvType), recvType, sendBuf == Buf.IN_PLACE,
                false, true);
        return start(st, false,
                () -> coll.iAllToAllv(s, sendCounts, sendDispls, sendType, r, recvCounts, recvDispls, recvType));
    }

    /** Reduce-scatter: the send buffer holds every rank's block ({@code all} items), the receive buffer this rank's ({@code mine}). */
    private static Buf[] reduceScatterBufs(Staging st, Buf sendBuf, Buf recvBuf, long all, long mine, TypeDesc type) {
        if (sendBuf == Buf.IN_PLACE) return new Buf[] {sendBuf, st.inOut(recvBuf, span(all, type))};
        return new Buf[] {st.in(sendBuf, span(all, type)), st.out(recvBuf, span(mine, type), Staging.dense(type))};
    }

    @Override
    public void reduceScatter(Buf sendBuf, Buf recvBuf, int[] recvCounts, TypeDesc type, OpDesc op) {
        if (!device(sendBuf, recvBuf)) {
            coll.reduceScatter(sendBuf, recvBuf, recvCounts, type, op);
            return;
        }
        Staging st = staging("reduceScatter", op);
        Buf[] b = reduceScatterBufs(st, sendBuf, recvBuf, sum(recvCounts), recvCounts[rank()], type);
        run(st, () -> coll.reduceScatter(b[0], b[1], recvCounts, type, op));
    }

    @Override
    public BackendRequest iReduceScatter(Buf sendBuf, Buf recvBuf, int[] recvCounts, TypeDesc type, OpDesc op) {
        if (!device(sendBuf, recvBuf)) return coll.iReduceScatter(sendBuf, recvBuf, recvCounts, type, op);
        Staging st = staging("iReduceScatter", op);
        Buf[] b = reduceScatterBufs(st, sendBuf, recvBuf, sum(recvCounts), recvCounts[rank()], type);
        return start(st, false, () -> coll.iReduceScatter(b[0], b[1], recvCounts, type, op));
    }

    @Override
    public void reduceScatterBlock(Buf sendBuf, Buf recvBuf, int recvCount, TypeDesc type, OpDesc op) {
        NcclPath n = ncclReduce(recvCount, type, op);
        if (n != null) {
            n.reduceScatterBlock("reduceScatterBlock", sendBuf, recvBuf, recvCount, type, op);
            return;
        }
        if (!device(sendBuf, recvBuf)) {
            coll.reduceScatterBlock(sendBuf, recvBuf, recvCount, type, op);
            return;
        }
        Staging st = staging("reduceScatterBlock", op);
        Buf[] b = reduceScatterBufs(st, sendBuf, recvBuf, (long) size() * recvCount, recvCount, type);
        run(st, () -> coll.reduceScatterBlock(b[0], b[1], recvCount, type, op));
    }

    @Override
    public BackendRequest iReduceScatterBlock(Buf sendBuf, Buf recvBuf, int recvCount, TypeDesc type, OpDesc op) {
        NcclPath n = ncclReduce(recvCount, type, op);
        if (n != null) {
            n.reduceScatterBlock("iReduceScatterBlock", sendBuf, recvBuf, recvCount, type, op);
            return done();
        }
        if (!device(sendBuf, recvBuf)) return coll.iReduceScatterBlock(sendBuf, recvBuf, recvCount, type, op);
        Staging st = staging("iReduceScatterBlock", op);
        Buf[] b = reduceScatterBufs(st, sendBuf, recvBuf, (long) size() * recvCount, recvCount, type);
        return start(st, false, () -> coll.iReduceScatterBlock(b[0], b[1], recvCount, type, op));
    }

    @Override
    public void scan(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op) {
        if (!device(sendBuf, recvBuf)) {
            coll.scan(sendBuf, recvBuf, count, type, op);
            return;
        }
        Staging st = staging("scan", op);
        Buf[] b = reduceBufs(st, sendBuf, recvBuf, span(count, type), type, true);
        run(st, () -> coll.scan(b[0], b[1], count, type, op));
    }

    @Override
    public BackendRequest iScan(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op) {
        if (!device(sendBuf, recvBuf)) return coll.iScan(sendBuf, recvBuf, count, type, op);
        Staging st = staging("iScan", op);
        Buf[] b = reduceBufs(st, sendBuf, recvBuf, span(count, type), type, true);
        return start(st, false, () -> coll.iScan(b[0], b[1], count, type, op));
    }

    /** Exclusive scan: rank 0's receive buffer is left as it was (MPI defines no value there). */
    private static Buf[] exScanBufs(Staging st, Buf sendBuf, Buf recvBuf, long span) {
        return new Buf[] {st.in(sendBuf, span), st.inOut(recvBuf, span)};
    }

    @Override
    public void exScan(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op) {
        if (!device(sendBuf, recvBuf)) {
            coll.exScan(sendBuf, recvBuf, count, type, op);
            return;
        }
        Staging st = staging("exScan", op);
        Buf[] b = exScanBufs(st, sendBuf, recvBuf, span(count, type));
        run(st, () -> coll.exScan(b[0], b[1], count, type, op));
    }

    @Override
    public BackendRequest iExScan(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op) {
        if (!device(sendBuf, recvBuf)) return coll.iExScan(sendBuf, recvBuf, count, type, op);
        Staging st = staging("iExScan", op);
        Buf[] b = exScanBufs(st, sendBuf, recvBuf, span(count, type));
        return start(st, false, () -> coll.iExScan(b[0], b[1], count, type, op));
    }

    // ---- capabilities that make communicators ----------------------------------------------

    /**
     * Intercommunicators: the backend's, with this layer's communicators unwrapped where they go
     * in. An intercommunicator itself is not staged (its spans count the remote group): device
     * memory there is refused by the backend, by name; the intracommunicator a merge makes is.
     */
    private final class Inter implements Intercommunication {
        private final Intercommunication inner;

        Inter(Intercommunication inner) {
            this.inner = inner;
        }

        @Override
        public BackendComm createIntercomm(int localLeader, BackendComm peer, int remoteLeader, int tag) {
            return inner.createIntercomm(localLeader, unwrap(peer), remoteLeader, tag);
        }

        @Override
        public boolean isInter() {
            return inner.isInter();
        }

        @Override
        public int remoteSize() {
            return inner.remoteSize();
        }

        @Override
        public int[] remoteWorldRanks() {
            return inner.remoteWorldRanks();
        }

        @Override
        public BackendComm merge(boolean high) {
            return wrap(inner.merge(high));
        }

        // ---- issue 10: create_group, ports and names go to the backend as they are ----

        @Override
        public BackendComm createGroup(int[] ranks, int tag) {
            return wrap(inner.createGroup(ranks, tag));
        }

        @Override
        public String openPort() {
            return inner.openPort();
        }

        @Override
        public void closePort(String port) {
            inner.closePort(port);
        }

        @Override
        public BackendComm accept(String port, int root) {
            return inner.accept(port, root);
        }

        @Override
        public BackendComm connect(String port, int root) {
            return inner.connect(port, root);
        }

        @Override
        public void disconnect() {
            inner.disconnect();
        }

        @Override
        public void publishName(String service, String port) {
            inner.publishName(service, port);
        }

        @Override
        public void unpublishName(String service, String port) {
            inner.unpublishName(service, port);
        }

        @Override
        public String lookupName(String service) {
            return inner.lookupName(service);
        }
    }

    /**
     * Topologies: the communicators they make take device memory like any other; the neighbour
     * collectives are the backend's (device memory there is refused by the backend, by name).
     */
    /** Communicators a topology constructor makes go through this layer too. */
    private final class Topo extends io.github.mpi4j.spi.TopologyDecorator {
        Topo(Topology inner) {
            super(inner);
        }

        @Override
        protected BackendComm made(BackendComm c) {
            return wrap(c);
        }
    }

    // ---- matched probes (issue 10) ----

    @Override
    public io.github.mpi4j.spi.BackendMessage mprobe(int source, int tag, io.github.mpi4j.spi.StatusData status) {
        return inner.mprobe(source, tag, status);
    }

    @Override
    public io.github.mpi4j.spi.BackendMessage improbe(int source, int tag, io.github.mpi4j.spi.StatusData status) {
        return inner.improbe(source, tag, status);
    }

    // ---- intercommunicators: point-to-point addresses the remote group (issue 11 item 3 found it missing) ----
    @Override
    public int peerCount() {
        return inner.peerCount();
    }
}
