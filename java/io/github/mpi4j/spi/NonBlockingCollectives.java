package io.github.mpi4j.spi;

/**
 * The non-blocking collectives of one communicator (see {@link BlockingCollectives} for how a
 * backend provides them). Each returns a request; the call's bracket closes when the method
 * returns, and the request completes the call.
 */
public interface NonBlockingCollectives {

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
}
