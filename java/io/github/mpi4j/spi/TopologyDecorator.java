package io.github.mpi4j.spi;

/**
 * A {@link Topology} seen through a layer around a communicator (the device layer, derived-type
 * packing): every call goes to the backend's own capability, and each communicator it makes is
 * handed to {@link #made} so that the layer puts itself around the new communicator too.
 */
public abstract class TopologyDecorator implements Topology {
    protected final Topology inner;

    protected TopologyDecorator(Topology inner) {
        this.inner = inner;
    }

    /** The layer's view of a communicator the backend made (may be null: ranks outside a grid). */
    protected abstract BackendComm made(BackendComm c);

    @Override
    public BackendComm createCart(int[] dims, boolean[] periods, boolean reorder) {
        return made(inner.createCart(dims, periods, reorder));
    }

    @Override
    public BackendComm createGraph(int[] index, int[] edges, boolean reorder) {
        return made(inner.createGraph(index, edges, reorder));
    }

    @Override
    public BackendComm createDistGraphAdjacent(int[] sources, int[] sourceWeights, int[] destinations,
                                               int[] destinationWeights, boolean reorder) {
        return made(inner.createDistGraphAdjacent(sources, sourceWeights, destinations, destinationWeights, reorder));
    }

    @Override
    public void neighborAllGather(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int recvCount,
                                  TypeDesc recvType) {
        inner.neighborAllGather(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
    }

    @Override
    public void neighborAllGatherv(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int[] recvCounts,
                                   int[] displs, TypeDesc recvType) {
        inner.neighborAllGatherv(sendBuf, sendCount, sendType, recvBuf, recvCounts, displs, recvType);
    }

    @Override
    public void neighborAllToAll(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int recvCount,
                                 TypeDesc recvType) {
        inner.neighborAllToAll(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
    }

    @Override
    public void neighborAllToAllv(Buf sendBuf, int[] sendCounts, int[] sendDispls, TypeDesc sendType, Buf recvBuf,
                                  int[] recvCounts, int[] recvDispls, TypeDesc recvType) {
        inner.neighborAllToAllv(sendBuf, sendCounts, sendDispls, sendType, recvBuf, recvCounts, recvDispls, recvType);
    }

    @Override
    public BackendRequest iNeighborAllGather(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf,
                                             int recvCount, TypeDesc recvType) {
        return inner.iNeighborAllGather(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
    }

    @Override
    public BackendRequest iNeighborAllGatherv(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf,
                                              int[] recvCounts, int[] displs, TypeDesc recvType) {
        return inner.iNeighborAllGatherv(sendBuf, sendCount, sendType, recvBuf, recvCounts, displs, recvType);
    }

    @Override
    public BackendRequest iNeighborAllToAll(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf,
                                            int recvCount, TypeDesc recvType) {
        return inner.iNeighborAllToAll(sendBuf, sendCount, sendType, recvBuf, recvCount, recvType);
    }

    @Override
    public BackendRequest iNeighborAllToAllv(Buf sendBuf, int[] sendCounts, int[] sendDispls, TypeDesc sendType,
                                             Buf recvBuf, int[] recvCounts, int[] recvDispls, TypeDesc recvType) {
        return inner.iNeighborAllToAllv(sendBuf, sendCounts, sendDispls, sendType, recvBuf, recvCounts, recvDispls,
                recvType);
    }
}
