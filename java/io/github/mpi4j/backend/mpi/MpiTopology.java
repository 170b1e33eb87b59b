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
 * non-blocking forms share one path.
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

    @Override
    public BackendComm createCart(int[] dims, boolean[] periods, boolean reorder) {
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Cart_create", comm);
        try {
            return wrap(MpiTopoNative.cartCreate0(comm.handle, dims, periods, reorder));
        } finally {
            m.exit();
        }
    }

    @Override
    public BackendComm createGraph(int[] index, int[] edges, boolean reorder) {
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Graph_create", comm);
        try {
            return wrap(MpiTopoNative.graphCreate0(comm.handle, index, edges, reorder));
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
                    destinationWeights, reorder));
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
