package io.github.mpi4j.spi;

/**
 * Capability: one-sided communication (issue 11). Window creation is collective over the
 * communicator; what a window then does is {@link BackendWindow}.
 */
public interface OneSided {

    /** MPI_Win_create over memory that cannot move (a direct buffer or native memory). */
    BackendWindow createWindow(Buf base, long bytes, int dispUnit);

    /**
     * MPI_Win_allocate ({@code shared} false) or MPI_Win_allocate_shared (true: the ranks of
     * one node can load and store each other's part, see {@link BackendWindow#sharedQuery}).
     */
    BackendWindow allocateWindow(long bytes, int dispUnit, boolean shared);

    /** MPI_Win_create_dynamic: memory is attached later with {@link BackendWindow#attach}. */
    BackendWindow createDynamicWindow();
}
