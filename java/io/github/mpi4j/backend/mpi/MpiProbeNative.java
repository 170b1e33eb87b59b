package io.github.mpi4j.backend.mpi;

/**
 * JNI entry points of the MPI bridge for matched probes (native/mpi4j_mpi_mprobe.c):
 * MPI_Mprobe, MPI_Improbe, MPI_Mrecv, MPI_Imrecv. Messages travel as longs like the other
 * handles; statuses come back as {source, tag, bytes} in a long[3], special values translated.
 * Never called with MPI_PROC_NULL: the {@code mpi} layer answers that itself (MPI_MESSAGE_NO_PROC).
 */
final class MpiProbeNative {
    private MpiProbeNative() {
    }

    /** MPI_Mprobe; returns the message. */
    static native long mprobe0(long comm, int source, int tag, long[] status);

    /** MPI_Improbe; returns the message, or 0 when none matches (status untouched). */
    static native long improbe0(long comm, int source, int tag, long[] status);

    /** MPI_Mrecv into (buf, mode, off) as {@link MpiNative#recv0} takes buffers. */
    static native void mrecv0(long message, Object buf, int mode, long off, int count, long type, long[] status);

    /** MPI_Imrecv into direct or raw memory; returns the request. */
    static native long imrecv0(long message, Object buf, int mode, long off, int count, long type);
}
