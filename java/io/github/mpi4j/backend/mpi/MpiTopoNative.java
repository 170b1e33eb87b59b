package io.github.mpi4j.backend.mpi;

import java.nio.IntBuffer;

/**
 * The JNI entry points of process topologies and neighbour collectives
 * ({@code native/mpi4j_mpi_topo.c}, in the same bridge library as {@link MpiNative}). Buffers
 * travel as in {@link MpiNative}: (object, mode, byte offset). Arguments were checked by the
 * {@code mpi} layer.
 */
final class MpiTopoNative {
    private MpiTopoNative() {
    }

    /** Selectors of {@link #neighbor0} and {@link #neighborv0}. */
    static final int ALLGATHER = 0, ALLTOALL = 1;

    /** MPI_Cart_create; 0 on processes outside the grid (MPI_COMM_NULL). */
    static native long cartCreate0(long comm, int[] dims, boolean[] periods, boolean reorder);

    /** MPI_Graph_create; 0 on processes outside the graph. */
    static native long graphCreate0(long comm, int[] index, int[] edges, boolean reorder);

    /** MPI_Dist_graph_create_adjacent; null weights mean MPI_UNWEIGHTED. */
    static native long distGraphCreateAdjacent0(long comm, int[] sources, int[] sourceWeights, int[] destinations,
                                                int[] destWeights, boolean reorder);

    /** {in-degree, out-degree} of this process in the communicator's topology (MPI_Topo_test and friends). */
    static native int[] degrees0(long comm);

    /** MPI_(I)Neighbor_allgather and MPI_(I)Neighbor_alltoall; returns the request of a non-blocking call. */
    static native long neighbor0(int kind, long comm, Object sbuf, int smode, long soff, int scount, long stype,
                                 Object rbuf, int rmode, long roff, int rcount, long rtype, boolean nb);

    /** MPI_(I)Neighbor_allgatherv (scounts, sdispls null) and MPI_(I)Neighbor_alltoallv. */
    static native long neighborv0(int kind, long comm, Object sbuf, int smode, long soff, int scount,
                                  IntBuffer scounts, IntBuffer sdispls, long stype, Object rbuf, int rmode, long roff,
                                  IntBuffer rcounts, IntBuffer rdispls, long rtype, boolean nb);
}
