package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Topology;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;

/**
 * Process topologies on MPI: MPI_Cart_create, MPI_Graph_create and
 * MPI_Dist_graph_create_adjacent make real MPI topology communicators (with MPI_ERRORS_RETURN),
 * and the neighbour collectives are MPI's own. Arrays are staged in native memory for these
 * calls (neighbour collectives are rarely on a hot path with arrays), so the blocking and the
 * non-blocking forms share one path. {@code reorder} is passed to MPI as false: ranks stay, as on
 * the fabric (docs/topologies.md).
 */
final class MpiTopology implements Topology {
    private final MpiComm comm;
    private final MpiBackend backend;

    MpiTopology(MpiComm comm, MpiBackend backend) {
        this.comm = comm;
        this.backend = backend;
    }

    private BackendComm wrap(long h) {
        return h == 0 ? null : new MpiComm(backend, h, true);
    }

    /**
     * A Cartesian grid with a periodic dimension of size 1 or 2, where both neighbours along it
     * are the same process. MPI wants what goes down a dimension to arrive as the block "from
     * above" and the other way round; Open MPI 4.1's non-blocking neighbour collectives and
     * MPICH 4.0's blocking ones pair such blocks in posting order instead (a wrong result, seen
     * in TopologySuite). Such a grid is therefore made as a distributed graph whose
     * destinations list each dimension's upper neighbour first: MPI pairs repeated edges in
     * order, which then puts every block where a Cartesian grid wants it. PROC_NULL neighbours
     * are left out of the graph; the maps say which block of the API each graph slot is.
     */
    static final class Grid {
        /** For each source of the graph: the receive block of the API. */
        final int[] sourceBlock;
        /** For each destination of the graph: the send block of the API. */
        final int[] destinationBlock;
        final int[] sources, destinations;

        Grid(io.github.mpi4j.spi.Neighbours n) {
            int k = 0;
            for (int x : n.sources) if (x != io.github.mpi4j.spi.Mpi.PROC_NULL) k++;
            sources = new int[k];
            sourceBlock = new int[k];
            destinations = new int[k];
            destinationBlock = new int[k];
            for (int i = 0, a = 0, b = 0; i < n.sources.length; i++) {
                if (n.sources[i] != io.github.mpi4j.spi.Mpi.PROC_NULL) {
                    sources[a] = n.sources[i];
                    sourceBlock[a++] = i;
                }
                int j = i ^ 1; // the other direction of the same dimension: upper neighbour first
                if (n.destinations[j] != io.github.mpi4j.spi.Mpi.PROC_NULL) {
                    destinations[b] = n.destinations[j];
                    destinationBlock[b++] = j;
                }
            }
        }

        static boolean needed(int[] dims, boolean[] periods) {
            for (int d = 0; d < dims.length; d++) if (periods[d] && dims[d] <= 2) return true;
            return false;
        }

        /** Counts and displacements of the API's blocks, picked for the graph's slots. */
        static int[] pick(int[] values, int[] blocks) {
            int[] p = new int[blocks.length];
            for (int i = 0; i < blocks.length; i++) p[i] = values[blocks[i]];
            return p;
        }

        static int[] same(int value, int n) {
            int[] a = new int[n];
            java.util.Arrays.fill(a, value);
            return a;
        }

        static int[] scaled(int[] blocks, int count) {
            int[] a = new int[blocks.length];
            for (int i = 0; i < blocks.length; i++) a[i] = blocks[i] * count;
            return a;
        }
    }

    @Override
    public BackendComm createCart(int[] dims, boolean[] periods, boolean reorder) {
        if (Grid.needed(dims, periods)) return gridAsGraph(dims, periods);
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Cart_create", comm);
        try {
            return wrap(MpiTopoNative.cartCreate0(comm.handle, dims, periods, false));
        } finally {
            m.exit();
        }
    }

