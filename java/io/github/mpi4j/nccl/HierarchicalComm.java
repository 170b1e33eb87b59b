package io.github.mpi4j.nccl;

import io.github.mpi4j.cuda.Cuda;
import io.github.mpi4j.cuda.CudaEvent;
import io.github.mpi4j.cuda.CudaStream;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.memory.DeviceMemory;
import io.github.mpi4j.memory.NativeMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;

/**
 * Collectives over the ranks of an {@code mpi.Intracomm} spread over several nodes: NCCL inside
 * a node (an {@link NcclComm} of the node's ranks on the process's default device: its rank on
 * its node), the communicator's own backend (MPI or the fabric) across nodes.
 *
 * <p>{@link #allReduce} is the standard 2-D algorithm when every node holds the same number L
 * of ranks: the vector is cut into L shards (padded when L does not divide the count), an
 * intra-node reduce-scatter leaves local rank l with shard l reduced over its node, every local
 * rank l allreduces its shard with the ranks of local index l on the other nodes (L inter-node
 * allreduces side by side, each of 1/L of the data), and an intra-node all-gather completes the
 * vector. With nodes of different sizes a local index has no partner on some nodes, so the
 * composition is: reduce to each node's first rank, allreduce among those, broadcast in the node.
 * {@link #allGather}, {@link #broadcast}, {@link #reduce} and {@link #reduceScatter} are composed
 * the same way and keep the rank order of the parent communicator, wherever its ranks sit.
 *
 * <p><b>Completion:</b> every operation is synchronous: it waits, with the deadline
 * {@code MPI4J_TIMEOUT}, until its result is in the receive buffer. It starts after the work
 * queued on the legacy default stream (where {@link DeviceBuffer}'s blocking copies and memsets
 * run); input written on another stream must be synchronized or ordered with
 * {@link #waitEvent}. Arguments are
 * checked before anything is queued, as in {@link NcclComm}; any call on a closed or aborted
 * communicator is an {@link IllegalStateException}. One thread at a time may use it.
 *
 * <p>The inter-node step currently stages device data through host memory (one private method,
 * {@code stage}); counts of one inter-node call are limited to what a Java buffer holds (2 GiB
 * of bytes for all-gathers and reduce-scatters; reductions and broadcasts go in pieces).
 */
public final class HierarchicalComm implements AutoCloseable {
    private static final int OPEN = 0;
    private static final int ABORTED = 1;
    private static final int CLOSED = 2;
    /**
     * Bytes of one inter-node piece of a reduction or broadcast: bounds the host staging memory.
     * Not final only so that a test in this package can make pieces small.
     */
    static volatile long pieceBytes = 16L << 20;

    private final AtomicInteger state = new AtomicInteger(OPEN);
    private final int rank;
    private final int size;
    private final RankLayout layout;
    /** The ranks of this node, in the parent's rank order. */
    private final Intracomm node;
    /** The ranks with this rank's local index, one per node that has one, ordered by node. */
    private final Intracomm cross;
    private final NcclComm local;
    private final int myNode;
    private final int localRank;
    /** Device scratch, grown on demand, one per role within an operation. */
    private final DeviceBuffer[] scratch = new DeviceBuffer[3];
    private ByteBuffer host;
    /** The legacy default stream of this rank's device (wrapped, never destroyed). */
    private CudaStream legacy;

    private HierarchicalComm(int rank, int size, RankLayout layout, Intracomm node, Intracomm cross, NcclComm local) {
        this.rank = rank;
        this.size = size;
        this.layout = layout;
        this.node = node;
        this.cross = cross;
        this.local = local;
        this.myNode = layout.nodeOf(rank);
        this.localRank = layout.localOf(rank);
    }

