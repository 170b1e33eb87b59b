package io.github.mpi4j.fabric;

import io.github.mpi4j.fabric.coll.Neighbor;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Neighbours;
import io.github.mpi4j.spi.Topology;
import io.github.mpi4j.spi.TypeDesc;
import mpi.MPIException;

/**
 * Process topologies on the fabric. A topology communicator is a new communicator (its own
 * contexts, made by {@link FabricComm#create}) over the first ranks of the old one, in the same
 * order: the fabric never reorders. It carries this rank's {@link Neighbours}, which its
 * duplicates keep; the neighbour collectives are one step of point-to-point messages on its
 * collective context ({@link Neighbor}), so they never match user messages.
 */
final class FabricTopology implements Topology {
    private final FabricComm comm;

    FabricTopology(FabricComm comm) {
        this.comm = comm;
    }

    private FabricComm firstRanks(int n) {
        int[] ranks = new int[n];
        for (int i = 0; i < n; i++) ranks[i] = i;
        return (FabricComm) comm.create(ranks);
    }

    @Override
    public BackendComm createCart(int[] dims, boolean[] periods, boolean reorder) {
        FabricComm c = firstRanks((int) Neighbours.product(dims));
        if (c != null) c.neighbours = Neighbours.cartesian(c.rank(), dims, periods);
        return c;
    }

    @Override
    public BackendComm createGraph(int[] index, int[] edges, boolean reorder) {
        FabricComm c = firstRanks(index.length);
        if (c != null) c.neighbours = Neighbours.graph(c.rank(), index, edges);
        return c;
    }

    @Override
    public BackendComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
                                               int[] destinationWeights, boolean reorder) {
        FabricComm c = firstRanks(comm.size());
        c.neighbours = new Neighbours(sources.clone(), destinations.clone(), false);
        return c;
    }

    private Neighbours neighbours(String call) {
        Neighbours n = comm.neighbours;
        if (n == null) {
            throw MPIException.of(io.github.mpi4j.spi.Mpi.ERR_TOPOLOGY, call + ": this fabric communicator has no "
                    + "process topology");
        }
        return n;
    }

    /** Byte offsets and lengths of equal blocks of {@code count} items, one per neighbour. */
    private static long[][] blocks(int n, int count, TypeDesc t, boolean same) {
        long len = (long) count * t.extent;
        long[] off = new long[n], lens = new long[n];
        for (int i = 0; i < n; i++) {
            off[i] = same ? 0 : i * len;
            lens[i] = len;
        }
        return new long[][] {off, lens};
    }

    /** Byte offsets and lengths of the v-variants' blocks. */
    private static long[][] blocks(int[] counts, int[] displs, TypeDesc t) {
        long[] off = new long[counts.length], lens = new long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            off[i] = (long) displs[i] * t.extent;
            lens[i] = (long) counts[i] * t.extent;
        }
        return new long[][] {off, lens};
    }

    private BackendRequest run(String call, boolean nb, Buf s, long[][] sb, Buf r, long[][] rb) {
        Neighbours n = neighbours(call);
        if (nb) return Neighbor.start(comm, n, s, sb[0], sb[1], r, rb[0], rb[1]);
        Neighbor.run(comm, n, s, sb[0], sb[1], r, rb[0], rb[1]);
        return null;
    }

    private BackendRequest allGather(String call, boolean nb, Buf s, int sc, TypeDesc st, Buf r, int rc,
                                     TypeDesc rt) {
        Neighbours n = neighbours(call);
        return run(call, nb, s, blocks(n.destinations.length, sc, st, true), r,
                blocks(n.sources.length, rc, rt, false));
    }

    private BackendRequest allToAll(String call, boolean nb, Buf s, int sc, TypeDesc st, Buf r, int rc,
                                    TypeDesc rt) {
        Neighbours n = neighbours(call);
        return run(call, nb, s, blocks(n.destinations.length, sc, st, false), r,
                blocks(n.sources.length, rc, rt, false));
    }

    private BackendRequest allGatherv(String call, boolean nb, Buf s, int sc, TypeDesc st, Buf r, int[] rc,
                                      int[] rd, TypeDesc rt) {
        Neighbours n = neighbours(call);
        return run(call, nb, s, blocks(n.destinations.length, sc, st, true), r, blocks(rc, rd, rt));
    }

    @Override
    public void neighborAllGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        allGather("neighborAllGather", false, s, sc, st, r, rc, rt);
    }

    @Override
    public BackendRequest iNeighborAllGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        return allGather("iNeighborAllGather", true, s, sc, st, r, rc, rt);
    }

    @Override
    public void neighborAllGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rc, int[] rd, TypeDesc rt) {
        allGatherv("neighborAllGatherv", false, s, sc, st, r, rc, rd, rt);
    }

    @Override
    public BackendRequest iNeighborAllGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rc, int[] rd, TypeDesc rt) {
        return allGatherv("iNeighborAllGatherv", true, s, sc, st, r, rc, rd, rt);
    }

    @Override
    public void neighborAllToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        allToAll("neighborAllToAll", false, s, sc, st, r, rc, rt);
    }

    @Override
    public BackendRequest iNeighborAllToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        return allToAll("iNeighborAllToAll", true, s, sc, st, r, rc, rt);
    }

    @Override
    public void neighborAllToAllv(Buf s, int[] sc, int[] sd, TypeDesc st, Buf r, int[] rc, int[] rd, TypeDesc rt) {
        run("neighborAllToAllv", false, s, blocks(sc, sd, st), r, blocks(rc, rd, rt));
    }

    @Override
    public BackendRequest iNeighborAllToAllv(Buf s, int[] sc, int[] sd, TypeDesc st, Buf r, int[] rc, int[] rd,
                                             TypeDesc rt) {
        return run("iNeighborAllToAllv", true, s, blocks(sc, sd, st), r, blocks(rc, rd, rt));
    }
}
