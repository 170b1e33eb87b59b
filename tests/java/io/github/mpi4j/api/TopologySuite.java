package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.CartComm;
import mpi.CartParms;
import mpi.Cartcomm;
import mpi.Comm;
import mpi.Datatype;
import mpi.DistGraphNeighbors;
import mpi.GraphComm;
import mpi.GraphParms;
import mpi.Graphcomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.ShiftParms;
import mpi.Status;

/**
 * Process topologies and neighbour collectives (issue 10, item 5), in both API families. Every
 * expectation is worked out here from ranks and sizes with references of the test's own
 * (row-major coordinates by strides, brute-force MPI_Dims_create, neighbour lists from the
 * graph's definition), never from the library's answers.
 */
public class TopologySuite {

    // ---- independent references ------------------------------------------------------------------

    /** Coordinates by strides: coordinate d is (rank / product of the later dims) mod dims[d]. */
    static int[] refCoords(int rank, int[] dims) {
        int[] c = new int[dims.length];
        for (int d = 0; d < dims.length; d++) {
            int stride = 1;
            for (int e = d + 1; e < dims.length; e++) stride *= dims[e];
            c[d] = rank / stride % dims[d];
        }
        return c;
    }

    static int refRank(int[] coords, int[] dims) {
        int r = 0, stride = 1;
        for (int d = dims.length - 1; d >= 0; d--) {
            r += coords[d] * stride;
            stride *= dims[d];
        }
        return r;
    }

    /** The rank one step of {@code disp} away, or PROC_NULL past a closed edge. */
    static int refShift(int rank, int[] dims, boolean[] periods, int dim, int disp) {
        int[] c = refCoords(rank, dims);
        int to = c[dim] + disp;
        if (to < 0 || to >= dims[dim]) {
            if (!periods[dim]) return MPI.PROC_NULL;
            to = ((to % dims[dim]) + dims[dim]) % dims[dim];
        }
        c[dim] = to;
        return refRank(c, dims);
    }

    /** Every non-increasing k-tuple with product n; the lexicographically smallest is the most balanced. */
    static int[] bruteDims(int n, int k) {
        List<int[]> all = new ArrayList<>();
        collect(n, k, n, new int[k], 0, all);
        int[] best = null;
        for (int[] t : all) if (best == null || Arrays.compare(t, best) < 0) best = t;
        return best;
    }

    private static void collect(int n, int k, int cap, int[] t, int at, List<int[]> out) {
        if (at == k) {
            if (n == 1) out.add(t.clone());
            return;
        }
        for (int f = 1; f <= Math.min(n, cap); f++) {
            if (n % f != 0) continue;
            t[at] = f;
            collect(n / f, k, f, t, at + 1, out);
        }
    }

    /** A value that says who sent which block. */
    static int tagOf(int rank, int block) {
        return 1000 * (rank + 1) + block;
    }

    /** Grids to try for a communicator of {@code size}: balanced 2-D and 3-D, a line, with some periodic dims. */
    static List<Object[]> grids(int size) {
        List<Object[]> g = new ArrayList<>();
        int[] two = new int[2];
        CartComm.createDims(size, two);
        g.add(new Object[] {two, new boolean[] {true, false}});
        g.add(new Object[] {two.clone(), new boolean[] {false, true}});
        int[] three = new int[3];
        CartComm.createDims(size, three);
        g.add(new Object[] {three, new boolean[] {true, true, false}});
        g.add(new Object[] {new int[] {size}, new boolean[] {true}});
        g.add(new Object[] {new int[] {1, size}, new boolean[] {true, true}});
        return g;
    }

    // ---- Cartesian grids ---------------------------------------------------------------------------

