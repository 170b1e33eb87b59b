package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.CartComm;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * Issue 10, the remaining gaps of derived datatypes: negative strides, displacements and lower
 * bounds (bounds per the MPI standard, messages that reach below their start, the overrun checks
 * in every direction); struct types over arrays of their leaf kind; derived types with gaps in
 * neighbour and intercommunicator collectives; allToAllw with holes and MPI.IN_PLACE. Every
 * expectation is index arithmetic written here from rank and position, never the library's.
 */
public class NegativeLayoutSuite {
    private static final int S = -7; // sentinel: gaps must keep it

    private static int value(int r, int i) {
        return r * 1000 + i + 1;
    }

    private static int[] source(int r, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = value(r, i);
        return a;
    }

    private static int[] filled(int n) {
        int[] a = new int[n];
        Arrays.fill(a, S);
        return a;
    }

    private static Datatype committed(Datatype t) {
        t.commit();
        return t;
    }

    private static IntBuffer direct(int[] a) {
        IntBuffer b = ByteBuffer.allocateDirect(4 * a.length).order(ByteOrder.nativeOrder()).asIntBuffer();
        b.put(0, a);
        return b;
    }

    private static int[] array(IntBuffer b) {
        int[] a = new int[b.capacity()];
        b.get(0, a);
        return a;
    }

    // ---- bounds --------------------------------------------------------------------------------

    /** Lb, extent, true bounds and size of every constructor with negative strides and displacements. */
    @RankTest
    public void boundsOfNegativeLayouts(Intracomm comm) {
        // Blocks of one int at 0, -2, -4 ints: lb -4, ub 1.
        Datatype v = committed(Datatype.createVector(3, 1, -2, MPI.INT));
        Check.equal(-4, v.getLb(), "vector(3,1,-2) lb");
        Check.equal(5, v.getExtent(), "vector(3,1,-2) extent");
        Check.equal(-4, v.getTrueLb(), "vector(3,1,-2) true lb");
        Check.equal(5, v.getTrueExtent(), "vector(3,1,-2) true extent");
        Check.equal(3, v.getSize(), "vector(3,1,-2) size");
        Check.equal(1, v.Ub(), "vector(3,1,-2) ub");
        // Two ints at bytes 0 and -12: lb -3 ints, ub 2.
        Datatype hv = committed(Datatype.createHVector(2, 2, -12, MPI.INT));
        Check.equal(-3, hv.getLb(), "hvector lb");
        Check.equal(5, hv.getExtent(), "hvector extent");
        Check.equal(4, hv.getSize(), "hvector size");
        // One int at -3, two at 2: lb -3, ub 4.
        Datatype ix = committed(Datatype.createIndexed(new int[] {1, 2}, new int[] {-3, 2}, MPI.INT));
        Check.equal(-3, ix.getLb(), "indexed lb");
        Check.equal(7, ix.getExtent(), "indexed extent");
        Check.equal(3, ix.getSize(), "indexed size");
        Datatype hix = committed(Datatype.createHIndexed(new int[] {1}, new int[] {-8}, MPI.DOUBLE));
        Check.equal(-1, hix.getLb(), "hindexed lb (doubles)");
        Check.equal(1, hix.getExtent(), "hindexed extent");
        Datatype ib = committed(Datatype.createIndexedBlock(1, new int[] {2, -1}, MPI.INT));
        Check.equal(-1, ib.getLb(), "indexed block lb");
        Check.equal(4, ib.getExtent(), "indexed block extent: -1 .. 3");
        Datatype hib = committed(Datatype.createHIndexedBlock(2, new int[] {-8, 0}, MPI.INT));
        Check.equal(-2, hib.getLb(), "hindexed block lb");
        Check.equal(4, hib.getExtent(), "hindexed block extent");
        Check.equal(4, hib.getSize(), "hindexed block size");
        // Open MPI struct counts bytes: ints at -8 and 4 → lb -8, ub 8.
        Datatype st = committed(Datatype.createStruct(new int[] {1, 1}, new int[] {-8, 4},
                new Datatype[] {MPI.INT, MPI.INT}));
        Check.equal(-8, st.getLb(), "struct lb (bytes)");
        Check.equal(16, st.getExtent(), "struct extent (bytes)");
        Check.equal(-8, st.getTrueLb(), "struct true lb");
        Check.equal(8, st.getSize(), "struct size");
        // Resized with a negative lb: the bounds move, the data stay.
        Datatype rs = committed(Datatype.createResized(MPI.INT, -4, 12));
        Check.equal(-1, rs.getLb(), "resized lb (ints)");
        Check.equal(3, rs.getExtent(), "resized extent");
        Check.equal(0, rs.getTrueLb(), "resized true lb");
        Check.equal(1, rs.getTrueExtent(), "resized true extent");
        // mpiJava: LB marker at -3, an int at 0, UB at 6 (elements).
        Datatype lbub = committed(Datatype.Struct(new int[] {1, 1, 1}, new int[] {-3, 0, 6},
                new Datatype[] {MPI.LB, MPI.INT, MPI.UB}));
        Check.equal(-3, lbub.Lb(), "mpiJava Struct Lb");
        Check.equal(6, lbub.Ub(), "mpiJava Struct Ub");
        Check.equal(9, lbub.Extent(), "mpiJava Struct Extent");
        Check.equal(1, lbub.Size(), "mpiJava Struct Size");
        Check.equal(0, lbub.getTrueLb(), "mpiJava Struct true lb");
        Datatype mv = committed(Datatype.Vector(3, 1, -2, MPI.INT));
        Check.equal(-4, mv.Lb(), "mpiJava Vector Lb");
        Check.equal(5, mv.Extent(), "mpiJava Vector Extent");
        Datatype mhv = committed(Datatype.Hvector(2, 1, -3, MPI.INT)); // stride in elements
        Check.equal(-3, mhv.Lb(), "mpiJava Hvector Lb");
        Check.equal(4, mhv.Extent(), "mpiJava Hvector Extent");
        Datatype mix = committed(Datatype.Indexed(new int[] {1, 1}, new int[] {-2, 1}, MPI.INT));
        Check.equal(-2, mix.Lb(), "mpiJava Indexed Lb");
        Check.equal(4, mix.Extent(), "mpiJava Indexed Extent");
        Datatype mhix = committed(Datatype.Hindexed(new int[] {2}, new int[] {-1}, MPI.INT));
        Check.equal(-1, mhix.Lb(), "mpiJava Hindexed Lb");
        Check.equal(2, mhix.Extent(), "mpiJava Hindexed Extent");
        for (Datatype t : new Datatype[] {v, hv, ix, hix, ib, hib, st, rs, lbub, mv, mhv, mix, mhix}) t.free();
        comm.barrier();
    }

    // ---- messages that reach below their start --------------------------------------------------

