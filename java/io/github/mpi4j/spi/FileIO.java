package io.github.mpi4j.spi;

/**
 * Capability: MPI-IO (issue 11). Opening is collective over the communicator; what an open file
 * does is {@link BackendFile}. Access modes ({@code amode}) use MPI's MODE_* values.
 */
public interface FileIO {

    /** MPI_File_open. */
    BackendFile open(String path, int amode);

    /** MPI_File_delete (not collective). */
    void delete(String path);
}