    /**
     * Collective over {@code comm}: splits it into nodes ({@code splitType(Comm.TYPE_SHARED)})
     * and into the ranks of equal local index, and makes the node's NCCL communicator on the
     * device of this process ({@link Cuda#defaultDevice()}: the launcher's local rank, unless
     * {@code Cuda.setDevice} chose another), whatever the order of {@code comm}'s ranks and
     * whichever of them it holds. A failure on any rank (no NCCL, a device
     * out of range) is an exception on every rank.
     */
    public static HierarchicalComm create(Intracomm comm) {
        if (comm == null) throw new IllegalArgumentException("HierarchicalComm.create: comm is null");
        int rank = comm.getRank();
        int size = comm.getSize();
        Intracomm node = comm.splitType(Comm.TYPE_SHARED, rank, MPI.INFO_NULL);
        Intracomm cross = null;
        try {
            int localRank = node.getRank();
            int[] leader = {rank};
            node.bcast(leader, 1, MPI.INT, 0);
            int[] facts = new int[2 * size];
            comm.allGather(new int[] {leader[0], localRank}, 2, MPI.INT, facts, 2, MPI.INT);
            int[] leaderOf = new int[size];
            int[] localOf = new int[size];
            for (int p = 0; p < size; p++) {
                leaderOf[p] = facts[2 * p];
                localOf[p] = facts[2 * p + 1];
            }
            RankLayout layout = RankLayout.of(leaderOf, localOf);
            // Keyed by node, so that a cross rank is its node's number on every cross communicator.
            cross = comm.split(localRank, layout.nodeOf(rank));
            NcclComm local = null;
            RuntimeException failure = null;
            try {
                local = NcclComm.create(node, deviceOnNode(node));
            } catch (RuntimeException e) {
                failure = e;
            }
            // NcclComm.create agrees within a node; the nodes must agree too, or some would wait forever.
            int[] firstFailed = {failure == null ? size : rank};
            comm.allReduce(firstFailed, 1, MPI.INT, MPI.MIN);
            if (firstFailed[0] < size) {
                if (local != null) local.close();
                if (failure != null) throw failure;
                throw NcclException.failed("HierarchicalComm.create", "rank " + firstFailed[0] + " of " + size
                        + " could not make its node's NCCL communicator (its own exception says why)");
            }
            return new HierarchicalComm(rank, size, layout, node, cross, local);
        } catch (RuntimeException e) {
            if (cross != null) cross.free();
            node.free();
            throw e;
        }
    }

    /**
     * The device of this rank, the same whichever communicator it is computed for: the process's
     * default device ({@link Cuda#defaultDevice()}: {@code Cuda.setDevice}'s choice, else the
     * launcher's local rank modulo the device count), the one {@code DeviceBuffer.allocate(bytes)}
     * uses. When those are not distinct among {@code node}'s ranks (no launcher variable says the
     * local rank), the rank among them counted in world rank order (modulo the device count)
     * instead: for a communicator of all ranks, in any order, that is the local rank again. Every
     * rank of {@code node} decides from the same gathered facts, so they agree.
     */
    static int deviceOnNode(Intracomm node) {
        int me = MPI.COMM_WORLD.getRank();
        int preferred;
        try {
            preferred = Cuda.defaultDevice();
        } catch (RuntimeException e) {
            preferred = -1; // no CUDA here: NcclComm.create says so on every rank
        }
        int n = node.getSize();
        int[] facts = new int[2 * n];
        node.allGather(new int[] {me, preferred}, 2, MPI.INT, facts, 2, MPI.INT);
        java.util.Set<Integer> devices = new java.util.HashSet<>();
        boolean distinct = true;
        int below = 0;
        for (int q = 0; q < n; q++) {
            if (facts[2 * q] < me) below++;
            distinct &= facts[2 * q + 1] >= 0 && devices.add(facts[2 * q + 1]);
        }
        if (distinct) return preferred;
        int count = Cuda.deviceCount();
        return count > 0 ? below % count : below;
    }

    // ---------------------------------------------------------------------------------------
    // Queries
    // ---------------------------------------------------------------------------------------

    /** This rank in the parent communicator. */
    public int getRank() {
        check("getRank");
        return rank;
    }

