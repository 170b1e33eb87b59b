package io.github.mpi4j.spi;

/**
 * A communicator as a backend implements it. The {@code mpi} layer has already validated
 * every argument (ranks, roots, tags, counts against buffer capacity, types against buffers),
 * so implementations may trust them; they report runtime failures as {@code mpi.MPIException}.
 *
 * <p>Conventions:
 * <ul>
 *   <li>Ranks, tags and the wildcards use the values of {@code mpi.MPI}
 *       ({@code ANY_SOURCE}, {@code ANY_TAG}, {@code PROC_NULL}).</li>
 *   <li>{@link Buf#IN_PLACE} in a send-buffer position means MPI_IN_PLACE.</li>
 *   <li>Buffers that are not significant on a rank (the receive buffer of a gather on a
 *       non-root, for example) may be null.</li>
 *   <li>Displacements of the v-variants are in items of the datatype's extent.</li>
 *   <li>Non-blocking calls return a request; the {@code mpi} layer keeps the buffers reachable
 *       until the request completes.</li>
 * </ul>
 */
public interface BackendComm {

    int rank();

    int size();

    /** Ranks in MPI_COMM_WORLD of this communicator's members, indexed by rank here. */
    int[] worldRanks();

    /** Largest tag value allowed (MPI_TAG_UB). */
    int tagUpperBound();

    // ---- management (collective over the communicator) --------------------------------

    BackendComm dup();

    /** MPI_Comm_split; returns null on ranks that passed {@code color < 0} (MPI.UNDEFINED). */
    BackendComm split(int color, int key);

    /**
     * MPI_Comm_split_type with MPI_COMM_TYPE_SHARED: one communicator per node. Returns null
     * when {@code sharedType} is false (MPI.UNDEFINED was passed).
     */
    BackendComm splitShared(boolean sharedType, int key);

    /**
     * MPI_Comm_create: the members are {@code ranks} (ranks in this communicator, in the new
     * rank order). Collective over this communicator; returns null on ranks not included.
     */
    BackendComm create(int[] ranks);

    void free();

    // ---- point-to-point -----------------------------------------------------------------

    void send(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode);

    void recv(Buf buf, int count, TypeDesc type, int source, int tag, StatusData status);

    BackendRequest isend(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode);

    BackendRequest irecv(Buf buf, int count, TypeDesc type, int source, int tag);

    void sendRecv(Buf sendBuf, int sendCount, TypeDesc sendType, int dest, int sendTag,
                  Buf recvBuf, int recvCount, TypeDesc recvType, int source, int recvTag,
                  StatusData status);

    void sendRecvReplace(Buf buf, int count, TypeDesc type, int dest, int sendTag,
                         int source, int recvTag, StatusData status);

    void probe(int source, int tag, StatusData status);

    /** Returns true and fills {@code status} if a matching message is waiting. */
    boolean iprobe(int source, int tag, StatusData status);

    /** Persistent send (MPI_Send_init and friends); inactive until started. */
    BackendRequest sendInit(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode);

    /** Persistent receive (MPI_Recv_init); inactive until started. */
    BackendRequest recvInit(Buf buf, int count, TypeDesc type, int source, int tag);

    // ---- the bracket around one collective call of the API ------------------------------

    /**
     * Opens one collective call of the API at this rank, before its arguments are checked:
     * everything the call does on this communicator until {@link #endCollective} belongs to it
     * (a backend may number calls, so that every rank numbers them alike even when a call fails
     * its checks at one rank only). Calls do not nest across communicators.
     */
    default void beginCollective(String call, boolean nonBlocking) {
    }

    /**
     * Closes the call opened by {@link #beginCollective}; {@code failure} is what leaves the
     * call at this rank (a bad argument, an error inside the schedule), or null. A backend may
     * tell the other ranks about the failure so that they do not wait for this rank.
     */
    default void endCollective(Throwable failure) {
    }

    // ---- blocking collectives -----------------------------------------------------------

    void barrier();

    void bcast(Buf buf, int count, TypeDesc type, int root);

    void reduce(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op, int root);

    void allReduce(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op);

    void gather(Buf sendBuf, int sendCount, TypeDesc sendType,
                Buf recvBuf, int recvCount, TypeDesc recvType, int root);

