package io.github.mpi4j.nccl;

import io.github.mpi4j.cuda.Cuda;
import io.github.mpi4j.cuda.CudaEvent;
import io.github.mpi4j.cuda.CudaStream;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.memory.DeviceMemory;
import io.github.mpi4j.memory.NativeMemory;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The engine of {@link HierarchicalComm}: collectives over ranks spread over several nodes, NCCL
 * inside a node (a {@link RawNcclComm} of the node's ranks), the backend communicator across
 * nodes (host staging through {@link BackendCalls}). The algorithms are described on
 * {@link HierarchicalComm}; this class works on {@code spi} descriptors only.
 */
final class HierarchicalEngine {
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
    private final BackendComm node;
    /** The ranks with this rank's local index, one per node that has one, ordered by node. */
    private final BackendComm cross;
    private final RawNcclComm local;
    private final int myNode;
    private final int localRank;
    /** Device scratch, grown on demand, one per role within an operation. */
    private final DeviceBuffer[] scratch = new DeviceBuffer[3];
    private ByteBuffer host;
    /** The legacy default stream of this rank's device (wrapped, never destroyed). */
    private CudaStream legacy;

    private HierarchicalEngine(int rank, int size, RankLayout layout, BackendComm node, BackendComm cross,
                               RawNcclComm local) {
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
     * Collective over {@code comm}: splits it into nodes and into the ranks of equal local index,
     * and makes the node's NCCL communicator on this process's device ({@link #deviceOnNode}). A
     * failure on any rank (no NCCL, a device out of range) is an exception on every rank.
     */
    static HierarchicalEngine create(BackendComm comm) {
        int rank = comm.rank();
        int size = comm.size();
        BackendComm node = BackendCalls.splitShared(comm, "splitType", rank);
        BackendComm cross = null;
        try {
            int localRank = node.rank();
            int[] leader = {rank};
            BackendCalls.bcast(node, "bcast", leader, 1, Predefined.T_INT, 0);
            int[] facts = BackendCalls.allGather(comm, "allGather", new int[] {leader[0], localRank});
            int[] leaderOf = new int[size];
            int[] localOf = new int[size];
            for (int p = 0; p < size; p++) {
                leaderOf[p] = facts[2 * p];
                localOf[p] = facts[2 * p + 1];
            }
            RankLayout layout = RankLayout.of(leaderOf, localOf);
            // Keyed by node, so that a cross rank is its node's number on every cross communicator.
            cross = BackendCalls.split(comm, "split", localRank, layout.nodeOf(rank));
            RawNcclComm[] local = new RawNcclComm[1];
            RuntimeException failure = null;
            try {
                int device = deviceOnNode(node);
                local[0] = RawNcclComm.create("NcclComm.create", node, () -> device);
            } catch (RuntimeException e) {
                failure = e;
            }
            // The node's creation agrees within a node; the nodes must agree too, or some would wait forever.
            BackendCalls.agree(comm, "HierarchicalComm.create", failure, () -> {
                if (local[0] != null) local[0].close();
            }, "could not make its node's NCCL communicator (its own exception says why)");
            return new HierarchicalEngine(rank, size, layout, node, cross, local[0]);
        } catch (RuntimeException e) {
            if (cross != null) cross.free();
            node.free();
            throw e;
        }
    }

    /** Collective over {@code comm}: this rank's device ({@link #deviceOnNode} over its node's ranks in {@code comm}). */
    static int deviceOf(BackendComm comm) {
        BackendComm node = BackendCalls.splitShared(comm, "splitType", comm.rank());
        try {
            return deviceOnNode(node);
        } finally {
            node.free();
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
    static int deviceOnNode(BackendComm node) {
        int me = node.worldRanks()[node.rank()];
        int preferred;
        try {
            preferred = Cuda.defaultDevice();
        } catch (RuntimeException e) {
            preferred = -1; // no CUDA here: the NCCL communicator's creation says so on every rank
        }
        int n = node.size();
        int[] facts = BackendCalls.allGather(node, "allGather", new int[] {me, preferred});
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
    // Queries (the facade checks the state first)
    // ---------------------------------------------------------------------------------------

    int rank() {
        return rank;
    }

    int size() {
        return size;
    }

    int device() {
        return local.device();
    }

    int localRank() {
        return localRank;
    }

    int localSize() {
        return layout.nodeSize(myNode);
    }

    int node() {
        return myNode;
    }

    int nodeCount() {
        return layout.nodes();
    }

    CudaStream stream() {
        return local.stream();
    }

    void waitEvent(String what, CudaEvent event) {
        check(what);
        local.waitEvent(what, event);
    }

    boolean isClosed() {
        return state.get() == CLOSED;
    }

    boolean isAborted() {
        return state.get() == ABORTED;
    }

    // ---------------------------------------------------------------------------------------
    // Operands and element types, checked
    // ---------------------------------------------------------------------------------------

    /** The element type of one operation: as the backend sees it across nodes, and as NCCL reduces and moves it. */
    static final class Elements {
        final String what;
        final TypeDesc type;
        final OpDesc op;
        /** NCCL's type for reductions (null for data movement), and its op. */
        final NcclTypes.Mapped reduced;
        final int ncclOp;
        final NcclTypes.Mapped moved;
        final long bytes;

        private Elements(String what, TypeDesc type, OpDesc op, NcclTypes.Mapped reduced, int ncclOp) {
            this.what = what;
            this.type = type;
            this.op = op;
            this.reduced = reduced;
            this.ncclOp = ncclOp;
            this.moved = NcclTypes.forMovement(what, type);
            this.bytes = moved.elementBytes;
        }
    }

    /** A reduction's elements, or an exception naming what NCCL cannot reduce. */
    static Elements reduction(String what, TypeDesc type, OpDesc op) {
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        return new Elements(what, type, op, t, NcclTypes.forOp(what, op));
    }

    /** Data movement's elements, or an exception naming what NCCL cannot move. */
    static Elements movement(String what, TypeDesc type) {
        return new Elements(what, type, null, null, -1);
    }

    /** {@code buf}, after checking it is open, on this rank's device and holds {@code count × times} elements. */
    NativeMemory buffer(Elements x, String arg, DeviceBuffer buf, long count, int times) {
        long bytes = RawNcclComm.times(x.what, RawNcclComm.bytes(x.what, count, x.moved), times);
        if (buf == null) throw new IllegalArgumentException(x.what + ": " + arg + " is null");
        if (buf.isClosed()) throw new IllegalStateException(x.what + ": " + arg + " " + buf + " is closed");
        check(x.what);
        if (buf.device() != local.device()) {
            throw new IllegalArgumentException(x.what + ": " + arg + " is memory of device " + buf.device()
                    + ", this rank's device is " + local.device());
        }
        if (bytes > buf.size()) {
            throw new IllegalArgumentException(x.what + ": " + arg + " holds " + buf.size()
                    + " bytes, the operation needs " + bytes);
        }
        return buf;
    }

    /**
     * A raw address as memory of {@code count × times} elements, after checking it is device
     * memory of this rank's device (its extent cannot be checked).
     */
    NativeMemory address(Elements x, String arg, long address, long count, int times) {
        long bytes = RawNcclComm.times(x.what, RawNcclComm.bytes(x.what, count, x.moved), times);
        check(x.what);
        int device = local.device();
        if (bytes == 0) return DeviceMemory.of(address, 0, device);
        if (address == 0) throw new IllegalArgumentException(x.what + ": " + arg + " is address 0");
        int d = Cuda.deviceOf(address);
        if (d != device) {
            throw new IllegalArgumentException(x.what + ": " + arg + " 0x" + Long.toHexString(address) + " is "
                    + (d == NativeMemory.HOST ? "host memory" : "memory of device " + d)
                    + ", this rank's device is " + device);
        }
        return DeviceMemory.of(address, bytes, device);
    }

    // ---------------------------------------------------------------------------------------
    // The collectives, on checked operands
    // ---------------------------------------------------------------------------------------

    void allReduce(Elements x, NativeMemory send, NativeMemory recv, long count) {
        check(x.what);
        allReduceImpl(x, send, recv, count);
    }

    void broadcast(Elements x, NativeMemory buf, long count, int root) {
        checkRoot(x.what, root);
        check(x.what);
        broadcastImpl(x, buf, count, root);
    }

    void reduce(Elements x, NativeMemory send, NativeMemory recv, long count, int root) {
        checkRoot(x.what, root);
        check(x.what);
        reduceImpl(x, send, recv, count, root);
    }

    void allGather(Elements x, NativeMemory send, NativeMemory recv, long sendCount) {
        checkGatherBytes(x.what, sendCount * x.bytes);
        check(x.what);
        allGatherImpl(x, send, recv, sendCount);
    }

    void reduceScatter(Elements x, NativeMemory send, NativeMemory recv, long recvCount) {
        checkGatherBytes(x.what, recvCount * x.bytes);
        check(x.what);
        reduceScatterImpl(x, send, recv, recvCount);
    }

    // ---------------------------------------------------------------------------------------
    // The compositions
    // ---------------------------------------------------------------------------------------

    private void allReduceImpl(Elements x, NativeMemory send, NativeMemory recv, long count) {
        long e = x.bytes;
        if (count == 0) return;
        afterLegacyStream(x);
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
            local.reduceScatter(x.what, from, part.address(), shard, x.reduced, x.ncclOp);
            if (layout.nodes() > 1) acrossInPieces(x, part, shard, e, true, crossAllReduce(x));
            local.allGather(x.what, part.address(), exact ? recv.address() : whole.address(), shard, x.moved);
            if (!exact) whole.copyToAsync(recv, 0, count * e, s);
        } else {
            // Nodes of different sizes: through each node's first rank.
            DeviceBuffer sum = scratch(0, count * e);
            local.reduce(x.what, send.address(), sum.address(), count, x.reduced, x.ncclOp, 0);
            if (layout.nodes() > 1 && localRank == 0) {
                acrossInPieces(x, sum, count, e, true, crossAllReduce(x));
            }
            local.broadcast(x.what, sum.address(), recv.address(), count, x.moved, 0);
        }
        local.sync(x.what);
    }

    private void broadcastImpl(Elements x, NativeMemory buf, long count, int root) {
        long e = x.bytes;
        if (count == 0) return;
        afterLegacyStream(x);
        int rootNode = layout.nodeOf(root);
        int rootLocal = layout.localOf(root);
        long bytes = count * e;
        if (rootLocal < layout.minNodeSize()) {
            // Every node has a rank of root's local index: those pass it across, then each within its node.
            if (layout.nodes() > 1 && localRank == rootLocal) {
                across(x, buf, count, e, rootNode, crossBcast(rootNode));
            }
            local.broadcast(x.what, buf.address(), buf.address(), count, x.moved, rootLocal);
        } else {
            // Root's local index is missing on some node: root's node first, then the nodes' first ranks.
            if (myNode == rootNode) local.broadcast(x.what, buf.address(), buf.address(), count, x.moved, rootLocal);
            if (layout.nodes() > 1 && localRank == 0) {
                across(x, buf, count, e, rootNode, crossBcast(rootNode));
            }
            if (myNode != rootNode) local.broadcast(x.what, buf.address(), buf.address(), count, x.moved, 0);
        }
        local.sync(x.what);
    }

    /** Moves {@code buf} across nodes, as bytes, through the scratch: cross rank {@code from} sends, the others receive. */
    private void across(Elements x, NativeMemory buf, long count, long e, int from, PieceCall call) {
        long bytes = count * e;
        CudaStream s = local.stream();
        DeviceBuffer tmp = scratch(0, bytes);
        boolean sender = myNode == from;
        if (sender) tmp.copyFromAsync(buf, 0, bytes, s);
        acrossInPieces(x, tmp, bytes, 1, sender, call);
        if (!sender) tmp.copyToAsync(buf, 0, bytes, s);
    }

    private void reduceImpl(Elements x, NativeMemory send, NativeMemory recv, long count, int root) {
        long e = x.bytes;
        if (count == 0) return;
        afterLegacyStream(x);
        int rootNode = layout.nodeOf(root);
        int rootLocal = layout.localOf(root);
        // The local index that carries each node's sum across: root's own where every node has it.
        int via = rootLocal < layout.minNodeSize() ? rootLocal : 0;
        CudaStream s = local.stream();
        DeviceBuffer sum = scratch(0, count * e);
        local.reduce(x.what, send.address(), sum.address(), count, x.reduced, x.ncclOp, via);
        if (layout.nodes() > 1 && localRank == via) {
            acrossInPieces(x, sum, count, e, true,
                    (h, n) -> BackendCalls.reduce(cross, "reduce", h, n, x.type, x.op, rootNode));
        }
        if (myNode == rootNode) {
            if (via == rootLocal) {
                if (rank == root) sum.copyToAsync(recv, 0, count * e, s);
            } else if (localRank == via) {
                local.sendOrRecv(x.what, true, sum.address(), count, x.moved, rootLocal);
            } else if (rank == root) {
                local.sendOrRecv(x.what, false, recv.address(), count, x.moved, via);
            }
        }
        local.sync(x.what);
    }

    private void allGatherImpl(Elements x, NativeMemory send, NativeMemory recv, long sendCount) {
        long e = x.bytes;
        if (sendCount == 0) return;
        afterLegacyStream(x);
        long b = sendCount * e;
        int nodes = layout.nodes();
        CudaStream s = local.stream();
        DeviceBuffer all = scratch(1, b * size);
        boolean uniform = layout.uniform();
        if (uniform) {
            // Across first, among the ranks of this local index (each moves 1/L of the data), then within the node.
            DeviceBuffer mine = scratch(0, b * nodes);
            mine.slice(myNode * b, b).copyFromAsync(send, 0, b, s);
            if (nodes > 1) {
                stage(x, mine, myNode * b, b, b * nodes, h -> BackendCalls.allGatherBytes(cross, "allGather", h, (int) b));
            }
            local.allGather(x.what, mine.address(), all.address(), sendCount * nodes, x.moved);
        } else {
            // Within the node into its place in node-major order, across among the first ranks, back within the node.
            long at = layout.nodeStart(myNode) * b;
            local.allGather(x.what, send.address(), all.address() + at, sendCount, x.moved);
            if (nodes > 1) {
                if (localRank == 0) {
                    int[] counts = new int[nodes];
                    int[] displs = new int[nodes];
                    for (int i = 0; i < nodes; i++) {
                        counts[i] = (int) (layout.nodeSize(i) * b);
                        displs[i] = (int) (layout.nodeStart(i) * b);
                    }
                    stage(x, all, at, layout.nodeSize(myNode) * b, b * size,
                            h -> BackendCalls.allGatherBytes(cross, "allGatherv", h, counts, displs));
                }
                local.broadcast(x.what, all.address(), all.address(), sendCount * size, x.moved, 0);
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
        local.sync(x.what);
    }

    private void reduceScatterImpl(Elements x, NativeMemory send, NativeMemory recv, long recvCount) {
        long e = x.bytes;
        if (recvCount == 0) return;
        long block = recvCount * e;
        CudaStream s = local.stream();
        if (!layout.uniform()) {
            // Unequal nodes: the hierarchical all-reduce of the whole vector, of which each rank keeps its block.
            DeviceBuffer total = scratch(2, block * size);
            allReduceImpl(x, send, total, recvCount * size);
            total.slice(rank * block, block).copyToAsync(recv, 0, block, s);
            local.sync(x.what);
            return;
        }
        afterLegacyStream(x);
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
        local.reduceScatter(x.what, ordered.address(), mine.address(), recvCount * nodes, x.reduced, x.ncclOp);
        // ... and the reduce-scatter across nodes gives each its own (cross rank = node).
        if (nodes > 1) stage(x, mine, 0, block * nodes, block,
                h -> BackendCalls.reduceScatterBlock(cross, "reduceScatterBlock", h, (int) recvCount, x.type, x.op));
        mine.copyToAsync(recv, 0, block, s);
        local.sync(x.what);
    }

    /**
     * Orders this operation after the work queued so far on the legacy default stream: blocking
     * copies and memsets of {@link DeviceBuffer} run there and may still be in flight
     * ({@code cudaMemset} is asynchronous for device memory), while the node communicator's
     * stream is non-blocking and would not wait for them.
     */
    private void afterLegacyStream(Elements x) {
        if (legacy == null) legacy = CudaStream.wrap(0, local.device());
        try (CudaEvent e = legacy.record()) {
            local.waitEvent(x.what, e);
        }
    }

    // ---------------------------------------------------------------------------------------
    // The inter-node step
    // ---------------------------------------------------------------------------------------

    private PieceCall crossAllReduce(Elements x) {
        return (h, n) -> BackendCalls.allReduce(cross, "allReduce", h, n, x.type, x.op);
    }

    private PieceCall crossBcast(int rootNode) {
        return (h, n) -> BackendCalls.bcast(cross, "bcast", h, n, Predefined.T_BYTE, rootNode);
    }

    /** A backend call over {@code cross} on {@code count} elements of a staged piece. */
    private interface PieceCall {
        void run(Object buf, int count);
    }

    /**
     * {@code call} on {@code count} elements of {@code dev} in pieces of at most
     * {@code pieceBytes} (an elementwise operation: reductions, broadcasts). {@code hasData}:
     * whether this rank's device data is input.
     */
    private void acrossInPieces(Elements x, DeviceBuffer dev, long count, long e, boolean hasData, PieceCall call) {
        long per = Math.max(1, pieceBytes / e);
        for (long at = 0; at < count; at += per) {
            int n = (int) Math.min(per, count - at);
            DeviceBuffer piece = dev.slice(at * e, n * e);
            stage(x, piece, 0, hasData ? n * e : 0, n * e, h -> call.run(h, n));
        }
    }

    /**
     * The one place where device data crosses nodes. For now through host memory: after the
     * node's queued work, bytes {@code [from, from + inBytes)} of {@code dev} go to the same
     * offsets of a host buffer, {@code call} runs the backend's operation on it over {@code cross},
     * and its first {@code outBytes} come back into {@code dev}. Once the backends accept device
     * buffers, this becomes {@code call.accept(dev)}.
     */
    private void stage(Elements x, DeviceBuffer dev, long from, long inBytes, long outBytes, Consumer<Object> call) {
        CudaStream s = local.stream();
        ByteBuffer h = host(Math.max(from + inBytes, outBytes));
        if (inBytes > 0) dev.slice(from, inBytes).copyToAsync(h, (int) from, (int) inBytes, s);
        local.sync(x.what);
        call.accept(h);
        if (outBytes > 0) dev.copyFromAsync(h, 0, (int) outBytes, s);
        // The host buffer is reused by the next piece: the copy must be done.
        local.sync(x.what);
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
            d = DeviceBuffer.allocate(Math.max(bytes, 256), local.device());
            scratch[slot] = d;
        }
        return d;
    }

    // ---------------------------------------------------------------------------------------
    // Waiting, ending
    // ---------------------------------------------------------------------------------------

    void sync(String what) {
        check(what);
        local.sync("NcclComm.sync");
    }

    /** Within each node, among the nodes' first ranks, within each node. */
    void barrier(String what) {
        check(what);
        local.barrier("NcclComm.barrier");
        if (layout.nodes() > 1 && localRank == 0) BackendCalls.barrier(cross, "barrier");
        local.barrier("NcclComm.barrier");
    }

    void abort() {
        if (!state.compareAndSet(OPEN, ABORTED)) return;
        local.abort();
    }

    void close() {
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

    void check(String what) {
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

    /** All-gathers and reduce-scatters cross nodes in one backend call: its bytes must fit a Java buffer. */
    private void checkGatherBytes(String what, long bytes) {
        long total = RawNcclComm.times(what, bytes, size);
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(what + ": " + total + " bytes in all is more than one inter-node step moves ("
                    + (Integer.MAX_VALUE - 8) + ")");
        }
    }
}
