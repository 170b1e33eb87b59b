package mpi;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Neighbours;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.Topology;
import java.util.Arrays;

/**
 * Making process topologies (issue 10): the argument checks and the collective calls behind
 * {@link Intracomm#createCart}, {@link Intracomm#createGraph}, the distributed graphs,
 * {@link CartComm#sub} and MPI_Dims_create. The backend only makes the communicator
 * ({@link Topology}); the grid or graph is kept by the {@code mpi} layer, so queries give the
 * same answers on every backend. Ranks are never reordered (see docs/topologies.md).
 */
final class Topologies {
    private Topologies() {
    }

    /** A collective step of a topology constructor, run inside the call's bracket. */
    private interface Body<T> {
        T run(BackendComm c);
    }

    private static <T> T collective(Comm comm, String call, Body<T> body) {
        BackendComm c = comm.impl(call);
        CallErrors.begin(c, call, false);
        Throwable failure = null;
        try {
            return CallErrors.inherit(comm, body.run(c));
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(comm, c, failure);
        }
    }

    private static Topology topology(Comm comm, String call) {
        return comm.capability(call, Topology.class, "process topologies");
    }

    // ---- Cartesian grids --------------------------------------------------------------------

    /** Checks a grid for a communicator of {@code size} ranks; returns its number of ranks. */
    static long checkGrid(String call, int[] dims, boolean[] periods, int size) {
        if (dims == null) throw MPIException.of(MPI.ERR_ARG, call + ": dims is null");
        if (periods == null) throw MPIException.of(MPI.ERR_ARG, call + ": periods is null");
        if (periods.length < dims.length) {
            throw MPIException.of(MPI.ERR_ARG, call + ": periods has " + periods.length + " entries but dims has "
                    + dims.length);
        }
        for (int d = 0; d < dims.length; d++) {
            if (dims[d] <= 0) {
                throw MPIException.of(MPI.ERR_DIMS, call + ": dims[" + d + "] = " + dims[d] + " must be > 0");
            }
        }
        long n = Neighbours.product(dims);
        if (n < 0 || n > size) {
            throw MPIException.of(MPI.ERR_DIMS, call + ": the grid " + Arrays.toString(dims) + " has "
                    + (n < 0 ? "more than " + Integer.MAX_VALUE : String.valueOf(n)) + " ranks, more than the "
                    + size + " of the communicator");
        }
        return n;
    }

    /** Intracomm.createCart / Create_cart; {@code javaNull}: ranks outside the grid get null (mpiJava). */
    static Cartcomm createCart(Intracomm parent, String call, int[] dims, boolean[] periods, boolean reorder,
                               boolean javaNull) {
        return collective(parent, call, c -> {
            checkGrid(call, dims, periods, c.size());
            int[] d = dims.clone();
            boolean[] p = Arrays.copyOf(periods, dims.length);
            BackendComm n = topology(parent, call).createCart(d, p, reorder);
            if (n == null && javaNull) return null;
            return new Cartcomm(parent.session, n, parent.getName() + ".cart", d, p);
        });
    }

    /** CartComm.sub / Sub: one sub-grid per combination of the dropped coordinates. */
    static CartComm sub(CartComm cart, String call, boolean[] remain) {
        return collective(cart, call, c -> {
            int[] dims = cart.dims;
            if (remain == null) throw MPIException.of(MPI.ERR_ARG, call + ": remainDims is null");
            // MPI_Cart_sub reads one entry per dimension; longer arrays are accepted as the Open MPI
            // bindings accept them (their tests pass 4 entries for a grid of no dimensions).
            if (remain.length < dims.length) {
                throw MPIException.of(MPI.ERR_ARG, call + ": remainDims has " + remain.length
                        + " entries but the grid has " + dims.length + " dimensions");
            }
            int kept = 0;
            for (int d = 0; d < dims.length; d++) if (remain[d]) kept++;
            int[] keptDims = new int[kept];
            boolean[] keptPeriods = new boolean[kept];
            int[] coords = Neighbours.coords(c.rank(), dims);
            int colour = 0;
            for (int d = 0, k = 0; d < dims.length; d++) {
                if (remain[d]) {
                    keptDims[k] = dims[d];
                    keptPeriods[k++] = cart.periods[d];
                } else {
                    colour = colour * dims[d] + coords[d];
                }
            }
            topology(cart, call); // the backend has topologies, so the part has them too
            // Ranks keep their order: within one colour, row-major over the kept dimensions.
            BackendComm part = c.split(colour, c.rank());
            BackendComm n;
            Throwable failure = null;
            part.beginCollective(call, false);
            try {
                n = part.capability(Topology.class).createCart(keptDims, keptPeriods, false);
            } catch (RuntimeException | Error e) {
                failure = e;
                throw e;
            } finally {
                part.endCollective(failure);
                if (failure == null) part.free();
            }
            return new Cartcomm(cart.session, n, cart.getName() + ".sub", keptDims, keptPeriods);
        });
    }