    void gatherv(Buf sendBuf, int sendCount, TypeDesc sendType,
                 Buf recvBuf, int[] recvCounts, int[] displs, TypeDesc recvType, int root);

    void scatter(Buf sendBuf, int sendCount, TypeDesc sendType,
                 Buf recvBuf, int recvCount, TypeDesc recvType, int root);

    void scatterv(Buf sendBuf, int[] sendCounts, int[] displs, TypeDesc sendType,
                  Buf recvBuf, int recvCount, TypeDesc recvType, int root);

    void allGather(Buf sendBuf, int sendCount, TypeDesc sendType,
                   Buf recvBuf, int recvCount, TypeDesc recvType);

    void allGatherv(Buf sendBuf, int sendCount, TypeDesc sendType,
                    Buf recvBuf, int[] recvCounts, int[] displs, TypeDesc recvType);

    void allToAll(Buf sendBuf, int sendCount, TypeDesc sendType,
                  Buf recvBuf, int recvCount, TypeDesc recvType);

    void allToAllv(Buf sendBuf, int[] sendCounts, int[] sendDispls, TypeDesc sendType,
                   Buf recvBuf, int[] recvCounts, int[] recvDispls, TypeDesc recvType);

    void reduceScatter(Buf sendBuf, Buf recvBuf, int[] recvCounts, TypeDesc type, OpDesc op);

    void reduceScatterBlock(Buf sendBuf, Buf recvBuf, int recvCount, TypeDesc type, OpDesc op);

    void scan(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op);

    void exScan(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op);

    // ---- non-blocking collectives -------------------------------------------------------

    BackendRequest iBarrier();

    BackendRequest iBcast(Buf buf, int count, TypeDesc type, int root);

    BackendRequest iReduce(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op, int root);

    BackendRequest iAllReduce(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op);

    BackendRequest iGather(Buf sendBuf, int sendCount, TypeDesc sendType,
                           Buf recvBuf, int recvCount, TypeDesc recvType, int root);

    BackendRequest iGatherv(Buf sendBuf, int sendCount, TypeDesc sendType,
                            Buf recvBuf, int[] recvCounts, int[] displs, TypeDesc recvType, int root);

    BackendRequest iScatter(Buf sendBuf, int sendCount, TypeDesc sendType,
                            Buf recvBuf, int recvCount, TypeDesc recvType, int root);

    BackendRequest iScatterv(Buf sendBuf, int[] sendCounts, int[] displs, TypeDesc sendType,
                             Buf recvBuf, int recvCount, TypeDesc recvType, int root);

    BackendRequest iAllGather(Buf sendBuf, int sendCount, TypeDesc sendType,
                              Buf recvBuf, int recvCount, TypeDesc recvType);

    BackendRequest iAllGatherv(Buf sendBuf, int sendCount, TypeDesc sendType,
                               Buf recvBuf, int[] recvCounts, int[] displs, TypeDesc recvType);

    BackendRequest iAllToAll(Buf sendBuf, int sendCount, TypeDesc sendType,
                             Buf recvBuf, int recvCount, TypeDesc recvType);

    BackendRequest iAllToAllv(Buf sendBuf, int[] sendCounts, int[] sendDispls, TypeDesc sendType,
                              Buf recvBuf, int[] recvCounts, int[] recvDispls, TypeDesc recvType);

    BackendRequest iReduceScatter(Buf sendBuf, Buf recvBuf, int[] recvCounts, TypeDesc type, OpDesc op);

    BackendRequest iReduceScatterBlock(Buf sendBuf, Buf recvBuf, int recvCount, TypeDesc type, OpDesc op);

    BackendRequest iScan(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op);

    BackendRequest iExScan(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op);

    // ---- fused operations -------------------------------------------------------------

    /**
     * Allreduce of several buffers as one operation (gradient-style buckets). Each pair
     * {@code sendBufs[i]} / {@code recvBufs[i]} holds {@code counts[i]} items. Backends that
     * can fuse the buffers into one schedule should; this default runs them one after another.
     */
    default void allReduceMany(Buf[] sendBufs, Buf[] recvBufs, int[] counts, TypeDesc type, OpDesc op) {
        for (int i = 0; i < counts.length; i++) {
            allReduce(sendBufs[i], recvBufs[i], counts[i], type, op);
        }
    }
}
