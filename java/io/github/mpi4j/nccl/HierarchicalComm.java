package io.github.mpi4j.nccl;

import io.github.mpi4j.cuda.Cuda;
import io.github.mpi4j.cuda.CudaEvent;
import io.github.mpi4j.cuda.CudaStream;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.nccl.HierarchicalEngine.Elements;

/**
 * Collectives over the ranks of an {@code mpi.Intracomm} spread over several nodes: NCCL inside
 * a node (an NCCL communicator of the node's ranks on the process's default device: its rank on
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
 * {@link #waitEvent}. Arguments are checked before anything is queued, as in {@link NcclComm};
 * any call on a closed or aborted communicator is an {@link IllegalStateException}. One thread
 * at a time may use it.
 *
 * <p>The inter-node step currently stages device data through host memory; counts of one
 * inter-node call are limited to what a Java buffer holds (2 GiB of bytes for all-gathers and
 * reduce-scatters; reductions and broadcasts go in pieces).
 *
 * <p>This class is the public face of {@link HierarchicalEngine}, which does all of the above
 * on {@code spi} descriptors: it checks the arguments that are {@code mpi} objects, converts
 * them through {@link io.github.mpi4j.spi.ApiBridge} and delegates.
 */
public final class HierarchicalComm implements AutoCloseable {
    private final HierarchicalEngine engine;

    private HierarchicalComm(HierarchicalEngine engine) {
        this.engine = engine;
    }

    /**
     * Collective over {@code comm}: splits it into nodes (as {@code splitType(Comm.TYPE_SHARED)})
     * and into the ranks of equal local index, and makes the node's NCCL communicator on the
     * device of this process ({@link Cuda#defaultDevice()}: the launcher's local rank, unless
     * {@code Cuda.setDevice} chose another), whatever the order of {@code comm}'s ranks and
     * whichever of them it holds. A failure on any rank (no NCCL, a device out of range) is an
     * exception on every rank.
     */
    public static HierarchicalComm create(mpi.Intracomm comm) {
        return new HierarchicalComm(HierarchicalEngine.create(ApiArgs.comm("HierarchicalComm.create", comm)));
    }

    // ---------------------------------------------------------------------------------------
    // Queries
    // ---------------------------------------------------------------------------------------

    /** The engine, after checking the communicator is open ({@code what} names the call). */
    private HierarchicalEngine open(String what) {
        engine.check(what);
        return engine;
    }

    /** This rank in the parent communicator. */
    public int getRank() {
        return open("getRank").rank();
    }

    public int getSize() {
        return open("getSize").size();
    }

    /** The device of this rank: by default its rank on its node (see {@link #create}). */
    public int getDevice() {
        return open("getDevice").device();
    }

    /** This rank's rank on its node. */
    public int getLocalRank() {
        return open("getLocalRank").localRank();
    }

    /** The number of ranks on this rank's node. */
    public int getLocalSize() {
        return open("getLocalSize").localSize();
    }

    /** This rank's node, numbered in the order of the nodes' lowest ranks. */
    public int getNode() {
        return open("getNode").node();
    }

    public int getNodeCount() {
        return open("getNodeCount").nodeCount();
    }

    /** The stream of the node's NCCL communicator: where this communicator's device work runs. */
    public CudaStream stream() {
        return open("stream").stream();
    }

    /**
     * Later operations wait until {@code event} is done (recorded on any stream, for example the
     * one that wrote their input).
     */
    public void waitEvent(CudaEvent event) {
        engine.waitEvent("waitEvent", event);
    }

    public boolean isClosed() {
        return engine.isClosed();
    }

    public boolean isAborted() {
        return engine.isAborted();
    }

    // ---------------------------------------------------------------------------------------
    // Collectives on DeviceBuffers
    // ---------------------------------------------------------------------------------------

    private static Elements reduction(String what, Object type, Object op) {
        return HierarchicalEngine.reduction(what, ApiArgs.type(what, type), ApiArgs.op(what, op));
    }

    private static Elements movement(String what, Object type) {
        return HierarchicalEngine.movement(what, ApiArgs.type(what, type));
    }

    /**
     * {@code recv} = the reduction of every rank's {@code send} ({@code count} elements; in place
     * when {@code send == recv}). Types and ops as {@link NcclComm#allReduce}.
     */
    public void allReduce(DeviceBuffer send, DeviceBuffer recv, long count, mpi.Datatype type, mpi.Op op) {
        Elements x = reduction("HierarchicalComm.allReduce", type, op);
        engine.allReduce(x, engine.buffer(x, "send", send, count, 1), engine.buffer(x, "recv", recv, count, 1), count);
    }