    @RankTest
    public void cartesianQueriesAndShifts(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Check.equal(MPI.UNDEFINED, comm.getTopology(), "plain communicator has no topology");
        for (Object[] grid : grids(size)) {
            int[] dims = (int[]) grid[0];
            boolean[] periods = (boolean[]) grid[1];
            String what = Arrays.toString(dims) + Arrays.toString(periods);
            CartComm cart = comm.createCart(dims, periods, false);
            Check.equal(MPI.CART, cart.getTopology(), what + " topology");
            Check.equal(rank, cart.getRank(), what + " rank (no reorder)");
            CartParms p = cart.getTopo();
            Check.arrays(dims, p.dims, what + " dims");
            Check.arrays(periods, p.periods, what + " periods");
            Check.arrays(refCoords(rank, dims), p.coords, what + " coords");
            Check.equal(dims.length, p.getDimCount(), what + " getDimCount");
            for (int r = 0; r < size; r++) {
                Check.arrays(refCoords(r, dims), cart.getCoords(r), what + " getCoords(" + r + ")");
                Check.equal(r, cart.getRank(refCoords(r, dims)), what + " getRank(coords of " + r + ")");
            }
            for (int d = 0; d < dims.length; d++) {
                for (int disp : new int[] {1, -1, 2, dims[d] + 1}) {
                    ShiftParms s = cart.shift(d, disp);
                    Check.equal(refShift(rank, dims, periods, d, -disp), s.getRankSource(), what + " source d" + d);
                    Check.equal(refShift(rank, dims, periods, d, disp), s.getRankDest(), what + " dest d" + d);
                }
                // The shift drives real messages: what arrives comes from the source it named.
                ShiftParms s = cart.shift(d, 1);
                int[] got = {-7};
                Status st = cart.sendRecv(new int[] {rank}, 1, MPI.INT, s.getRankDest(), 3, got, 1, MPI.INT,
                        s.getRankSource(), 3);
                int expect = s.getRankSource() == MPI.PROC_NULL ? -7 : s.getRankSource();
                Check.equal(expect, got[0], what + " shifted message along " + d);
                Check.equal(s.getRankSource(), st.getSource(), what + " status source");
            }
            // Periodic dimensions wrap coordinates around.
            if (periods[0]) {
                int[] c = refCoords(rank, dims);
                c[0] += dims[0];
                Check.equal(rank, cart.getRank(c), what + " wrapped coords");
            }
            CartComm dup = cart.dup();
            Check.equal(MPI.CART, dup.getTopology(), what + " dup keeps the topology");
            Check.arrays(dims, dup.getTopo().dims, what + " dup dims");
            dup.free();
            cart.free();
        }
    }

    @RankTest
    public void cartesianGridSmallerThanCommunicator(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int n = Math.max(1, size - 1);
        CartComm cart = comm.createCart(new int[] {n}, new boolean[] {false}, false);
        Check.equal(rank >= n, cart.isNull(), "outside the grid: null communicator");
        Cartcomm old = comm.Create_cart(new int[] {n}, new boolean[] {false}, false);
        Check.equal(rank >= n, old == null, "mpiJava: outside the grid: null");
        if (rank < n) {
            Check.equal(n, cart.getSize(), "grid size");
            int[] sum = new int[1];
            cart.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            Check.equal((long) n * (n - 1) / 2, sum[0], "sum over the grid");
            cart.free();
            old.free();
        }
        CartComm whole = comm.createCart(new int[] {size}, new boolean[] {false}, false);
        Check.equal(rank < n ? rank : MPI.UNDEFINED, whole.map(new int[] {n}, new boolean[] {false}), "map");
        whole.free();
    }

    @RankTest
    public void cartesianSubGrids(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int[] dims = new int[2];
        CartComm.createDims(size, dims);
        CartComm cart = comm.createCart(dims, new boolean[] {true, false}, false);
        int[] me = refCoords(rank, dims);
        for (int keep = 0; keep < 2; keep++) {
            boolean[] remain = {keep == 0, keep == 1};
            CartComm line = cart.sub(remain);
            Check.equal(MPI.CART, line.getTopology(), "sub topology");
            Check.equal(dims[keep], line.getSize(), "sub size");
            Check.equal(me[keep], line.getRank(), "sub rank");
            CartParms p = line.getTopo();
            Check.arrays(new int[] {dims[keep]}, p.dims, "sub dims");
            Check.arrays(new boolean[] {keep == 0}, p.periods, "sub periods");
            // Members: the ranks of the cart that share my other coordinate.
            int[] sum = new int[1];
            line.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            int expect = 0;
            for (int r = 0; r < size; r++) if (refCoords(r, dims)[1 - keep] == me[1 - keep]) expect += r;
            Check.equal(expect, sum[0], "sum over the sub-grid");
            line.free();
        }
        CartComm point = cart.sub(new boolean[] {false, false});
        Check.equal(1, point.getSize(), "sub keeping nothing: one process");
        Check.equal(0, point.getTopo().dims.length, "no dimensions");
        point.free();
        cart.free();
    }