    /**
     * A reverse-order vector (stride -1) sent from the last element: the receiver gets the array
     * reversed; received with the reverse type it lands reversed again. mpiJava offsets on arrays
     * and direct buffers, and an Open MPI slice of an array (whose backing array holds the data
     * before it).
     */
    @RankTest
    public void reverseVector(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        int n = 9;
        Datatype rev = committed(Datatype.createVector(n, 1, -1, MPI.INT));
        int[] reversed = new int[n];
        for (int i = 0; i < n; i++) reversed[i] = value(from, n - 1 - i);

        int[] got = filled(n);
        comm.Sendrecv(source(rank, n), n - 1, 1, rev, to, 1, got, 0, n, MPI.INT, from, 1);
        Check.arrays(reversed, got, "reverse vector from offset n-1, received contiguous");

        int[] back = filled(n + 2);
        comm.Sendrecv(source(rank, n), 0, n, MPI.INT, to, 2, back, n, 1, rev, from, 2);
        int[] want = filled(n + 2);
        for (int i = 0; i < n; i++) want[n - i] = value(from, i);
        Check.arrays(want, back, "contiguous received with the reverse vector at offset n");

        IntBuffer d = direct(source(rank, n));
        IntBuffer dGot = direct(filled(n));
        comm.Sendrecv(d, n - 1, 1, rev, to, 3, dGot, 0, n, MPI.INT, from, 3);
        Check.arrays(reversed, array(dGot), "direct buffer, reverse vector from offset n-1");

        // Open MPI style: the slice's element 0 is the array's last element.
        int[] whole = source(rank, n);
        int[] sliceGot = filled(n);
        Request r = comm.iRecv(sliceGot, n, MPI.INT, from, 4);
        comm.send(MPI.slice(whole, n - 1), 1, rev, to, 4);
        r.waitFor();
        Check.arrays(reversed, sliceGot, "slice of an array, reverse vector");
        rev.free();
        comm.barrier();
    }

    /** MPJ Express lbub-style: MPI.LB at -3 elements; items placed one extent apart from the offset. */
    @RankTest
    public void lowerBoundMarker(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        Datatype t = committed(Datatype.Struct(new int[] {1, 1, 1, 1}, new int[] {-3, -2, 1, 6},
                new Datatype[] {MPI.LB, MPI.INT, MPI.INT, MPI.UB}));
        // Item k's data: offset + 9k - 2 and offset + 9k + 1.
        int off = 3, n = 3 + 9 * 2;
        int[] got = filled(4);
        comm.Sendrecv(source(rank, n), off, 2, t, to, 5, got, 0, 4, MPI.INT, from, 5);
        Check.arrays(new int[] {value(from, 1), value(from, 4), value(from, 10), value(from, 13)}, got,
                "two items of the LB/UB struct, sent from offset 3");
        int[] into = filled(n);
        comm.Sendrecv(source(rank, 4), 0, 4, MPI.INT, to, 6, into, off, 2, t, from, 6);
        int[] want = filled(n);
        want[1] = value(from, 0);
        want[4] = value(from, 1);
        want[10] = value(from, 2);
        want[13] = value(from, 3);
        Check.arrays(want, into, "received into two items of the LB/UB struct at offset 3");
        // Collectives: bcast from the last rank and allgather, mpiJava offsets.
        int[] b = rank == size - 1 ? source(rank, n) : filled(n);
        comm.Bcast(b, off, 2, t, size - 1);
        int[] wb = filled(n);
        for (int i : new int[] {1, 4, 10, 13}) wb[i] = value(size - 1, i);
        if (rank == size - 1) wb = source(rank, n);
        Check.arrays(wb, b, "Bcast of the LB/UB struct");
        int[] all = filled(2 * size);
        comm.Allgather(source(rank, n), off, 1, t, all, 0, 2, MPI.INT);
        int[] wa = new int[2 * size];
        for (int p = 0; p < size; p++) {
            wa[2 * p] = value(p, 1);
            wa[2 * p + 1] = value(p, 4);
        }
        Check.arrays(wa, all, "Allgather of one LB/UB struct each");
        t.free();
        comm.barrier();
    }

    /** A negative-stride vector and a negative-lb resized type in reductions and non-blocking calls. */
    @RankTest
    public void negativeTypesInCollectives(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Datatype v = committed(Datatype.createVector(3, 1, -2, MPI.INT)); // data at 0, -2, -4
        int n = 8, off = 4;
        int[] out = filled(n);
        comm.Allreduce(source(rank, n), off, out, off, 1, v, MPI.SUM);
        int[] want = filled(n);
        for (int i : new int[] {0, 2, 4}) {
            long s = 0;
            for (int p = 0; p < size; p++) s += value(p, i);
            want[i] = (int) s;
        }
        Check.arrays(want, out, "Allreduce SUM over the negative-stride vector, gaps kept");
        // Resized to lb -1 int, extent 2: items at off, off+2, ... ; the int is the item's start.
        Datatype rs = committed(Datatype.createResized(MPI.INT, -4, 8));
        int[] g = filled(2 * size + 1);
        comm.Allgather(new int[] {value(rank, 0)}, 0, 1, MPI.INT, g, 1, 1, rs);
        int[] wg = filled(2 * size + 1);
        for (int p = 0; p < size; p++) wg[1 + 2 * p] = value(p, 0);
        Check.arrays(wg, g, "Allgather into a resized type with lb -1 from offset 1");
        IntBuffer d = direct(filled(n));
        Request r = comm.iBcast(d, 0, MPI.INT, 0); // empty, to check nothing breaks
        r.waitFor();
        v.free();
        rs.free();
        comm.barrier();
    }

    // ---- struct types over arrays of their leaf kind ---------------------------------------------

    /** createStruct of INT blocks over an int[] (Open MPI's Transp3 / MPJ's zero1): p2p, bcast, pack. */
    @RankTest
    public void structOverIntArray(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        // Two ints at 0, one at byte 12: extent 16 bytes = 4 ints; data at 0, 1, 3.
        Datatype st = committed(Datatype.createStruct(new int[] {2, 1}, new int[] {0, 12},
                new Datatype[] {MPI.INT, MPI.INT}));
        int[] got = filled(8);
        comm.sendRecv(source(rank, 8), 2, st, to, 7, got, 2, st, from, 7);
        Check.arrays(new int[] {value(from, 0), value(from, 1), S, value(from, 3), value(from, 4), value(from, 5), S,
            value(from, 7)}, got, "two struct items over int[]");
        int[] b = rank == 0 ? source(0, 8) : filled(8);
        comm.bcast(b, 2, st, 0);
        int[] wb = rank == 0 ? source(0, 8) : new int[] {value(0, 0), value(0, 1), S, value(0, 3), value(0, 4),
            value(0, 5), S, value(0, 7)};
        Check.arrays(wb, b, "bcast of struct items over int[]");
        IntBuffer d = direct(filled(8));
        comm.sendRecv(source(rank, 8), 2, st, to, 8, d, 2, st, from, 8);
        Check.arrays(got, array(d), "struct items into a direct IntBuffer");
        // pack / unpack / packSize
        Check.equal(24, comm.packSize(2, st), "packSize of two struct items (bytes)");
        byte[] packed = new byte[24];
        Check.equal(24, comm.pack(source(rank, 8), 2, st, packed, 0), "pack position");
        int[] flat = new int[6];
        comm.unpack(packed, 0, flat, 6, MPI.INT);
        Check.arrays(new int[] {value(rank, 0), value(rank, 1), value(rank, 3), value(rank, 4), value(rank, 5),
            value(rank, 7)}, flat, "packed data in type-map order");
        int[] again = filled(8);
        comm.unpack(packed, 0, again, 2, st);
        Check.arrays(new int[] {value(rank, 0), value(rank, 1), S, value(rank, 3), value(rank, 4), value(rank, 5), S,
            value(rank, 7)}, again, "unpacked into struct items, gaps kept");
        // mpiJava Struct over int[] (base type INT), with a negative displacement.
        Datatype mj = committed(Datatype.Struct(new int[] {1, 1}, new int[] {-1, 2}, new Datatype[] {MPI.INT,
            MPI.INT}));
        int[] mg = filled(2);
        comm.Sendrecv(source(rank, 5), 1, 1, mj, to, 9, mg, 0, 2, MPI.INT, from, 9);
        Check.arrays(new int[] {value(from, 0), value(from, 3)}, mg, "mpiJava Struct over int[] from offset 1");
        byte[] p2 = new byte[8];
        comm.Pack(source(rank, 5), 1, 1, mj, p2, 0);
        int[] u2 = filled(5);
        comm.Unpack(p2, 0, u2, 1, 1, mj);
        Check.arrays(new int[] {value(rank, 0), S, S, value(rank, 3), S}, u2, "mpiJava Pack/Unpack with lb -1");
        st.free();
        mj.free();
        comm.barrier();
    }

