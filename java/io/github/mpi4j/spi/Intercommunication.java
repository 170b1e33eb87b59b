package io.github.mpi4j.spi;

/**
 * Capability: intercommunicators (issue 10). A communicator of a backend that has them returns
 * this from {@link BackendComm#capability}. An intercommunicator is itself a
 * {@link BackendComm} whose ranks and sizes are the local group's; point-to-point ranks and
 * collective roots address the remote group, with {@code MPI.ROOT} and {@code PROC_NULL} roots
 * as MPI-3 defines them, and the counts arrays of the v-collectives have one entry per remote
 * rank (reduce-scatter's one per local rank).
 *
 * <p>The client/server half of dynamic processes lives here too: ports, accept/connect and the
 * name service. Their defaults throw, naming the call, so that a backend without them fails
 * clearly.
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

    // ---- issue 10: group construction and the client/server half of dynamic processes ----

    /**
     * MPI_Comm_create_group, called on an intracommunicator by the members of {@code ranks}
     * only (ranks of this communicator, in the new order; the caller is one of them).
     */
    default BackendComm createGroup(int[] ranks, int tag) {
        throw unsupported("createGroup");
    }

    /** MPI_Open_port: a new port name this process listens on. */
    default String openPort() {
        throw unsupported("openPort");
    }

    /** MPI_Close_port. */
    default void closePort(String port) {
        throw unsupported("closePort");
    }

    /**
     * MPI_Comm_accept, collective over this intracommunicator: {@code port} is significant at
     * {@code root} only. Returns the intercommunicator to the group that connected.
     */
    default BackendComm accept(String port, int root) {
        throw unsupported("accept");
    }

    /** MPI_Comm_connect, collective over this intracommunicator ({@code port} significant at root). */
    default BackendComm connect(String port, int root) {
        throw unsupported("connect");
    }

    /** MPI_Comm_disconnect: completes this communicator's pending traffic, then frees it. */
    default void disconnect() {
        throw unsupported("disconnect");
    }

    /** MPI_Publish_name. */
    default void publishName(String service, String port) {
        throw unsupported("publishName");
    }

    /** MPI_Unpublish_name. */
    default void unpublishName(String service, String port) {
        throw unsupported("unpublishName");
    }

    /** MPI_Lookup_name: the port published under {@code service}; throws when there is none. */
    default String lookupName(String service) {
        throw unsupported("lookupName");
    }

    private static mpi.MPIException unsupported(String call) {
        return mpi.MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION, call + " is not supported by this backend");
    }
}
