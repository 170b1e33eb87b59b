package io.github.mpi4j.spi;

/**
 * The neighbours of one rank in a process topology (issue 10), and the arithmetic of Cartesian
 * grids that both the {@code mpi} layer and the fabric need. Ranks are row-major over the grid
 * (the last dimension varies fastest), as MPI defines them; a neighbour beyond the edge of a
 * non-periodic dimension is {@link Mpi#PROC_NULL}.
 *
 * <p>{@link #sources} are the ranks this rank receives from (in-neighbours, one block each in
 * the order of the array) and {@link #destinations} those it sends to. For a Cartesian grid both
 * are, per dimension, the rank one step down and the rank one step up; {@link #cartesian} says
 * so, because MPI pairs the directions in that case (what goes down arrives as "from above").
 */
public final class Neighbours {
    public final int[] sources;
    public final int[] destinations;
    public final boolean cartesian;

    public Neighbours(int[] sources, int[] destinations, boolean cartesian) {
        this.sources = sources;
        this.destinations = destinations;
        this.cartesian = cartesian;
    }

    /** The neighbours of {@code rank} in a grid: per dimension, the ranks one step down and one step up. */
    public static Neighbours cartesian(int rank, int[] dims, boolean[] periods) {
        int[] n = new int[2 * dims.length];
        for (int d = 0; d < dims.length; d++) {
            n[2 * d] = shift(rank, dims, periods, d, -1);
            n[2 * d + 1] = shift(rank, dims, periods, d, 1);
        }
        return new Neighbours(n, n.clone(), true);
    }

    /** The neighbours of {@code rank} in an MPI_Graph_create graph: edges[index[rank-1] .. index[rank]). */
    public static Neighbours graph(int rank, int[] index, int[] edges) {
        int from = rank == 0 ? 0 : index[rank - 1];
        int[] n = java.util.Arrays.copyOfRange(edges, from, index[rank]);
        return new Neighbours(n, n.clone(), false);
    }

    /** Number of ranks in a grid, or -1 when it exceeds Integer.MAX_VALUE. */
    public static long product(int[] dims) {
        long p = 1;
        for (int d : dims) {
            p *= d;
            if (p > Integer.MAX_VALUE) return -1;
        }
        return p;
    }

    /** Coordinates of {@code rank} in the grid (row-major). */
    public static int[] coords(int rank, int[] dims) {
        int[] c = new int[dims.length];
        for (int d = dims.length - 1; d >= 0; d--) {
            c[d] = rank % dims[d];
            rank /= dims[d];
        }
        return c;
    }

    /** Rank of in-range coordinates (row-major). */
    public static int rank(int[] coords, int[] dims) {
        int r = 0;
        for (int d = 0; d < dims.length; d++) r = r * dims[d] + coords[d];
        return r;
    }

    /**
     * The rank {@code disp} steps from {@code rank} along dimension {@code dim}: wrapped around a
     * periodic dimension, {@link Mpi#PROC_NULL} beyond the edge of another.
     */
    public static int shift(int rank, int[] dims, boolean[] periods, int dim, int disp) {
        int[] c = coords(rank, dims);
        long to = (long) c[dim] + disp;
        if (to < 0 || to >= dims[dim]) {
            if (!periods[dim]) return Mpi.PROC_NULL;
            to = Math.floorMod(to, (long) dims[dim]);
        }
        c[dim] = (int) to;
        return rank(c, dims);
    }
}