    // ---- neighbour collectives with gaps ----------------------------------------------------------

    /** Every neighbour collective, blocking and not, on a periodic ring with a vector type with gaps. */
    @RankTest
    public void neighbourCollectivesWithGaps(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        CartComm ring = comm.createCart(new int[] {size}, new boolean[] {true}, false);
        int[] src = {(rank + size - 1) % size, (rank + 1) % size}; // sources: -1 then +1 in dimension 0
        Datatype eo = committed(Datatype.createVector(3, 1, 2, MPI.INT)); // 0, 2, 4 of 5
        for (int round = 0; round < 4; round++) {
            boolean nb = round % 2 == 1, dir = round >= 2;
            String how = (nb ? "non-blocking " : "") + (dir ? "direct buffers" : "arrays");
            // allGather: one item sent, one per source received.
            int[] out = source(rank, 5);
            Object sb = dir ? direct(out) : out;
            Object rb = dir ? direct(filled(10)) : filled(10);
            Request r = nb ? ring.iNeighborAllGather(sb, 1, eo, rb, 1, eo) : null;
            if (!nb) ring.neighborAllGather(sb, 1, eo, rb, 1, eo);
            else r.waitFor();
            int[] want = filled(10);
            for (int j = 0; j < 2; j++) for (int k : new int[] {0, 2, 4}) want[5 * j + k] = value(src[j], k);
            Check.arrays(want, dir ? array((IntBuffer) rb) : rb, "neighborAllGather, " + how);
            if (size < 3) continue; // with fewer ranks both neighbours are one process: which block is which is ambiguous
            // allToAll: item j goes to destination j (destinations -1, +1); from source j arrives its item for us.
            int[] out2 = source(rank, 10);
            sb = dir ? direct(out2) : out2;
            rb = dir ? direct(filled(10)) : filled(10);
            r = nb ? ring.iNeighborAllToAll(sb, 1, eo, rb, 1, eo) : null;
            if (!nb) ring.neighborAllToAll(sb, 1, eo, rb, 1, eo);
            else r.waitFor();
            want = filled(10);
            // Source j = rank-1 (j=0) sent us its item for its destination +1 (item 1); j=1 its item 0.
            for (int j = 0; j < 2; j++) for (int k : new int[] {0, 2, 4}) want[5 * j + k] = value(src[j], 5 * (1 - j) + k);
            Check.arrays(want, dir ? array((IntBuffer) rb) : rb, "neighborAllToAll, " + how);
            // allGatherv: source 0's item at item 2, source 1's at item 0 of a 3-item buffer.
            rb = dir ? direct(filled(15)) : filled(15);
            sb = dir ? direct(out) : out;
            int[] counts = {1, 1}, displs = {2, 0};
            r = nb ? ring.iNeighborAllGatherv(sb, 1, eo, rb, counts, displs, eo) : null;
            if (!nb) ring.neighborAllGatherv(sb, 1, eo, rb, counts, displs, eo);
            else r.waitFor();
            want = filled(15);
            for (int j = 0; j < 2; j++) for (int k : new int[] {0, 2, 4}) want[5 * displs[j] + k] = value(src[j], k);
            Check.arrays(want, dir ? array((IntBuffer) rb) : rb, "neighborAllGatherv, " + how);
            // allToAllv: send item 1 to dest 0 and item 0 to dest 1; receive at items 0 and 2.
            int[] sdis = {1, 0}, rdis = {0, 2};
            sb = dir ? direct(out2) : out2;
            rb = dir ? direct(filled(15)) : filled(15);
            r = nb ? ring.iNeighborAllToAllv(sb, counts, sdis, eo, rb, counts, rdis, eo) : null;
            if (!nb) ring.neighborAllToAllv(sb, counts, sdis, eo, rb, counts, rdis, eo);
            else r.waitFor();
            want = filled(15);
            // Source j sent us the item it sends to its destination (1 - j): its sdis[1 - j].
            for (int j = 0; j < 2; j++) {
                for (int k : new int[] {0, 2, 4}) want[5 * rdis[j] + k] = value(src[j], 5 * sdis[1 - j] + k);
            }
            Check.arrays(want, dir ? array((IntBuffer) rb) : rb, "neighborAllToAllv, " + how);
        }
        eo.free();
        ring.free();
    }

    // ---- intercommunicator collectives with gaps ----------------------------------------------------