    /** See {@link Grid}: the first ranks, in order (no reordering), as a distributed graph. */
    private BackendComm gridAsGraph(int[] dims, boolean[] periods) {
        long n = io.github.mpi4j.spi.Neighbours.product(dims);
        MpiComm part = (MpiComm) comm.split(comm.rank() < n ? 0 : -1, comm.rank());
        if (part == null) return null;
        Grid g = new Grid(io.github.mpi4j.spi.Neighbours.cartesian(part.rank(), dims, periods));
        MpiComm c;
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Dist_graph_create_adjacent", part);
        try {
            c = (MpiComm) wrap(MpiTopoNative.distGraphCreateAdjacent0(part.handle, g.sources, null, g.destinations,
                    null, false));
        } finally {
            m.exit();
            part.free();
        }
        c.grid = g;
        return c;
    }

    @Override
    public BackendComm createGraph(int[] index, int[] edges, boolean reorder) {
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Graph_create", comm);
        try {
            return wrap(MpiTopoNative.graphCreate0(comm.handle, index, edges, false));
        } finally {
            m.exit();
        }
    }

    @Override
    public BackendComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
                                               int[] destinationWeights, boolean reorder) {
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Dist_graph_create_adjacent", comm);
        try {
            return wrap(MpiTopoNative.distGraphCreateAdjacent0(comm.handle, sources, sourceWeights, destinations,
                    destinationWeights, false));
        } finally {
            m.exit();
        }
    }

    // ---- neighbour collectives -------------------------------------------------------------------

    private interface Call {
        long run(Arg s, Arg r);
    }

    /** Stages, calls, and finishes: at once for a blocking call, in the request for a non-blocking one. */
    private BackendRequest run(String name, boolean nb, Buf s, long sBytes, Buf r, long rBytes, Object keep,
                               Call call) {
        Arg.admit(s);
        Arg.admit(r);
        Arg sa = Arg.of(s, sBytes, true, false, true);
        Arg ra = Arg.of(r, rBytes, true, true, true);
        long h;
        MpiWatchdog.Mark m = nb ? null : MpiWatchdog.enter(name, comm);
        try {
            h = call.run(sa, ra);
        } catch (RuntimeException | Error e) {
            sa.release();
            ra.release();
            throw e;
        } finally {
            if (m != null) m.exit();
        }
        if (nb) return new MpiRequest(h, false, keep, null, sa, ra);
        sa.done();
        ra.done();
        return null;
    }

    private static long bytes(long items, TypeDesc t) {
        return items == 0 ? 0 : Buffers.spanBytes((int) Math.min(items, Integer.MAX_VALUE), t);
    }

    private static long vBytes(int[] counts, int[] displs, TypeDesc t) {
        long end = 0;
        for (int i = 0; i < counts.length; i++) if (counts[i] > 0) end = Math.max(end, (long) displs[i] + counts[i]);
        return bytes(end, t);
    }

    private static IntBuffer ints(int[] a) {
        IntBuffer b = ByteBuffer.allocateDirect(4 * Math.max(a.length, 1)).order(ByteOrder.nativeOrder()).asIntBuffer();
        b.put(a);
        return b;
    }

    private BackendRequest same(int kind, boolean nb, Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        Grid g = comm.grid;
        if (g != null) {
            int[] rcounts = Grid.same(rc, g.sources.length), rdispls = Grid.scaled(g.sourceBlock, rc);
            if (kind == MpiTopoNative.ALLGATHER) {
                return varyNow(kind, nb, s, sc, null, null, st, r, rcounts, rdispls, rt);
            }
            return varyNow(kind, nb, s, 0, Grid.same(sc, g.destinations.length), Grid.scaled(g.destinationBlock, sc),
                    st, r, rcounts, rdispls, rt);
        }
        int[] deg = MpiTopoNative.degrees0(comm.handle);
        long sItems = kind == MpiTopoNative.ALLTOALL ? (long) sc * deg[1] : sc;
        long stH = backend.type(st), rtH = backend.type(rt);
        String name = kind == MpiTopoNative.ALLTOALL ? "MPI_Neighbor_alltoall" : "MPI_Neighbor_allgather";
        return run(name, nb, s, bytes(sItems, st), r, bytes((long) rc * deg[0], rt), new Object[] {s, r},
                (sa, ra) -> MpiTopoNative.neighbor0(kind, comm.handle, sa.obj, sa.mode, sa.off, sc, stH, ra.obj,
                        ra.mode, ra.off, rc, rtH, nb));
    }

    private BackendRequest vary(int kind, boolean nb, Buf s, int sc, int[] scounts, int[] sdispls, TypeDesc st, Buf r,
                                int[] rcounts, int[] rdispls, TypeDesc rt) {
        Grid g = comm.grid;
        if (g != null) {
            if (scounts != null) {
                scounts = Grid.pick(scounts, g.destinationBlock);
                sdispls = Grid.pick(sdispls, g.destinationBlock);
            }
            rcounts = Grid.pick(rcounts, g.sourceBlock);
            rdispls = Grid.pick(rdispls, g.sourceBlock);
        }
        return varyNow(kind, nb, s, sc, scounts, sdispls, st, r, rcounts, rdispls, rt);
    }

    private BackendRequest varyNow(int kind, boolean nb, Buf s, int sc, int[] scounts, int[] sdispls, TypeDesc st,
                                   Buf r, int[] rcounts, int[] rdispls, TypeDesc rt) {
        long stH = backend.type(st), rtH = backend.type(rt);
        IntBuffer scB = scounts == null ? null : ints(scounts), sdB = sdispls == null ? null : ints(sdispls);
        IntBuffer rcB = ints(rcounts), rdB = ints(rdispls);
        long sBytes = scounts == null ? bytes(sc, st) : vBytes(scounts, sdispls, st);
        String name = kind == MpiTopoNative.ALLTOALL ? "MPI_Neighbor_alltoallv" : "MPI_Neighbor_allgatherv";
        return run(name, nb, s, sBytes, r, vBytes(rcounts, rdispls, rt), new Object[] {s, r, scB, sdB, rcB, rdB},
                (sa, ra) -> MpiTopoNative.neighborv0(kind, comm.handle, sa.obj, sa.mode, sa.off, sc, scB, sdB, stH,
                        ra.obj, ra.mode, ra.off, rcB, rdB, rtH, nb));
    }

    @Override
    public void neighborAllGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        same(MpiTopoNative.ALLGATHER, false, s, sc, st, r, rc, rt);
    }

    @Override
    public BackendRequest iNeighborAllGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        return same(MpiTopoNative.ALLGATHER, true, s, sc, st, r, rc, rt);
    }

    @Override
    public void neighborAllGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rc, int[] rd, TypeDesc rt) {
        vary(MpiTopoNative.ALLGATHER, false, s, sc, null, null, st, r, rc, rd, rt);
    }

    @Override
    public BackendRequest iNeighborAllGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rc, int[] rd, TypeDesc rt) {
        return vary(MpiTopoNative.ALLGATHER, true, s, sc, null, null, st, r, rc, rd, rt);
    }

    @Override
    public void neighborAllToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        same(MpiTopoNative.ALLTOALL, false, s, sc, st, r, rc, rt);
    }

    @Override
    public BackendRequest iNeighborAllToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        return same(MpiTopoNative.ALLTOALL, true, s, sc, st, r, rc, rt);
    }

    @Override
    public void neighborAllToAllv(Buf s, int[] sc, int[] sd, TypeDesc st, Buf r, int[] rc, int[] rd, TypeDesc rt) {
        vary(MpiTopoNative.ALLTOALL, false, s, 0, sc, sd, st, r, rc, rd, rt);
    }

    @Override
    public BackendRequest iNeighborAllToAllv(Buf s, int[] sc, int[] sd, TypeDesc st, Buf r, int[] rc, int[] rd,
                                             TypeDesc rt) {
        return vary(MpiTopoNative.ALLTOALL, true, s, 0, sc, sd, st, r, rc, rd, rt);
    }
}