    /** Root's {@code buf} ({@code count} elements of any fixed-size predefined type) to every rank's. */
    public void broadcast(DeviceBuffer buf, long count, mpi.Datatype type, int root) {
        Elements x = movement("HierarchicalComm.broadcast", type);
        engine.broadcast(x, engine.buffer(x, "buf", buf, count, 1), count, root);
    }

    /** The reduction of every rank's {@code send} into root's {@code recv} ({@code recv} may be null elsewhere). */
    public void reduce(DeviceBuffer send, DeviceBuffer recv, long count, mpi.Datatype type, mpi.Op op, int root) {
        Elements x = reduction("HierarchicalComm.reduce", type, op);
        engine.reduce(x, engine.buffer(x, "send", send, count, 1),
                recv == null && engine.rank() != root ? null : engine.buffer(x, "recv", recv, count, 1), count, root);
    }

    /** Every rank's {@code send} ({@code sendCount} elements) into {@code recv}, in the parent's rank order. */
    public void allGather(DeviceBuffer send, DeviceBuffer recv, long sendCount, mpi.Datatype type) {
        Elements x = movement("HierarchicalComm.allGather", type);
        engine.allGather(x, engine.buffer(x, "send", send, sendCount, 1),
                engine.buffer(x, "recv", recv, sendCount, engine.size()), sendCount);
    }

    /**
     * The reduction of every rank's {@code send} ({@code recvCount × size} elements), block
     * {@code rank} (of the parent communicator) into {@code recv}. On equal nodes: the blocks
     * reordered by local index, an intra-node reduce-scatter, a reduce-scatter across nodes among
     * the ranks of each local index; on unequal nodes, the hierarchical all-reduce of the whole
     * vector of which each rank keeps its block.
     */
    public void reduceScatter(DeviceBuffer send, DeviceBuffer recv, long recvCount, mpi.Datatype type, mpi.Op op) {
        Elements x = reduction("HierarchicalComm.reduceScatter", type, op);
        engine.reduceScatter(x, engine.buffer(x, "send", send, recvCount, engine.size()),
                engine.buffer(x, "recv", recv, recvCount, 1), recvCount);
    }

    // ---------------------------------------------------------------------------------------
    // The same on raw device addresses (of this rank's device; their extent cannot be checked)
    // ---------------------------------------------------------------------------------------

    public void allReduce(long send, long recv, long count, mpi.Datatype type, mpi.Op op) {
        Elements x = reduction("HierarchicalComm.allReduce", type, op);
        engine.allReduce(x, engine.address(x, "send", send, count, 1), engine.address(x, "recv", recv, count, 1),
                count);
    }

    public void broadcast(long buf, long count, mpi.Datatype type, int root) {
        Elements x = movement("HierarchicalComm.broadcast", type);
        engine.broadcast(x, engine.address(x, "buf", buf, count, 1), count, root);
    }

    /** {@code recv} is read at the root only (0 elsewhere is fine). */
    public void reduce(long send, long recv, long count, mpi.Datatype type, mpi.Op op, int root) {
        Elements x = reduction("HierarchicalComm.reduce", type, op);
        engine.reduce(x, engine.address(x, "send", send, count, 1),
                engine.rank() == root ? engine.address(x, "recv", recv, count, 1) : null, count, root);
    }

    public void allGather(long send, long recv, long sendCount, mpi.Datatype type) {
        Elements x = movement("HierarchicalComm.allGather", type);
        engine.allGather(x, engine.address(x, "send", send, sendCount, 1),
                engine.address(x, "recv", recv, sendCount, engine.size()), sendCount);
    }

    public void reduceScatter(long send, long recv, long recvCount, mpi.Datatype type, mpi.Op op) {
        Elements x = reduction("HierarchicalComm.reduceScatter", type, op);
        engine.reduceScatter(x, engine.address(x, "send", send, recvCount, engine.size()),
                engine.address(x, "recv", recv, recvCount, 1), recvCount);
    }

    // ---------------------------------------------------------------------------------------
    // Waiting, ending
    // ---------------------------------------------------------------------------------------

    /** Waits for the node communicator's stream (operations are complete on return already). */
    public void sync() {
        engine.sync("HierarchicalComm.sync");
    }

    /** Returns once every rank has called it: within each node, among the nodes' first ranks, within each node. */
    public void barrier() {
        engine.barrier("HierarchicalComm.barrier");
    }

    /**
     * Aborts the node's NCCL communicator: every later call except {@link #close()} throws. Any
     * thread may call it; idempotent.
     */
    public void abort() {
        engine.abort();
    }

    /** Frees everything: the NCCL communicator, the node and cross communicators, the scratch. Idempotent. */
    @Override
    public void close() {
        engine.close();
    }

    @Override
    public String toString() {
        return engine.toString();
    }
}
