package io.github.mpi4j.backend.mpi;

/**
 * Natives of intercommunicators, MPI_Comm_create_group, ports and names (issue 10), in
 * native/mpi4j_mpi_inter.c. Arguments are checked by the callers.
 */
final class MpiInterNative {
    private MpiInterNative() {
    }

    static native boolean isInter0(long comm);

    static native int remoteSize0(long comm);

    /** The remote group as ranks of MPI_COMM_WORLD (-1 for a process outside it). */
    static native int[] remoteWorldRanks0(long comm);

    static native long create0(long local, int localLeader, long peer, int remoteLeader, int tag);

    static native long merge0(long inter, boolean high);

    static native long createGroup0(long comm, int[] ranks, int tag);

    static native String openPort0();

    static native void closePort0(String port);

    /** MPI_Comm_accept ({@code accepting}) or MPI_Comm_connect; {@code port} may be null off the root. */
    static native long acceptOrConnect0(String port, int root, long comm, boolean accepting);

    static native void disconnect0(long comm);

    /** MPI_Publish_name ({@code publish}) or MPI_Unpublish_name. */
    static native void publish0(String service, String port, boolean publish);

    static native String lookup0(String service);
}
