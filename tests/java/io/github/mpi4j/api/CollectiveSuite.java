package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.Request;
import mpi.UserFunction;
import mpi.User_function;

/**
 * Every collective, checked against sequential references computed from rank and size: all
 * (op, datatype) pairs for the reductions, arrays and direct buffers, in-place forms, count 0,
 * roots other than 0, uneven v-variants, non-blocking forms, and both API styles.
 */
public class CollectiveSuite {
    private static final boolean[] KINDS = {Holder.ARRAY, Holder.DIRECT};

    private static String what(String call, Op op, Data d, boolean direct, int n) {
        return call + " " + op + " " + d + " " + Holder.kind(direct) + " n=" + n;
    }

    /** allReduce, reduce (root = last rank), iAllReduce and in-place allReduce for every (op, type). */
    @RankTest
    public void reductionsAllOpsAllTypes(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), root = size - 1;
        for (Op op : Reference.OPS) {
            for (Data d : Data.values()) {
                if (!Reference.allowed(op, d)) continue;
                int[] counts = op == MPI.SUM ? new int[] {0, 1, 7, 1000} : new int[] {7};
                for (int n : counts) {
                    Object expected = Reference.fold(op, d, n, 0, size - 1);
                    for (boolean direct : KINDS) {
                        Holder send = new Holder(d, direct, Reference.contribution(op, d, rank, n));
                        Holder recv = new Holder(d, direct, d.newArray(n));
                        comm.allReduce(send.buf, recv.buf, n, d.type, op);
                        Check.arrays(expected, recv.contents(), what("allReduce", op, d, direct, n));

                        Holder rr = new Holder(d, direct, d.newArray(n));
                        comm.reduce(send.buf, rr.buf, n, d.type, op, root);
                        if (rank == root) Check.arrays(expected, rr.contents(), what("reduce", op, d, direct, n));

                        Holder nb = new Holder(d, direct, d.newArray(n));
                        Request r = comm.iAllReduce(send.buf, nb.buf, n, d.type, op);
                        r.waitFor();
                        Check.arrays(expected, nb.contents(), what("iAllReduce", op, d, direct, n));

                        Holder inPlace = new Holder(d, direct, Reference.contribution(op, d, rank, n));
                        comm.allReduce(inPlace.buf, n, d.type, op);
                        Check.arrays(expected, inPlace.contents(), what("allReduce in place", op, d, direct, n));
                    }
                }
            }
        }
    }

    /**
     * Bucketed allReduce (several buffers in one call): buckets of different counts including 0,
     * all arrays, all direct buffers and mixed; some send entries MPI.IN_PLACE; the in-place
     * form; no buckets at all. Bucket b carries the contributions of ranks shifted by b, so a
     * result landing in the wrong bucket is caught.
     */
    @RankTest
    public void bucketedAllReduce(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int[] counts = {5, 0, 1000, 1, 33, 0};
        int nb = counts.length;
        for (Op op : new Op[] {MPI.SUM, MPI.MAX}) {
            for (Data d : new Data[] {Data.INT, Data.DOUBLE, Data.LONG, Data.FLOAT, Data.SHORT}) {
                // layout 0: arrays, 1: direct buffers, 2: alternating, 3: alternating with IN_PLACE sends
                for (int layout = 0; layout < 4; layout++) {
                    Object[] send = new Object[nb];
                    Object[] recv = new Object[nb];
                    Holder[] results = new Holder[nb];
                    for (int b = 0; b < nb; b++) {
                        boolean direct = layout == 1 || layout >= 2 && b % 2 == 1;
                        Object mine = Reference.contribution(op, d, rank + b, counts[b]);
                        if (layout == 3 && b % 3 == 0) {
                            send[b] = MPI.IN_PLACE;
                            results[b] = new Holder(d, direct, mine);
                        } else {
                            send[b] = new Holder(d, direct, mine).buf;
                            results[b] = new Holder(d, direct, d.newArray(counts[b]));
                        }
                        recv[b] = results[b].buf;
                    }
                    comm.allReduce(send, recv, counts, d.type, op);
                    for (int b = 0; b < nb; b++) {
                        Check.arrays(Reference.fold(op, d, counts[b], b, b + size - 1), results[b].contents(),
                                what("bucketed allReduce layout " + layout + " bucket " + b, op, d,
                                        results[b].direct, counts[b]));
                    }

                    // In-place form: every bucket holds its contribution and receives the result.
                    Holder[] bufs = new Holder[nb];
                    Object[] raw = new Object[nb];
                    for (int b = 0; b < nb; b++) {
                        boolean direct = layout == 1 || layout >= 2 && b % 2 == 0;
                        bufs[b] = new Holder(d, direct, Reference.contribution(op, d, rank + 2 * b, counts[b]));
                        raw[b] = bufs[b].buf;
                    }
                    comm.allReduce(raw, counts, d.type, op);
                    for (int b = 0; b < nb; b++) {
                        Check.arrays(Reference.fold(op, d, counts[b], 2 * b, 2 * b + size - 1), bufs[b].contents(),
                                what("bucketed allReduce in place layout " + layout + " bucket " + b, op, d,
                                        bufs[b].direct, counts[b]));
                    }
                }
            }
        }
        // No buckets: a no-op that still has to be called by every rank.
        comm.allReduce(new Object[0], new Object[0], new int[0], MPI.INT, MPI.SUM);
        comm.allReduce(new Object[0], new int[0], MPI.DOUBLE, MPI.SUM);
        // Buckets may share a send buffer (it is only read).
        int[] shared = (int[]) Reference.contribution(MPI.SUM, Data.INT, rank, 4);
        int[] r1 = new int[4], r2 = new int[4];
        comm.allReduce(new Object[] {shared, shared}, new Object[] {r1, r2}, new int[] {4, 4}, MPI.INT, MPI.SUM);
        Object expected = Reference.fold(MPI.SUM, Data.INT, 4, 0, size - 1);
        Check.arrays(expected, r1, "bucketed allReduce shared send buffer, bucket 0");
        Check.arrays(expected, r2, "bucketed allReduce shared send buffer, bucket 1");
    }

    /** scan and exScan (inclusive and exclusive prefix folds). */
    @RankTest
    public void scans(Intracomm comm) {
        int rank = comm.getRank();
        for (Op op : new Op[] {MPI.SUM, MPI.MAX, MPI.BXOR}) {
            for (Data d : new Data[] {Data.INT, Data.LONG, Data.DOUBLE, Data.SHORT}) {
                if (!Reference.allowed(op, d)) continue;
                int n = 5;
                for (boolean direct : KINDS) {
                    Holder send = new Holder(d, direct, Reference.contribution(op, d, rank, n));
                    Holder recv = new Holder(d, direct, d.newArray(n));
                    comm.scan(send.buf, recv.buf, n, d.type, op);
                    Check.arrays(Reference.fold(op, d, n, 0, rank), recv.contents(), what("scan", op, d, direct, n));
                    Holder ex = new Holder(d, direct, d.newArray(n));
                    comm.exScan(send.buf, ex.buf, n, d.type, op);
                    if (rank > 0) {
                        Check.arrays(Reference.fold(op, d, n, 0, rank - 1), ex.contents(),
                                what("exScan", op, d, direct, n));
                    }
                    Holder nb = new Holder(d, direct, d.newArray(n));
                    comm.iScan(send.buf, nb.buf, n, d.type, op).waitFor();
                    Check.arrays(Reference.fold(op, d, n, 0, rank), nb.contents(), what("iScan", op, d, direct, n));
                    Holder inPlace = new Holder(d, direct, Reference.contribution(op, d, rank, n));
                    comm.scan(inPlace.buf, n, d.type, op);
                    Check.arrays(Reference.fold(op, d, n, 0, rank), inPlace.contents(),
                            what("scan in place", op, d, direct, n));
                }
            }
        }
    }

    /** reduceScatterBlock and reduceScatter with uneven counts (some zero). */
    @RankTest
    public void reduceScatters(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        for (Data d : new Data[] {Data.INT, Data.DOUBLE, Data.BYTE}) {
            Op op = MPI.SUM;
            int block = 3;
            int[] counts = new int[size];
            int total = 0;
            for (int i = 0; i < size; i++) {
                counts[i] = (i * 2 + 1) % 4; // 1, 3, 1, 3 ... includes uneven sizes
                total += counts[i];
            }
            int myStart = 0;
            for (int i = 0; i < rank; i++) myStart += counts[i];
            for (boolean direct : KINDS) {
                Object full = Reference.fold(op, d, block * size, 0, size - 1);
                Holder send = new Holder(d, direct, Reference.contribution(op, d, rank, block * size));
                Holder recv = new Holder(d, direct, d.newArray(block));
                comm.reduceScatterBlock(send.buf, recv.buf, block, d.type, op);
                Check.arrays(Reference.slice(d, full, rank * block, block), recv.contents(),
                        what("reduceScatterBlock", op, d, direct, block));

                Object full2 = Reference.fold(op, d, total, 0, size - 1);
                Holder send2 = new Holder(d, direct, Reference.contribution(op, d, rank, total));
                Holder recv2 = new Holder(d, direct, d.newArray(counts[rank]));
                comm.reduceScatter(send2.buf, recv2.buf, counts, d.type, op);
                Check.arrays(Reference.slice(d, full2, myStart, counts[rank]), recv2.contents(),
                        what("reduceScatter", op, d, direct, total));

                Holder inPlace = new Holder(d, direct, Reference.contribution(op, d, rank, total));
                comm.reduceScatter(inPlace.buf, counts, d.type, op);
                Object got = Reference.slice(d, inPlace.contents(), 0, counts[rank]);
                Check.arrays(Reference.slice(d, full2, myStart, counts[rank]), got,
                        what("reduceScatter in place", op, d, direct, total));

                Holder nb = new Holder(d, direct, d.newArray(block));
                comm.iReduceScatterBlock(send.buf, nb.buf, block, d.type, op).waitFor();
                Check.arrays(Reference.slice(d, full, rank * block, block), nb.contents(),
                        what("iReduceScatterBlock", op, d, direct, block));
            }
        }
    }

    /** bcast of every kind from every root; count 0; non-blocking. */
    @RankTest
    public void bcastEveryRoot(Intracomm comm) {
        int size = comm.getSize();
        for (Data d : Data.values()) {
            for (int root = 0; root < size; root++) {
                for (boolean direct : KINDS) {
                    for (int n : new int[] {0, 1, 11, 3000}) {
                        Object expected = d.array(root, n);
                        Holder h = new Holder(d, direct, comm.getRank() == root ? d.array(root, n) : d.newArray(n));
                        comm.bcast(h.buf, n, d.type, root);
                        Check.arrays(expected, h.contents(), "bcast " + d + " root " + root + " n=" + n);
                    }
                }
                Holder h = new Holder(d, true, comm.getRank() == root ? d.array(root, 9) : d.newArray(9));
                comm.iBcast(h.buf, 9, d.type, root).waitFor();
                Check.arrays(d.array(root, 9), h.contents(), "iBcast " + d + " root " + root);
            }
        }
    }

    /** gather, scatter, allGather, allToAll (and non-blocking, in place) with ints and doubles. */
    @RankTest
    public void gatherScatterFamily(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int root = size > 1 ? 1 : 0;
        for (Data d : new Data[] {Data.INT, Data.DOUBLE, Data.CHAR}) {
            for (boolean direct : KINDS) {
                int n = 4;
                // gather: block r of the root's buffer is rank r's data
                Object all = concatOfRanks(d, size, n);
                Holder send = new Holder(d, direct, d.array(rank, n));
                Holder recv = new Holder(d, direct, d.newArray(n * size));
                comm.gather(send.buf, n, d.type, recv.buf, n, d.type, root);
                if (rank == root) Check.arrays(all, recv.contents(), "gather " + d);
                Holder ig = new Holder(d, direct, d.newArray(n * size));
                comm.iGather(send.buf, n, d.type, ig.buf, n, d.type, root).waitFor();
                if (rank == root) Check.arrays(all, ig.contents(), "iGather " + d);
                // gather in place: the root's block is already in place
                Object mine = rank == root ? placed(d, rank, n, size) : d.array(rank, n);
                Holder gp = new Holder(d, direct, mine);
                comm.gather(gp.buf, n, d.type, root);
                if (rank == root) Check.arrays(all, gp.contents(), "gather in place " + d);

                // scatter: rank r gets block r of the root's buffer
                Holder src = new Holder(d, direct, rank == root ? all : d.newArray(n * size));
                Holder part = new Holder(d, direct, d.newArray(n));
                comm.scatter(src.buf, n, d.type, part.buf, n, d.type, root);
                Check.arrays(d.array(rank, n), part.contents(), "scatter " + d);
                Holder ip = new Holder(d, direct, d.newArray(n));
                comm.iScatter(src.buf, n, d.type, ip.buf, n, d.type, root).waitFor();
                Check.arrays(d.array(rank, n), ip.contents(), "iScatter " + d);
                Holder sp = new Holder(d, direct, rank == root ? all : d.newArray(n));
                comm.scatter(sp.buf, n, d.type, root);
                Object got = rank == root ? Reference.slice(d, sp.contents(), root * n, n) : sp.contents();
                Check.arrays(d.array(rank, n), got, "scatter in place " + d);

                // allGather, in place, non-blocking
                Holder ag = new Holder(d, direct, d.newArray(n * size));
                comm.allGather(send.buf, n, d.type, ag.buf, n, d.type);
                Check.arrays(all, ag.contents(), "allGather " + d);
                Holder agp = new Holder(d, direct, placed(d, rank, n, size));
                comm.allGather(agp.buf, n, d.type);
                Check.arrays(all, agp.contents(), "allGather in place " + d);
                Holder iag = new Holder(d, direct, d.newArray(n * size));
                comm.iAllGather(send.buf, n, d.type, iag.buf, n, d.type).waitFor();
                Check.arrays(all, iag.contents(), "iAllGather " + d);

                // allToAll: block j sent by rank r is value(r*size + j, i)
                Object out = d.newArray(n * size);
                for (int j = 0; j < size; j++) System.arraycopy(d.array(rank * size + j, n), 0, out, j * n, n);
                Object expected = d.newArray(n * size);
                for (int r = 0; r < size; r++) System.arraycopy(d.array(r * size + rank, n), 0, expected, r * n, n);
                Holder a2aS = new Holder(d, direct, out);
                Holder a2aR = new Holder(d, direct, d.newArray(n * size));
                comm.allToAll(a2aS.buf, n, d.type, a2aR.buf, n, d.type);
                Check.arrays(expected, a2aR.contents(), "allToAll " + d);
                Holder ia2a = new Holder(d, direct, d.newArray(n * size));
                comm.iAllToAll(a2aS.buf, n, d.type, ia2a.buf, n, d.type).waitFor();
                Check.arrays(expected, ia2a.contents(), "iAllToAll " + d);
            }
        }
    }

    /** All ranks' blocks of {@code n} values, in rank order. */
    private static Object concatOfRanks(Data d, int size, int n) {
        Object all = d.newArray(n * size);
        for (int r = 0; r < size; r++) System.arraycopy(d.array(r, n), 0, all, r * n, n);
        return all;
    }

    /** A buffer of size*n values with only this rank's block filled (for in-place gathers). */
    private static Object placed(Data d, int rank, int n, int size) {
        Object a = d.newArray(n * size);
        System.arraycopy(d.array(rank, n), 0, a, rank * n, n);
        return a;
    }

    /** The v-variants with uneven counts (including zero) and displacements with gaps. */
    @RankTest
    public void vVariants(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int root = size - 1;
        int[] counts = new int[size];
        int[] displs = new int[size];
        int end = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = (r % 3 == 2) ? 0 : r + 1;
            displs[r] = end + 1; // one-element gap before each block
            end = displs[r] + counts[r];
        }
        for (Data d : new Data[] {Data.LONG, Data.FLOAT}) {
            for (boolean direct : KINDS) {
                Object expected = d.newArray(end);
                for (int r = 0; r < size; r++) System.arraycopy(d.array(r, counts[r]), 0, expected, displs[r], counts[r]);
                Holder send = new Holder(d, direct, d.array(rank, counts[rank]));

                Holder g = new Holder(d, direct, d.newArray(end));
                if (rank == root) comm.gatherv(send.buf, counts[rank], d.type, g.buf, counts, displs, d.type, root);
                else comm.gatherv(send.buf, counts[rank], d.type, root);
                if (rank == root) Check.arrays(expected, g.contents(), "gatherv " + d);

                Holder ig = new Holder(d, direct, d.newArray(end));
                comm.iGatherv(send.buf, counts[rank], d.type, ig.buf, counts, displs, d.type, root).waitFor();
                if (rank == root) Check.arrays(expected, ig.contents(), "iGatherv " + d);

                Holder ag = new Holder(d, direct, d.newArray(end));
                comm.allGatherv(send.buf, counts[rank], d.type, ag.buf, counts, displs, d.type);
                Check.arrays(expected, ag.contents(), "allGatherv " + d);

                Object placed = d.newArray(end);
                System.arraycopy(d.array(rank, counts[rank]), 0, placed, displs[rank], counts[rank]);
                Holder agp = new Holder(d, direct, placed);
                comm.allGatherv(agp.buf, counts, displs, d.type);
                Check.arrays(expected, agp.contents(), "allGatherv in place " + d);

                Holder src = new Holder(d, direct, rank == root ? expected : d.newArray(1));
                Holder part = new Holder(d, direct, d.newArray(counts[rank]));
                if (rank == root) comm.scatterv(src.buf, counts, displs, d.type, part.buf, counts[rank], d.type, root);
                else comm.scatterv(part.buf, counts[rank], d.type, root);
                Check.arrays(d.array(rank, counts[rank]), part.contents(), "scatterv " + d);

                // allToAllv: rank r sends (r + j) % 3 items to rank j
                int[] sc = new int[size], sd = new int[size], rc = new int[size], rd = new int[size];
                int sEnd = 0, rEnd = 0;
                for (int j = 0; j < size; j++) {
                    sc[j] = (rank + j) % 3;
                    sd[j] = sEnd;
                    sEnd += sc[j];
                    rc[j] = (j + rank) % 3;
                    rd[j] = rEnd + 2;
                    rEnd = rd[j] + rc[j];
                }
                Object sendData = d.newArray(sEnd);
                for (int j = 0; j < size; j++) {
                    System.arraycopy(d.array(rank * 100 + j, sc[j]), 0, sendData, sd[j], sc[j]);
                }
                Object exp = d.newArray(rEnd);
                for (int j = 0; j < size; j++) System.arraycopy(d.array(j * 100 + rank, rc[j]), 0, exp, rd[j], rc[j]);
                Holder a2s = new Holder(d, direct, sendData);
                Holder a2r = new Holder(d, direct, d.newArray(rEnd));
                comm.allToAllv(a2s.buf, sc, sd, d.type, a2r.buf, rc, rd, d.type);
                Check.arrays(exp, a2r.contents(), "allToAllv " + d);
                Holder ia2r = new Holder(d, direct, d.newArray(rEnd));
                comm.iAllToAllv(a2s.buf, sc, sd, d.type, ia2r.buf, rc, rd, d.type).waitFor();
                Check.arrays(exp, ia2r.contents(), "iAllToAllv " + d);
            }
        }
    }

    /** MINLOC/MAXLOC over every pair type: same-type pairs in arrays, C structs in direct buffers. */
    @RankTest
    public void minlocMaxloc(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int n = 6;
        // value of rank r at item i; ties are frequent so the smaller-index rule is exercised
        java.util.function.IntBinaryOperator value = (r, i) -> ((r * 5 + i * 3) % 4) - 1;
        int[] minV = new int[n], minI = new int[n], maxV = new int[n], maxI = new int[n];
        for (int i = 0; i < n; i++) {
            minV[i] = Integer.MAX_VALUE;
            maxV[i] = Integer.MIN_VALUE;
            for (int r = 0; r < size; r++) {
                int v = value.applyAsInt(r, i);
                if (v < minV[i]) { minV[i] = v; minI[i] = r; }
                if (v > maxV[i]) { maxV[i] = v; maxI[i] = r; }
            }
        }
        Datatype[] pairTypes = {MPI.INT2, MPI.SHORT2, MPI.LONG2, MPI.FLOAT2, MPI.DOUBLE2};
        Data[] pairData = {Data.INT, Data.SHORT, Data.LONG, Data.FLOAT, Data.DOUBLE};
        for (int t = 0; t < pairTypes.length; t++) {
            Data d = pairData[t];
            for (boolean direct : KINDS) {
                Object in = d.newArray(2 * n);
                for (int i = 0; i < n; i++) {
                    d.set(in, 2 * i, value.applyAsInt(rank, i));
                    d.set(in, 2 * i + 1, rank);
                }
                for (boolean min : new boolean[] {true, false}) {
                    Holder s = new Holder(d, direct, in);
                    Holder r = new Holder(d, direct, d.newArray(2 * n));
                    comm.allReduce(s.buf, r.buf, n, pairTypes[t], min ? MPI.MINLOC : MPI.MAXLOC);
                    Object got = r.contents();
                    for (int i = 0; i < n; i++) {
                        String w = pairTypes[t] + (min ? " MINLOC" : " MAXLOC") + " item " + i + " " + Holder.kind(direct);
                        Check.equal(min ? minV[i] : maxV[i], (long) d.get(got, 2 * i), w + " value");
                        Check.equal(min ? minI[i] : maxI[i], (long) d.get(got, 2 * i + 1), w + " index");
                    }
                }
            }
        }
        // C structs {value; int} with C alignment, in direct ByteBuffers.
        checkValueInt(comm, MPI.DOUBLE_INT, 16, n, value, minV, minI, 'd');
        checkValueInt(comm, MPI.FLOAT_INT, 8, n, value, minV, minI, 'f');
        checkValueInt(comm, MPI.LONG_INT, 16, n, value, minV, minI, 'l');
        checkValueInt(comm, MPI.SHORT_INT, 8, n, value, minV, minI, 's');
    }

    private static void checkValueInt(Intracomm comm, Datatype type, int extent, int n,
                                      java.util.function.IntBinaryOperator value, int[] minV, int[] minI, char k) {
        int rank = comm.getRank();
        int idxOff = k == 'd' || k == 'l' ? 8 : 4;
        ByteBuffer s = ByteBuffer.allocateDirect(extent * n).order(ByteOrder.nativeOrder());
        for (int i = 0; i < n; i++) {
            int v = value.applyAsInt(rank, i);
            int at = i * extent;
            if (k == 'd') s.putDouble(at, v);
            else if (k == 'f') s.putFloat(at, v);
            else if (k == 'l') s.putLong(at, v);
            else s.putShort(at, (short) v);
            s.putInt(at + idxOff, rank);
        }
        ByteBuffer r = ByteBuffer.allocateDirect(extent * n).order(ByteOrder.nativeOrder());
        comm.allReduce(s, r, n, type, MPI.MINLOC);
        for (int i = 0; i < n; i++) {
            int at = i * extent;
            double v = k == 'd' ? r.getDouble(at) : k == 'f' ? r.getFloat(at) : k == 'l' ? r.getLong(at) : r.getShort(at);
            Check.equal(minV[i], (long) v, type + " MINLOC value " + i);
            Check.equal(minI[i], r.getInt(at + idxOff), type + " MINLOC index " + i);
        }
    }

    /**
     * A user op that is associative but not commutative: composition of affine maps
     * x -> a*x + b stored as (a, b) pairs; (p op q) = q after p. Results must follow rank order.
     * Both the Open MPI and the mpiJava style of user function.
     */
    @RankTest
    public void userOps(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int n = 5;
        Op openMpiStyle = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                compose((int[]) in, 0, (int[]) inOut, 0, count);
            }
        }, false);
        Op mpiJavaStyle = new Op(new User_function() {
            @Override
            public void Call(Object in, int inOff, Object inOut, int inOutOff, int count, Datatype type) {
                compose((int[]) in, inOff, (int[]) inOut, inOutOff, count);
            }
        }, false);
        int[] expected;
        int[] acc = affine(0, n);
        for (int r = 1; r < size; r++) {
            int[] next = affine(r, n);
            compose(acc, 0, next, 0, 2 * n);
            acc = next;
        }
        expected = acc;
        int[] mine = affine(rank, n);
        for (Op op : new Op[] {openMpiStyle, mpiJavaStyle}) {
            int[] out = new int[2 * n];
            comm.allReduce(mine, out, 2 * n, MPI.INT, op);
            Check.arrays(expected, out, "user op allReduce");
            IntBuffer ib = MPI.newIntBuffer(2 * n);
            IntBuffer src = MPI.newIntBuffer(2 * n).put(mine);
            comm.reduce(src, ib, 2 * n, MPI.INT, op, 0);
            if (rank == 0) {
                int[] got = new int[2 * n];
                ib.get(0, got);
                Check.arrays(expected, got, "user op reduce, direct buffers");
            }
        }
    }

    /**
     * Issue 7 item 6: 10,000 user ops created and freed. Op number i combines x and y as
     * x + y + i (associative and commutative), so a result computed with another op's function
     * (a reused native slot pointing at the wrong op) is wrong. Every 64th op (157 in all, more
     * than the MPI backend's 128 slots) is used in an allReduce checked against the reference; some are freed while an iAllReduce using them is
     * pending (MPI allows it). The backend's count of live native user ops returns to where it
     * started; double free and use after free throw.
     */
    @RankTest
    public void userOpsCreatedAndFreed(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int n = 3;
        int liveBefore = io.github.mpi4j.Mpi4j.liveUserOps();
        int[] mine = new int[n];
        for (int j = 0; j < n; j++) mine[j] = 3 * rank + j;
        for (int i = 0; i < 10_000; i++) {
            Op op = offsetSum(i);
            if (i % 64 == 0) {
                int[] out = new int[n];
                boolean pending = i % 320 == 0;
                Request req = pending ? comm.iAllReduce(mine, out, n, MPI.INT, op) : null;
                if (!pending) comm.allReduce(mine, out, n, MPI.INT, op);
                op.free();
                if (pending) {
                    // Another op used while the freed one is still pending must not take its
                    // place: the pending reduction has to keep calling its own function.
                    Op other = offsetSum(-i);
                    int[] otherOut = new int[n];
                    comm.allReduce(mine, otherOut, n, MPI.INT, other);
                    other.free();
                    Check.equal((long) (3 * size * (size - 1) / 2 - (size - 1) * i), (long) otherOut[0],
                            "op " + -i + " allReduce while op " + i + " is pending");
                    req.waitFor();
                }
                for (int j = 0; j < n; j++) {
                    // sum over ranks of (3r + j), plus i for each of the size-1 combinations
                    int expected = 3 * size * (size - 1) / 2 + size * j + (size - 1) * i;
                    Check.equal((long) expected, (long) out[j], "op " + i + " allReduce item " + j);
                }
            } else {
                op.free();
            }
            Check.isTrue(op.isNull(), "a freed op is null");
        }
        Check.equal((long) liveBefore, (long) io.github.mpi4j.Mpi4j.liveUserOps(), "live user ops after 10,000 freed");

        Op op = offsetSum(7);
        op.free();
        Check.throwsMpi(MPI.ERR_OP, op::free, "freed");
        Check.throwsMpi(MPI.ERR_OP, () -> comm.allReduce(mine, new int[n], n, MPI.INT, op), "freed");
        Check.throwsMpi(MPI.ERR_OP, () -> comm.iAllReduce(mine, new int[n], n, MPI.INT, op), "freed");
        Check.throwsMpi(MPI.ERR_OP, MPI.SUM::free, "predefined");
    }

    /**
     * Live user ops: on the MPI backend there is a limit, reported with an MPIException that
     * names it (on every rank alike, before any rank enters MPI); freeing them all makes room
     * again. The fabric keeps no native state per op and has no limit.
     */
    @RankTest
    public void userOpsLiveLimit(Intracomm comm) {
        int size = comm.getSize();
        int liveBefore = io.github.mpi4j.Mpi4j.liveUserOps();
        java.util.List<Op> live = new java.util.ArrayList<>();
        int[] in = {1}, out = new int[1];
        mpi.MPIException refused = null;
        for (int i = 0; i < 200 && refused == null; i++) {
            Op op = offsetSum(i);
            try {
                comm.allReduce(in, out, 1, MPI.INT, op);
                Check.equal((long) size + (long) (size - 1) * i, (long) out[0], "live op " + i);
                live.add(op);
            } catch (mpi.MPIException e) {
                refused = e;
                op.free();
            }
        }
        boolean mpiBackend = "mpi".equals(io.github.mpi4j.Mpi4j.backendName());
        if (mpiBackend) {
            Check.isTrue(refused != null, "the MPI backend limits live user ops");
            Check.equal((long) MPI.ERR_OP, (long) refused.getErrorClass(), "error class of the limit");
            int limit = live.size() + liveBefore;
            Check.isTrue(limit >= 64, "at least 64 live user ops, got " + limit);
            Check.isTrue(refused.getMessage().contains(Integer.toString(limit))
                    && refused.getMessage().contains("free"), "message names the limit: " + refused.getMessage());
        } else {
            Check.isTrue(refused == null, "no limit on live user ops: " + refused);
        }
        for (Op op : live) op.free();
        Check.equal((long) liveBefore, (long) io.github.mpi4j.Mpi4j.liveUserOps(), "live user ops after freeing");
        Op again = offsetSum(5);
        comm.allReduce(in, out, 1, MPI.INT, again);
        Check.equal((long) size + (long) (size - 1) * 5, (long) out[0], "an op after freeing the others");
        again.free();
    }

    /** x op y = x + y + k, item by item. */
    private static Op offsetSum(int k) {
        return new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                int[] a = (int[]) in, b = (int[]) inOut;
                for (int j = 0; j < count; j++) b[j] = a[j] + b[j] + k;
            }
        }, true);
    }

    /** Rank r's maps: item i is x -> (r + 2) * x + (10 r + i). */
    private static int[] affine(int rank, int n) {
        int[] a = new int[2 * n];
        for (int i = 0; i < n; i++) {
            a[2 * i] = rank + 2;
            a[2 * i + 1] = 10 * rank + i;
        }
        return a;
    }

    /** inout = inout after in, pairwise: (a2*a1, a2*b1 + b2). */
    private static void compose(int[] in, int inOff, int[] inOut, int outOff, int ints) {
        for (int k = 0; k + 1 < ints; k += 2) {
            int a1 = in[inOff + k], b1 = in[inOff + k + 1];
            int a2 = inOut[outOff + k], b2 = inOut[outOff + k + 1];
            inOut[outOff + k] = a2 * a1;
            inOut[outOff + k + 1] = a2 * b1 + b2;
        }
    }

    /** mpiJava 1.2 names with offsets. */
    @RankTest
    public void mpiJavaCollectives(Intracomm comm) {
        int size = comm.Size(), rank = comm.Rank();
        double[] b = new double[6];
        if (rank == 0) for (int i = 0; i < 3; i++) b[2 + i] = 1.5 * i;
        comm.Bcast(b, 2, 3, MPI.DOUBLE, 0);
        Check.arrays(new double[] {0, 0, 0, 1.5, 3.0, 0}, b, "Bcast with offset");
        int[] s = {0, rank + 1, 2 * rank};
        int[] r = new int[4];
        comm.Allreduce(s, 1, r, 2, 2, MPI.INT, MPI.SUM);
        Check.equal(size * (size + 1) / 2, r[2], "Allreduce offset [2]");
        Check.equal((long) size * (size - 1), r[3], "Allreduce offset [3]");
        int[] g = new int[size + 1];
        comm.Allgather(s, 1, 1, MPI.INT, g, 1, 1, MPI.INT);
        for (int i = 0; i < size; i++) Check.equal(i + 1, g[i + 1], "Allgather offset");
        int[] red = new int[1];
        comm.Reduce(s, 1, red, 0, 1, MPI.INT, MPI.MAX, 0);
        if (rank == 0) Check.equal(size, red[0], "Reduce MAX");
        comm.Barrier();
        int[] sc = new int[1];
        comm.Scan(s, 1, sc, 0, 1, MPI.INT, MPI.SUM);
        Check.equal((rank + 1) * (rank + 2) / 2, sc[0], "Scan");
        Object[] objs = {"r" + rank};
        Object[] all = new Object[size];
        comm.Allgather(objs, 0, 1, MPI.OBJECT, all, 0, 1, MPI.OBJECT);
        for (int i = 0; i < size; i++) Check.equal("r" + i, all[i], "Allgather of objects");
        Object[] gathered = new Object[size];
        comm.Gather(objs, 0, 1, MPI.OBJECT, gathered, 0, 1, MPI.OBJECT, size - 1);
        if (rank == size - 1) for (int i = 0; i < size; i++) Check.equal("r" + i, gathered[i], "Gather of objects");
    }

    /** Non-blocking collectives overlapping each other, completed together. */
    @RankTest
    public void nonBlockingTogether(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        DoubleBuffer a = MPI.newDoubleBuffer(3);
        DoubleBuffer sum = MPI.newDoubleBuffer(3);
        a.put(0, rank).put(1, 1).put(2, -rank);
        int[] bc = new int[2];
        if (rank == 0) { bc[0] = 17; bc[1] = 19; }
        Request[] rs = {comm.iAllReduce(a, sum, 3, MPI.DOUBLE, MPI.SUM), comm.iBcast(bc, 2, MPI.INT, 0), comm.iBarrier()};
        Request.waitAll(rs);
        Check.near(size * (size - 1) / 2.0, sum.get(0), 0, "iAllReduce [0]");
        Check.near(size, sum.get(1), 0, "iAllReduce [1]");
        Check.arrays(new int[] {17, 19}, bc, "iBcast");
    }
    /**
     * MPI.OBJECT reductions with a non-commutative user op (string concatenation in rank order):
     * reduce to the last rank and allReduce, checked against the concatenation computed here.
     */
    @RankTest
    public void objectReductions(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        mpi.Op concat = new mpi.Op(new mpi.UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, mpi.Datatype type) {
                Object[] a = (Object[]) in, b = (Object[]) inOut;
                for (int i = 0; i < count; i++) b[i] = (String) a[i] + b[i];
            }
        }, false);
        StringBuilder expect0 = new StringBuilder(), expect1 = new StringBuilder();
        for (int r = 0; r < size; r++) {
            expect0.append("a").append(r);
            expect1.append("b").append(r);
        }
        Object[] mine = {"a" + rank, "b" + rank};
        Object[] out = new Object[2];
        comm.allReduce(mine, out, 2, MPI.OBJECT, concat);
        Check.arrays(new Object[] {expect0.toString(), expect1.toString()}, out, "object allReduce");
        Object[] atRoot = new Object[2];
        comm.reduce(mine, atRoot, 2, MPI.OBJECT, concat, size - 1);
        if (rank == size - 1) {
            Check.arrays(new Object[] {expect0.toString(), expect1.toString()}, atRoot, "object reduce");
        }
        concat.free();
    }

    /**
     * Reductions whose receive buffer starts a few bytes past the send buffer modulo 4 KiB, where
     * the MPI backend copies the send buffer over and reduces in place (4K aliasing,
     * mpi4j_mpi_coll.c): two slices of one direct buffer at byte gaps inside and outside that
     * window (and one where ranks differ), doubles and ints, a contiguous derived type and a
     * vector whose holes must stay untouched, allReduce, reduce to the last rank, scan and exScan
     * (rank 0's buffer untouched), and their non-blocking forms for doubles and ints (which stay
     * as they are: Open MPI's libnbc chooses its algorithm by MPI_IN_PLACE too, so a mixed layout
     * gone in place on some ranks failed with MPI_ERR_TRUNCATE at 4 ranks); and two arrays
     * allocated one after the other, which a JVM usually places 16 bytes apart that way. Every
     * value against the sum computed here.
     */
    @RankTest
    public void reductionsIntoBuffersJustPastTheSend(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), root = size - 1;
        Datatype triple = Datatype.createContiguous(3, MPI.DOUBLE);
        triple.commit();
        Datatype everyOther = Datatype.createVector(2, 1, 2, MPI.DOUBLE); // values 0 and 2 of 3: a hole between
        everyOther.commit();
        final int mixed = -1; // even ranks 16 bytes past, odd ones 80: some go in place, some not
        String[] calls = {"allReduce", "reduce", "scan", "exScan", "iAllReduce", "iReduce", "iScan"};
        for (int gapCase : new int[] {8, 16, 40, 63 * 8, 4096 + 16, mixed}) {
            int gap = gapCase != mixed ? gapCase : rank % 2 == 0 ? 16 : 80;
            for (int n : new int[] {1, 700, 20_000}) {
                for (Datatype type : new Datatype[] {MPI.DOUBLE, MPI.INT, triple, everyOther}) {
                    int per = type == triple || type == everyOther ? 3 : 1; // values an element spans
                    int width = type == MPI.INT ? 4 : 8, values = n * per;
                    int bytes = values * width;
                    ByteBuffer whole = ByteBuffer.allocateDirect(2 * bytes + 2 * 4096 + gap).order(ByteOrder.nativeOrder());
                    int sendAt = 0, recvAt = (bytes + 4095) / 4096 * 4096 + gap;
                    ByteBuffer send = whole.duplicate().position(sendAt).limit(sendAt + bytes).slice().order(ByteOrder.nativeOrder());
                    for (String call : calls) {
                        if (call.startsWith("i") && per != 1) continue; // non-blocking: doubles and ints
                        ByteBuffer recv = whole.duplicate().position(recvAt).limit(recvAt + bytes).slice().order(ByteOrder.nativeOrder());
                        for (int v = 0; v < values; v++) {
                            put(send, width, v, rank * 1000 + v);
                            put(recv, width, v, -7); // what a hole, and exScan's rank 0, must keep
                        }
                        // The ranks whose contributions make this rank's result: 0 to last.
                        int last = size - 1;
                        switch (call) {
                            case "allReduce": comm.allReduce(send, recv, n, type, MPI.SUM); break;
                            case "reduce": comm.reduce(send, recv, n, type, MPI.SUM, root); break;
                            case "scan": comm.scan(send, recv, n, type, MPI.SUM); last = rank; break;
                            case "exScan": comm.exScan(send, recv, n, type, MPI.SUM); last = rank - 1; break;
                            case "iAllReduce": comm.iAllReduce(send, recv, n, type, MPI.SUM).waitFor(); break;
                            case "iReduce": comm.iReduce(send, recv, n, type, MPI.SUM, root).waitFor(); break;
                            default: comm.iScan(send, recv, n, type, MPI.SUM).waitFor(); last = rank;
                        }
                        if ((call.equals("reduce") || call.equals("iReduce")) && rank != root) continue;
                        long ranks = last + 1, rankSum = (long) last * ranks / 2;
                        for (int v = 0; v < values; v++) {
                            boolean hole = type == everyOther && v % 3 == 1;
                            long want = hole || ranks == 0 ? -7 : 1000L * rankSum + ranks * v;
                            long got = width == 4 ? recv.getInt(v * 4) : (long) recv.getDouble(v * 8);
                            if (got != want) {
                                Check.equal(want, got, call + " gap=" + gap + " n=" + n + " type=" + per + "x" + width
                                        + " value " + v);
                            }
                        }
                    }
                }
            }
        }
        triple.free();
        everyOther.free();
        // In place at the root, first and last: MPICH 4.0's own MPI_Reduce crashed on this.
        for (int n : new int[] {1, 777, 100_000}) {
            for (int root2 : new int[] {0, size - 1}) {
                int[] mine = new int[n];
                for (int v = 0; v < n; v++) mine[v] = rank * 1000 + v;
                if (rank == root2) comm.reduce(MPI.IN_PLACE, mine, n, MPI.INT, MPI.SUM, root2);
                else comm.reduce(mine, null, n, MPI.INT, MPI.SUM, root2);
                for (int v = 0; rank == root2 && v < n; v++) {
                    int want = 1000 * size * (size - 1) / 2 + size * v;
                    if (mine[v] != want) Check.equal(want, mine[v], "reduce in place at " + root2 + " n=" + n + " value " + v);
                }
            }
        }
        for (int n : new int[] {1, 1000, 600_000}) { // 600,000 doubles (4.8 MB): huge pages on the MPI backend
            double[] a = new double[n], b = new double[n];
            for (int v = 0; v < n; v++) a[v] = rank * 1000 + v;
            comm.allReduce(a, b, n, MPI.DOUBLE, MPI.SUM);
            for (int v = 0; v < n; v++) {
                double want = 1000.0 * size * (size - 1) / 2 + (double) size * v;
                if (b[v] != want) Check.near(want, b[v], 0, "allReduce of adjacent arrays n=" + n + " value " + v);
            }
        }
    }

    private static void put(ByteBuffer b, int width, int index, int value) {
        if (width == 4) b.putInt(index * 4, value);
        else b.putDouble(index * 8, value);
    }
}
