package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.CollectiveOps;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * The collectives of an intercommunicator with derived types that have gaps ({@link EdgePacking}):
 * blocks count the remote group's ranks (gathers, scatters, all-gathers, all-to-alls), the root
 * passes {@code MPI.ROOT} and holds the remote group's blocks, the other ranks of its group pass
 * {@code MPI.PROC_NULL} and hold nothing, and the reduce-scatters' input holds the local group's
 * blocks. Each buffer is packed or unpacked as its role makes it a send or receive buffer; calls
 * without such types go straight through. Non-blocking forms unpack when the request completes.
 */
public final class InterPacking implements CollectiveOps {
    private static final String WHERE = "collectives on an intercommunicator";
    private final CollectiveOps inner;
    private final EdgePacking p;
    private final int remote;
    private final int localSize;
    private final int rank;

    private InterPacking(CollectiveOps inner, EdgePacking p, int remote, int localSize, int rank) {
        this.inner = inner;
        this.p = p;
        this.remote = remote;
        this.localSize = localSize;
        this.rank = rank;
    }

    /** The collectives of intercommunicator {@code c} (remote group of {@code remote} ranks), packing types with gaps. */
    public static CollectiveOps wrap(BackendComm c, CollectiveOps ops, int remote) {
        return new InterPacking(ops, EdgePacking.of(c), remote, c.size(), c.rank());
    }

    private static BackendRequest after(BackendRequest r, EdgePacking.Edge e) {
        return AfterCompletion.of(r, e::back);
    }

    @Override
    public void barrier() {
        inner.barrier();
    }

    @Override
    public BackendRequest iBarrier() {
        return inner.iBarrier();
    }

    private EdgePacking.Edge bcastEdge(Buf buf, int count, TypeDesc type, int root) {
        return root == Mpi.ROOT ? p.send(buf, count, type) : root == Mpi.PROC_NULL ? p.send(null, 0, type)
                : p.recv(buf, count, type);
    }

    @Override
    public void bcast(Buf buf, int count, TypeDesc type, int root) {
        EdgePacking.Edge e = bcastEdge(buf, count, type, root);
        inner.bcast(e.buf(), e.count(count), e.type(), root);
        e.back();
    }

    @Override
    public BackendRequest iBcast(Buf buf, int count, TypeDesc type, int root) {
        EdgePacking.Edge e = bcastEdge(buf, count, type, root);
        return after(inner.iBcast(e.buf(), e.count(count), e.type(), root), e);
    }

    // Reductions: a predefined op reduces the leaf items, packed on every backend.

