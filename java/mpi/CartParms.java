package mpi;

/**
 * What {@link CartComm#getTopo()} (and mpiJava's {@code Cartcomm.Get()}) reports of a Cartesian
 * communicator: its dimensions, their periodicity and this process's coordinates. Both API
 * families read it: the Open MPI bindings through the getters, mpiJava 1.2 / MPJ Express
 * programs through the public fields.
 */
public class CartParms {
    /** Number of processes in each dimension (mpiJava field). */
    public int[] dims;
    /** Whether each dimension wraps around (mpiJava field). */
    public boolean[] periods;
    /** Coordinates of the calling process (mpiJava field). */
    public int[] coords;

    /** An empty record (mpiJava programs may make their own). */
    public CartParms() {
    }

    protected CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }

    public int getDimCount() {
        return dims.length;
    }

    public int getDim(int i) {
        return dims[i];
    }

    public boolean getPeriod(int i) {
        return periods[i];
    }

    public int getCoord(int i) {
        return coords[i];
    }
}
