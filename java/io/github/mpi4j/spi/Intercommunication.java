package io.github.mpi4j.spi;

/**
 * Capability: intercommunicators (issue 10). A communicator of a backend that has them returns
 * this from {@link BackendComm#capability}. An intercommunicator is itself a
 * {@link BackendComm} whose ranks and sizes are the local group's; point-to-point ranks and
 * collective roots address the remote group, with {@code MPI.ROOT} and {@code PROC_NULL} roots
 * as MPI-3 defines them. Dynamic-process ports (accept/connect) come with the same issue and
 * will extend this interface.
 */
public interface Intercommunication {

    /**
     * MPI_Intercomm_create, called on the local intracommunicator: collective over it, and
     * between the two leaders over {@code peer} with {@code tag}. Returns the intercommunicator.
     */
    BackendComm createIntercomm(int localLeader, BackendComm peer, int remoteLeader, int tag);

    /** MPI_Comm_test_inter: whether this communicator is an intercommunicator. */
    boolean isInter();

    /** MPI_Comm_remote_size (intercommunicators only). */
    int remoteSize();

    /** Ranks in MPI_COMM_WORLD of the remote group, indexed by remote rank (intercommunicators only). */
    int[] remoteWorldRanks();

    /** MPI_Intercomm_merge: an intracommunicator over both groups, the {@code high} group's ranks last. */
    BackendComm merge(boolean high);
}
