package mpi;

import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Neighbours;

/**
 * A communicator with a Cartesian topology (MPI_Cart_create), as the Open MPI Java bindings
 * name it; made by {@link Intracomm#createCart}. Coordinates, ranks of coordinates and shifts
 * are arithmetic on the grid kept here (ranks are row-major, the last dimension varying
 * fastest), the same on every backend.
 *
 * <p>Every Cartesian communicator mpi4j makes is a {@link Cartcomm}, the mpiJava 1.2 / MPJ
 * Express class of the same thing, so one object serves programs of both families (see
 * docs/topologies.md for why there are two classes whose names differ only in case).
 */
public class CartComm extends Intracomm {
    final int[] dims;
    final boolean[] periods;

    CartComm(Session session, BackendComm impl, String name, int[] dims, boolean[] periods) {
        super(session, impl, name);
        this.dims = dims;
        this.periods = periods;
    }

    /** The grid this communicator's duplicate or sub-grid keeps. */
    final Cartcomm sameGrid(BackendComm c, String name) {
        return new Cartcomm(session, c, name, dims.clone(), periods.clone());
    }

    @Override
    public CartComm dup() {
        return sameGrid(impl("dup").dup(), getName() + ".dup");
    }

    @Override
    public CartComm clone() {
        return dup();
    }

    @Override
    public CartComm iDup() {
        return (CartComm) super.iDup();
    }

    @Override
    public CartComm dupWithInfo(Info info) {
        return (CartComm) super.dupWithInfo(info);
    }

    /** Dimensions, periods and this process's coordinates (MPI_Cart_get). */
    public CartParms getTopo() {
        return new CartParms(dims.clone(), periods.clone(), coordsOf(impl("getTopo").rank()));
    }

    /** Rank of the process at {@code coords} (MPI_Cart_rank); periodic dimensions wrap around. */
    public int getRank(int[] coords) {
        impl("getRank");
        return rankOf("getRank", coords);
    }

    /** Coordinates of {@code rank} (MPI_Cart_coords). */
    public int[] getCoords(int rank) {
        BackendComm c = impl("getCoords");
        if (rank < 0 || rank >= c.size()) {
            throw MPIException.of(MPI.ERR_RANK, "getCoords: rank " + rank + " is not in [0, " + c.size() + ")");
        }
        return coordsOf(rank);
    }

    /**
     * The ranks to receive from and send to when data moves {@code disp} steps along dimension
     * {@code direction} (MPI_Cart_shift); {@link MPI#PROC_NULL} beyond a non-periodic edge.
     */
    public ShiftParms shift(int direction, int disp) {
        return shiftImpl("shift", direction, disp);
    }

    /**
     * The sub-grid of this process that keeps the dimensions where {@code remainDims} is true
     * (MPI_Cart_sub). Collective.
     */
    public CartComm sub(boolean[] remainDims) {
        return Topologies.sub(this, "sub", remainDims);
    }

    /**
     * The rank this process would have in a grid of {@code dims} (MPI_Cart_map), or
     * {@link MPI#UNDEFINED} if it would be outside. mpi4j does not reorder: the rank stays.
     */
    public int map(int[] dims, boolean[] periods) {
        BackendComm c = impl("map");
        long n = Topologies.checkGrid("map", dims, periods, c.size());
        return c.rank() < n ? c.rank() : MPI.UNDEFINED;
    }

    /**
     * Fills the zero entries of {@code dims} with a balanced split of {@code nnodes} processes
     * (MPI_Dims_create): the factors as equal as possible, in non-increasing order; non-zero
     * entries are kept as given.
     */
    public static void createDims(int nnodes, int[] dims) {
        Topologies.createDims("createDims", nnodes, dims);
    }

    // ---- shared with the mpiJava names -----------------------------------------------------------

    final int[] coordsOf(int rank) {
        return Neighbours.coords(rank, dims);
    }

    final int rankOf(String call, int[] coords) {
        if (coords == null) throw MPIException.of(MPI.ERR_ARG, call + ": coords is null");
        if (coords.length != dims.length) {
            throw MPIException.of(MPI.ERR_ARG, call + ": coords has " + coords.length + " entries but the grid has "
                    + dims.length + " dimensions");
        }
        int[] c = coords.clone();
        for (int d = 0; d < dims.length; d++) {
            if (c[d] >= 0 && c[d] < dims[d]) continue;
            if (!periods[d]) {
                throw MPIException.of(MPI.ERR_ARG, call + ": coords[" + d + "] = " + c[d] + " is not in [0, "
                        + dims[d] + ") and dimension " + d + " is not periodic");
            }
            c[d] = Math.floorMod(c[d], dims[d]);
        }
        return Neighbours.rank(c, dims);
    }

    final ShiftParms shiftImpl(String call, int direction, int disp) {
        BackendComm c = impl(call);
        if (direction < 0 || direction >= dims.length) {
            throw MPIException.of(MPI.ERR_DIMS, call + ": direction " + direction + " is not in [0, " + dims.length
                    + ") (the grid's dimensions)");
        }
        int me = c.rank();
        return new ShiftParms(Neighbours.shift(me, dims, periods, direction, -disp),
                Neighbours.shift(me, dims, periods, direction, disp));
    }
}
