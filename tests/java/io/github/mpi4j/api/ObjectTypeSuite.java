package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.util.Arrays;
import mpi.Datatype;
import mpi.File;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.Request;
import mpi.Status;

/**
 * Derived datatypes over MPI.OBJECT (mpiJava 1.2 / MPJ Express; issue 10 item 8): vector,
 * indexed, hvector of a vector and struct with MPI.LB/MPI.UB markers, with Object[] buffers and
 * offsets, in Send/Recv, Isend/Irecv, Sendrecv, Sendrecv_replace and Bcast. Which elements a type
 * selects is computed here by plain loops from the type's parameters; values come from ranks;
 * every element not selected must stay untouched. Bad input and unsupported calls throw.
 */
public class ObjectTypeSuite {
    private static final String UNTOUCHED = "untouched";

    private static Object[] filled(int n) {
        Object[] a = new Object[n];
        Arrays.fill(a, UNTOUCHED);
        return a;
    }

    /** Element i of rank r's send arrays. */
    private static String value(int rank, int i) {
        return "r" + rank + "_" + i;
    }

    private static Object[] values(int rank, int n) {
        Object[] a = new Object[n];
        for (int i = 0; i < n; i++) a[i] = value(rank, i);
        return a;
    }

    /** Elements {@code count} items of Vector(blocks, blockLength, stride) select from {@code offset}. */
    private static int[] vectorIndices(int offset, int count, int blocks, int blockLength, int stride) {
        int extent = (blocks - 1) * stride + blockLength;
        int[] idx = new int[count * blocks * blockLength];
        int n = 0;
        for (int k = 0; k < count; k++) {
            for (int b = 0; b < blocks; b++) {
                for (int j = 0; j < blockLength; j++) idx[n++] = offset + k * extent + b * stride + j;
            }
        }
        return idx;
    }

    /** Elements {@code count} items of Indexed(lengths, displs) select from {@code offset}. */
    private static int[] indexedIndices(int offset, int count, int[] lengths, int[] displs) {
        int lo = Integer.MAX_VALUE, hi = Integer.MIN_VALUE, total = 0;
        for (int b = 0; b < lengths.length; b++) {
            lo = Math.min(lo, displs[b]);
            hi = Math.max(hi, displs[b] + lengths[b]);
            total += lengths[b];
        }
        int extent = hi - lo;
        int[] idx = new int[count * total];
        int n = 0;
        for (int k = 0; k < count; k++) {
            for (int b = 0; b < lengths.length; b++) {
                for (int j = 0; j < lengths[b]; j++) idx[n++] = offset + k * extent + displs[b] + j;
            }
        }
        return idx;
    }

    /** What a receive buffer holds after {@code src}'s selection {@code from} landed on {@code to}. */
    private static Object[] expected(int length, int src, int[] from, int[] to, int landed) {
        Object[] want = filled(length);
        for (int m = 0; m < landed; m++) want[to[m]] = value(src, from[m]);
        return want;
    }

    private static Datatype committed(Datatype t) {
        t.commit();
        return t;
    }

    /**
     * Ring exchange: a vector of objects sent with an offset, received as an indexed type with
     * another offset and layout; both the blocking (Sendrecv) and the non-blocking forms.
     */
    @RankTest
    public void vectorToIndexedRing(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
        Datatype vec = committed(Datatype.Vector(3, 2, 4, MPI.OBJECT));
        int[] lengths = {2, 4}, displs = {7, 0};
        Datatype idx = committed(Datatype.Indexed(lengths, displs, MPI.OBJECT));
        int[] sent = vectorIndices(1, 2, 3, 2, 4);
        int[] into = indexedIndices(3, 2, lengths, displs);
        Check.equal(sent.length, into.length, "both selections hold the same number of objects");

        Object[] send = values(rank, 30);
        Object[] recv = filled(25);
        Status s = comm.Sendrecv(send, 1, 2, vec, next, 5, recv, 3, 2, idx, prev, 5);
        Check.arrays(expected(25, prev, sent, into, into.length), recv, "Sendrecv vector -> indexed");
        Check.equal(prev, s.source, "Sendrecv source");
        Check.equal(2, s.Get_count(idx), "Sendrecv count in items");
        Check.equal(into.length, s.Get_elements(idx), "Sendrecv elements");
        Check.arrays(values(rank, 30), send, "the send buffer is unchanged");

        Object[] back = filled(25);
        Request r = comm.Irecv(back, 3, 2, idx, prev, 6);
        Request w = comm.Isend(send, 1, 2, vec, next, 6);
        Status[] all = Request.Waitall(new Request[] {r, w});
        Check.arrays(expected(25, prev, sent, into, into.length), back, "Isend/Irecv vector -> indexed");
        Check.equal(2, all[0].Get_count(idx), "Irecv count in items");
        Check.equal(prev, all[0].source, "Irecv source");
        comm.Barrier();
    }