    public int getSize() {
        check("getSize");
        return size;
    }

    /** The device of this rank: by default its rank on its node (see {@link #create}). */
    public int getDevice() {
        check("getDevice");
        return local.getDevice();
    }

    /** This rank's rank on its node. */
    public int getLocalRank() {
        check("getLocalRank");
        return localRank;
    }

    /** The number of ranks on this rank's node. */
    public int getLocalSize() {
        check("getLocalSize");
        return layout.nodeSize(myNode);
    }

    /** This rank's node, numbered in the order of the nodes' lowest ranks. */
    public int getNode() {
        check("getNode");
        return myNode;
    }

    public int getNodeCount() {
        check("getNodeCount");
        return layout.nodes();
    }

    /** The stream of the node's NCCL communicator: where this communicator's device work runs. */
    public CudaStream stream() {
        check("stream");
        return local.stream();
    }

    /**
     * Later operations wait until {@code event} is done (recorded on any stream, for example the
     * one that wrote their input).
     */
    public void waitEvent(CudaEvent event) {
        check("waitEvent");
        local.waitEvent(event);
    }

    public boolean isClosed() {
        return state.get() == CLOSED;
    }

    public boolean isAborted() {
        return state.get() == ABORTED;
    }

    // ---------------------------------------------------------------------------------------
    // Collectives on DeviceBuffers
    // ---------------------------------------------------------------------------------------

    /**
     * {@code recv} = the reduction of every rank's {@code send} ({@code count} elements; in place
     * when {@code send == recv}). Types and ops as {@link NcclComm#allReduce}.
     */
    public void allReduce(DeviceBuffer send, DeviceBuffer recv, long count, Datatype type, Op op) {
        String what = "HierarchicalComm.allReduce";
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        NcclTypes.op(what, op);
        long bytes = bytes(what, count, t);
        NativeMemory s = buffer(what, "send", send, bytes);
        NativeMemory r = buffer(what, "recv", recv, bytes);
        check(what);
        allReduceImpl(s, r, count, t.elementBytes, type, op);
    }

    /** Root's {@code buf} ({@code count} elements of any fixed-size predefined type) to every rank's. */
    public void broadcast(DeviceBuffer buf, long count, Datatype type, int root) {
        String what = "HierarchicalComm.broadcast";
        NcclTypes.Mapped t = NcclTypes.forMovement(what, type);
        long bytes = bytes(what, count, t);
        NativeMemory b = buffer(what, "buf", buf, bytes);
        checkRoot(what, root);
        check(what);
        broadcastImpl(b, count, t.elementBytes, type, root);
    }

    /** The reduction of every rank's {@code send} into root's {@code recv} ({@code recv} may be null elsewhere). */
    public void reduce(DeviceBuffer send, DeviceBuffer recv, long count, Datatype type, Op op, int root) {
        String what = "HierarchicalComm.reduce";
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        NcclTypes.op(what, op);
        long bytes = bytes(what, count, t);
        checkRoot(what, root);
        NativeMemory s = buffer(what, "send", send, bytes);
        NativeMemory r = recv == null && rank != root ? null : buffer(what, "recv", recv, bytes);
        check(what);
        reduceImpl(s, r, count, t.elementBytes, type, op, root);
    }

    /** Every rank's {@code send} ({@code sendCount} elements) into {@code recv}, in the parent's rank order. */
    public void allGather(DeviceBuffer send, DeviceBuffer recv, long sendCount, Datatype type) {
        String what = "HierarchicalComm.allGather";
        NcclTypes.Mapped t = NcclTypes.forMovement(what, type);
        long bytes = bytes(what, sendCount, t);
        NativeMemory s = buffer(what, "send", send, bytes);
        NativeMemory r = buffer(what, "recv", recv, times(what, bytes, size));
        checkGatherBytes(what, bytes);
        check(what);
        allGatherImpl(s, r, sendCount, t.elementBytes, type);
    }

