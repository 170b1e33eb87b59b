package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * The two levels a node-aware schedule ({@link NodeAware}) runs on, seen from one rank: the
 * ranks of its node, and the ranks on other nodes it talks to. The fabric implements both with
 * its channels ({@link FabricTwoLevel}); a communicator that reaches the other ranks of the node
 * another way (an NCCL communicator of the node's GPUs) and one that crosses nodes another way
 * (MPI, or the fabric over TCP) can implement them just as well.
 *
 * <p>Buffers hold whole elements of the operation's type; offsets are in bytes, item offsets
 * ({@code at}) in elements. Every rank of a level calls its methods in the same order.
 */
public interface TwoLevel {

    /** The ranks of this rank's node. */
    interface IntraNode {
        int rank();

        int size();

        /**
         * Reduce-scatter in place: {@code at} (size()+1 item offsets) cuts the vector into size()
         * shards; afterwards shard {@link #shardOf}(rank()) of {@code buf} holds the reduction
         * over the node, the other shards are undefined.
         */
        void reduceScatter(Buf buf, long[] at, TypeDesc type, OpDesc op);

        /** The shard that local rank {@code localRank} holds complete after {@link #reduceScatter}. */
        int shardOf(int localRank);

        /**
         * Allgather in place: every local rank l holds shard {@link #shardOf}(l) of {@code at};
         * afterwards every rank holds them all.
         */
        void allGather(Buf buf, long[] at, TypeDesc type);

        /** Afterwards local rank 0's {@code buf} holds the node's reduction (others' are unchanged). */
        void reduceToFirst(Buf buf, int count, TypeDesc type, OpDesc op);

        /** Local rank 0's {@code buf} to every rank of the node. */
        void bcastFromFirst(Buf buf, int count, TypeDesc type);
    }

    /** Ranks on other nodes, one per node. */
    interface InterNode {
        /** Allreduce in place of {@code count} items of {@code buf} from byte {@code off}. */
        void allReduce(Buf buf, long off, int count, TypeDesc type, OpDesc op);
    }

    IntraNode local();

    /**
     * The ranks with this rank's local index on every node, for the 2-D schedule; null when the
     * nodes hold different numbers of ranks (a local index then has no partner on some node).
     */
    InterNode peers();

    /** The first ranks of all nodes; non-null only at a node's first rank. */
    InterNode leaders();
}
