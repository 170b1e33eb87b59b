package io.github.mpi4j.spi;

/**
 * The blocking collectives of one communicator. A backend's communicator hands out the object
 * that implements them through {@link BackendComm#collectives()}: the MPI backend's communicator
 * itself, the fabric's schedules object. Every call runs inside the collective bracket the
 * {@code mpi} layer opens on the communicator ({@link BackendComm#beginCollective} /
 * {@link BackendComm#endCollective}); implementations may rely on it.
 */
public interface BlockingCollectives {

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

    /**
     * MPI_Reduce_scatter_block. No default from {@link #reduceScatter}: that needs a count per
     * rank, and this object need not know the communicator's size.
     */
    void reduceScatterBlock(Buf sendBuf, Buf recvBuf, int recvCount, TypeDesc type, OpDesc op);

    void scan(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op);

    void exScan(Buf sendBuf, Buf recvBuf, int count, TypeDesc type, OpDesc op);

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