    /**
     * The reduction of every rank's {@code send} ({@code recvCount × size} elements), block
     * {@code rank} (of the parent communicator) into {@code recv}. On equal nodes: the blocks
     * reordered by local index, an intra-node reduce-scatter, a reduce-scatter across nodes among
     * the ranks of each local index; on unequal nodes, the hierarchical all-reduce of the whole
     * vector of which each rank keeps its block.
     */
    public void reduceScatter(DeviceBuffer send, DeviceBuffer recv, long recvCount, Datatype type, Op op) {
        String what = "HierarchicalComm.reduceScatter";
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        NcclTypes.op(what, op);
        long bytes = bytes(what, recvCount, t);
        NativeMemory s = buffer(what, "send", send, times(what, bytes, size));
        NativeMemory r = buffer(what, "recv", recv, bytes);
        checkGatherBytes(what, bytes);
        check(what);
        reduceScatterImpl(s, r, recvCount, t.elementBytes, type, op);
    }

    // ---------------------------------------------------------------------------------------
    // The same on raw device addresses (of this rank's device; their extent cannot be checked)
    // ---------------------------------------------------------------------------------------

    public void allReduce(long send, long recv, long count, Datatype type, Op op) {
        String what = "HierarchicalComm.allReduce";
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        NcclTypes.op(what, op);
        long bytes = bytes(what, count, t);
        check(what);
        NativeMemory s = address(what, "send", send, bytes);
        NativeMemory r = address(what, "recv", recv, bytes);
        allReduceImpl(s, r, count, t.elementBytes, type, op);
    }

    public void broadcast(long buf, long count, Datatype type, int root) {
        String what = "HierarchicalComm.broadcast";
        NcclTypes.Mapped t = NcclTypes.forMovement(what, type);
        long bytes = bytes(what, count, t);
        checkRoot(what, root);
        check(what);
        NativeMemory b = address(what, "buf", buf, bytes);
        broadcastImpl(b, count, t.elementBytes, type, root);
    }

    /** {@code recv} is read at the root only (0 elsewhere is fine). */
    public void reduce(long send, long recv, long count, Datatype type, Op op, int root) {
        String what = "HierarchicalComm.reduce";
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        NcclTypes.op(what, op);
        long bytes = bytes(what, count, t);
        checkRoot(what, root);
        check(what);
        NativeMemory s = address(what, "send", send, bytes);
        NativeMemory r = rank == root ? address(what, "recv", recv, bytes) : null;
        reduceImpl(s, r, count, t.elementBytes, type, op, root);
    }

    public void allGather(long send, long recv, long sendCount, Datatype type) {
        String what = "HierarchicalComm.allGather";
        NcclTypes.Mapped t = NcclTypes.forMovement(what, type);
        long bytes = bytes(what, sendCount, t);
        checkGatherBytes(what, bytes);
        check(what);
        NativeMemory s = address(what, "send", send, bytes);
        NativeMemory r = address(what, "recv", recv, times(what, bytes, size));
        allGatherImpl(s, r, sendCount, t.elementBytes, type);
    }

    public void reduceScatter(long send, long recv, long recvCount, Datatype type, Op op) {
        String what = "HierarchicalComm.reduceScatter";
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        NcclTypes.op(what, op);
        long bytes = bytes(what, recvCount, t);
        checkGatherBytes(what, bytes);
        check(what);
        NativeMemory s = address(what, "send", send, times(what, bytes, size));
        NativeMemory r = address(what, "recv", recv, bytes);
        reduceScatterImpl(s, r, recvCount, t.elementBytes, type, op);
    }

    // ---------------------------------------------------------------------------------------
    // The compositions
    // ---------------------------------------------------------------------------------------

