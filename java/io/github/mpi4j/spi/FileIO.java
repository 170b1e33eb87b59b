package io.github.mpi4j.spi;

/**
 * Capability: MPI-IO (issue 11). Opening is collective over the communicator; what an open file
 * does is {@link BackendFile}. Access modes ({@code amode}) use MPI's MODE_* values.
 */
public interface FileIO {

    /** MPI_File_open. */
    BackendFile open(String path, int amode);

    /** MPI_File_open with hints (MPI_Info keys and values); backends that use none ignore them. */
    default BackendFile open(String path, int amode, java.util.Map<String, String> hints) {
        BackendFile f = open(path, amode);
        if (hints != null && !hints.isEmpty()) f.setHints(hints);
        return f;
    }

    /** MPI_File_delete (not collective). */
    void delete(String path);

    // ---- access modes and whence values (MPI's values, as Open MPI's mpi.h and ROMIO define them) ----

    int MODE_CREATE = 1;
    int MODE_RDONLY = 2;
    int MODE_WRONLY = 4;
    int MODE_RDWR = 8;
    int MODE_DELETE_ON_CLOSE = 16;
    int MODE_UNIQUE_OPEN = 32;
    int MODE_EXCL = 64;
    int MODE_APPEND = 128;
    int MODE_SEQUENTIAL = 256;

    int SEEK_SET = 600;
    int SEEK_CUR = 602;
    int SEEK_END = 604;
}
