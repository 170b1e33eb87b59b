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

    /** MPI_File_open with MPI_INFO_NULL; returns the handle. */
    static native long open0(long comm, String path, int amode);

    static native void close0(long fh);

    static native void delete0(String path);

    static native long size0(long fh);

    static native void setSize0(long fh, long size);

    static native void preallocate0(long fh, long size);

    static native void sync0(long fh);

    static native void setView0(long fh, long disp, long etype, long filetype, String datarep);

    static native void setAtomicity0(long fh, boolean atomic);

    /** One data access of kind {@code kind}; returns the bytes moved. {@code offset} is ignored by the shared-pointer kinds. */
    static native long access0(int kind, long fh, long offset, Object buf, int mode, long off, int count, long type);

    static native void seekShared0(long fh, long offset, int whence);

    static native long positionShared0(long fh);
}