    private void allReduceImpl(NativeMemory send, NativeMemory recv, long count, long e, Datatype type, Op op) {
        if (count == 0) return;
        afterLegacyStream();
        CudaStream s = local.stream();
        if (layout.uniform()) {
            // 2-D: shards of ceil(count / L) elements; the last ones padded with zeros when L does not divide count.
            int perNode = layout.nodeSize(myNode);
            long shard = (count + perNode - 1) / perNode;
            boolean exact = shard * perNode == count;
            DeviceBuffer part = scratch(0, shard * e);
            DeviceBuffer whole = exact ? null : scratch(1, shard * perNode * e);
            long from = send.address();
            if (!exact) {
                whole.copyFromAsync(send, 0, count * e, s);
                whole.memsetAsync(0, count * e, (shard * perNode - count) * e, s);
                from = whole.address();
            }
            local.reduceScatter(from, part.address(), shard, type, op);
            if (layout.nodes() > 1) acrossInPieces(part, shard, e, true, (h, n) -> cross.allReduce(h, n, type, op));
            local.allGather(part.address(), exact ? recv.address() : whole.address(), shard, type);
            if (!exact) whole.copyToAsync(recv, 0, count * e, s);
        } else {
            // Nodes of different sizes: through each node's first rank.
            DeviceBuffer sum = scratch(0, count * e);
            local.reduce(send.address(), sum.address(), count, type, op, 0);
            if (layout.nodes() > 1 && localRank == 0) {
                acrossInPieces(sum, count, e, true, (h, n) -> cross.allReduce(h, n, type, op));
            }
            local.broadcast(sum.address(), recv.address(), count, type, 0);
        }
        local.sync();
    }

    private void broadcastImpl(NativeMemory buf, long count, long e, Datatype type, int root) {
        if (count == 0) return;
        afterLegacyStream();
        int rootNode = layout.nodeOf(root);
        int rootLocal = layout.localOf(root);
        long bytes = count * e;
        if (rootLocal < layout.minNodeSize()) {
            // Every node has a rank of root's local index: those pass it across, then each within its node.
            if (layout.nodes() > 1 && localRank == rootLocal) {
                across(buf, count, e, rootNode, (h, n) -> cross.bcast(h, n, MPI.BYTE, rootNode));
            }
            local.broadcast(buf.address(), buf.address(), count, type, rootLocal);
        } else {
            // Root's local index is missing on some node: root's node first, then the nodes' first ranks.
            if (myNode == rootNode) local.broadcast(buf.address(), buf.address(), count, type, rootLocal);
            if (layout.nodes() > 1 && localRank == 0) {
                across(buf, count, e, rootNode, (h, n) -> cross.bcast(h, n, MPI.BYTE, rootNode));
            }
            if (myNode != rootNode) local.broadcast(buf.address(), buf.address(), count, type, 0);
        }
        local.sync();
    }

    /** Moves {@code buf} across nodes, as bytes, through the scratch: cross rank {@code from} sends, the others receive. */
    private void across(NativeMemory buf, long count, long e, int from, PieceCall call) {
        long bytes = count * e;
        CudaStream s = local.stream();
        DeviceBuffer tmp = scratch(0, bytes);
        boolean sender = myNode == from;
        if (sender) tmp.copyFromAsync(buf, 0, bytes, s);
        acrossInPieces(tmp, bytes, 1, sender, call);
        if (!sender) tmp.copyToAsync(buf, 0, bytes, s);
    }

    private void reduceImpl(NativeMemory send, NativeMemory recv, long count, long e, Datatype type, Op op, int root) {
        if (count == 0) return;
        afterLegacyStream();
        int rootNode = layout.nodeOf(root);
        int rootLocal = layout.localOf(root);
        // The local index that carries each node's sum across: root's own where every node has it.
        int via = rootLocal < layout.minNodeSize() ? rootLocal : 0;
        CudaStream s = local.stream();
        DeviceBuffer sum = scratch(0, count * e);
        local.reduce(send.address(), sum.address(), count, type, op, via);
        if (layout.nodes() > 1 && localRank == via) {
            acrossInPieces(sum, count, e, true, (h, n) -> cross.reduce(h, n, type, op, rootNode));
        }
        if (myNode == rootNode) {
            if (via == rootLocal) {
                if (rank == root) sum.copyToAsync(recv, 0, count * e, s);
            } else if (localRank == via) {
                local.send(sum.address(), count, type, rootLocal);
            } else if (rank == root) {
                local.recv(recv.address(), count, type, via);
            }
        }
        local.sync();
    }

