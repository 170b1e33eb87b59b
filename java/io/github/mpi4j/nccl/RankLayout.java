package io.github.mpi4j.nccl;

import java.util.Arrays;
import java.util.TreeMap;

/**
 * Where the ranks of a communicator sit: for every rank its node (nodes numbered in the order of
 * their lowest rank) and its index on that node (ranks of a node numbered in rank order). Every
 * rank computes the same table from the same gathered facts, so all agree on it without further
 * messages. Pure arithmetic: tested without MPI.
 */
final class RankLayout {
    private final int[] nodeOf;
    private final int[] localOf;
    private final int[] nodeSize;
    /** First position of each node's blocks in node-major order: the sum of the earlier nodes' sizes. */
    private final int[] nodeStart;

    private RankLayout(int[] nodeOf, int[] localOf, int[] nodeSize) {
        this.nodeOf = nodeOf;
        this.localOf = localOf;
        this.nodeSize = nodeSize;
        this.nodeStart = new int[nodeSize.length];
        for (int i = 1; i < nodeSize.length; i++) nodeStart[i] = nodeStart[i - 1] + nodeSize[i - 1];
    }

    /**
     * The layout from {@code leaderOf[p]} (the lowest rank on rank p's node) and {@code localOf[p]}
     * (p's index on its node). Refuses facts that do not describe a partition into nodes.
     */
    static RankLayout of(int[] leaderOf, int[] localOf) {
        int size = leaderOf.length;
        if (localOf.length != size) {
            throw new IllegalArgumentException("RankLayout: " + size + " leaders but " + localOf.length + " local indices");
        }
        TreeMap<Integer, Integer> nodeOfLeader = new TreeMap<>();
        for (int l : leaderOf) nodeOfLeader.put(l, 0);
        int n = 0;
        for (var e : nodeOfLeader.entrySet()) e.setValue(n++);
        int[] nodeOf = new int[size];
        int[] nodeSize = new int[n];
        for (int p = 0; p < size; p++) {
            nodeOf[p] = nodeOfLeader.get(leaderOf[p]);
            nodeSize[nodeOf[p]]++;
        }
        // Each node's local indices must be 0..size-1, in rank order.
        int[] next = new int[n];
        for (int p = 0; p < size; p++) {
            int i = nodeOf[p];
            if (localOf[p] != next[i]++) {
                throw new IllegalStateException("RankLayout: rank " + p + " says it is local rank " + localOf[p]
                        + " of the node led by rank " + leaderOf[p] + ", expected " + (next[i] - 1) + " (leaders "
                        + Arrays.toString(leaderOf) + ", local ranks " + Arrays.toString(localOf) + ")");
            }
        }
        return new RankLayout(nodeOf, localOf.clone(), nodeSize);
    }

    int size() {
        return nodeOf.length;
    }

    int nodes() {
        return nodeSize.length;
    }

    int nodeOf(int rank) {
        return nodeOf[rank];
    }

    int localOf(int rank) {
        return localOf[rank];
    }

    int nodeSize(int node) {
        return nodeSize[node];
    }

    int nodeStart(int node) {
        return nodeStart[node];
    }

    /** The fewest ranks any node has: every node has a rank of each local index below it. */
    int minNodeSize() {
        int m = Integer.MAX_VALUE;
        for (int s : nodeSize) m = Math.min(m, s);
        return m;
    }

    /** Whether every node has the same number of ranks. */
    boolean uniform() {
        return minNodeSize() * nodes() == size();
    }

    /**
     * Where rank p's block is after the uniform all-gather: blocks ordered by local index, then
     * by node ({@code local * nodes + node}).
     */
    int byLocalThenNode(int rank) {
        return localOf[rank] * nodes() + nodeOf[rank];
    }

    /** Where rank p's block is in node-major order: its node's start, then its local index. */
    int byNodeThenLocal(int rank) {
        return nodeStart[nodeOf[rank]] + localOf[rank];
    }

    @Override
    public String toString() {
        return "RankLayout[node of rank " + Arrays.toString(nodeOf) + ", local index " + Arrays.toString(localOf) + "]";
    }
}
