package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the ranks of one communicator sit on nodes, for the node-aware schedules: the ranks of
 * this rank's node ({@link #local}), the first rank of every node ({@link #leaders}, non-null
 * only on a leader), and — when every node holds the same number of ranks — the ranks that have
 * this rank's local index on every node ({@link #peers}). Each is a {@link CollChannel} over a
 * subset of the parent's ranks, so the ordinary schedules run on it unchanged.
 */
final class NodeLayout {
    final CollChannel local;
    final CollChannel leaders;
    final CollChannel peers;
    /** Whether a node-aware schedule can help: more than one node, and some node with several ranks. */
    final boolean hierarchical;

    private NodeLayout(CollChannel local, CollChannel leaders, CollChannel peers, boolean hierarchical) {
        this.local = local;
        this.leaders = leaders;
        this.peers = peers;
        this.hierarchical = hierarchical;
    }

    static NodeLayout of(CollChannel ch) {
        int[] nodeOf = ch.nodeOf();
        int n = ch.size(), me = ch.rank();
        Map<Integer, List<Integer>> byNode = new LinkedHashMap<>();
        for (int r = 0; r < n; r++) byNode.computeIfAbsent(nodeOf[r], k -> new ArrayList<>()).add(r);
        int nodes = byNode.size();
        if (nodes == 1 || nodes == n) return new NodeLayout(null, null, null, false);

        List<Integer> mine = byNode.get(nodeOf[me]);
        int localIndex = mine.indexOf(me);
        int[] leaderRanks = new int[nodes];
        boolean uniform = true;
        int i = 0;
        for (List<Integer> members : byNode.values()) {
            leaderRanks[i++] = members.get(0);
            uniform &= members.size() == mine.size();
        }
        int[] peerRanks = null;
        if (uniform) {
            peerRanks = new int[nodes];
            i = 0;
            for (List<Integer> members : byNode.values()) peerRanks[i++] = members.get(localIndex);
        }
        return new NodeLayout(
                new Sub(ch, mine.stream().mapToInt(Integer::intValue).toArray(), true),
                localIndex == 0 ? new Sub(ch, leaderRanks, false) : null,
                peerRanks == null ? null : new Sub(ch, peerRanks, false),
                true);
    }

    /**
     * The parent channel seen through a list of its ranks: rank i here is {@code members[i]}
     * there. Tags pass through unchanged; the schedules of one collective that run on different
     * subsets never share a pair of ranks in the same role, so they cannot mix messages.
     */
    private static final class Sub implements CollChannel {
        private final CollChannel parent;
        private final int[] members;
        private final int rank;
        private final int[] nodes;

        Sub(CollChannel parent, int[] members, boolean sameNode) {
            this.parent = parent;
            this.members = members;
            int me = -1;
            for (int i = 0; i < members.length; i++) if (members[i] == parent.rank()) me = i;
            this.rank = me;
            // One node (all ranks local) or every rank its own node: no further hierarchy.
            this.nodes = new int[members.length];
            if (!sameNode) for (int i = 0; i < nodes.length; i++) nodes[i] = i;
        }

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
            return parent.isend(members[peer], tag, buf, off, len);
        }

        @Override
        public CollOp irecv(int peer, int tag, Buf buf, long off, long len) {
            return parent.irecv(members[peer], tag, buf, off, len);
        }

        @Override
        public void waitAll(CollOp... ops) {
            parent.waitAll(ops);
        }

        @Override
        public int tag() {
            return parent.tag();
        }

        @Override
        public void copy(Buf src, long srcOff, Buf dst, long dstOff, long len) {
            parent.copy(src, srcOff, dst, dstOff, len);
        }

        @Override
        public void reduce(OpDesc op, TypeDesc t, Buf in, long inOff, Buf inout, long inoutOff, long items) {
            parent.reduce(op, t, in, inOff, inout, inoutOff, items);
        }

        @Override
        public io.github.mpi4j.spi.BackendRequest start(Schedule schedule) {
            return parent.start(schedule);
        }

        @Override
        public int[] nodeOf() {
            return nodes;
        }
    }
}
