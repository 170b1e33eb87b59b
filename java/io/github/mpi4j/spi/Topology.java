package io.github.mpi4j.spi;

/**
 * Capability: process topologies and neighbour collectives (issue 10). Coordinates, shifts and
 * neighbour lists are pure arithmetic that the {@code mpi} layer does itself; a backend only
 * makes the new communicator (where {@code reorder} may renumber ranks to fit the machine) and
 * runs the neighbour collectives on a communicator it made here. Neighbours of a rank are, in
 * order, those MPI defines for the topology (for Cartesian: -1 then +1 along each dimension;
 * {@link Neighbours} computes them). Both backends keep ranks (they ignore {@code reorder}), so
 * that their results agree; see docs/topologies.md. The counts and displacements arrays of the
 * neighbour collectives have exactly one entry per source or destination.
 */
public interface Topology {

    /** MPI_Cart_create; null on ranks beyond the grid's size. */
    BackendComm createCart(int[] dims, boolean[] periods, boolean reorder);

    /** MPI_Graph_create; null on ranks beyond the graph's size. */
    BackendComm createGraph(int[] index, int[] edges, boolean reorder);

    /** MPI_Dist_graph_create_adjacent; weights may be null (MPI_UNWEIGHTED). */
    BackendComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
                                        int[] destinationWeights, boolean reorder);

    void neighborAllGather(Buf sendBuf, int sendCount, TypeDesc sendType,
                           Buf recvBuf, int recvCount, TypeDesc recvType);

    void neighborAllGatherv(Buf sendBuf, int sendCount, TypeDesc sendType,
                            Buf recvBuf, int[] recvCounts, int[] displs, TypeDesc recvType);

    void neighborAllToAll(Buf sendBuf, int sendCount, TypeDesc sendType,
                          Buf recvBuf, int recvCount, TypeDesc recvType);

    void neighborAllToAllv(Buf sendBuf, int[] sendCounts, int[] sendDispls, TypeDesc sendType,
                           Buf recvBuf, int[] recvCounts, int[] recvDispls, TypeDesc recvType);

    BackendRequest iNeighborAllGather(Buf sendBuf, int sendCount, TypeDesc sendType,
                                      Buf recvBuf, int recvCount, TypeDesc recvType);

    BackendRequest iNeighborAllGatherv(Buf sendBuf, int sendCount, TypeDesc sendType,
                                       Buf recvBuf, int[] recvCounts, int[] displs, TypeDesc recvType);

    BackendRequest iNeighborAllToAll(Buf sendBuf, int sendCount, TypeDesc sendType,
                                     Buf recvBuf, int recvCount, TypeDesc recvType);

    BackendRequest iNeighborAllToAllv(Buf sendBuf, int[] sendCounts, int[] sendDispls, TypeDesc sendType,
                                      Buf recvBuf, int[] recvCounts, int[] recvDispls, TypeDesc recvType);
}
