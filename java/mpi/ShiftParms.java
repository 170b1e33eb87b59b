package mpi;

/**
 * The two ranks of a shift along one dimension of a Cartesian communicator
 * ({@link CartComm#shift}, mpiJava {@code Cartcomm.Shift}): the rank to receive from and the
 * rank to send to, {@link MPI#PROC_NULL} beyond the edge of a non-periodic dimension.
 */
public class ShiftParms {
    /** Rank to receive from (mpiJava field). */
    public int rank_source;
    /** Rank to send to (mpiJava field). */
    public int rank_dest;

    /** An empty record (mpiJava programs may make their own). */
    public ShiftParms() {
    }

    protected ShiftParms(int rankSource, int rankDest) {
        this.rank_source = rankSource;
        this.rank_dest = rankDest;
    }

    public int getRankSource() {
        return rank_source;
    }

    public int getRankDest() {
        return rank_dest;
    }
}
