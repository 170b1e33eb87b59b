package mpi;

import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.BackendComm;

/**
 * A Cartesian communicator under its mpiJava 1.2 / MPJ Express name and methods
 * ({@link Intracomm#Create_cart}, {@code Get}, {@code Rank}, {@code Coords}, {@code Shift},
 * {@code Sub}, {@code Map}, {@code Dims_create}). It is the same object as the Open MPI
 * bindings' {@link CartComm}: every Cartesian communicator mpi4j makes is of this class, so
 * either family's methods work on it. docs/topologies.md explains the two names.
 */
public final class Cartcomm extends CartComm {

    Cartcomm(Session session, BackendComm impl, String name, int[] dims, boolean[] periods) {
        super(session, impl, name, dims, periods);
    }

    @Override
    public Cartcomm dup() {
        return (Cartcomm) super.dup();
    }

    @Override
    public Cartcomm clone() {
        return dup();
    }

    /** Dimensions, periods and coordinates (MPI_Cart_get); read its public fields. */
    public CartParms Get() {
        return getTopo();
    }

    /** Rank of the process at {@code coords} (MPI_Cart_rank). */
    public int Rank(int[] coords) {
        impl("Rank");
        return rankOf("Rank", coords);
    }

    /** Coordinates of {@code rank} (MPI_Cart_coords). */
    public int[] Coords(int rank) {
        return getCoords(rank);
    }

    /** Source and destination of a shift (MPI_Cart_shift); read rank_source and rank_dest. */
    public ShiftParms Shift(int direction, int disp) {
        return shiftImpl("Shift", direction, disp);
    }

    /** The sub-grid keeping the dimensions where {@code remain_dims} is true (MPI_Cart_sub). */
    public Cartcomm Sub(boolean[] remain_dims) {
        return (Cartcomm) Topologies.sub(this, "Sub", remain_dims);
    }

    /** The rank this process would have in a grid of {@code dims} (MPI_Cart_map). */
    public int Map(int[] dims, boolean[] periods) {
        return map(dims, periods);
    }

    /** Balanced dimensions for {@code nnodes} processes (MPI_Dims_create); fills the zero entries of dims. */
    public static void Dims_create(int nnodes, int[] dims) {
        Topologies.createDims("Dims_create", nnodes, dims);
    }
}
