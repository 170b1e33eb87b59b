package io.github.mpi4j.backend.mpi;

/**
 * The JNI entry points of MPI-IO ({@code native/mpi4j_mpi_file.c}, in the same bridge library as
 * {@link MpiNative}). File handles travel as longs; buffers as in {@link MpiNative}: (object,
 * mode, byte offset). Arguments were checked by the {@code mpi} layer; access modes and whence
 * values are mpi4j's (MPI.MODE_*, MPI.SEEK_*), translated in C.
 */
final class MpiFileNative {
    private MpiFileNative() {
    }

    /** Selectors of {@link #access0}. */
    static final int READ_AT = 0, WRITE_AT = 1, READ_AT_ALL = 2, WRITE_AT_ALL = 3, READ_SHARED = 4,
            WRITE_SHARED = 5, READ_ORDERED = 6, WRITE_ORDERED = 7;

    /** MPI_File_open with the hints keys[i] = values[i] (MPI_INFO_NULL when keys is null or empty); returns the handle. */
    static native long open0(long comm, String path, int amode, String[] keys, String[] values);

    /** MPI_File_set_info; collective. */
    static native void setInfo0(long fh, String[] keys, String[] values);

    /** MPI_File_get_info: {key0, value0, key1, value1, ...}. */
    static native String[] getInfo0(long fh);

    static native void close0(long fh);

    static native void delete0(String path);

    static native long size0(long fh);

    static native void setSize0(long fh, long size);

    static native void preallocate0(long fh, long size);

    static native void sync0(long fh);

    static native void setView0(long fh, long disp, long etype, long filetype, String datarep, String[] keys,
                                String[] values);

    static native void setAtomicity0(long fh, boolean atomic);

    /** One data access of kind {@code kind}; returns the bytes moved. {@code offset} is ignored by the shared-pointer kinds. */
    static native long access0(int kind, long fh, long offset, Object buf, int mode, long off, int count, long type);

    static native void seekShared0(long fh, long offset, int whence);

    static native long positionShared0(long fh);

    /**
     * MPI_File_i{read,write}{_at,_at_all,_shared} ({@code split} false; returns the MPI_Request) or
     * the begin of a split collective ({@code split} true; returns 0). {@code where} is one of
     * BackendFile.AT, AT_ALL, SHARED, ORDERED. The buffer must stay where it is until completion.
     */
    static native long start0(int where, boolean write, boolean split, long fh, long offset, Object buf, int mode,
                              long off, int count, long type);

    /** The end of a split collective begun by {@link #start0}; returns the bytes moved. */
    static native long splitEnd0(int where, boolean write, long fh, Object buf, int mode, long off);
}
