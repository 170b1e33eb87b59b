package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Topology;
import io.github.mpi4j.spi.TopologyDecorator;
import io.github.mpi4j.spi.TypeDesc;

/**
 * The neighbour collectives of one call with derived types that have gaps ({@link EdgePacking}):
 * the send buffer holds one block (allgather) or one block per destination (alltoall), the
 * receive buffer one block per source, so this view is made per call with this process's in-
 * and out-degree. Non-blocking forms unpack when the request completes.
 */
public final class NeighborPacking extends TopologyDecorator {
    private final EdgePacking p;
    private final int in;
    private final int out;

    private NeighborPacking(Topology inner, EdgePacking p, int in, int out) {
        super(inner);
        this.p = p;
        this.in = in;
        this.out = out;
    }

    /** {@code t} packing derived types with gaps for a process of {@code in} sources and {@code out} destinations. */
    public static Topology wrap(BackendComm c, Topology t, int in, int out) {
        return new NeighborPacking(t, EdgePacking.of(c), in, out);
    }

    @Override
    protected BackendComm made(BackendComm c) {
        return c;
    }

    @Override
    public void neighborAllGather(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int recvCount,
                                  TypeDesc recvType) {
        EdgePacking.Edge s = p.send(sendBuf, sendCount, sendType);
        EdgePacking.Edge r = p.recv(recvBuf, (long) recvCount * in, recvType);
        inner.neighborAllGather(s.buf(), s.count(sendCount), s.type(), r.buf(), r.count(recvCount), r.type());
        r.back();
    }

    @Override
    public BackendRequest iNeighborAllGather(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf,
                                             int recvCount, TypeDesc recvType) {
        EdgePacking.Edge s = p.send(sendBuf, sendCount, sendType);
        EdgePacking.Edge r = p.recv(recvBuf, (long) recvCount * in, recvType);
        return AfterCompletion.of(inner.iNeighborAllGather(s.buf(), s.count(sendCount), s.type(), r.buf(),
                r.count(recvCount), r.type()), r::back);
    }

    @Override
    public void neighborAllGatherv(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int[] recvCounts,
                                   int[] displs, TypeDesc recvType) {
        EdgePacking.Edge s = p.send(sendBuf, sendCount, sendType);
        EdgePacking.Edge r = p.vRecv(recvBuf, recvCounts, displs, recvType);
        inner.neighborAllGatherv(s.buf(), s.count(sendCount), s.type(), r.buf(), r.scale(recvCounts),
                r.scale(displs), r.type());
        r.back();
    }

    @Override
    public BackendRequest iNeighborAllGatherv(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf,
                                              int[] recvCounts, int[] displs, TypeDesc recvType) {
        EdgePacking.Edge s = p.send(sendBuf, sendCount, sendType);
        EdgePacking.Edge r = p.vRecv(recvBuf, recvCounts, displs, recvType);
        return AfterCompletion.of(inner.iNeighborAllGatherv(s.buf(), s.count(sendCount), s.type(), r.buf(),
                r.scale(recvCounts), r.scale(displs), r.type()), r::back);
    }

    @Override
    public void neighborAllToAll(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf, int recvCount,
                                 TypeDesc recvType) {
        EdgePacking.Edge s = p.send(sendBuf, (long) sendCount * out, sendType);
        EdgePacking.Edge r = p.recv(recvBuf, (long) recvCount * in, recvType);
        inner.neighborAllToAll(s.buf(), s.count(sendCount), s.type(), r.buf(), r.count(recvCount), r.type());
        r.back();
    }

    @Override
    public BackendRequest iNeighborAllToAll(Buf sendBuf, int sendCount, TypeDesc sendType, Buf recvBuf,
                                            int recvCount, TypeDesc recvType) {
        EdgePacking.Edge s = p.send(sendBuf, (long) sendCount * out, sendType);
        EdgePacking.Edge r = p.recv(recvBuf, (long) recvCount * in, recvType);
        return AfterCompletion.of(inner.iNeighborAllToAll(s.buf(), s.count(sendCount), s.type(), r.buf(),
                r.count(recvCount), r.type()), r::back);
    }

    @Override
    public void neighborAllToAllv(Buf sendBuf, int[] sendCounts, int[] sendDispls, TypeDesc sendType, Buf recvBuf,
                                  int[] recvCounts, int[] recvDispls, TypeDesc recvType) {
        EdgePacking.Edge s = p.vSend(sendBuf, sendCounts, sendDispls, sendType);
        EdgePacking.Edge r = p.vRecv(recvBuf, recvCounts, recvDispls, recvType);
        inner.neighborAllToAllv(s.buf(), s.scale(sendCounts), s.scale(sendDispls), s.type(), r.buf(),
                r.scale(recvCounts), r.scale(recvDispls), r.type());
        r.back();
    }

    @Override
    public BackendRequest iNeighborAllToAllv(Buf sendBuf, int[] sendCounts, int[] sendDispls, TypeDesc sendType,
                                             Buf recvBuf, int[] recvCounts, int[] recvDispls, TypeDesc recvType) {
        EdgePacking.Edge s = p.vSend(sendBuf, sendCounts, sendDispls, sendType);
        EdgePacking.Edge r = p.vRecv(recvBuf, recvCounts, recvDispls, recvType);
        return AfterCompletion.of(inner.iNeighborAllToAllv(s.buf(), s.scale(sendCounts), s.scale(sendDispls),
                s.type(), r.buf(), r.scale(recvCounts), r.scale(recvDispls), r.type()), r::back);
    }
}
