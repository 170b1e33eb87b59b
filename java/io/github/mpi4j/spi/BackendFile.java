package io.github.mpi4j.spi;

/**
 * One open file as a backend implements it (issue 11). Offsets are in etypes of the current
 * view. Individual file pointers are kept by the {@code mpi} layer, which turns the
 * pointer-relative calls into the explicit-offset ones below; the shared file pointer lives in
 * the backend, since all ranks move it.
 */
public interface BackendFile {

    /** MPI_File_close; collective. */
    void close();

    long size();

    /** MPI_File_set_size; collective. */
    void setSize(long bytes);

    /** MPI_File_preallocate; collective. */
    void preallocate(long bytes);

    /** MPI_File_sync; collective. */
    void sync();

    /** MPI_File_set_view; collective. {@code datarep} is "native", "internal" or "external32". */
    void setView(long disp, TypeDesc etype, TypeDesc filetype, String datarep);

    /** MPI_File_set_atomicity; collective. */
    void setAtomicity(boolean atomic);

    void readAt(long offset, Buf buf, int count, TypeDesc type, StatusData status);

    void writeAt(long offset, Buf buf, int count, TypeDesc type, StatusData status);

    /** MPI_File_read_at_all; collective. */
    void readAtAll(long offset, Buf buf, int count, TypeDesc type, StatusData status);

    /** MPI_File_write_at_all; collective. */
    void writeAtAll(long offset, Buf buf, int count, TypeDesc type, StatusData status);

    // ---- accesses that complete later --------------------------------------------------

    /** Where a started access goes: an explicit offset (independent or collective), the shared pointer, rank order. */
    int AT = 0, AT_ALL = 1, SHARED = 2, ORDERED = 3;

    /**
     * Starts an access that completes later: MPI_File_iread_at / iwrite_at / iread_at_all /
     * iwrite_at_all / iread_shared / iwrite_shared ({@code split} false), or the begin of a
     * split collective ({@code split} true, {@code where} AT_ALL or ORDERED), whose end is the
     * request's wait. The buffer belongs to the operation until the request completes. A
     * request's status reports the bytes moved; a cancelled request that had not started
     * reports cancelled.
     */
    BackendRequest start(int where, boolean write, boolean split, long offset, Buf buf, int count, TypeDesc type);

    // ---- hints (MPI_Info) -------------------------------------------------------------------

    /**
     * MPI_File_set_info (also the hints given at open and to set_view): the backend uses what it
     * knows and keeps the rest. Collective.
     */
    default void setHints(java.util.Map<String, String> hints) {
    }

    /** MPI_File_get_info: the hints in effect (the backend's values for the ones it uses); null if it keeps none. */
    default java.util.Map<String, String> hints() {
        return null;
    }

    // ---- the shared file pointer -------------------------------------------------------

    void readShared(Buf buf, int count, TypeDesc type, StatusData status);

    void writeShared(Buf buf, int count, TypeDesc type, StatusData status);

    /** MPI_File_read_ordered; collective, in rank order. */
    void readOrdered(Buf buf, int count, TypeDesc type, StatusData status);

    /** MPI_File_write_ordered; collective, in rank order. */
    void writeOrdered(Buf buf, int count, TypeDesc type, StatusData status);

    /** MPI_File_seek_shared with MPI's SEEK_SET/CUR/END {@code whence}; collective. */
    void seekShared(long offset, int whence);

    long sharedPosition();

    /**
     * A collective call of this file failed its checks at this rank only (a bad buffer, say):
     * tells the other ranks, which are inside the same call, so that they throw too instead of
     * waiting, and then throws {@code failure}. The default just throws.
     */
    default void failCollective(String call, RuntimeException failure) {
        throw failure;
    }
}