    /** Blocking Send/Recv between ranks 0 and 1; a short message fills the first selected elements only. */
    @RankTest
    public void sendRecvAndShortMessages(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Datatype vec = committed(Datatype.Vector(2, 3, 5, MPI.OBJECT));
        Datatype three = committed(Datatype.Contiguous(3, MPI.OBJECT));
        int[] sel = vectorIndices(2, 2, 2, 3, 5); // 2 items of 6 objects
        int peer = size > 1 ? 1 : 0;
        if (rank == 0) {
            Object[] send = values(rank, 24);
            Request a = comm.Isend(send, 2, 2, vec, peer, 1); // whole
            Request b = comm.Isend(send, 2, 1, vec, peer, 2); // one item of the two
            Request c = comm.Isend(send, 10, 1, three, peer, 3); // not a whole item
            if (peer == 0) receiveAll(comm, vec, sel);
            Request.Waitall(new Request[] {a, b, c});
        } else if (rank == 1) {
            receiveAll(comm, vec, sel);
        }
        comm.Barrier();
    }

    private static void receiveAll(Intracomm comm, Datatype vec, int[] sel) {
        Object[] got = filled(24);
        Status s = comm.Recv(got, 2, 2, vec, 0, 1);
        Check.arrays(expected(24, 0, sel, sel, sel.length), got, "Recv of two whole items");
        Check.equal(2, s.Get_count(vec), "count of two whole items");

        Object[] part = filled(24);
        s = comm.Recv(part, 2, 2, vec, 0, 2);
        Check.arrays(expected(24, 0, sel, sel, 6), part, "one item sent: only the first item's elements change");
        Check.equal(1, s.Get_count(vec), "count of one item");
        Check.equal(6, s.Get_elements(vec), "elements of one item");
        Check.equal(6, s.Get_count(MPI.OBJECT), "objects received");

        Object[] odd = filled(24);
        s = comm.Recv(odd, 2, 2, vec, 0, 3);
        int[] from = {10, 11, 12};
        Check.arrays(expected(24, 0, from, sel, 3), odd, "three objects fill the first three selected elements");
        Check.equal(MPI.UNDEFINED, s.Get_count(vec), "count of a partial item");
        Check.equal(3, s.Get_elements(vec), "elements of a partial item");
    }

    /** MPJ Express's hvecO: Bcast of a vector of objects, then of an hvector of that vector. */
    @RankTest
    public void bcastVectorAndHvector(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), root = size - 1;
        Datatype vec = committed(Datatype.Vector(4, 1, 2, MPI.OBJECT)); // extent 7
        Object[] buf = rank == root ? values(root, 20) : filled(20);
        comm.Bcast(buf, 1, 1, vec, root);
        int[] sel = vectorIndices(1, 1, 4, 1, 2);
        Check.arrays(rank == root ? values(root, 20) : expected(20, root, sel, sel, sel.length), buf,
                "Bcast of a vector");