    @RankTest
    public void createDimsMatchesBruteForce(Intracomm comm) {
        for (int n = 1; n <= 64; n++) {
            for (int k = 1; k <= 4; k++) {
                int[] dims = new int[k];
                CartComm.createDims(n, dims);
                Check.arrays(bruteDims(n, k), dims, "createDims(" + n + ", " + k + " dims)");
            }
            // A fixed entry stays; the others share what is left.
            if (n % 2 == 0) {
                int[] dims = {0, 2, 0};
                Cartcomm.Dims_create(n, dims);
                int[] free = bruteDims(n / 2, 2);
                Check.arrays(new int[] {free[0], 2, free[1]}, dims, "Dims_create(" + n + ", {0,2,0})");
            }
        }
        int[] big = new int[3];
        CartComm.createDims(1 << 30, big);
        Check.arrays(new int[] {1024, 1024, 1024}, big, "createDims(2^30, 3)");
    }

    // ---- graphs -----------------------------------------------------------------------------------

    /** A graph on {@code n} nodes: each node linked to the next, and node i also to 2i mod n. */
    static int[][] graph(int n) {
        List<Integer> edges = new ArrayList<>();
        int[] index = new int[n];
        for (int i = 0; i < n; i++) {
            edges.add((i + 1) % n);
            if ((2 * i) % n != (i + 1) % n) edges.add((2 * i) % n);
            index[i] = edges.size();
        }
        return new int[][] {index, edges.stream().mapToInt(Integer::intValue).toArray()};
    }

    static int[] refGraphNeighbours(int[] index, int[] edges, int r) {
        return Arrays.copyOfRange(edges, r == 0 ? 0 : index[r - 1], index[r]);
    }

    @RankTest
    public void graphQueries(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int[][] g = graph(size);
        GraphComm gc = comm.createGraph(g[0], g[1], false);
        Check.equal(MPI.GRAPH, gc.getTopology(), "graph topology");
        GraphParms p = gc.getDims();
        Check.arrays(g[0], p.index, "index");
        Check.arrays(g[1], p.edges, "edges");
        Check.equal(g[1].length, p.getEdgeCount(), "edge count");
        for (int r = 0; r < size; r++) {
            Check.arrays(refGraphNeighbours(g[0], g[1], r), gc.getNeighbors(r), "neighbours of " + r);
        }
        Check.throwsMpi(MPI.ERR_TOPOLOGY, gc::getDistGraphNeighbors, "getDistGraphNeighbors");
        Check.equal(rank, gc.map(g[0], g[1]), "map");
        gc.free();
    }

