package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * Node-aware allreduce of a commutative op, for ranks spread over several nodes, written
 * against {@link TwoLevel} only.
 *
 * <p><b>2-D</b> (large messages, the same number L of ranks on every node, at least L items):
 * <ol>
 *   <li>the vector is cut into L nearly equal shards ({@link CollContext#chunks}: the first
 *       count mod L shards have one item more, so any count works);</li>
 *   <li>intra-node reduce-scatter: local rank l ends with shard shardOf(l) reduced over its
 *       node;</li>
 *   <li>inter-node allreduce of that shard among the ranks with local index l on every node —
 *       L such allreduces run side by side, each over 1/L of the vector, so every node link
 *       carries 1/L of the data per rank;</li>
 *   <li>intra-node allgather of the finished shards.</li>
 * </ol>
 *
 * <p><b>Leaders</b> (otherwise, notably when nodes hold different numbers of ranks): reduce to
 * the node's first rank, allreduce among those first ranks, bcast inside the node. Only one
 * rank per node talks across nodes.
 */
final class NodeAware {
    private NodeAware() {
    }

    /** Whether the 2-D schedule applies (the caller says whether the message is large). */
    static boolean twoD(TwoLevel parts, int count, boolean large) {
        return parts.peers() != null && large && count >= parts.local().size();
    }

    static void allReduce(TwoLevel parts, Buf r, int count, TypeDesc type, OpDesc op, boolean large) {
        TwoLevel.IntraNode local = parts.local();
        int perNode = local.size();
        if (twoD(parts, count, large)) {
            long[] at = CollContext.chunks(count, perNode);
            local.reduceScatter(r, at, type, op);
            int c = local.shardOf(local.rank());
            long items = at[c + 1] - at[c];
            if (items > 0) parts.peers().allReduce(r, at[c] * type.extent, (int) items, type, op);
            local.allGather(r, at, type);
            return;
        }
        if (perNode > 1) local.reduceToFirst(r, count, type, op);
        if (parts.leaders() != null) parts.leaders().allReduce(r, 0, count, type, op);
        if (perNode > 1) local.bcastFromFirst(r, count, type);
    }
}