        Datatype hvec = committed(Datatype.Hvector(2, 1, 9, vec)); // two vectors 9 elements apart
        int[] twice = new int[8];
        for (int c = 0; c < 2; c++) {
            for (int i = 0; i < 4; i++) twice[c * 4 + i] = 2 + c * 9 + i * 2;
        }
        Object[] all = rank == root ? values(root, 20) : filled(20);
        comm.Bcast(all, 2, 1, hvec, root);
        Check.arrays(rank == root ? values(root, 20) : expected(20, root, twice, twice, twice.length), all,
                "Bcast of an hvector of vectors");
        comm.Barrier();
    }

    /** mpiJava's Struct with MPI.LB/MPI.UB markers around objects, with Sendrecv_replace. */
    @RankTest
    public void structWithMarkersReplace(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int next = (rank + 1) % size, prev = (rank - 1 + size) % size;
        Datatype st = committed(Datatype.Struct(new int[] {1, 2, 1, 1}, new int[] {0, 1, 5, 8},
                new Datatype[] {MPI.LB, MPI.OBJECT, MPI.OBJECT, MPI.UB}));
        Check.equal(8, st.Extent(), "the markers set the extent");
        int[] sel = new int[6];
        int n = 0;
        for (int k = 0; k < 2; k++) {
            for (int d : new int[] {1, 2, 5}) sel[n++] = 1 + k * 8 + d;
        }
        Object[] buf = values(rank, 20);
        Status s = comm.Sendrecv_replace(buf, 1, 2, st, next, 4, prev, 4);
        Object[] want = values(rank, 20);
        for (int i : sel) want[i] = value(prev, i);
        Check.arrays(want, buf, "Sendrecv_replace of a struct with markers");
        Check.equal(2, s.Get_count(st), "Sendrecv_replace count");
        comm.Barrier();
    }

    /** Bad buffers, mixed leaves and persistent requests throw on every rank. */
    @RankTest
    public void badInputThrows(Intracomm comm) {
        int rank = comm.getRank();
        Datatype vec = committed(Datatype.Vector(3, 2, 4, MPI.OBJECT)); // extent 10
        Object[] buf = filled(20);
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Isend(buf, 11, 1, vec, rank, 9), "outside", "Object[20]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Recv(buf, 1, 2, vec, rank, 9), "outside", "offset 1");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Bcast(buf, 0, 3, vec, 0), "outside");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.Isend(new int[40], 0, 1, vec, rank, 9), "Object[]", "int[]");
        Op concat = new Op(new ObjectCollectiveSuite.Concat(), false);
        // The collectives take these types (ObjectTypeCollectivesSuite); a selection outside the array is refused.
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Allreduce(buf, 0, filled(20), 0, 3, vec, concat),
                "Allreduce", "outside", "Object[20]");
        concat.free();
        // Persistent requests take these types (ObjectTypeMoreSuite); a selection outside the array is refused.
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send_init(buf, 11, 1, vec, rank, 9), "outside", "Object[20]");
        Check.throwsMpi(MPI.ERR_TYPE, () -> Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.OBJECT, MPI.INT}), "mixes MPI.OBJECT");
        fileViewRefused(comm, vec);
        // The communicator still works afterwards.
        Object[] one = {value(rank, 0)};
        Object[] got = new Object[1];
        comm.Sendrecv(one, 0, 1, MPI.OBJECT, rank, 8, got, 0, 1, MPI.OBJECT, rank, 8);
        Check.equal(value(rank, 0), got[0], "self exchange after the errors");
        comm.Barrier();
    }

    /** A file view cannot be built over objects. */
    private static void fileViewRefused(Intracomm comm, Datatype vec) {
        Intracomm self = comm.split(comm.getRank(), 0);
        java.nio.file.Path path;
        try {
            path = java.nio.file.Files.createTempFile("mpi4j-objtypes", ".dat");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        File f = new File(self, path.toString(), MPI.MODE_RDWR);
        try {
            Check.throwsMpi(MPI.ERR_TYPE, () -> f.setView(0, MPI.OBJECT, vec, "native"), "MPI.OBJECT");
            Check.throwsMpi(MPI.ERR_TYPE, () -> f.setView(0, MPI.BYTE, vec, "native"), "MPI.OBJECT");
        } finally {
            f.close();
            path.toFile().delete();
            self.free();
        }
    }
}