    /** Evens and odds joined by an intercommunicator: all-gather, bcast, gather, all-to-all, allreduce. */
    @RankTest
    public void interCollectivesWithGaps(Intracomm comm) {
        int size = comm.getSize();
        if (size < 2) return;
        int rank = comm.getRank(), color = rank % 2;
        Intracomm local = comm.split(color, rank);
        Intercomm inter = comm.createIntercomm(local, 0, color == 0 ? 1 : 0, 91);
        int me = rank / 2, remote = (size - (1 - color) + 1) / 2;
        Datatype eo = committed(Datatype.createVector(3, 1, 2, MPI.INT));
        int[] k3 = {0, 2, 4};
        for (int round = 0; round < 2; round++) {
            boolean nb = round == 1;
            String how = nb ? " (non-blocking)" : "";
            int[] rb = filled(5 * remote);
            if (nb) inter.iAllGather(source(rank, 5), 1, eo, rb, 1, eo).waitFor();
            else inter.allGather(source(rank, 5), 1, eo, rb, 1, eo);
            int[] want = filled(5 * remote);
            for (int j = 0; j < remote; j++) for (int k : k3) want[5 * j + k] = value(2 * j + 1 - color, k);
            Check.arrays(want, rb, "inter allGather" + how);
            // allToAll: remote rank j's block for us is its item number `me`.
            int[] mine = filled(5 * remote);
            int[] a2a = source(rank, 5 * remote);
            if (nb) inter.iAllToAll(a2a, 1, eo, mine, 1, eo).waitFor();
            else inter.allToAll(a2a, 1, eo, mine, 1, eo);
            want = filled(5 * remote);
            for (int j = 0; j < remote; j++) for (int k : k3) want[5 * j + k] = value(2 * j + 1 - color, 5 * me + k);
            Check.arrays(want, mine, "inter allToAll" + how);
            // allReduce SUM: the remote group's items summed.
            int[] red = filled(5);
            if (nb) inter.iAllReduce(source(rank, 5), red, 1, eo, MPI.SUM).waitFor();
            else inter.allReduce(source(rank, 5), red, 1, eo, MPI.SUM);
            want = filled(5);
            for (int k : k3) {
                long s = 0;
                for (int j = 0; j < remote; j++) s += value(2 * j + 1 - color, k);
                want[k] = (int) s;
            }
            Check.arrays(want, red, "inter allReduce" + how);
        }
        // bcast from the evens' rank 0 to the odds.
        int root = color == 0 ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
        int[] b = color == 0 ? source(rank, 5) : filled(5);
        inter.bcast(b, 1, eo, root);
        int[] wb = color == 0 ? source(rank, 5) : new int[] {value(0, 0), S, value(0, 2), S, value(0, 4)};
        Check.arrays(wb, b, "inter bcast");
        // gather to the odds' rank 0 from the evens.
        int groot = color == 1 ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
        int[] g = filled(5 * remote);
        inter.gather(source(rank, 5), 1, eo, g, 1, eo, groot);
        if (color == 1 && me == 0) {
            int[] wg = filled(5 * remote);
            for (int j = 0; j < remote; j++) for (int k : k3) wg[5 * j + k] = value(2 * j, k);
            Check.arrays(wg, g, "inter gather at the root");
        }
        // scatter from the odds' rank 0: its block j goes to the evens' rank j.
        int sroot = color == 1 ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
        int[] sc = filled(5);
        inter.scatter(source(rank, 5 * remote), 1, eo, sc, 1, eo, sroot);
        if (color == 0) {
            Check.arrays(new int[] {value(1, 5 * me), S, value(1, 5 * me + 2), S, value(1, 5 * me + 4)}, sc,
                    "inter scatter to the evens");
        }
        if (size % 2 == 0) { // groups of one size: block `me` of the remote group's sum comes here
            for (int round = 0; round < 2; round++) {
                int[] rs = filled(5);
                if (round == 0) inter.reduceScatterBlock(source(rank, 5 * remote), rs, 1, eo, MPI.SUM);
                else inter.iReduceScatterBlock(source(rank, 5 * remote), rs, 1, eo, MPI.SUM).waitFor();
                int[] want = filled(5);
                for (int k : k3) {
                    long sum = 0;
                    for (int j = 0; j < remote; j++) sum += value(2 * j + 1 - color, 5 * me + k);
                    want[k] = (int) sum;
                }
                Check.arrays(want, rs, "inter reduceScatterBlock" + (round == 1 ? " (non-blocking)" : ""));
            }
        }
        eo.free();
        inter.free();
        local.free();
        comm.barrier();
    }

    // ---- allToAllw with holes and in place ------------------------------------------------------------

    /** Per-peer types with holes (a vector and a negative-stride vector) and MPI.IN_PLACE, blocking and not. */
    @RankTest
    public void allToAllwHolesAndInPlace(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Datatype eo = committed(Datatype.createVector(2, 1, 2, MPI.INT)); // ints 0 and 2 of 3
        Datatype rev = committed(Datatype.createVector(2, 1, -1, MPI.INT)); // ints 0 and -1
        int n = 4 * size;
        Datatype[] st = new Datatype[size], rt = new Datatype[size];
        int[] ones = new int[size], sd = new int[size], rd = new int[size];
        for (int p = 0; p < size; p++) {
            ones[p] = 1;
            st[p] = eo;
            rt[p] = rev;
            sd[p] = 16 * p; // bytes: block p at int 4p
            rd[p] = 16 * p + 4; // reverse type starts at int 4p + 1
        }
        for (int round = 0; round < 2; round++) {
            int[] rb = filled(n);
            if (round == 0) comm.allToAllw(source(rank, n), ones, sd, st, rb, ones, rd, rt);
            else comm.iAllToAllw(source(rank, n), ones, sd, st, rb, ones, rd, rt).waitFor();
            int[] want = filled(n);
            for (int p = 0; p < size; p++) {
                // p sent its ints 4*rank and 4*rank+2; they land at 4p+1 and 4p.
                want[4 * p + 1] = value(p, 4 * rank);
                want[4 * p] = value(p, 4 * rank + 2);
            }
            Check.arrays(want, rb, "allToAllw with holes" + (round == 1 ? " (non-blocking)" : ""));
        }
        // In place: the block for peer p is read from, and replaced in, the receive buffer with rt[p].
        for (int round = 0; round < 2; round++) {
            int[] buf = source(rank, n);
            if (round == 0) comm.allToAllw(MPI.IN_PLACE, null, null, null, buf, ones, rd, rt);
            else comm.iAllToAllw(MPI.IN_PLACE, null, null, null, buf, ones, rd, rt).waitFor();
            int[] want = source(rank, n);
            for (int p = 0; p < size; p++) {
                // p sent (its 4*rank+1, its 4*rank) in type-map order; they land at 4p+1 and 4p.
                want[4 * p + 1] = value(p, 4 * rank + 1);
                want[4 * p] = value(p, 4 * rank);
            }
            Check.arrays(want, buf, "allToAllw in place" + (round == 1 ? " (non-blocking)" : ""));
        }
        // In place with plain MPI.INT blocks: a transpose.
        int[] t = source(rank, size);
        Datatype[] ints = new Datatype[size];
        int[] bd = new int[size];
        for (int p = 0; p < size; p++) {
            ints[p] = MPI.INT;
            bd[p] = 4 * p;
        }
        comm.allToAllw(MPI.IN_PLACE, null, null, null, t, ones, bd, ints);
        int[] wt = new int[size];
        for (int p = 0; p < size; p++) wt[p] = value(p, rank);
        Check.arrays(wt, t, "allToAllw in place, MPI.INT blocks");
        eo.free();
        rev.free();
        comm.barrier();
    }

    // ---- negative extents: items going downward from the offset -----------------------------------