    private void allGatherImpl(NativeMemory send, NativeMemory recv, long sendCount, long e, Datatype type) {
        if (sendCount == 0) return;
        afterLegacyStream();
        long b = sendCount * e;
        int nodes = layout.nodes();
        CudaStream s = local.stream();
        DeviceBuffer all = scratch(1, b * size);
        boolean uniform = layout.uniform();
        if (uniform) {
            // Across first, among the ranks of this local index (each moves 1/L of the data), then within the node.
            DeviceBuffer mine = scratch(0, b * nodes);
            mine.slice(myNode * b, b).copyFromAsync(send, 0, b, s);
            if (nodes > 1) stage(mine, myNode * b, b, b * nodes, h -> cross.allGather(h, (int) b, MPI.BYTE));
            local.allGather(mine.address(), all.address(), sendCount * nodes, type);
        } else {
            // Within the node into its place in node-major order, across among the first ranks, back within the node.
            long at = layout.nodeStart(myNode) * b;
            local.allGather(send.address(), all.address() + at, sendCount, type);
            if (nodes > 1) {
                if (localRank == 0) {
                    int[] counts = new int[nodes];
                    int[] displs = new int[nodes];
                    for (int i = 0; i < nodes; i++) {
                        counts[i] = (int) (layout.nodeSize(i) * b);
                        displs[i] = (int) (layout.nodeStart(i) * b);
                    }
                    stage(all, at, layout.nodeSize(myNode) * b, b * size, h -> cross.allGatherv(h, counts, displs, MPI.BYTE));
                }
                local.broadcast(all.address(), all.address(), sendCount * size, type, 0);
            }
        }
        // Into the parent's rank order, copying runs of consecutive blocks at once.
        java.util.function.IntUnaryOperator where = uniform ? layout::byLocalThenNode : layout::byNodeThenLocal;
        for (int p = 0; p < size; ) {
            int src = where.applyAsInt(p);
            int run = 1;
            while (p + run < size && where.applyAsInt(p + run) == src + run) run++;
            all.slice(src * b, run * b).copyToAsync(recv, p * b, run * b, s);
            p += run;
        }
        local.sync();
    }

    private void reduceScatterImpl(NativeMemory send, NativeMemory recv, long recvCount, long e, Datatype type, Op op) {
        if (recvCount == 0) return;
        long block = recvCount * e;
        CudaStream s = local.stream();
        if (!layout.uniform()) {
            // Unequal nodes: the hierarchical all-reduce of the whole vector, of which each rank keeps its block.
            DeviceBuffer total = scratch(2, block * size);
            allReduceImpl(send, total, recvCount * size, e, type, op);
            total.slice(rank * block, block).copyToAsync(recv, 0, block, s);
            local.sync();
            return;
        }
        afterLegacyStream();
        int nodes = layout.nodes();
        // The blocks ordered by local index, then node: the node's reduce-scatter then leaves local
        // rank l with the blocks of the ranks of index l on every node, reduced over the node ...
        DeviceBuffer ordered = scratch(1, block * size);
        for (int p = 0; p < size; ) {
            int dst = layout.byLocalThenNode(p);
            int run = 1;
            while (p + run < size && layout.byLocalThenNode(p + run) == dst + run) run++;
            ordered.slice(dst * block, run * block).copyFromAsync(send, p * block, run * block, s);
            p += run;
        }
        DeviceBuffer mine = scratch(0, block * nodes);
        local.reduceScatter(ordered.address(), mine.address(), recvCount * nodes, type, op);
        // ... and the reduce-scatter across nodes gives each its own (cross rank = node).
        if (nodes > 1) stage(mine, 0, block * nodes, block, h -> cross.reduceScatterBlock(h, (int) recvCount, type, op));
        mine.copyToAsync(recv, 0, block, s);
        local.sync();
    }

