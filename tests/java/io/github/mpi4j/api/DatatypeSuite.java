package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Derived datatypes (issue 10, item 1): sizes and bounds of every constructor, and the data a
 * type selects moving through point-to-point calls and collectives. References are computed
 * independently: the elements a type selects are listed by hand-written index arithmetic
 * ({@link #vectorIndices} and friends), never by the library.
 */
public class DatatypeSuite {
    private static final int SENTINEL = -7;

    /** Value of element {@code i} of rank {@code r}'s source array. */
    private static int value(int r, int i) {
        return r * 100_000 + i * 7 + 1;
    }

    private static int[] source(int r, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = value(r, i);
        return a;
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        Arrays.fill(a, SENTINEL);
        return a;
    }

    /** Element indices a vector selects, item after item. */
    private static int[] vectorIndices(int items, int count, int block, int stride, int from) {
        int extent = (count - 1) * stride + block;
        int[] idx = new int[items * count * block];
        int k = 0;
        for (int it = 0; it < items; it++) {
            for (int c = 0; c < count; c++) {
                for (int b = 0; b < block; b++) idx[k++] = from + it * extent + c * stride + b;
            }
        }
        return idx;
    }

    private static int[] select(int[] a, int[] idx) {
        int[] r = new int[idx.length];
        for (int i = 0; i < idx.length; i++) r[i] = a[idx[i]];
        return r;
    }

    /** {@code n} sentinels with {@code values} placed at {@code idx}. */
    private static int[] scatterTo(int n, int[] idx, int[] values) {
        int[] r = filled(n);
        for (int i = 0; i < idx.length; i++) r[idx[i]] = values[i];
        return r;
    }

    private static int rank(Intracomm comm) {
        return comm.getRank();
    }

    private static Datatype committed(Datatype t) {
        t.commit();
        return t;
    }

    // ---- constructors: sizes and bounds ------------------------------------------------------

    @RankTest
    public void sizesAndBounds(Intracomm comm) {
        Datatype v = committed(Datatype.createVector(3, 2, 5, MPI.INT));
        Check.equal(6, v.getSize(), "vector size (ints)");
        Check.equal(2 * 5 + 2, v.getExtent(), "vector extent (ints)");
        Check.equal(0, v.getLb(), "vector lb");
        Check.equal(12, v.getTrueExtent(), "vector true extent");

        Datatype hv = committed(Datatype.createHVector(3, 2, 20, MPI.INT));
        Check.equal(12, hv.getExtent(), "hvector extent (ints)");

        Datatype mjHv = committed(Datatype.Hvector(3, 2, 5, MPI.INT)); // mpiJava: stride in elements
        Check.equal(12, mjHv.Extent(), "mpiJava Hvector extent");
        Check.equal(6, mjHv.Size(), "mpiJava Hvector size");

        Datatype c = committed(Datatype.createContiguous(4, v));
        Check.equal(24, c.getSize(), "contiguous of vector size");
        Check.equal(48, c.getExtent(), "contiguous of vector extent");

        Datatype ix = committed(Datatype.createIndexed(new int[] {2, 1, 3}, new int[] {4, 0, 9}, MPI.DOUBLE));
        Check.equal(6, ix.getSize(), "indexed size");
        Check.equal(12, ix.getExtent(), "indexed extent: from 0 to 9 + 3");
        Datatype hix = committed(Datatype.createHIndexed(new int[] {1, 1}, new int[] {8, 24}, MPI.DOUBLE));
        Check.equal(1, hix.getLb(), "hindexed lb (doubles)");
        Check.equal(3, hix.getExtent(), "hindexed extent (doubles)");
        Datatype ib = committed(Datatype.createIndexedBlock(2, new int[] {1, 5}, MPI.INT));
        Check.equal(4, ib.getSize(), "indexed block size");
        Check.equal(6, ib.getExtent(), "indexed block extent: 1 .. 7");
        Check.equal(1, ib.getLb(), "indexed block lb");

        // Open MPI createStruct counts bytes; {int at 0, double x2 at 8}: 20 bytes of data, extent 24.
        Datatype st = committed(Datatype.createStruct(new int[] {1, 2}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE}));
        Check.equal(20, st.getSize(), "struct size (bytes)");
        Check.equal(24, st.getExtent(), "struct extent (bytes)");
        // {double at 0, int at 8}: 12 bytes of data, padded to the double's alignment.
        Datatype padded = committed(Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.DOUBLE, MPI.INT}));
        Check.equal(16, padded.getExtent(), "struct extent padded to 8");
        Check.equal(12, padded.getTrueExtent(), "struct true extent");

        // mpiJava Struct with markers: LB at 0, one int at 2, UB at 5 (in ints).
        Datatype mk = committed(Datatype.Struct(new int[] {1, 1, 1}, new int[] {0, 2, 5},
                new Datatype[] {MPI.LB, MPI.INT, MPI.UB}));
        Check.equal(0, mk.Lb(), "marker lb");
        Check.equal(5, mk.Ub(), "marker ub");
        Check.equal(5, mk.Extent(), "marker extent");
        Check.equal(1, mk.Size(), "marker size");
        Check.equal(2, mk.getTrueLb(), "marker true lb");

        Datatype rs = committed(Datatype.createResized(MPI.INT, 0, 12));
        Check.equal(3, rs.getExtent(), "resized extent (ints)");
        Check.equal(1, rs.getSize(), "resized size");

        Datatype sub = committed(Datatype.createSubarray(new int[] {4, 5}, new int[] {2, 3}, new int[] {1, 1},
                MPI.ORDER_C, MPI.INT));
        Check.equal(6, sub.getSize(), "subarray size");
        Check.equal(20, sub.getExtent(), "subarray extent: the whole array");
        Check.equal(6, sub.getTrueLb(), "subarray true lb: element (1,1)");

        Datatype blk = committed(Datatype.createDarray(4, 1, new int[] {10}, new int[] {MPI.DISTRIBUTE_BLOCK},
                new int[] {MPI.DISTRIBUTE_DFLT_DARG}, new int[] {4}, MPI.ORDER_C, MPI.INT));
        Check.equal(3, blk.getSize(), "darray block: ceil(10/4) items");
        Check.equal(3, blk.getTrueLb(), "darray block true lb");
        Check.equal(10, blk.getExtent(), "darray extent: the whole array");
        // 4x6 array, rows cyclic over 2, columns in blocks of 3 over 2; rank 3 = coords (1,1).
        Datatype cyc = committed(Datatype.createDarray(4, 3, new int[] {4, 6},
                new int[] {MPI.DISTRIBUTE_CYCLIC, MPI.DISTRIBUTE_BLOCK}, new int[] {1, MPI.DISTRIBUTE_DFLT_DARG},
                new int[] {2, 2}, MPI.ORDER_C, MPI.INT));
        Check.equal(24, cyc.getExtent(), "darray 2-D extent");
        byte[] packed = new byte[comm.packSize(1, cyc)];
        comm.pack(source(rank(comm), 24), 1, cyc, packed, 0);
        int[] owned = new int[6];
        comm.unpack(packed, 0, owned, 6, MPI.INT);
        Check.arrays(select(source(rank(comm), 24), new int[] {9, 10, 11, 21, 22, 23}), owned, "darray 2-D elements");
        blk.free();
        cyc.free();

        Datatype d = v.dup();
        Check.equal(v.getExtent(), d.getExtent(), "dup extent");
        d.setName("column");
        Check.equal("column", d.getName(), "name");
        for (Datatype t : new Datatype[] {v, hv, mjHv, c, ix, hix, ib, st, padded, mk, rs, sub, d}) t.free();
        Check.isTrue(v.isNull(), "freed type isNull");
    }

    // ---- point-to-point -----------------------------------------------------------------------

    /** A column of a row-major matrix around a ring, in arrays (mpiJava offsets) and direct buffers. */
    @RankTest
    public void vectorAroundRing(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        int rows = 5, cols = 4, offset = 3;
        Datatype col = committed(Datatype.createVector(rows, 1, cols, MPI.INT));
        int n = offset + rows * cols;
        int[] idx = vectorIndices(1, rows, 1, cols, offset);

        // Vector out, contiguous in.
        int[] in = filled(rows);
        Request r = comm.iSend(Arrays.copyOfRange(source(rank, n), offset, n), 1, col, next, 1);
        comm.recv(in, rows, MPI.INT, prev, 1);
        r.waitFor();
        Check.arrays(select(source(prev, n), idx), in, "vector -> contiguous");

        // mpiJava offsets: contiguous out, vector in (gaps keep their values).
        int[] got = filled(n);
        Request s = comm.Isend(select(source(rank, n), idx), 0, rows, MPI.INT, next, 2);
        Status st = comm.Recv(got, offset, 1, col, prev, 2);
        s.Wait();
        Check.arrays(scatterTo(n, idx, select(source(prev, n), idx)), got, "contiguous -> vector, offset");
        Check.equal(1, st.getCount(col), "count of vectors");
        Check.equal(rows, st.getElements(col), "elements of vector");

        // Direct buffers both sides, vector to vector.
        IntBuffer out = MPI.newIntBuffer(rows * cols);
        out.put(0, source(rank, rows * cols));
        IntBuffer inb = MPI.newIntBuffer(rows * cols);
        inb.put(0, filled(rows * cols));
        Request q = comm.iSend(out, 1, col, next, 3);
        comm.recv(inb, 1, col, prev, 3);
        q.waitFor();
        int[] back = new int[rows * cols];
        inb.get(0, back);
        int[] idx0 = vectorIndices(1, rows, 1, cols, 0);
        Check.arrays(scatterTo(rows * cols, idx0, select(source(prev, rows * cols), idx0)), back, "direct vectors");
        col.free();
    }

    /** Records of an int and two doubles (createStruct) through a direct ByteBuffer, two items. */
    @RankTest
    public void structRecords(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        Datatype rec = committed(Datatype.createStruct(new int[] {1, 2}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE}));
        ByteBuffer out = MPI.newByteBuffer(48).order(ByteOrder.nativeOrder());
        ByteBuffer in = MPI.newByteBuffer(48).order(ByteOrder.nativeOrder());
        for (int i = 0; i < 2; i++) {
            out.putInt(24 * i, rank * 10 + i);
            out.putInt(24 * i + 4, 99); // padding: not part of the type
            out.putDouble(24 * i + 8, rank + 0.5 * i);
            out.putDouble(24 * i + 16, -rank - i);
            in.putInt(24 * i + 4, -1);
        }
        comm.sendRecv(out, 2, rec, next, 4, in, 2, rec, prev, 4);
        for (int i = 0; i < 2; i++) {
            Check.equal(prev * 10 + i, in.getInt(24 * i), "record " + i + " int");
            Check.equal(-1, in.getInt(24 * i + 4), "record " + i + " padding untouched");
            Check.near(prev + 0.5 * i, in.getDouble(24 * i + 8), 0, "record " + i + " d0");
            Check.near(-prev - i, in.getDouble(24 * i + 16), 0, "record " + i + " d1");
        }
        rec.free();
    }

    /** Persistent requests pack the buffer at each start; indexed types with mpiJava offsets. */
    @RankTest
    public void persistentIndexed(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        Datatype ix = committed(Datatype.Indexed(new int[] {2, 1, 3}, new int[] {5, 0, 9}, MPI.INT));
        // Type-map order: 5,6 then 0 then 9,10,11.
        int[] idx = {5, 6, 0, 9, 10, 11};
        int[] out = new int[12];
        int[] in = new int[12];
        Prequest send = comm.sendInit(out, 1, ix, next, 5);
        Prequest recv = comm.recvInit(in, 1, ix, prev, 5);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 12; i++) out[i] = value(rank, i) + round;
            Arrays.fill(in, SENTINEL);
            recv.start();
            send.start();
            send.waitFor();
            recv.waitFor();
            int[] sent = new int[12];
            for (int i = 0; i < 12; i++) sent[i] = value(prev, i) + round;
            Check.arrays(scatterTo(12, idx, select(sent, idx)), in, "round " + round);
        }
        send.free();
        recv.free();
        ix.free();
    }

    /** sendRecvReplace and waitAllStatus with derived types (arrays and direct buffers). */
    @RankTest
    public void replaceAndWaitAll(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        Datatype odd = committed(Datatype.createIndexedBlock(1, new int[] {1, 3, 5}, MPI.INT)); // lb 1, extent 5
        int[] idx = {1, 3, 5};
        int[] buf = source(rank, 7);
        Status st = comm.sendRecvReplace(buf, 1, odd, next, 9, prev, 9);
        int[] want = source(rank, 7);
        for (int i : idx) want[i] = value(prev, i);
        Check.arrays(want, buf, "sendRecvReplace keeps the gaps");
        Check.equal(3, st.getElements(odd), "elements");

        IntBuffer direct = MPI.newIntBuffer(7);
        direct.put(0, filled(7));
        int[] arr = filled(7);
        Request[] rs = {comm.iRecv(direct, 1, odd, prev, 10), comm.iRecv(arr, 1, odd, prev, 11),
            comm.iSend(source(rank, 7), 1, odd, next, 10), comm.iSend(source(rank, 7), 1, odd, next, 11)};
        Status[] sts = Request.waitAllStatus(rs);
        int[] fromDirect = new int[7];
        direct.get(0, fromDirect);
        int[] w = scatterTo(7, idx, select(source(prev, 7), idx));
        Check.arrays(w, fromDirect, "waitAll into a direct buffer");
        Check.arrays(w, arr, "waitAll into an array");
        Check.equal(1, sts[0].getCount(odd), "count direct");
        Check.equal(1, sts[1].getCount(odd), "count array");
        odd.free();
    }

    /** A short message into a derived type: whole items and the leaf elements of a partial one. */
    @RankTest
    public void partialItems(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        Datatype three = committed(Datatype.createContiguous(3, MPI.INT));
        int[] in = filled(9);
        Request r = comm.iSend(source(rank, 7), 7, MPI.INT, next, 6);
        Status s = comm.recv(in, 3, three, prev, 6);
        r.waitFor();
        Check.equal(MPI.UNDEFINED, s.getCount(three), "count of a partial item");
        Check.equal(7, s.getElements(three), "elements");
        int[] want = filled(9);
        System.arraycopy(source(prev, 7), 0, want, 0, 7);
        Check.arrays(want, in, "data");
        three.free();
    }

    /** pack follows the type map; unpack into another layout; packSize counts data only. */
    @RankTest
    public void packAndUnpack(Intracomm comm) {
        int rank = comm.getRank();
        Datatype v = committed(Datatype.createVector(3, 2, 4, MPI.INT));
        Check.equal(2 * 6 * 4, comm.packSize(2, v), "packSize: 2 items of 6 ints");
        byte[] packed = new byte[comm.packSize(2, v)];
        int end = comm.pack(source(rank, 20), 2, v, packed, 0);
        Check.equal(packed.length, end, "position after pack");
        int[] flat = new int[12];
        comm.unpack(packed, 0, flat, 12, MPI.INT);
        Check.arrays(select(source(rank, 20), vectorIndices(2, 3, 2, 4, 0)), flat, "packed order");
        int[] again = filled(20);
        comm.unpack(packed, 0, again, 2, v);
        int[] idx = vectorIndices(2, 3, 2, 4, 0);
        Check.arrays(scatterTo(20, idx, select(source(rank, 20), idx)), again, "unpacked");
        v.free();
    }

    // ---- collectives --------------------------------------------------------------------------

    @RankTest
    public void collectives(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int rows = 3, cols = 4;
        Datatype col = committed(Datatype.createVector(rows, 1, cols, MPI.INT));
        int[] colIdx = vectorIndices(1, rows, 1, cols, 0);
        int root = size - 1;

        // bcast of a column: only the column changes at the other ranks.
        int[] b = rank == root ? source(root, rows * cols) : filled(rows * cols);
        comm.bcast(b, 1, col, root);
        int[] want = rank == root ? source(root, rows * cols)
                : scatterTo(rows * cols, colIdx, select(source(root, rows * cols), colIdx));
        Check.arrays(want, b, "bcast column");

        // allReduce of columns: element-wise sums at the column's places.
        int[] sum = filled(rows * cols);
        comm.allReduce(source(rank, rows * cols), sum, 1, col, MPI.SUM);
        int[] sums = new int[rows];
        for (int r = 0; r < size; r++) {
            int[] s = select(source(r, rows * cols), colIdx);
            for (int i = 0; i < rows; i++) sums[i] += s[i];
        }
        Check.arrays(scatterTo(rows * cols, colIdx, sums), sum, "allReduce columns");

        // Non-blocking reduce to the root, in place at the root.
        int[] red = source(rank, rows * cols);
        Request q = rank == root ? comm.iReduce(MPI.IN_PLACE, red, 1, col, MPI.SUM, root)
                : comm.iReduce(red, null, 1, col, MPI.SUM, root);
        q.waitFor();
        if (rank == root) {
            int[] w = source(root, rows * cols);
            for (int i = 0; i < rows; i++) w[colIdx[i]] = sums[i];
            Check.arrays(w, red, "iReduce in place");
        }

        // gather columns into a contiguous matrix of rows; allGather each rank's row into columns.
        int[] g = rank == root ? filled(size * rows) : null;
        comm.gather(source(rank, rows * cols), 1, col, g, rows, MPI.INT, root);
        if (rank == root) {
            int[] w = new int[size * rows];
            for (int r = 0; r < size; r++) {
                System.arraycopy(select(source(r, rows * cols), colIdx), 0, w, r * rows, rows);
            }
            Check.arrays(w, g, "gather columns");
        }
        // Columns interleaved: a column resized to one int's extent, so rank r's lands at column r.
        Datatype colOfSize = committed(Datatype.createVector(rows, 1, size, MPI.INT));
        Datatype interleaved = committed(Datatype.createResized(colOfSize, 0, 4));
        int[] grid = filled(rows * size);
        comm.allGather(source(rank, rows), rows, MPI.INT, grid, 1, interleaved);
        int[] w = new int[rows * size];
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < rows; i++) w[i * size + r] = value(r, i);
        }
        Check.arrays(w, grid, "allGather into interleaved columns");

        // scatter rows of the root's matrix out as vectors of pairs (mpiJava-style Vector).
        Datatype pairs = committed(Datatype.Vector(2, 1, 2, MPI.INT)); // elements 0 and 2: extent 3
        int[] all = source(root, size * 3);
        int[] mine = filled(2);
        comm.scatter(rank == root ? all : null, 1, pairs, mine, 2, MPI.INT, root);
        Check.arrays(new int[] {value(root, 3 * rank), value(root, 3 * rank + 2)}, mine, "scatter vectors");

        // allToAll: block i of each rank goes to rank i, received through the same vector type.
        int[] a2a = filled(size * 3);
        comm.allToAll(source(rank, size * 3), 1, pairs, a2a, 1, pairs);
        int[] wa = filled(size * 3);
        for (int r = 0; r < size; r++) {
            wa[3 * r] = value(r, 3 * rank);
            wa[3 * r + 2] = value(r, 3 * rank + 2);
        }
        Check.arrays(wa, a2a, "allToAll vectors");

        // gatherv: rank r sends r+1 ints, the root places them as vectors at displacement 2r.
        int[] counts = new int[size], displs = new int[size];
        for (int r = 0; r < size; r++) {
            counts[r] = 1;
            displs[r] = 2 * r;
        }
        int[] gv = rank == root ? filled(size * 6 + 3) : null;
        comm.gatherv(source(rank, 2), 2, MPI.INT, gv, counts, displs, pairs, root);
        if (rank == root) {
            int[] wg = filled(size * 6 + 3);
            for (int r = 0; r < size; r++) {
                wg[6 * r] = value(r, 0);
                wg[6 * r + 2] = value(r, 1);
            }
            Check.arrays(wg, gv, "gatherv vectors");
        }

        // scan of columns.
        int[] sc = filled(rows * cols);
        comm.scan(source(rank, rows * cols), sc, 1, col, MPI.SUM);
        int[] pre = new int[rows];
        for (int r = 0; r <= rank; r++) {
            int[] s = select(source(r, rows * cols), colIdx);
            for (int i = 0; i < rows; i++) pre[i] += s[i];
        }
        Check.arrays(scatterTo(rows * cols, colIdx, pre), sc, "scan columns");
        for (Datatype t : new Datatype[] {col, colOfSize, interleaved, pairs}) t.free();
    }

    /** Non-blocking collectives, allToAllv and reduceLocal with derived types. */
    @RankTest
    public void nonBlockingAndLocal(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int root = 0;
        Datatype every3 = committed(Datatype.createVector(2, 1, 3, MPI.INT)); // ints 0 and 3; extent 4
        int[] idx = vectorIndices(1, 2, 1, 3, 0);

        int[] b = rank == root ? source(root, 4) : filled(4);
        Request rb = comm.iBcast(b, 1, every3, root);
        rb.waitFor();
        Check.arrays(rank == root ? source(root, 4) : scatterTo(4, idx, select(source(root, 4), idx)), b, "iBcast");

        int[] all = filled(4 * size);
        Request ra = comm.iAllGather(source(rank, 4), 1, every3, all, 1, every3);
        ra.waitFor();
        int[] wa = filled(4 * size);
        for (int r = 0; r < size; r++) {
            wa[4 * r] = value(r, 0);
            wa[4 * r + 3] = value(r, 3);
        }
        Check.arrays(wa, all, "iAllGather");

        int[] sum = filled(8);
        Request rs = comm.iAllReduce(source(rank, 8), sum, 2, every3, MPI.MAX);
        rs.waitFor();
        int[] ws = filled(8);
        for (int i : vectorIndices(2, 2, 1, 3, 0)) ws[i] = value(size - 1, i); // values grow with rank
        Check.arrays(ws, sum, "iAllReduce MAX");

        // allToAllv: rank r gets from rank s (s + 1) items of every3 at item displacement 2s.
        int[] sc = new int[size], sd = new int[size], rc = new int[size], rd = new int[size];
        for (int s2 = 0; s2 < size; s2++) {
            sc[s2] = rank + 1;
            sd[s2] = 0;
            rc[s2] = s2 + 1;
            rd[s2] = s2 * (size + 1);
        }
        int items = size * (size + 1);
        int[] got = filled(4 * items);
        comm.allToAllv(source(rank, 4 * (rank + 1)), sc, sd, every3, got, rc, rd, every3);
        int[] wg = filled(4 * items);
        for (int s2 = 0; s2 < size; s2++) {
            for (int k = 0; k <= s2; k++) {
                int at = 4 * (rd[s2] + k);
                wg[at] = value(s2, 4 * k);
                wg[at + 3] = value(s2, 4 * k + 3);
            }
        }
        Check.arrays(wg, got, "allToAllv");

        int[] inout = source(rank + 1, 8);
        mpi.Comm.reduceLocal(source(rank, 8), inout, 2, every3, MPI.SUM);
        int[] wl = source(rank + 1, 8);
        for (int i : vectorIndices(2, 2, 1, 3, 0)) wl[i] = value(rank, i) + value(rank + 1, i);
        Check.arrays(wl, inout, "reduceLocal SUM over the vector, gaps kept");
        every3.free();
    }

    // ---- bad input ----------------------------------------------------------------------------

    @RankTest
    public void badInput(Intracomm comm) {
        int rank = comm.getRank();
        Datatype v = Datatype.createVector(3, 1, 2, MPI.INT);
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[10], 1, v, rank, 1), "not committed");
        v.commit();
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(new int[4], 1, v, rank, 1), "count 1", "needs 5");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(new int[6], 2, 1, v, rank, 1), "from offset 2");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new double[10], 1, v, rank, 1), "double[]");
        Check.throwsMpi(MPI.ERR_ARG, () -> Datatype.createVector(-1, 1, 1, MPI.INT), "count", "-1");
        Check.throwsMpi(MPI.ERR_ARG, () -> Datatype.createVector(2, -3, 1, MPI.INT), "blockLength", "-3");
        Check.throwsMpi(MPI.ERR_ARG, () -> Datatype.createIndexed(new int[] {1, -1}, new int[] {0, 1}, MPI.INT),
                "blockLengths[1]", "-1");
        Check.throwsMpi(MPI.ERR_ARG, () -> Datatype.createIndexed(new int[] {1}, new int[] {0, 1}, MPI.INT),
                "1 entries", "2");
        Check.throwsMpi(MPI.ERR_ARG, () -> Datatype.createSubarray(new int[] {4}, new int[] {3}, new int[] {2},
                MPI.ORDER_C, MPI.INT), "exceeds sizes[0]");
        Check.throwsMpi(MPI.ERR_TYPE, () -> Datatype.createContiguous(2, null), "oldType is null");
        Check.throwsMpi(MPI.ERR_TYPE, () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1},
                new Datatype[] {MPI.INT, MPI.DOUBLE}), "one base type");
        Datatype hv = committed(Datatype.createHVector(2, 1, 6, MPI.INT));
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[10], 1, hv, rank, 1), "multiples of 4");
        hv.free();
        v.free();
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[10], 1, v, rank, 1), "has been freed");
        Check.throwsMpi(MPI.ERR_TYPE, v::free, "freed already");
        Check.throwsMpi(MPI.ERR_TYPE, () -> Datatype.createContiguous(2, v), "has been freed");
        Check.throwsMpi(MPI.ERR_TYPE, () -> MPI.INT.free(), "cannot be freed");
        // Mixed leaves cannot be reduced with a predefined op.
        Datatype st = committed(Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE}));
        Check.throwsMpi(MPI.ERR_OP, () -> comm.allReduce(new byte[16], new byte[16], 1, st, MPI.SUM), "MPI.SUM");
        st.free();
        comm.barrier();
    }

    /** Datatype attributes: set, read, replaced, deleted; not copied by dup; bad keys and freed types refused. */
    @RankTest
    public void datatypeAttributes(Intracomm comm) {
        int key = Datatype.createKeyval();
        Datatype v = committed(Datatype.createVector(2, 1, 3, MPI.INT));
        Check.isTrue(v.getAttr(key) == null, "no value before setAttr");
        String value = "rank " + comm.getRank();
        v.setAttr(key, value);
        Check.equal(value, v.getAttr(key), "value set");
        Datatype copy = v.dup();
        Check.isTrue(copy.getAttr(key) == null, "dup does not copy attributes");
        v.setAttr(key, comm.getSize());
        Check.equal(comm.getSize(), v.getAttr(key), "value replaced");
        v.deleteAttr(key);
        Check.isTrue(v.getAttr(key) == null, "value deleted");
        MPI.INT.setAttr(key, 7);
        Check.equal(7, MPI.INT.getAttr(key), "predefined types hold attributes too");
        MPI.INT.deleteAttr(key);
        Datatype.freeKeyval(key);
        Check.throwsMpi(MPI.ERR_KEYVAL, () -> v.getAttr(key), "keyval " + key);
        Check.throwsMpi(MPI.ERR_KEYVAL, () -> Datatype.freeKeyval(key), "" + key);
        int other = Datatype.createKeyval();
        copy.free();
        Check.throwsMpi(MPI.ERR_TYPE, () -> copy.setAttr(other, 1), "has been freed");
        Datatype.freeKeyval(other);
        v.free();
    }
}