    /** createResized with extent < 0 and types built from it: bounds as in MPI (Open MPI and MPICH agree). */
    @RankTest
    public void boundsOfNegativeExtents(Intracomm comm) {
        Datatype r = committed(Datatype.createResized(MPI.INT, 0, -4));
        Check.equal(0, r.getLb(), "resized(INT, 0, -4) lb");
        Check.equal(-1, r.getExtent(), "resized(INT, 0, -4) extent");
        Check.equal(-1, r.Ub(), "resized(INT, 0, -4) ub");
        Check.equal(0, r.getTrueLb(), "resized(INT, 0, -4) true lb");
        Check.equal(1, r.getTrueExtent(), "resized(INT, 0, -4) true extent");
        Check.equal(1, r.getSize(), "resized(INT, 0, -4) size");
        Datatype r2 = committed(Datatype.createResized(MPI.INT, -8, -12));
        Check.equal(-2, r2.getLb(), "resized(INT, -8, -12) lb");
        Check.equal(-3, r2.getExtent(), "resized(INT, -8, -12) extent");
        Check.equal(-5, r2.Ub(), "resized(INT, -8, -12) ub");
        // Copies at 0, -4, -8 bytes: lb markers 0, -4, -8 and ub markers -4, -8, -12 give lb -8, ub -4.
        Datatype c = committed(Datatype.createContiguous(3, r));
        Check.equal(-2, c.getLb(), "contiguous(3, r) lb");
        Check.equal(1, c.getExtent(), "contiguous(3, r) extent");
        Check.equal(-2, c.getTrueLb(), "contiguous(3, r) true lb");
        Check.equal(3, c.getTrueExtent(), "contiguous(3, r) true extent");
        // Blocks of two copies 3 extents (-12 bytes) apart: copies at 0, -4, -12, -16.
        Datatype v = committed(Datatype.createVector(2, 2, 3, r));
        Check.equal(-4, v.getLb(), "vector(2, 2, 3, r) lb");
        Check.equal(3, v.getExtent(), "vector(2, 2, 3, r) extent");
        Check.equal(-4, v.getTrueLb(), "vector(2, 2, 3, r) true lb");
        Check.equal(5, v.getTrueExtent(), "vector(2, 2, 3, r) true extent");
        // A subarray's extent is the whole array: 4 x -4 bytes; its items 1 and 2 lie at -4 and -8.
        Datatype sa = committed(Datatype.createSubarray(new int[] {4}, new int[] {2}, new int[] {1}, MPI.ORDER_C, r));
        Check.equal(0, sa.getLb(), "subarray over r lb");
        Check.equal(-4, sa.getExtent(), "subarray over r extent");
        Check.equal(-2, sa.getTrueLb(), "subarray over r true lb");
        Check.equal(2, sa.getTrueExtent(), "subarray over r true extent");
        // A struct with a gap (ints at bytes 0 and 8) resized to -12 bytes; two of them in a row.
        Datatype s = committed(Datatype.createResized(Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.INT}), 0, -12));
        Check.equal(-12, s.getExtent(), "resized struct extent (bytes)");
        Check.equal(12, s.getTrueExtent(), "resized struct true extent (bytes)");
        Datatype s2 = committed(Datatype.createContiguous(2, s)); // counts ints: its leaves are ints
        Check.equal(-3, s2.getLb(), "contiguous(2, resized struct) lb");
        Check.equal(0, s2.getExtent(), "contiguous(2, resized struct) extent");
        Check.equal(-3, s2.getTrueLb(), "contiguous(2, resized struct) true lb");
        Check.equal(6, s2.getTrueExtent(), "contiguous(2, resized struct) true extent");
        Check.equal(4, s2.getSize(), "contiguous(2, resized struct) size");
        // mpiJava Struct: MPI.UB below MPI.LB is a negative extent by MPI-1's definition (ub - lb).
        Datatype mj = committed(Datatype.Struct(new int[] {1, 1, 1}, new int[] {4, 0, 0},
                new Datatype[] {MPI.LB, MPI.INT, MPI.UB}));
        Check.equal(4, mj.Lb(), "mpiJava Struct Lb");
        Check.equal(0, mj.Ub(), "mpiJava Struct Ub");
        Check.equal(-4, mj.Extent(), "mpiJava Struct Extent");
        Check.equal(1, mj.Size(), "mpiJava Struct Size");
        Check.equal(0, mj.getTrueLb(), "mpiJava Struct true lb");
        for (Datatype t : new Datatype[] {r, r2, c, v, sa, s, s2, mj}) t.free();
        comm.barrier();
    }

    /** Item k of resized(INT, 0, -4) is element offset - k: sent from offset n - 1, n items go backwards. */
    @RankTest
    public void reverseByNegativeExtent(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        int n = 7;
        Datatype t = committed(Datatype.createResized(MPI.INT, 0, -4));
        int[] reversed = new int[n];
        for (int i = 0; i < n; i++) reversed[i] = value(from, n - 1 - i);

        int[] got = filled(n);
        comm.Sendrecv(source(rank, n), n - 1, n, t, to, 11, got, 0, n, MPI.INT, from, 11);
        Check.arrays(reversed, got, "array, mpiJava offset n-1, received as plain ints");
        int[] into = filled(n + 1);
        mpi.Status st = comm.Sendrecv(source(rank, n), 0, n, MPI.INT, to, 12, into, n, n + 1, t, from, 12);
        int[] want = filled(n + 1);
        for (int i = 0; i < n; i++) want[n - i] = value(from, i);
        Check.arrays(want, into, "plain ints received with the negative extent from offset n (one item spare)");
        Check.equal(n, st.getCount(t), "getCount in items of the negative-extent type");
        Check.equal(n, st.getElements(t), "getElements of the negative-extent type");

        // Direct buffers, mpiJava offset, blocking and non-blocking.
        IntBuffer d = direct(source(rank, n));
        int[] dGot = filled(n);
        comm.Sendrecv(d, n - 1, n, t, to, 13, dGot, 0, n, MPI.INT, from, 13);
        Check.arrays(reversed, dGot, "direct buffer, offset n-1");
        IntBuffer dIn = direct(filled(n));
        Request rq = comm.Irecv(dIn, n - 1, n, t, from, 14);
        comm.Isend(source(rank, n), 0, n, MPI.INT, to, 14).waitFor();
        rq.waitFor();
        Check.arrays(reversed, array(dIn), "non-blocking receive into a direct buffer from offset n-1");

        // Open MPI style: slices of an array and of a direct buffer reach below their start.
        int[] sGot = filled(n);
        Request r1 = comm.iRecv(sGot, n, MPI.INT, from, 15);
        comm.iSend(MPI.slice(source(rank, n), n - 1), n, t, to, 15).waitFor();
        r1.waitFor();
        Check.arrays(reversed, sGot, "iSend of an array slice");
        int[] bGot = filled(n);
        Request r2 = comm.iRecv(bGot, n, MPI.INT, from, 16);
        comm.send(MPI.slice(direct(source(rank, n)), n - 1), n, t, to, 16);
        r2.waitFor();
        Check.arrays(reversed, bGot, "send of a direct buffer slice");

        // Persistent: packed again at each start.
        int[] src = source(rank, n);
        mpi.Prequest ps = comm.Send_init(src, n - 1, n, t, to, 17);
        for (int round = 0; round < 2; round++) {
            int[] pg = filled(n);
            Request pr = comm.Irecv(pg, 0, n, MPI.INT, from, 17);
            ps.start();
            ps.waitFor();
            pr.waitFor();
            int[] w = new int[n];
            for (int i = 0; i < n; i++) w[i] = value(from, n - 1 - i) + round;
            Check.arrays(w, pg, "persistent send, round " + round);
            for (int i = 0; i < n; i++) src[i]++;
        }
        ps.free();
        t.free();
        comm.barrier();
    }

    /** Bases with gaps (a vector, a struct over int[]) resized to a negative extent: gaps keep their contents. */
    @RankTest
    public void gapsWithNegativeExtent(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        // Ints at 0 and 2, items 4 ints apart going down: 3 items from offset 8 are 8, 10, 4, 6, 0, 2.
        Datatype vec = Datatype.createVector(2, 1, 2, MPI.INT);
        Datatype g = committed(Datatype.createResized(vec, 0, -16));
        int[] order = {8, 10, 4, 6, 0, 2};
        // Ints at bytes 0 and 8, items 3 ints apart going down: 3 items from offset 6 are 6, 8, 3, 5, 0, 2.
        Datatype st = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8}, new Datatype[] {MPI.INT, MPI.INT});
        Datatype s = committed(Datatype.createResized(st, 0, -12));
        int[] sOrder = {6, 8, 3, 5, 0, 2};
        for (int form = 0; form < 2; form++) {
            Datatype t = form == 0 ? g : s;
            int[] ord = form == 0 ? order : sOrder;
            int off = ord[0], len = off + 3;
            String what = form == 0 ? "resized vector" : "resized struct";
            int[] got = filled(6);
            comm.Sendrecv(source(rank, len), off, 3, t, to, 21, got, 0, 6, MPI.INT, from, 21);
            int[] want = new int[6];
            for (int i = 0; i < 6; i++) want[i] = value(from, ord[i]);
            Check.arrays(want, got, what + ": sent from an array");
            IntBuffer into = direct(filled(len));
            Request r = comm.Irecv(into, off, 3, t, from, 22);
            comm.Send(source(rank, 6), 0, 6, MPI.INT, to, 22);
            mpi.Status status = r.waitStatus();
            int[] w = filled(len);
            for (int i = 0; i < 6; i++) w[ord[i]] = value(from, i);
            Check.arrays(w, array(into), what + ": received into a direct buffer, the gaps kept");
            Check.equal(3, status.getCount(t), what + ": getCount");
            Check.equal(6, status.getElements(t), what + ": getElements");
            // A message ending inside the second item: 3 ints are one whole item and one int.
            int[] part = filled(len);
            mpi.Status ps = comm.Sendrecv(source(rank, 3), 0, 3, MPI.INT, to, 23, part, off, 3, t, from, 23);
            Check.equal(MPI.UNDEFINED, ps.getCount(t), what + ": getCount of a partial item");
            Check.equal(3, ps.getElements(t), what + ": getElements of a partial item");
            int[] wp = filled(len);
            for (int i = 0; i < 3; i++) wp[ord[i]] = value(from, i);
            Check.arrays(wp, part, what + ": a partial message fills the first items");
            // pack / unpack / packSize: the packed form is the data in type-map order.
            Check.equal(24, comm.packSize(3, t), what + ": packSize");
            byte[] packed = new byte[24];
            Check.equal(24, comm.Pack(source(rank, len), off, 3, t, packed, 0), what + ": Pack position");
            int[] flat = new int[6];
            comm.unpack(packed, 0, flat, 6, MPI.INT);
            int[] wf = new int[6];
            for (int i = 0; i < 6; i++) wf[i] = value(rank, ord[i]);
            Check.arrays(wf, flat, what + ": packed in type-map order");
            int[] back = filled(len);
            comm.unpack(packed, 0, MPI.slice(back, off), 3, t);
            int[] wb = filled(len);
            for (int i : ord) wb[i] = value(rank, i);
            Check.arrays(wb, back, what + ": unpacked into a slice, the gaps kept");
        }
        for (Datatype t : new Datatype[] {vec, g, st, s}) t.free();
        comm.barrier();
    }

    /**
     * Collectives with negative extents: rank i's chunk starts i * count * extent from the offset
     * (downward), v-displacements count extents; arrays and direct buffers, blocking and not.
     */
    @RankTest
    public void collectivesWithNegativeExtent(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), root = size - 1;
        Datatype t = committed(Datatype.createResized(MPI.INT, 0, -4));
        Datatype g = committed(Datatype.createResized(Datatype.createVector(2, 1, 2, MPI.INT), 0, -16));
        int[] gOrder = {8, 10, 4, 6, 0, 2}; // the elements 3 items of g select from offset 8
        int n = 3, all = n * size;

        // Bcast: the gaps of g keep their contents on the receivers.
        for (int round = 0; round < 2; round++) {
            int[] b = rank == root ? source(rank, 11) : filled(11);
            if (round == 0) {
                comm.Bcast(b, 8, 3, g, root);
            } else {
                comm.iBcast(MPI.slice(b, 8), 3, g, root).waitFor();
            }
            int[] w = rank == root ? source(rank, 11) : filled(11);
            for (int e : gOrder) w[e] = value(root, e);
            Check.arrays(w, b, "bcast of the resized vector" + (round == 1 ? " (iBcast of a slice)" : ""));
        }

        // Scatter: item k of the root's buffer is element all-1-k; rank i gets items i*n .. i*n+n-1.
        int[] sc = filled(n);
        comm.Scatter(rank == root ? source(root, all) : null, all - 1, n, t, sc, 0, n, MPI.INT, root);
        int[] ws = new int[n];
        for (int j = 0; j < n; j++) ws[j] = value(root, all - 1 - (rank * n + j));
        Check.arrays(ws, sc, "Scatter from the reverse type");
        int[] sc2 = filled(n);
        comm.iScatter(rank == root ? MPI.slice(source(root, all), all - 1) : null, n, t, sc2, n, MPI.INT, root)
                .waitFor();
        Check.arrays(ws, sc2, "iScatter from a slice with the reverse type");

        // Gather into an array and into a direct buffer: rank i's item j lands at element all-1-(i*n+j).
        int[] wg = new int[all];
        for (int i = 0; i < size; i++) for (int j = 0; j < n; j++) wg[all - 1 - (i * n + j)] = value(i, j);
        int[] ga = filled(all);
        comm.Gather(source(rank, n), 0, n, MPI.INT, ga, all - 1, n, t, root);
        if (rank == root) Check.arrays(wg, ga, "Gather with the reverse type");
        IntBuffer gd = direct(filled(all));
        comm.iGather(source(rank, n), n, MPI.INT, MPI.slice(gd, all - 1), n, t, root).waitFor();
        if (rank == root) Check.arrays(wg, array(gd), "iGather into a direct buffer slice");

        // Allgather into a direct buffer, mpiJava offset.
        IntBuffer ag = direct(filled(all));
        comm.Allgather(source(rank, n), 0, n, MPI.INT, ag, all - 1, n, t);
        Check.arrays(wg, array(ag), "Allgather into a direct buffer with the reverse type");

        // Allgatherv: rank i sends i+1 ints, placed at displs[i] = i*(i+1)/2 + i items (a one-item gap after each).
        int[] counts = new int[size], displs = new int[size];
        for (int i = 0; i < size; i++) {
            counts[i] = i + 1;
            displs[i] = i * (i + 1) / 2 + i;
        }
        int span = displs[size - 1] + counts[size - 1];
        int[] wv = filled(span);
        for (int i = 0; i < size; i++) for (int j = 0; j < counts[i]; j++) wv[span - 1 - (displs[i] + j)] = value(i, j);
        for (int round = 0; round < 2; round++) {
            int[] av = filled(span);
            if (round == 0) {
                comm.Allgatherv(source(rank, rank + 1), 0, rank + 1, MPI.INT, av, span - 1, counts, displs, t);
            } else {
                comm.iAllGatherv(source(rank, rank + 1), rank + 1, MPI.INT, MPI.slice(av, span - 1), counts, displs,
                        t).waitFor();
            }
            Check.arrays(wv, av, "allgatherv with the reverse type" + (round == 1 ? " (non-blocking)" : ""));
        }
        IntBuffer avd = direct(filled(span));
        comm.allGatherv(source(rank, rank + 1), rank + 1, MPI.INT, MPI.slice(avd, span - 1), counts, displs, t);
        Check.arrays(wv, array(avd), "allGatherv into a direct buffer slice");

        // Alltoall: the chunk for rank i is item i, element size-1-i.
        int[] at = filled(size);
        comm.Alltoall(source(rank, size), size - 1, 1, t, at, 0, 1, MPI.INT);
        int[] wa = new int[size];
        for (int i = 0; i < size; i++) wa[i] = value(i, size - 1 - rank);
        Check.arrays(wa, at, "Alltoall from the reverse type");

        // Allreduce SUM over the resized vector (arrays and direct buffers, blocking and not): element e of
        // the selection gets the sum over ranks, the gaps keep their contents.
        int[] wr = filled(11);
        for (int e : gOrder) {
            wr[e] = 0;
            for (int q = 0; q < size; q++) wr[e] += value(q, e);
        }
        int[] ra = filled(11);
        comm.Allreduce(source(rank, 11), 8, ra, 8, 3, g, MPI.SUM);
        Check.arrays(wr, ra, "Allreduce SUM over the resized vector");
        IntBuffer rd = direct(filled(11));
        comm.iAllReduce(MPI.slice(direct(source(rank, 11)), 8), MPI.slice(rd, 8), 3, g, MPI.SUM).waitFor();
        Check.arrays(wr, array(rd), "iAllReduce SUM over the resized vector, direct buffer slices");
        int[] red = filled(11);
        comm.Reduce(source(rank, 11), 8, red, 8, 3, g, MPI.SUM, root);
        if (rank == root) Check.arrays(wr, red, "Reduce SUM over the resized vector");
        // Scan with the reverse type: element-wise, so each element gets its prefix sum.
        int[] scan = filled(n);
        comm.Scan(source(rank, n), n - 1, scan, n - 1, n, t, MPI.SUM);
        int[] wsc = new int[n];
        for (int j = 0; j < n; j++) for (int q = 0; q <= rank; q++) wsc[j] += value(q, j);
        Check.arrays(wsc, scan, "Scan SUM with the reverse type");
        t.free();
        g.free();
        comm.barrier();
    }

    /** Overruns with a negative extent, in both directions: the lowest item is the last, the highest the first. */
    @RankTest
    public void negativeExtentBounds(Intracomm comm) {
        int rank = comm.getRank();
        Datatype t = committed(Datatype.createResized(MPI.INT, 0, -4));
        // Four items from offset 2 reach element -1: 12 bytes below the offset, 8 there.
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(new int[8], 2, 4, t, rank, 31), "-12", "only 8 bytes",
                "extent -4");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Recv(new int[8], 2, 4, t, rank, 31), "only 8 bytes");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(direct(new int[8]), 1, 3, t, rank, 31), "only 4 bytes");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(new int[8], 2, t, rank, 31), "only 0 bytes");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.pack(new int[8], 2, t, new byte[8], 0), "inbuf");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.unpack(new byte[8], 0, new int[8], 2, t), "outbuf");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Bcast(new int[8], 0, 2, t, 0), "only 0 bytes");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Allgather(new int[2], 0, 2, MPI.INT, new int[8], 0, 2, t),
                "recvbuf");
        // Upward: the first item is the highest. An int at byte 8 of each item: item 0 at offset 2 ends at element 5.
        Datatype hi = committed(Datatype.createResized(Datatype.createHIndexed(new int[] {1}, new int[] {8},
                MPI.INT), 0, -4));
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(new int[4], 2, 3, hi, rank, 32), "needs 3 elements");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(direct(new int[4]), 2, 1, hi, rank, 32), "needs 3");
        // Fits exactly: items at 2, 1, 0 hold elements 4, 3, 2.
        int[] got = filled(3);
        comm.Sendrecv(source(rank, 5), 2, 3, hi, rank, 33, got, 0, 3, MPI.INT, rank, 33);
        Check.arrays(new int[] {value(rank, 4), value(rank, 3), value(rank, 2)}, got, "fits from offset 2 of int[5]");
        t.free();
        hi.free();
        comm.barrier();
    }

    /** Where mpi4j does not support negative extents, the call is refused before anything moves, naming them. */
    @RankTest
    public void negativeExtentRefusals(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Datatype t = committed(Datatype.createResized(MPI.INT, 0, -4));
        // User-defined ops: the function sees items staged one extent apart, upward.
        mpi.Op mine = new mpi.Op(new mpi.UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
            }
        }, true);
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> comm.Allreduce(new int[4], 3, new int[4], 3, 2, t, mine),
                "negative extent (-4 bytes)", "user-defined ops");
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> mpi.Comm.reduceLocal(new int[1], new int[1], 1, t, mine),
                "negative extent");
        // Neighbourhood, intercommunicator and allToAllw calls.
        CartComm ring = comm.createCart(new int[] {size}, new boolean[] {true}, false);
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> ring.neighborAllGather(new int[1], 1, t, new int[2], 1,
                t), "neighbourhood collectives", "-4");
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> ring.iNeighborAllToAll(new int[2], 1, MPI.INT, new int[2],
                1, t), "neighbourhood collectives");
        ring.free();
        Datatype[] ts = new Datatype[size];
        Arrays.fill(ts, t);
        int[] ones = new int[size], zero = new int[size];
        Arrays.fill(ones, 1);
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> comm.allToAllw(new int[4], ones, zero, ts, new int[4],
                ones, zero, ts), "allToAllw", "negative extent");
        if (size >= 2) {
            int color = rank % 2;
            Intracomm local = comm.split(color, rank);
            Intercomm inter = comm.createIntercomm(local, 0, color == 0 ? 1 : 0, 93);
            Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> inter.allGather(new int[1], 1, t, new int[size], 1,
                    t), "intercommunicator collectives", "-4");
            Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> inter.iBcast(new int[1], 1, t, 0),
                    "intercommunicator collectives");
            inter.free();
            local.free();
        }
        // One-sided windows: origin and target types.
        IntBuffer base = direct(filled(4));
        mpi.Win win = new mpi.Win(base, 4, 1, MPI.INFO_NULL, comm);
        win.fence(0);
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> win.put(direct(new int[1]), 1, t, rank, 0, 1, MPI.INT),
                "Win.put", "one-sided windows", "-4");
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> win.get(direct(new int[1]), 1, MPI.INT, rank, 0, 1, t),
                "one-sided windows");
        win.fence(0);
        win.free();
        Check.arrays(filled(4), array(base), "nothing moved into the window");
        // File views (MPI wants filetype displacements that do not decrease) and file data accesses.
        java.nio.file.Path dir = FileSuite.sharedDir(comm);
        mpi.File f = new mpi.File(comm, dir.resolve("negext").toString(), MPI.MODE_CREATE | MPI.MODE_RDWR
                | MPI.MODE_DELETE_ON_CLOSE);
        Check.throwsMpi(MPI.ERR_TYPE, () -> f.setView(0, MPI.INT, t, "native"), "File.setView", "file views", "-4");
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> f.write(MPI.slice(source(rank, 3), 2), 3, t),
                "file data accesses");
        f.close();
        FileSuite.removeDir(comm, dir);
        // Struct fields are laid out upward.
        Check.throwsMpi(MPI.ERR_TYPE, () -> new mpi.Struct() {
            private final int field = addData(t);

            @Override
            protected Data newData() {
                return null;
            }
        }, "Struct.addData", "negative extent");
        mine.free();
        t.free();
        comm.barrier();
    }

    // ---- bad input ------------------------------------------------------------------------------------

    /** File views: MPI requires etype and filetype displacements >= 0, so a reverse vector is refused there. */
    @RankTest
    public void fileViewRefusesNegativeDisplacements(Intracomm comm) {
        java.nio.file.Path dir = FileSuite.sharedDir(comm);
        mpi.File f = new mpi.File(comm, dir.resolve("neg").toString(), MPI.MODE_CREATE | MPI.MODE_RDWR
                | MPI.MODE_DELETE_ON_CLOSE);
        Datatype rev = committed(Datatype.createVector(2, 1, -1, MPI.INT));
        Check.throwsMpi(MPI.ERR_TYPE, () -> f.setView(0, MPI.INT, rev, "native"), "filetype", "-4", ">= 0");
        f.close();
        rev.free();
        FileSuite.removeDir(comm, dir);
    }

    @RankTest
    public void badInput(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Datatype rev = committed(Datatype.createVector(4, 1, -1, MPI.INT)); // reaches 3 ints below
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(new int[8], 1, rev, rank, 1), "buf", "-12",
                "only 0 bytes");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(new int[8], 2, 1, rev, rank, 1), "offset 2", "only 8 bytes");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Recv(new int[8], 1, 1, rev, rank, 1), "buf", "only 4 bytes");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(direct(new int[8]), 2, 1, rev, rank, 1), "IntBuffer");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(MPI.slice(new int[8], 1), 1, rev, rank, 1), "only 4 bytes");
        // Over the end: two items from offset 6 end at 6 + 4 + 1 = 11 > 8.
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(new int[8], 6, 2, rev, rank, 1), "needs");
        Datatype lb = committed(Datatype.Struct(new int[] {1, 1}, new int[] {-3, 0}, new Datatype[] {MPI.INT,
            MPI.UB}));
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Bcast(new int[8], 2, 1, lb, 0), "-12");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.pack(new int[8], 1, rev, new byte[16], 0), "inbuf");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.unpack(new byte[16], 0, new int[8], 1, rev), "outbuf");
        // Byte displacements that are not whole ints, over an int[].
        Datatype odd = committed(Datatype.createStruct(new int[] {1}, new int[] {2}, new Datatype[] {MPI.INT}));
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[4], 1, odd, rank, 1), "multiples of 4");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.pack(new int[4], 1, odd, new byte[16], 0), "multiples of 4");
        // A struct mixing leaves still wants bytes.
        Datatype mixed = committed(Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8}, new Datatype[] {MPI.INT,
            MPI.DOUBLE}));
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(new int[8], 1, mixed, rank, 1), "int[]");
        // allToAllw: a negative-lb type at displacement 0 reaches before the buffer.
        Datatype[] revs = new Datatype[size];
        Arrays.fill(revs, rev);
        int[] ones = new int[size], zero = new int[size];
        Arrays.fill(ones, 1);
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allToAllw(new int[4 * size], ones, zero, revs, new int[4 * size],
                ones, zero, revs), "sdispls[0] = 0", "before the start");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allToAllw(MPI.IN_PLACE, null, null, null, new int[4 * size],
                ones, zero, revs), "rdispls[0] = 0");
        // User functions see items staged from 0: types with data below their start are refused.
        mpi.Op mine = new mpi.Op(new mpi.UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
            }
        }, true);
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> comm.Allreduce(new int[8], 4, new int[8], 4, 1, rev, mine),
                "user-defined op", "true lb -12");
        // Uncommitted and freed types in the new paths.
        Datatype raw = Datatype.createVector(2, 1, 2, MPI.INT);
        CartComm ring = comm.createCart(new int[] {size}, new boolean[] {true}, false);
        Check.throwsMpi(MPI.ERR_TYPE, () -> ring.neighborAllGather(new int[3], 1, raw, new int[6], 1, raw),
                "not committed");
        Datatype[] raws = new Datatype[size];
        Arrays.fill(raws, raw);
        int[] d12 = new int[size];
        for (int p = 0; p < size; p++) d12[p] = 12 * p;
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.allToAllw(MPI.IN_PLACE, null, null, null, new int[3 * size], ones,
                d12, raws), "not committed");
        Datatype gone = committed(Datatype.createVector(2, 1, 2, MPI.INT));
        gone.free();
        Check.throwsMpi(MPI.ERR_TYPE, () -> ring.iNeighborAllToAll(new int[6], 1, gone, new int[6], 1, gone),
                "has been freed");
        if (size >= 2) {
            int color = rank % 2;
            Intracomm local = comm.split(color, rank);
            Intercomm inter = comm.createIntercomm(local, 0, color == 0 ? 1 : 0, 92);
            Check.throwsMpi(MPI.ERR_TYPE, () -> inter.iAllGather(new int[3], 1, raw, new int[3 * size], 1, raw),
                    "not committed");
            Check.throwsMpi(MPI.ERR_BUFFER, () -> inter.iAllGather(new int[8], 1, rev, new int[8 * size], 1, rev),
                    "before the start");
            Datatype eo = committed(Datatype.createVector(2, 1, 2, MPI.INT));
            Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> inter.iAllReduce(new int[3], new int[3], 1, eo, mine),
                    "user-defined op", "gaps");
            eo.free();
            inter.free();
            local.free();
        }
        ring.free();
        for (Datatype t : new Datatype[] {rev, lb, odd, mixed, raw}) t.free();
        mine.free();
        comm.barrier();
    }
}