    @RankTest
    public void distributedGraphs(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        // Adjacent form: I receive from rank-1 and rank+2, send to rank+1 and rank-2 (mod size).
        int[] src = {(rank - 1 + size) % size, (rank + 2) % size};
        int[] dst = {(rank + 1) % size, (rank - 2 + 2 * size) % size};
        int[] sw = {10 + src[0], 10 + src[1]}, dw = {20 + dst[0], 20 + dst[1]};
        GraphComm adj = comm.createDistGraphAdjacent(src, sw, dst, dw, new mpi.Info(), false);
        Check.equal(MPI.DIST_GRAPH, adj.getTopology(), "dist graph topology");
        DistGraphNeighbors n = adj.getDistGraphNeighbors();
        Check.equal(2, n.getInDegree(), "in-degree");
        Check.equal(2, n.getOutDegree(), "out-degree");
        Check.isTrue(n.isWeighted(), "weighted");
        for (int i = 0; i < 2; i++) {
            Check.equal(src[i], n.getSource(i), "source " + i);
            Check.equal(sw[i], n.getSourceWeight(i), "source weight " + i);
            Check.equal(dst[i], n.getDestination(i), "destination " + i);
            Check.equal(dw[i], n.getDestinationWeight(i), "destination weight " + i);
        }
        Check.throwsMpi(MPI.ERR_TOPOLOGY, adj::getDims, "getDims");
        // The same edges through neighbour alltoall: block i from src[i] is the block src[i] sent to me.
        int[] send = {tagOf(rank, 0), tagOf(rank, 1)};
        int[] recv = new int[2];
        adj.neighborAllToAll(send, 1, MPI.INT, recv, 1, MPI.INT);
        // src[0] = rank-1 sends its block 0 to (rank-1)+1 = me; src[1] = rank+2 sends block 1 to me.
        // At size 1 and 2 the same process appears twice: blocks then match in order.
        int[] expect = {tagOf(src[0], 0), tagOf(src[1], 1)};
        if (src[0] == src[1]) {
            int[] to = {(src[0] + 1) % size, (src[0] - 2 + 2 * size) % size};
            int k = 0;
            for (int j = 0; j < 2; j++) if (to[j] == rank) expect[k++] = tagOf(src[0], j);
        }
        Check.arrays(expect, recv, "neighbour alltoall over the adjacent graph");
        adj.free();

        // General form: each rank gives the edges rank -> rank+1 and rank -> 3*rank (mod size).
        int[] sources = {rank};
        int[] degrees = {2};
        int[] destinations = {(rank + 1) % size, (3 * rank) % size};
        GraphComm dg = comm.createDistGraph(sources, degrees, destinations, null, false);
        DistGraphNeighbors m = dg.getDistGraphNeighbors();
        Check.isTrue(!m.isWeighted(), "unweighted");
        // Reference: all edges in the order (giving rank, position); mine start or end here.
        List<Integer> in = new ArrayList<>(), out = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            for (int to : new int[] {(r + 1) % size, (3 * r) % size}) {
                if (to == rank) in.add(r);
                if (r == rank) out.add(to);
            }
        }
        Check.equal(in.size(), m.getInDegree(), "general form in-degree");
        Check.equal(out.size(), m.getOutDegree(), "general form out-degree");
        for (int i = 0; i < in.size(); i++) Check.equal((int) in.get(i), m.getSource(i), "general source " + i);
        for (int i = 0; i < out.size(); i++) Check.equal((int) out.get(i), m.getDestination(i), "general dest " + i);
        // Allgather over it: block i holds what source i sent.
        int[] got = new int[in.size()];
        dg.neighborAllGather(new int[] {tagOf(rank, 9)}, 1, MPI.INT, got, 1, MPI.INT);
        for (int i = 0; i < in.size(); i++) Check.equal(tagOf(in.get(i), 9), got[i], "general allgather " + i);
        dg.free();
    }

    // ---- neighbour collectives --------------------------------------------------------------------

    /** Sources of every rank of a topology communicator, by the test's own reference. */
    static int[] refSources(Comm c, int rank, int size) {
        if (c instanceof CartComm) {
            CartParms p = ((CartComm) c).getTopo();
            int[] s = new int[2 * p.dims.length];
            for (int d = 0; d < p.dims.length; d++) {
                s[2 * d] = refShift(rank, p.dims, p.periods, d, -1);
                s[2 * d + 1] = refShift(rank, p.dims, p.periods, d, 1);
            }
            return s;
        }
        GraphParms g = ((GraphComm) c).getDims();
        return refGraphNeighbours(g.index, g.edges, rank);
    }

    /**
     * Which block of {@code from}'s send buffer arrives in block {@code i} at {@code rank}. On a
     * grid: what went up from the lower neighbour (block 2d+1) lands in block 2d, and the other
     * way round; on a graph: the k-th edge from {@code from} to me pairs with my k-th edge to it.
     */
    static int sentBlock(Comm c, int rank, int size, int i) {
        int[] mine = refSources(c, rank, size);
        if (c instanceof CartComm) return i % 2 == 0 ? i + 1 : i - 1;
        int from = mine[i], k = 0;
        for (int j = 0; j < i; j++) if (mine[j] == from) k++;
        int[] theirs = refSources(c, from, size);
        for (int j = 0; j < theirs.length; j++) if (theirs[j] == rank && k-- == 0) return j;
        throw new AssertionError("no edge back from " + from);
    }

    static List<Comm> topologies(Intracomm comm) {
        int size = comm.getSize();
        List<Comm> t = new ArrayList<>();
        for (Object[] g : grids(size)) t.add(comm.createCart((int[]) g[0], (boolean[]) g[1], false));
        if (size >= 3) t.add(comm.createCart(new int[] {2, size / 2}, new boolean[] {true, true}, false));
        int[][] g = graph(size);
        // Make the graph symmetric, so each edge has its way back (MPI_Graph_create graphs are undirected).
        List<List<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < size; i++) adj.add(new ArrayList<>());
        for (int i = 0; i < size; i++) {
            for (int e : refGraphNeighbours(g[0], g[1], i)) {
                adj.get(i).add(e);
                if (e != i) adj.get(e).add(i);
            }
        }
        // MPICH pairs the blocks of a repeated edge in reverse order in its neighbour alltoall (a
        // known difference, docs/topologies.md): under MPICH the graph keeps each edge once.
        boolean mpich = System.getenv().keySet().stream()
                .anyMatch(k -> k.startsWith("HYDRA_") || k.equals("PMI_RANK"));
        int[] index = new int[size];
        List<Integer> edges = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            int from = edges.size();
            for (int e : adj.get(i)) {
                if (!mpich || !edges.subList(from, edges.size()).contains(e)) edges.add(e);
            }
            index[i] = edges.size();
        }
        t.add(comm.createGraph(index, edges.stream().mapToInt(Integer::intValue).toArray(), false));
        return t;
    }

    @RankTest
    public void neighbourCollectives(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        for (Comm topo : topologies(comm)) {
            if (topo.isNull()) continue;
            String what = topo.getTopology() == MPI.CART ? "cart " + Arrays.toString(((CartComm) topo).getTopo().dims)
                    + Arrays.toString(((CartComm) topo).getTopo().periods) : "graph";
            int[] src = refSources(topo, rank, size);
            int n = src.length;
            for (boolean nb : new boolean[] {false, true}) {
                String how = what + (nb ? " non-blocking" : "");
                // allgather: two ints per block; PROC_NULL blocks keep their old contents.
                int[] got = new int[2 * n];
                Arrays.fill(got, -1);
                int[] mine = {tagOf(rank, 0), tagOf(rank, 1)};
                if (nb) topo.iNeighborAllGather(mine, 2, MPI.INT, got, 2, MPI.INT).waitFor();
                else topo.neighborAllGather(mine, 2, MPI.INT, got, 2, MPI.INT);
                for (int i = 0; i < n; i++) {
                    int e0 = src[i] == MPI.PROC_NULL ? -1 : tagOf(src[i], 0);
                    int e1 = src[i] == MPI.PROC_NULL ? -1 : tagOf(src[i], 1);
                    Check.equal(e0, got[2 * i], how + " allgather block " + i);
                    Check.equal(e1, got[2 * i + 1], how + " allgather block " + i + " second");
                }
                // alltoall: block j of my send buffer names me and j.
                int[] send = new int[n];
                for (int j = 0; j < n; j++) send[j] = tagOf(rank, j);
                int[] recvInts = new int[n];
                Arrays.fill(recvInts, -1);
                if (nb) topo.iNeighborAllToAll(send, 1, MPI.INT, recvInts, 1, MPI.INT).waitFor();
                else topo.neighborAllToAll(send, 1, MPI.INT, recvInts, 1, MPI.INT);
                for (int i = 0; i < n; i++) {
                    int e = src[i] == MPI.PROC_NULL ? -1 : tagOf(src[i], sentBlock(topo, rank, size, i));
                    Check.equal(e, recvInts[i], how + " alltoall block " + i + " from " + src[i]);
                }
                // allgatherv into a direct buffer: block i gets i%3+1 ints at gapped displacements.
                int[] counts = new int[n], displs = new int[n];
                int at = 0;
                for (int i = 0; i < n; i++) {
                    counts[i] = 2;
                    displs[i] = at + 1;
                    at += 4;
                }
                IntBuffer rb = ByteBuffer.allocateDirect(4 * Math.max(at, 1)).order(ByteOrder.nativeOrder())
                        .asIntBuffer();
                for (int x = 0; x < at; x++) rb.put(x, -5);
                if (nb) topo.iNeighborAllGatherv(mine, 2, MPI.INT, rb, counts, displs, MPI.INT).waitFor();
                else topo.neighborAllGatherv(mine, 2, MPI.INT, rb, counts, displs, MPI.INT);
                for (int i = 0; i < n; i++) {
                    Check.equal(-5, rb.get(4 * i), how + " allgatherv gap before " + i);
                    int e = src[i] == MPI.PROC_NULL ? -5 : tagOf(src[i], 0);
                    Check.equal(e, rb.get(displs[i]), how + " allgatherv block " + i);
                }
                // alltoallv with doubles: block j has j%3+1 values, sent from reversed displacements.
                int[] sc = new int[n], sd = new int[n], rc = new int[n], rd = new int[n];
                int sAt = 0, rAt = 0;
                for (int j = n - 1; j >= 0; j--) {
                    sc[j] = j % 3 + 1;
                    sd[j] = sAt;
                    sAt += sc[j];
                }
                for (int i = 0; i < n; i++) {
                    rc[i] = src[i] == MPI.PROC_NULL ? 0 : sentBlock(topo, rank, size, i) % 3 + 1;
                    rd[i] = rAt;
                    rAt += rc[i];
                }
                double[] sv = new double[sAt], rv = new double[rAt];
                for (int j = 0; j < n; j++) for (int x = 0; x < sc[j]; x++) sv[sd[j] + x] = tagOf(rank, j) + x / 8.0;
                if (nb) topo.iNeighborAllToAllv(sv, sc, sd, MPI.DOUBLE, rv, rc, rd, MPI.DOUBLE).waitFor();
                else topo.neighborAllToAllv(sv, sc, sd, MPI.DOUBLE, rv, rc, rd, MPI.DOUBLE);
                for (int i = 0; i < n; i++) {
                    for (int x = 0; x < rc[i]; x++) {
                        double e = tagOf(src[i], sentBlock(topo, rank, size, i)) + x / 8.0;
                        Check.equal((Object) e, rv[rd[i] + x], how + " alltoallv block " + i + " item " + x);
                    }
                }
            }
            ((Intracomm) topo).free();
        }
    }

    /** Neighbour traffic travels apart from user messages of the same communicator. */
    @RankTest
    public void neighbourTrafficDoesNotMatchUserMessages(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        CartComm ring = comm.createCart(new int[] {size}, new boolean[] {true}, false);
        int[] user = new int[1];
        Request r = ring.iRecv(user, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
        int[] got = new int[2];
        ring.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
        Check.arrays(new int[] {(rank - 1 + size) % size, (rank + 1) % size}, got, "ring allgather");
        ring.send(new int[] {4242 + rank}, 1, MPI.INT, (rank + 1) % size, 7);
        r.waitFor();
        Check.equal(4242 + (rank - 1 + size) % size, user[0], "user message arrives intact");
        ring.free();
    }

    // ---- the two API families ------------------------------------------------------------------

    /** Written as for the Open MPI Java bindings. */
    @RankTest
    public void openMpiStyleProgram(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int[] dims = new int[2];
        CartComm.createDims(size, dims);
        CartComm cart = comm.createCart(dims, new boolean[] {true, true}, false);
        ShiftParms east = cart.shift(1, 1);
        int[] coords = cart.getCoords(cart.getRank());
        int[] in = new int[1];
        cart.sendRecv(new int[] {coords[1]}, 1, MPI.INT, east.getRankDest(), 0, in, 1, MPI.INT,
                east.getRankSource(), 0);
        Check.equal((coords[1] - 1 + dims[1]) % dims[1], in[0], "column from the west");
        CartComm row = cart.sub(new boolean[] {false, true});
        Check.equal(dims[1], row.getSize(), "row size");
        row.free();
        cart.free();
    }

    /** Written as for mpiJava 1.2 / MPJ Express. */
    @RankTest
    public void mpiJavaStyleProgram(Intracomm comm) {
        int size = comm.Size(), rank = comm.Rank();
        int[] dims = new int[2];
        Cartcomm.Dims_create(size, dims);
        Cartcomm cart = comm.Create_cart(dims, new boolean[] {false, true}, false);
        CartParms parms = cart.Get();
        Check.arrays(dims, parms.dims, "dims field");
        Check.arrays(refCoords(rank, dims), parms.coords, "coords field");
        Check.arrays(refCoords(rank, dims), cart.Coords(rank), "Coords");
        Check.equal(rank, cart.Rank(parms.coords), "Rank");
        ShiftParms sp = cart.Shift(0, 1);
        Check.equal(refShift(rank, dims, parms.periods, 0, -1), sp.rank_source, "rank_source");
        Check.equal(refShift(rank, dims, parms.periods, 0, 1), sp.rank_dest, "rank_dest");
        Check.equal(MPI.CART, cart.Topo_test(), "Topo_test");
        Cartcomm col = cart.Sub(new boolean[] {true, false});
        Check.equal(dims[0], col.Size(), "Sub size");
        int[] x = {rank}, sum = new int[1];
        col.Allreduce(x, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        int expect = 0;
        for (int r = 0; r < size; r++) if (refCoords(r, dims)[1] == refCoords(rank, dims)[1]) expect += r;
        Check.equal(expect, sum[0], "sum down the column");
        int[][] g = graph(size);
        Graphcomm graph = comm.Create_graph(g[0], g[1], false);
        GraphParms gp = graph.Get();
        Check.arrays(g[0], gp.index, "index field");
        Check.arrays(g[1], gp.edges, "edges field");
        Check.arrays(refGraphNeighbours(g[0], g[1], rank), graph.Neighbours(rank), "Neighbours");
        Check.equal(MPI.GRAPH, graph.Topo_test(), "graph Topo_test");
        Check.equal(rank, graph.Map(g[0], g[1]), "Map");
        Cartcomm copy = (Cartcomm) cart.clone();
        Check.equal(MPI.CART, copy.Topo_test(), "clone keeps the topology");
        copy.Free();
        col.Free();
        graph.Free();
        cart.Free();
    }

    // ---- derived datatypes on topology communicators -----------------------------------------------

    /**
     * A communicator made by a topology constructor moves derived types like any other (the
     * packing layer puts itself around it): a vector of every other int arrives in the right
     * places and leaves the gaps alone, in point-to-point calls and in neighbour collectives.
     */
    @RankTest
    public void derivedTypesOnTopologyCommunicators(Intracomm comm) {
        int size = comm.getSize();
        int rank = comm.getRank();
        CartComm ring = comm.createCart(new int[] {size}, new boolean[] {true}, false);
        Datatype everyOther = Datatype.createVector(3, 1, 2, MPI.INT);
        everyOther.commit();
        ShiftParms s = ring.shift(0, 1);
        int[] out = new int[5];
        for (int i = 0; i < 5; i++) out[i] = 100 * rank + i;
        int[] in = {-1, -1, -1, -1, -1};
        ring.sendRecv(out, 1, everyOther, s.getRankDest(), 7, in, 1, everyOther, s.getRankSource(), 7);
        int src = s.getRankSource();
        int[] expect = {100 * src, -1, 100 * src + 2, -1, 100 * src + 4};
        for (int i = 0; i < 5; i++) Check.equal(expect[i], in[i], "element " + i + " received from rank " + src);
        // Neighbour collectives pack types with gaps at the edges (NegativeLayoutSuite covers every form).
        int[] gathered = new int[10];
        java.util.Arrays.fill(gathered, -1);
        ring.neighborAllGather(out, 1, everyOther, gathered, 1, everyOther);
        int[] sources = {(rank + size - 1) % size, (rank + 1) % size};
        for (int j = 0; j < 2; j++) {
            for (int k = 0; k < 5; k++) {
                Check.equal(k % 2 == 0 ? 100 * sources[j] + k : -1, gathered[5 * j + k], "gathered block " + j
                        + ", element " + k);
            }
        }
        everyOther.free();
        ring.free();
    }

    // ---- bad input --------------------------------------------------------------------------------

    @RankTest
    public void badTopologyArguments(Intracomm comm) {
        int size = comm.getSize();
        Check.throwsMpi(MPI.ERR_DIMS, () -> comm.createCart(new int[] {size + 1}, new boolean[] {false}, false),
                "" + (size + 1), "more than the " + size);
        Check.throwsMpi(MPI.ERR_DIMS, () -> comm.createCart(new int[] {size, 2}, new boolean[] {false, false}, false),
                "[" + size + ", 2]");
        Check.throwsMpi(MPI.ERR_DIMS, () -> comm.createCart(new int[] {-1}, new boolean[] {false}, false),
                "dims[0] = -1");
        Check.throwsMpi(MPI.ERR_DIMS, () -> comm.createCart(new int[] {1, 0}, new boolean[] {false, false}, false),
                "dims[1] = 0");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.createCart(new int[] {1, 1}, new boolean[] {false}, false),
                "periods has 1");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.createCart(null, new boolean[0], false), "dims is null");
        Check.throwsMpi(MPI.ERR_DIMS, () -> comm.Create_cart(new int[] {Integer.MAX_VALUE, 4},
                new boolean[] {false, false}, false), "more than");
        CartComm line = comm.createCart(new int[] {size}, new boolean[] {false}, false);
        Check.throwsMpi(MPI.ERR_ARG, () -> line.getRank(new int[] {size}), "coords[0] = " + size, "not periodic");
        Check.throwsMpi(MPI.ERR_ARG, () -> line.getRank(new int[] {-1}), "coords[0] = -1");
        Check.throwsMpi(MPI.ERR_ARG, () -> line.getRank(new int[] {0, 0}), "coords has 2 entries");
        Check.throwsMpi(MPI.ERR_RANK, () -> line.getCoords(size), "rank " + size);
        Check.throwsMpi(MPI.ERR_DIMS, () -> line.shift(1, 1), "direction 1");
        Check.throwsMpi(MPI.ERR_ARG, () -> line.sub(new boolean[0]), "remainDims has 0");
        // Entries beyond the grid's dimensions are ignored, as MPI reads one per dimension.
        CartComm same = line.sub(new boolean[] {true, false, false});
        Check.equal(size, same.getSize(), "sub with extra remainDims entries keeps the line");
        same.free();
        Check.throwsMpi(MPI.ERR_DIMS, () -> line.map(new int[] {size + 1}, new boolean[] {false}), "" + (size + 1));
        Check.throwsMpi(MPI.ERR_DIMS, () -> CartComm.createDims(7, new int[] {2, 0}), "nnodes 7", "multiple");
        Check.throwsMpi(MPI.ERR_DIMS, () -> CartComm.createDims(6, new int[] {-2, 0}), "dims[0] = -2");
        Check.throwsMpi(MPI.ERR_DIMS, () -> CartComm.createDims(6, new int[] {2, 2}), "nnodes 6", "equal");
        Check.throwsMpi(MPI.ERR_ARG, () -> Cartcomm.Dims_create(0, new int[] {0}), "nnodes 0");
        // Graphs.
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.createGraph(new int[size + 1], new int[0], false),
                "index has " + (size + 1) + " nodes");
        if (size >= 2) {
            Check.throwsMpi(MPI.ERR_ARG, () -> comm.createGraph(new int[] {1, 0}, new int[] {1}, false),
                    "index[1] = 0");
        }
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.createGraph(new int[] {1}, new int[] {1}, false),
                "edges[0] = 1", "[0, 1)");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.Create_graph(new int[] {2}, new int[] {0}, false), "index[0] = 2");
        Check.throwsMpi(MPI.ERR_RANK, () -> comm.createDistGraphAdjacent(new int[] {size}, new int[0], null, false),
                "sources[0] = " + size);
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.createDistGraphAdjacent(new int[] {0}, new int[] {-3},
                new int[] {0}, new int[] {1}, null, false), "sourceWeights[0] = -3");
        Check.throwsMpi(MPI.ERR_RANK, () -> comm.createDistGraph(new int[] {0}, new int[] {1}, new int[] {-1}, null,
                false), "destinations[0] = -1");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.createDistGraph(new int[] {0}, new int[] {2}, new int[] {0}, null,
                false), "destinations has 1");
        // Neighbour collectives.
        Check.throwsMpi(MPI.ERR_TOPOLOGY, () -> comm.neighborAllGather(new int[1], 1, MPI.INT, new int[4], 1,
                MPI.INT), "no process topology");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> line.neighborAllGather(new int[1], 1, MPI.INT, new int[1], 1,
                MPI.INT), "recvbuf");
        Check.throwsMpi(MPI.ERR_ARG, () -> line.neighborAllToAllv(new int[2], new int[] {1}, new int[] {0, 1},
                MPI.INT, new int[2], new int[] {1, 1}, new int[] {0, 1}, MPI.INT), "sendcount has 1", "2 destinations");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> line.neighborAllToAll(MPI.IN_PLACE, 1, MPI.INT, new int[2], 1,
                MPI.INT), "IN_PLACE");
        // MPI.OBJECT works here (ObjectTypeMoreSuite); two sources need two objects of recvbuf.
        Check.throwsMpi(MPI.ERR_BUFFER, () -> line.neighborAllGather(new Object[1], 1, MPI.OBJECT, new Object[1], 1,
                MPI.OBJECT), "recvbuf", "Object[1]");
        Check.throwsMpi(MPI.ERR_COUNT, () -> line.neighborAllGatherv(new int[1], 1, MPI.INT, new int[4],
                new int[] {1, -1}, new int[] {0, 1}, MPI.INT), "recvcount[1] = -1");
        // After all that, the communicator still works.
        int[] got = new int[2];
        line.neighborAllGather(new int[] {comm.getRank()}, 1, MPI.INT, got, 1, MPI.INT);
        int rank = comm.getRank();
        Check.arrays(new int[] {rank == 0 ? 0 : rank - 1, rank == size - 1 ? 0 : rank + 1}, got,
                "line allgather after errors (PROC_NULL blocks stay 0)");
        line.free();
    }
}