    /**
     * Orders this operation after the work queued so far on the legacy default stream: blocking
     * copies and memsets of {@link DeviceBuffer} run there and may still be in flight
     * ({@code cudaMemset} is asynchronous for device memory), while the node communicator's
     * stream is non-blocking and would not wait for them.
     */
    private void afterLegacyStream() {
        if (legacy == null) legacy = CudaStream.wrap(0, local.getDevice());
        try (CudaEvent e = legacy.record()) {
            local.waitEvent(e);
        }
    }

    // ---------------------------------------------------------------------------------------
    // The inter-node step
    // ---------------------------------------------------------------------------------------

    /** An mpi call over {@link #cross} on {@code count} elements of a staged piece. */
    private interface PieceCall {
        void run(Object buf, int count);
    }

    /**
     * {@code call} on {@code count} elements of {@code dev} in pieces of at most
     * {@code pieceBytes} (an elementwise operation: reductions, broadcasts). {@code hasData}:
     * whether this rank's device data is input.
     */
    private void acrossInPieces(DeviceBuffer dev, long count, long e, boolean hasData, PieceCall call) {
        long per = Math.max(1, pieceBytes / e);
        for (long at = 0; at < count; at += per) {
            int n = (int) Math.min(per, count - at);
            DeviceBuffer piece = dev.slice(at * e, n * e);
            stage(piece, 0, hasData ? n * e : 0, n * e, h -> call.run(h, n));
        }
    }

    /**
     * The one place where device data crosses nodes. For now through host memory: after the
     * node's queued work, bytes {@code [from, from + inBytes)} of {@code dev} go to the same
     * offsets of a host buffer, {@code call} runs the mpi operation on it over {@link #cross},
     * and its first {@code outBytes} come back into {@code dev}. Once the mpi calls accept device
     * buffers, this becomes {@code call.accept(dev)}.
     */
    private void stage(DeviceBuffer dev, long from, long inBytes, long outBytes, Consumer<Object> call) {
        CudaStream s = local.stream();
        ByteBuffer h = host(Math.max(from + inBytes, outBytes));
        if (inBytes > 0) dev.slice(from, inBytes).copyToAsync(h, (int) from, (int) inBytes, s);
        local.sync();
        call.accept(h);
        if (outBytes > 0) dev.copyFromAsync(h, 0, (int) outBytes, s);
        // The host buffer is reused by the next piece: the copy must be done.
        local.sync();
    }

    private ByteBuffer host(long bytes) {
        if (host == null || host.capacity() < bytes) {
            host = ByteBuffer.allocateDirect((int) Math.max(bytes, 4096)).order(ByteOrder.nativeOrder());
        }
        return host;
    }

    /** Scratch slot {@code slot} of at least {@code bytes} bytes (grown, never shrunk; freed by close). */
    private DeviceBuffer scratch(int slot, long bytes) {
        DeviceBuffer d = scratch[slot];
        if (d == null || d.size() < bytes) {
            if (d != null) d.close();
            scratch[slot] = null;
            d = DeviceBuffer.allocate(Math.max(bytes, 256), local.getDevice());
            scratch[slot] = d;
        }
        return d;
    }

    // ---------------------------------------------------------------------------------------
    // Waiting, ending
    // ---------------------------------------------------------------------------------------

    /** Waits for the node communicator's stream (operations are complete on return already). */
    public void sync() {
        check("HierarchicalComm.sync");
        local.sync();
    }

    /** Returns once every rank has called it: within each node, among the nodes' first ranks, within each node. */
    public void barrier() {
        check("HierarchicalComm.barrier");
        local.barrier();
        if (layout.nodes() > 1 && localRank == 0) cross.barrier();
        local.barrier();
    }