    /** MPI_Dims_create: fills the zero entries of {@code dims} with balanced factors of what is left. */
    static void createDims(String call, int nnodes, int[] dims) {
        if (dims == null) throw MPIException.of(MPI.ERR_ARG, call + ": dims is null");
        if (nnodes < 1) throw MPIException.of(MPI.ERR_ARG, call + ": nnodes " + nnodes + " must be > 0");
        long fixed = 1;
        int free = 0;
        for (int d = 0; d < dims.length; d++) {
            if (dims[d] < 0) {
                throw MPIException.of(MPI.ERR_DIMS, call + ": dims[" + d + "] = " + dims[d]
                        + " must be >= 0 (0: to be chosen)");
            }
            if (dims[d] == 0) {
                free++;
            } else {
                fixed *= dims[d];
                if (fixed > nnodes) break;
            }
        }
        if (fixed > nnodes || nnodes % fixed != 0 || (free == 0 && fixed != nnodes)) {
            throw MPIException.of(MPI.ERR_DIMS, call + ": nnodes " + nnodes + " is not "
                    + (free == 0 ? "equal to" : "a multiple of") + " the product of the non-zero entries of dims "
                    + Arrays.toString(dims));
        }
        if (free == 0) return;
        long[] f = balanced(nnodes / fixed, free, Long.MAX_VALUE);
        for (int d = 0, k = 0; d < dims.length; d++) if (dims[d] == 0) dims[d] = (int) f[k++];
    }

    /**
     * The most even way to write {@code n} as a product of {@code k} factors, each at most
     * {@code cap}, in non-increasing order: the smallest largest factor, then the smallest
     * second, and so on. Null if there is none. The first factor is the least divisor f of n
     * with f^k >= n for which the rest can be split under f.
     */
    private static long[] balanced(long n, int k, long cap) {
        if (k == 1) return n <= cap ? new long[] {n} : null;
        for (long f = 1; f <= Math.min(n, cap); f++) {
            if (n % f != 0 || !powerReaches(f, k, n)) continue;
            long[] rest = balanced(n / f, k - 1, f);
            if (rest != null) {
                long[] all = new long[k];
                all[0] = f;
                System.arraycopy(rest, 0, all, 1, k - 1);
                return all;
            }
        }
        return null;
    }

    private static boolean powerReaches(long f, int k, long n) {
        long p = 1;
        for (int i = 0; i < k; i++) {
            p *= f;
            if (p >= n) return true;
        }
        return false;
    }

    // ---- graphs ----------------------------------------------------------------------------------

