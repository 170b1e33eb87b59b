package io.github.mpi4j.fabric;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.CollectiveOps;
import io.github.mpi4j.spi.Intercommunication;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.SendMode;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.util.Arrays;
import mpi.MPIException;

/**
 * An intercommunicator of the fabric: a local and a remote group of world ranks that share one
 * context id, agreed by the members of both. User messages travel on context {@code 2*id} and
 * address the remote group; the collectives ({@link FabricInterColl}) and the management calls
 * (merge, dup) talk on {@code 2*id+1}, inside and between the groups.
 */
final class FabricIntercomm implements BackendComm, Intercommunication {
    final FabricBackend backend;
    final Engine engine;
    final int[] local;
    final int[] remote;
    final int rank;
    final int p2pCtx;
    final int collCtx;
    /** World rank -> rank in the remote group, or -1. */
    private final int[] remoteRankOfWorld;
    private final FabricInterColl coll;

    FabricIntercomm(FabricBackend backend, int[] local, int[] remote, int id) {
        this.backend = backend;
        this.engine = backend.engine;
        this.local = local;
        this.remote = remote;
        this.p2pCtx = 2 * id;
        this.collCtx = 2 * id + 1;
        int me = -1;
        for (int i = 0; i < local.length; i++) if (local[i] == engine.me) me = i;
        this.rank = me;
        this.remoteRankOfWorld = new int[engine.size];
        Arrays.fill(remoteRankOfWorld, -1);
        for (int i = 0; i < remote.length; i++) remoteRankOfWorld[remote[i]] = i;
        this.coll = new FabricInterColl(this);
    }

