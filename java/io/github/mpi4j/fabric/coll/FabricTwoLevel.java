package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * {@link TwoLevel} on the fabric's channels of a {@link NodeLayout}, for the call whose tag it
 * was last given ({@link #forTag}; a blocking context reuses one instance, calls one at a time):
 * rings inside the node, binomial trees to and from its first rank, and across nodes the flat
 * allreduce that {@link Collectives} picks for the number of nodes. All parts use the call's
 * tag: the parts never share a pair of ranks in the same role, so messages cannot mix.
 */
final class FabricTwoLevel implements TwoLevel {
    private final IntraNode local;
    private final InterNode peers;
    private final InterNode leaders;

    /** The tag of the call in progress. */
    private int tag;

    FabricTwoLevel(CollContext c) {
        NodeLayout l = c.layout();
        this.local = new Local(c.over(l.local));
        this.peers = l.peers == null ? null : new Across(c.over(l.peers));
        this.leaders = l.leaders == null ? null : new Across(c.over(l.leaders));
    }

    /** This instance, for the call with {@code tag}. */
    FabricTwoLevel forTag(int tag) {
        this.tag = tag;
        return this;
    }

    @Override
    public IntraNode local() {
        return local;
    }

    @Override
    public InterNode peers() {
        return peers;
    }

    @Override
    public InterNode leaders() {
        return leaders;
    }

    private final class Local implements IntraNode {
        private final CollContext c;

        Local(CollContext c) {
            this.c = c;
        }

        @Override
        public int rank() {
            return c.ch.rank();
        }

        @Override
        public int size() {
            return c.ch.size();
        }

        @Override
        public void reduceScatter(Buf buf, long[] at, TypeDesc type, OpDesc op) {
            Ring.reduceScatter(c, Buf.IN_PLACE, buf, type, op, tag, at);
        }

        @Override
        public int shardOf(int localRank) {
            return (localRank + 1) % size(); // where the ring reduce-scatter leaves it
        }

        @Override
        public void allGather(Buf buf, long[] at, TypeDesc type) {
            Ring.allgather(c.ch, buf, at, type.extent, tag, 1);
        }

        @Override
        public void reduceToFirst(Buf buf, int count, TypeDesc type, OpDesc op) {
            long len = CollContext.bytes(count, type);
            Buf acc = CollContext.temp(type, len);
            c.ch.copy(buf, 0, acc, 0, len);
            Buf result = Binomial.reduce(c.ch, acc, count, type, op, 0, tag);
            if (rank() == 0) c.ch.copy(result, 0, buf, 0, len);
        }

        @Override
        public void bcastFromFirst(Buf buf, int count, TypeDesc type) {
            Binomial.bcast(c.ch, buf, 0, CollContext.bytes(count, type), 0, tag);
        }
    }

    private final class Across implements InterNode {
        private final CollContext c;

        Across(CollContext c) {
            this.c = c;
        }

        @Override
        public void allReduce(Buf buf, long off, int count, TypeDesc type, OpDesc op) {
            if (off % buf.kind.bytes == 0) {
                Collectives.flatAllReduce(c, Buf.IN_PLACE, buf.plus((int) (off / buf.kind.bytes)), count, type, op, tag);
                return;
            }
            // A shard that does not start on an element of the buffer's kind: work on a copy.
            long len = CollContext.bytes(count, type);
            Buf t = CollContext.temp(type, len);
            c.ch.copy(buf, off, t, 0, len);
            Collectives.flatAllReduce(c, Buf.IN_PLACE, t, count, type, op, tag);
            c.ch.copy(t, 0, buf, off, len);
        }
    }
}