    /** Checks an MPI_Graph_create graph for a communicator of {@code size} ranks; returns its nodes. */
    static int checkGraph(String call, int[] index, int[] edges, int size) {
        if (index == null) throw MPIException.of(MPI.ERR_ARG, call + ": index is null");
        if (edges == null) throw MPIException.of(MPI.ERR_ARG, call + ": edges is null");
        int n = index.length;
        if (n > size) {
            throw MPIException.of(MPI.ERR_ARG, call + ": index has " + n + " nodes, more than the " + size
                    + " ranks of the communicator");
        }
        for (int i = 0; i < n; i++) {
            int before = i == 0 ? 0 : index[i - 1];
            if (index[i] < before) {
                throw MPIException.of(MPI.ERR_ARG, call + ": index[" + i + "] = " + index[i] + " is less than "
                        + (i == 0 ? "0" : "index[" + (i - 1) + "] = " + before)
                        + " (index holds cumulative degrees)");
            }
        }
        int nedges = n == 0 ? 0 : index[n - 1];
        if (nedges > edges.length) {
            throw MPIException.of(MPI.ERR_ARG, call + ": index[" + (n - 1) + "] = " + nedges + " edges but edges has "
                    + edges.length + " entries");
        }
        for (int j = 0; j < nedges; j++) {
            if (edges[j] < 0 || edges[j] >= n) {
                throw MPIException.of(MPI.ERR_ARG, call + ": edges[" + j + "] = " + edges[j]
                        + " is not a node of the graph [0, " + n + ")");
            }
        }
        return n;
    }

    /** Intracomm.createGraph / Create_graph. */
    static Graphcomm createGraph(Intracomm parent, String call, int[] index, int[] edges, boolean reorder,
                                 boolean javaNull) {
        return collective(parent, call, c -> {
            int n = checkGraph(call, index, edges, c.size());
            int[] ix = index.clone();
            int[] ed = Arrays.copyOf(edges, n == 0 ? 0 : index[n - 1]);
            BackendComm nc = topology(parent, call).createGraph(ix, ed, reorder);
            if (nc == null && javaNull) return null;
            return new Graphcomm(parent.session, nc, parent.getName() + ".graph", ix, ed, null, null, null, null);
        });
    }

    private static void checkRanks(String call, String name, int[] ranks, int count, int size) {
        if (ranks == null) throw MPIException.of(MPI.ERR_ARG, call + ": " + name + " is null");
        if (ranks.length < count) {
            throw MPIException.of(MPI.ERR_ARG, call + ": " + name + " has " + ranks.length + " entries, fewer than "
                    + count);
        }
        for (int i = 0; i < count; i++) {
            if (ranks[i] < 0 || ranks[i] >= size) {
                throw MPIException.of(MPI.ERR_RANK, call + ": " + name + "[" + i + "] = " + ranks[i]
                        + " is not a rank of the communicator [0, " + size + ")");
            }
        }
    }