    // ---- basics -----------------------------------------------------------------------------

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return local.length;
    }

    @Override
    public int[] worldRanks() {
        if (localNames != null) return localNames.clone();
        return local.clone();
    }

    @Override
    public int tagUpperBound() {
        return FabricComm.TAG_UB;
    }

    @Override
    public boolean isInter() {
        return true;
    }

    @Override
    public int peerCount() {
        return remote.length;
    }

    @Override
    public int remoteSize() {
        return remote.length;
    }

    @Override
    public int[] remoteWorldRanks() {
        if (remoteNames != null) return remoteNames.clone();
        return remote.clone();
    }

    @Override
    public CollectiveOps collectives() {
        return coll;
    }

    @Override
    public BackendComm createIntercomm(int localLeader, BackendComm peer, int remoteLeader, int tag) {
        throw MPIException.of(Mpi.ERR_COMM, "createIntercomm: the local communicator is an intercommunicator; "
                + "it must be an intracommunicator");
    }

    // ---- management: ordered with the collectives, on the collective context ----------------

    /** Whether the local group comes first when both groups pass the same {@code high}. */
    boolean localFirst() {
        return local[0] < remote[0];
    }

    @Override
    public BackendComm dup() {
        return coll.serial("dup", tag -> new FabricIntercomm(backend, local, remote, coll.agree(0, tag)[0]));
    }

    @Override
    public BackendComm merge(boolean high) {
        return coll.serial("merge", tag -> {
            int[] theirs = coll.agree(high ? 1 : 0, tag);
            boolean remoteHigh = theirs[1] != 0;
            int id = theirs[0];
            boolean localLast = high != remoteHigh ? high : !localFirst();
            int[] all = new int[local.length + remote.length];
            int[] first = localLast ? remote : local;
            int[] second = localLast ? local : remote;
            System.arraycopy(first, 0, all, 0, first.length);
            System.arraycopy(second, 0, all, first.length, second.length);
            return new FabricComm(backend, all, id);
        });
    }

    @Override
    public BackendComm split(int color, int key) {
        throw MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION,
                "split: splitting an intercommunicator is not supported by the fabric; merge it first");
    }

    @Override
    public BackendComm splitShared(boolean sharedType, int key) {
        throw MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION,
                "splitType: splitting an intercommunicator is not supported by the fabric; merge it first");
    }

    @Override
    public BackendComm create(int[] ranks) {
        throw MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION,
                "create: creating from an intercommunicator is not supported by the fabric; merge it first");
    }

    @Override
    public void free() {
        coll.shutdown();
        engine.release(p2pCtx);
        engine.release(collCtx);
    }

    @Override
    public void disconnect() {
        coll.serial("disconnect", tag -> {
            coll.barrierNow(tag);
            return null;
        });
        free();
        if (afterDisconnect != null) afterDisconnect.run();
    }

    // ---- point-to-point: ranks name the remote group ----------------------------------------

    void fillStatus(Engine.Op op, StatusData s) {
        if (s == null) return;
        if (op instanceof Engine.SendOp) {
            s.setSend(op.cancelled);
            return;
        }
        int src = op.source;
        int r = src == Mpi.PROC_NULL || src == Mpi.ANY_SOURCE ? src : remoteRankOfWorld[src];
        s.set(r, op.tag, 0, op.cancelled, op.bytes);
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
        // Buffered sends copy the data out at once; the attached buffer is the intracommunicators'.
        if (mode == SendMode.BUFFERED) {
            Buf copy = BufAccess.allocate(BaseKind.BYTE, len, false);
            BufAccess.copy(buf, 0, copy, 0, len);
            return engine.isend(p2pCtx, remote[dest], tag, copy, 0, len, false);
        }
        return engine.isend(p2pCtx, remote[dest], tag, buf, 0, len, mode == SendMode.SYNCHRONOUS);
    }

    private Engine.Op startRecv(Buf buf, int count, TypeDesc type, int source, int tag) {
        if (source == Mpi.PROC_NULL) return procNull();
        int src = source == Mpi.ANY_SOURCE ? Mpi.ANY_SOURCE : remote[source];
        return engine.irecv(p2pCtx, src, tag, buf, 0, Buffers.spanBytes(count, type));
    }

    @Override
    public void send(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        engine.waitFor(startSend(buf, count, type, dest, tag, mode), "send");
    }

    @Override
    public void recv(Buf buf, int count, TypeDesc type, int source, int tag, StatusData status) {
        Engine.Op op = startRecv(buf, count, type, source, tag);
        engine.waitFor(op, "recv");
        fillStatus(op, status);
    }

    @Override
    public BackendRequest isend(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        return new InterRequest(startSend(buf, count, type, dest, tag, mode), "isend", null);
    }

    @Override
    public BackendRequest irecv(Buf buf, int count, TypeDesc type, int source, int tag) {
        return new InterRequest(startRecv(buf, count, type, source, tag), "irecv", null);
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
        Engine.Op s = dest == Mpi.PROC_NULL ? procNull() : engine.isend(p2pCtx, remote[dest], sendTag, copy, 0, len, false);
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
        engine.probe(p2pCtx, source == Mpi.ANY_SOURCE ? source : remote[source], tag, status, "probe");
        status.source = remoteRankOfWorld[status.source];
    }

    @Override
    public boolean iprobe(int source, int tag, StatusData status) {
        if (source == Mpi.PROC_NULL) {
            status.setEmpty(Mpi.PROC_NULL, Mpi.ANY_TAG);
            return true;
        }
        if (!engine.iprobe(p2pCtx, source == Mpi.ANY_SOURCE ? source : remote[source], tag, status)) return false;
        status.source = remoteRankOfWorld[status.source];
        return true;
    }

    @Override
    public BackendRequest sendInit(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        return new InterRequest(null, "persistent send", () -> startSend(buf, count, type, dest, tag, mode));
    }

    @Override
    public BackendRequest recvInit(Buf buf, int count, TypeDesc type, int source, int tag) {
        return new InterRequest(null, "persistent receive", () -> startRecv(buf, count, type, source, tag));
    }

    /** A point-to-point request; persistent when it has a {@code starter}. */
    private final class InterRequest implements BackendRequest {
        private Engine.Op op;
        private final String what;
        private final java.util.function.Supplier<Engine.Op> starter;

        InterRequest(Engine.Op op, String what, java.util.function.Supplier<Engine.Op> starter) {
            this.op = op;
            this.what = what;
            this.starter = starter;
        }

        @Override
        public void waitFor(StatusData status) {
            if (op == null) return;
            engine.waitFor(op, what);
            fillStatus(op, status);
        }

        @Override
        public boolean test(StatusData status) {
            if (op == null) return true;
            if (!op.done) {
                engine.poke();
                engine.checkFailure();
                if (!op.done) return false;
            }
            if (op.error != null) throw op.error;
            fillStatus(op, status);
            return true;
        }

        @Override
        public void cancel() {
            if (op instanceof Engine.RecvOp) engine.cancel((Engine.RecvOp) op);
        }

        @Override
        public void free() {
        }

        @Override
        public boolean isPersistent() {
            return starter != null;
        }

        @Override
        public void start() {
            if (starter == null) throw new UnsupportedOperationException("not a persistent request");
            op = starter.get();
        }
    }

    @Override
    public String toString() {
        return "FabricIntercomm[rank " + rank + " of " + local.length + ", remote size " + remote.length + "]";
    }

    // ---- spawning (issue 11 item 3) ----
    /** Run after {@link #disconnect}: a spawned intercommunicator finishes its link job (FabricSpawn). */
    Runnable afterDisconnect;
    /**
     * How the groups name their members to the API when they are not the engine's ranks (a
     * spawn's link job): the local group by its ranks in this process's MPI_COMM_WORLD, the
     * other job's processes as -1 (what the MPI backend reports for processes outside the world).
     */
    int[] localNames, remoteNames;
}