    /**
     * Aborts the node's NCCL communicator: every later call except {@link #close()} throws. Any
     * thread may call it; idempotent.
     */
    public void abort() {
        if (!state.compareAndSet(OPEN, ABORTED)) return;
        local.abort();
    }

    /** Frees everything: the NCCL communicator, the node and cross communicators, the scratch. Idempotent. */
    @Override
    public void close() {
        if (state.getAndSet(CLOSED) == CLOSED) return;
        try {
            local.close();
        } finally {
            for (int i = 0; i < scratch.length; i++) {
                if (scratch[i] != null) scratch[i].close();
                scratch[i] = null;
            }
            host = null;
            cross.free();
            node.free();
        }
    }

    @Override
    public String toString() {
        int s = state.get();
        return "HierarchicalComm[rank " + rank + " of " + size + ", node " + myNode + " of " + layout.nodes()
                + ", local rank " + localRank + " of " + layout.nodeSize(myNode)
                + (s == CLOSED ? ", closed" : s == ABORTED ? ", aborted" : "") + "]";
    }

    // ---------------------------------------------------------------------------------------
    // Checks
    // ---------------------------------------------------------------------------------------

    private void check(String what) {
        int s = state.get();
        if (s != OPEN) {
            throw new IllegalStateException(what + ": " + this + " is " + (s == CLOSED ? "closed" : "aborted"));
        }
    }

    private void checkRoot(String what, int root) {
        if (root < 0 || root >= size) {
            throw new IllegalArgumentException(what + ": root " + root + " is out of range: the communicator has "
                    + size + " rank" + (size == 1 ? "" : "s"));
        }
    }

    /** All-gathers and reduce-scatters cross nodes in one mpi call: its bytes must fit a Java buffer. */
    private void checkGatherBytes(String what, long bytes) {
        long total = times(what, bytes, size);
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(what + ": " + total + " bytes in all is more than one inter-node step moves ("
                    + (Integer.MAX_VALUE - 8) + ")");
        }
    }

    private static long bytes(String what, long count, NcclTypes.Mapped t) {
        if (count < 0) throw new IllegalArgumentException(what + ": count must be >= 0, got " + count);
        return times(what, count, t.elementBytes);
    }

    private static long times(String what, long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(what + ": " + a + " × " + b + " bytes overflows a long");
        }
    }

    /** {@code buf}, after checking it is open, on this rank's device and holds {@code bytes}. */
    private NativeMemory buffer(String what, String arg, DeviceBuffer buf, long bytes) {
        if (buf == null) throw new IllegalArgumentException(what + ": " + arg + " is null");
        if (buf.isClosed()) throw new IllegalStateException(what + ": " + arg + " " + buf + " is closed");
        check(what);
        if (buf.device() != local.getDevice()) {
            throw new IllegalArgumentException(what + ": " + arg + " is memory of device " + buf.device()
                    + ", this rank's device is " + local.getDevice());
        }
        if (bytes > buf.size()) {
            throw new IllegalArgumentException(what + ": " + arg + " holds " + buf.size() + " bytes, the operation needs "
                    + bytes);
        }
        return buf;
    }

    /** A raw address as memory of {@code bytes} bytes, after checking it is device memory of this rank's device. */
    private NativeMemory address(String what, String arg, long address, long bytes) {
        int device = local.getDevice();
        if (bytes == 0) return DeviceMemory.of(address, 0, device);
        if (address == 0) throw new IllegalArgumentException(what + ": " + arg + " is address 0");
        int d = Cuda.deviceOf(address);
        if (d != device) {
            throw new IllegalArgumentException(what + ": " + arg + " 0x" + Long.toHexString(address) + " is "
                    + (d == NativeMemory.HOST ? "host memory" : "memory of device " + d)
                    + ", this rank's device is " + device);
        }
        return DeviceMemory.of(address, bytes, device);
    }
}