    @Override
    public void reduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op, int root) {
        EdgePacking.checkOp(op, type, WHERE);
        EdgePacking.Edge se = p.send(s, count, type, true);
        EdgePacking.Edge re = p.recv(r, count, type, true);
        TypeDesc w = se.buf() != s ? se.type() : re.type();
        inner.reduce(se.buf(), re.buf(), se.buf() != s ? se.count(count) : re.count(count), w, op, root);
        re.back();
    }

    @Override
    public BackendRequest iReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op, int root) {
        EdgePacking.checkOp(op, type, WHERE);
        EdgePacking.Edge se = p.send(s, count, type, true);
        EdgePacking.Edge re = p.recv(r, count, type, true);
        TypeDesc w = se.buf() != s ? se.type() : re.type();
        return after(inner.iReduce(se.buf(), re.buf(), se.buf() != s ? se.count(count) : re.count(count), w, op,
                root), re);
    }

    @Override
    public void allReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        EdgePacking.checkOp(op, type, WHERE);
        EdgePacking.Edge se = p.send(s, count, type, true);
        EdgePacking.Edge re = p.recv(r, count, type, true);
        inner.allReduce(se.buf(), re.buf(), se.count(count), se.type(), op);
        re.back();
    }

    @Override
    public BackendRequest iAllReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        EdgePacking.checkOp(op, type, WHERE);
        EdgePacking.Edge se = p.send(s, count, type, true);
        EdgePacking.Edge re = p.recv(r, count, type, true);
        return after(inner.iAllReduce(se.buf(), re.buf(), se.count(count), se.type(), op), re);
    }

    private static int sum(int[] a) {
        long t = 0;
        for (int c : a) t += c;
        return (int) Math.min(Integer.MAX_VALUE, t);
    }

    @Override
    public void reduceScatter(Buf s, Buf r, int[] recvCounts, TypeDesc type, OpDesc op) {
        EdgePacking.checkOp(op, type, WHERE);
        EdgePacking.Edge se = p.send(s, sum(recvCounts), type, true);
        EdgePacking.Edge re = p.recv(r, recvCounts[rank], type, true);
        inner.reduceScatter(se.buf(), re.buf(), se.scale(recvCounts), se.type(), op);
        re.back();
    }

    @Override
    public BackendRequest iReduceScatter(Buf s, Buf r, int[] recvCounts, TypeDesc type, OpDesc op) {
        EdgePacking.checkOp(op, type, WHERE);
        EdgePacking.Edge se = p.send(s, sum(recvCounts), type, true);
        EdgePacking.Edge re = p.recv(r, recvCounts[rank], type, true);
        return after(inner.iReduceScatter(se.buf(), re.buf(), se.scale(recvCounts), se.type(), op), re);
    }

    @Override
    public void reduceScatterBlock(Buf s, Buf r, int recvCount, TypeDesc type, OpDesc op) {
        EdgePacking.checkOp(op, type, WHERE);
        EdgePacking.Edge se = p.send(s, (long) recvCount * localSize, type, true);
        EdgePacking.Edge re = p.recv(r, recvCount, type, true);
        inner.reduceScatterBlock(se.buf(), re.buf(), se.count(recvCount), se.type(), op);
        re.back();
    }

    @Override
    public BackendRequest iReduceScatterBlock(Buf s, Buf r, int recvCount, TypeDesc type, OpDesc op) {
        EdgePacking.checkOp(op, type, WHERE);
        EdgePacking.Edge se = p.send(s, (long) recvCount * localSize, type, true);
        EdgePacking.Edge re = p.recv(r, recvCount, type, true);
        return after(inner.iReduceScatterBlock(se.buf(), re.buf(), se.count(recvCount), se.type(), op), re);
    }

    @Override
    public void scan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        inner.scan(s, r, count, type, op);
    }

    @Override
    public BackendRequest iScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        return inner.iScan(s, r, count, type, op);
    }

    @Override
    public void exScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        inner.exScan(s, r, count, type, op);
    }

    @Override
    public BackendRequest iExScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        return inner.iExScan(s, r, count, type, op);
    }

    // Rooted gathers and scatters: the root's side holds remote-group blocks, PROC_NULL ranks nothing.

    private EdgePacking.Edge none(TypeDesc t) {
        return p.send(null, 0, t);
    }

    @Override
    public void gather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        EdgePacking.Edge se = root >= 0 ? p.send(s, sc, st) : none(st);
        EdgePacking.Edge re = root == Mpi.ROOT ? p.recv(r, (long) rc * remote, rt) : none(rt);
        inner.gather(se.buf(), se.count(sc), se.type(), re.buf(), re.count(rc), re.type(), root);
        re.back();
    }

    @Override
    public BackendRequest iGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        EdgePacking.Edge se = root >= 0 ? p.send(s, sc, st) : none(st);
        EdgePacking.Edge re = root == Mpi.ROOT ? p.recv(r, (long) rc * remote, rt) : none(rt);
        return after(inner.iGather(se.buf(), se.count(sc), se.type(), re.buf(), re.count(rc), re.type(), root), re);
    }

    @Override
    public void gatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt, int root) {
        EdgePacking.Edge se = root >= 0 ? p.send(s, sc, st) : none(st);
        EdgePacking.Edge re = root == Mpi.ROOT ? p.vRecv(r, rcounts, displs, rt) : none(rt);
        inner.gatherv(se.buf(), se.count(sc), se.type(), re.buf(), re.scale(rcounts), re.scale(displs), re.type(),
                root);
        re.back();
    }

    @Override
    public BackendRequest iGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt,
                                   int root) {
        EdgePacking.Edge se = root >= 0 ? p.send(s, sc, st) : none(st);
        EdgePacking.Edge re = root == Mpi.ROOT ? p.vRecv(r, rcounts, displs, rt) : none(rt);
        return after(inner.iGatherv(se.buf(), se.count(sc), se.type(), re.buf(), re.scale(rcounts),
                re.scale(displs), re.type(), root), re);
    }

    @Override
    public void scatter(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        EdgePacking.Edge se = root == Mpi.ROOT ? p.send(s, (long) sc * remote, st) : none(st);
        EdgePacking.Edge re = root >= 0 ? p.recv(r, rc, rt) : none(rt);
        inner.scatter(se.buf(), se.count(sc), se.type(), re.buf(), re.count(rc), re.type(), root);
        re.back();
    }

    @Override
    public BackendRequest iScatter(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        EdgePacking.Edge se = root == Mpi.ROOT ? p.send(s, (long) sc * remote, st) : none(st);
        EdgePacking.Edge re = root >= 0 ? p.recv(r, rc, rt) : none(rt);
        return after(inner.iScatter(se.buf(), se.count(sc), se.type(), re.buf(), re.count(rc), re.type(), root), re);
    }

    @Override
    public void scatterv(Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        EdgePacking.Edge se = root == Mpi.ROOT ? p.vSend(s, scounts, displs, st) : none(st);
        EdgePacking.Edge re = root >= 0 ? p.recv(r, rc, rt) : none(rt);
        inner.scatterv(se.buf(), se.scale(scounts), se.scale(displs), se.type(), re.buf(), re.count(rc), re.type(),
                root);
        re.back();
    }

    @Override
    public BackendRequest iScatterv(Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt,
                                    int root) {
        EdgePacking.Edge se = root == Mpi.ROOT ? p.vSend(s, scounts, displs, st) : none(st);
        EdgePacking.Edge re = root >= 0 ? p.recv(r, rc, rt) : none(rt);
        return after(inner.iScatterv(se.buf(), se.scale(scounts), se.scale(displs), se.type(), re.buf(),
                re.count(rc), re.type(), root), re);
    }

    @Override
    public void allGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        EdgePacking.Edge se = p.send(s, sc, st);
        EdgePacking.Edge re = p.recv(r, (long) rc * remote, rt);
        inner.allGather(se.buf(), se.count(sc), se.type(), re.buf(), re.count(rc), re.type());
        re.back();
    }

    @Override
    public BackendRequest iAllGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        EdgePacking.Edge se = p.send(s, sc, st);
        EdgePacking.Edge re = p.recv(r, (long) rc * remote, rt);
        return after(inner.iAllGather(se.buf(), se.count(sc), se.type(), re.buf(), re.count(rc), re.type()), re);
    }

    @Override
    public void allGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt) {
        EdgePacking.Edge se = p.send(s, sc, st);
        EdgePacking.Edge re = p.vRecv(r, rcounts, displs, rt);
        inner.allGatherv(se.buf(), se.count(sc), se.type(), re.buf(), re.scale(rcounts), re.scale(displs),
                re.type());
        re.back();
    }

    @Override
    public BackendRequest iAllGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt) {
        EdgePacking.Edge se = p.send(s, sc, st);
        EdgePacking.Edge re = p.vRecv(r, rcounts, displs, rt);
        return after(inner.iAllGatherv(se.buf(), se.count(sc), se.type(), re.buf(), re.scale(rcounts),
                re.scale(displs), re.type()), re);
    }

    @Override
    public void allToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        EdgePacking.Edge se = p.send(s, (long) sc * remote, st);
        EdgePacking.Edge re = p.recv(r, (long) rc * remote, rt);
        inner.allToAll(se.buf(), se.count(sc), se.type(), re.buf(), re.count(rc), re.type());
        re.back();
    }

    @Override
    public BackendRequest iAllToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        EdgePacking.Edge se = p.send(s, (long) sc * remote, st);
        EdgePacking.Edge re = p.recv(r, (long) rc * remote, rt);
        return after(inner.iAllToAll(se.buf(), se.count(sc), se.type(), re.buf(), re.count(rc), re.type()), re);
    }

    @Override
    public void allToAllv(Buf s, int[] scounts, int[] sdispls, TypeDesc st, Buf r, int[] rcounts, int[] rdispls,
                          TypeDesc rt) {
        EdgePacking.Edge se = p.vSend(s, scounts, sdispls, st);
        EdgePacking.Edge re = p.vRecv(r, rcounts, rdispls, rt);
        inner.allToAllv(se.buf(), se.scale(scounts), se.scale(sdispls), se.type(), re.buf(), re.scale(rcounts),
                re.scale(rdispls), re.type());
        re.back();
    }

    @Override
    public BackendRequest iAllToAllv(Buf s, int[] scounts, int[] sdispls, TypeDesc st, Buf r, int[] rcounts,
                                     int[] rdispls, TypeDesc rt) {
        EdgePacking.Edge se = p.vSend(s, scounts, sdispls, st);
        EdgePacking.Edge re = p.vRecv(r, rcounts, rdispls, rt);
        return after(inner.iAllToAllv(se.buf(), se.scale(scounts), se.scale(sdispls), se.type(), re.buf(),
                re.scale(rcounts), re.scale(rdispls), re.type()), re);
    }
}