    private static void checkWeights(String call, String name, int[] weights, int count) {
        if (weights == null) throw MPIException.of(MPI.ERR_ARG, call + ": " + name + " is null");
        if (weights.length < count) {
            throw MPIException.of(MPI.ERR_ARG, call + ": " + name + " has " + weights.length
                    + " entries, fewer than the " + count + " edges");
        }
        for (int i = 0; i < count; i++) {
            if (weights[i] < 0) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + name + "[" + i + "] = " + weights[i]
                        + " is negative");
            }
        }
    }

    /** Intracomm.createDistGraphAdjacent: each process names its own sources and destinations. */
    static GraphComm createDistGraphAdjacent(Intracomm parent, String call, int[] sources, int[] sourceWeights,
                                             int[] destinations, int[] destWeights, boolean weighted,
                                             boolean reorder) {
        return collective(parent, call, c -> {
            if (sources == null) throw MPIException.of(MPI.ERR_ARG, call + ": sources is null");
            if (destinations == null) throw MPIException.of(MPI.ERR_ARG, call + ": destinations is null");
            checkRanks(call, "sources", sources, sources.length, c.size());
            checkRanks(call, "destinations", destinations, destinations.length, c.size());
            int[] sw = null, dw = null;
            if (weighted) {
                checkWeights(call, "sourceWeights", sourceWeights, sources.length);
                checkWeights(call, "destWeights", destWeights, destinations.length);
                sw = Arrays.copyOf(sourceWeights, sources.length);
                dw = Arrays.copyOf(destWeights, destinations.length);
            }
            return makeDistGraph(parent, call, sources.clone(), sw, destinations.clone(), dw, reorder);
        });
    }

    private static GraphComm makeDistGraph(Intracomm parent, String call, int[] src, int[] sw, int[] dst, int[] dw,
                                           boolean reorder) {
        BackendComm nc = topology(parent, call).createDistGraphAdjacent(src, sw, dst, dw, reorder);
        return new Graphcomm(parent.session, nc, parent.getName() + ".distGraph", null, null, src, sw, dst, dw);
    }

    /**
     * Intracomm.createDistGraph: each process gives some edges of the graph (from sources[i] to
     * the next degrees[i] destinations). Every process learns all edges (an allgather) and keeps
     * those that start or end at it, in the order of the giving process's rank and then of its
     * list: the order of the neighbour collectives' blocks, the same on every backend.
     */
    static GraphComm createDistGraph(Intracomm parent, String call, int[] sources, int[] degrees, int[] destinations,
                                     int[] weights, boolean weighted, boolean reorder) {
        return collective(parent, call, c -> {
            int size = c.size();
            if (sources == null) throw MPIException.of(MPI.ERR_ARG, call + ": sources is null");
            if (degrees == null) throw MPIException.of(MPI.ERR_ARG, call + ": degrees is null");
            int n = sources.length;
            checkRanks(call, "sources", sources, n, size);
            if (degrees.length < n) {
                throw MPIException.of(MPI.ERR_ARG, call + ": degrees has " + degrees.length
                        + " entries, fewer than the " + n + " sources");
            }
            long m = 0;
            for (int i = 0; i < n; i++) {
                if (degrees[i] < 0) {
                    throw MPIException.of(MPI.ERR_ARG, call + ": degrees[" + i + "] = " + degrees[i] + " is negative");
                }
                m += degrees[i];
            }
            if (m > Integer.MAX_VALUE / 3) {
                throw MPIException.of(MPI.ERR_ARG, call + ": degrees add up to " + m + " edges, too many");
            }
            int edges = (int) m;
            checkRanks(call, "destinations", destinations, edges, size);
            if (weighted) checkWeights(call, "weights", weights, edges);
            // My edges as (source, destination, weight) triples, then everybody's.
            int[] mine = new int[3 * edges];
            for (int i = 0, e = 0; i < n; i++) {
                for (int j = 0; j < degrees[i]; j++, e++) {
                    mine[3 * e] = sources[i];
                    mine[3 * e + 1] = destinations[e];
                    mine[3 * e + 2] = weighted ? weights[e] : 1;
                }
            }
            int[] count = {mine.length};
            int[] counts = new int[size];
            c.collectives().allGather(new Buf(count, BaseKind.INT, 0, 1), 1, Predefined.T_INT,
                    new Buf(counts, BaseKind.INT, 0, size), 1, Predefined.T_INT);
            int[] displs = new int[size];
            long total = 0;
            for (int r = 0; r < size; r++) {
                displs[r] = (int) Math.min(total, Integer.MAX_VALUE);
                total += counts[r];
            }
            if (total > Integer.MAX_VALUE) {
                throw MPIException.of(MPI.ERR_ARG, call + ": the graph has more than " + Integer.MAX_VALUE / 3
                        + " edges in all");
            }
            int[] all = new int[(int) total];
            c.collectives().allGatherv(new Buf(mine, BaseKind.INT, 0, mine.length), mine.length, Predefined.T_INT,
                    new Buf(all, BaseKind.INT, 0, all.length), counts, displs, Predefined.T_INT);
            int me = c.rank();
            int in = 0, out = 0;
            for (int e = 0; e < all.length; e += 3) {
                if (all[e + 1] == me) in++;
                if (all[e] == me) out++;
            }
            int[] src = new int[in], sw = new int[in], dst = new int[out], dw = new int[out];
            in = 0;
            out = 0;
            for (int e = 0; e < all.length; e += 3) {
                if (all[e + 1] == me) {
                    src[in] = all[e];
                    sw[in++] = all[e + 2];
                }
                if (all[e] == me) {
                    dst[out] = all[e + 1];
                    dw[out++] = all[e + 2];
                }
            }
            return makeDistGraph(parent, call, src, weighted ? sw : null, dst, weighted ? dw : null, reorder);
        });
    }
}
