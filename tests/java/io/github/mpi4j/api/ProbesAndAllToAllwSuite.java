package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Message;
import mpi.Request;
import mpi.Status;

/**
 * Matched probes (mpi.Message), allToAllw and the Open MPI send-mode spellings isSend/irSend, issue 10
 * item 6. Values come from (sender rank, index), so every received element is checked against a
 * formula, and a matched message must never be taken by another receive.
 */
public class ProbesAndAllToAllwSuite {

    private static double value(int rank, int tag, int i) {
        return rank * 1000.0 + tag * 10.0 + i * 0.5;
    }

    private static double[] values(int rank, int tag, int n) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) a[i] = value(rank, tag, i);
        return a;
    }

    /** mProbe with wildcards, a buffer sized from the status, mRecv; then imProbe for the next. */
    @RankTest
    public void probeThenReceiveWhatWasProbed(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        int n1 = 3 + rank, n2 = 70_000 + rank; // the second one goes by rendezvous on the fabric
        Request a = comm.iSend(values(rank, 1, n1), n1, MPI.DOUBLE, right, 1);
        Request b = comm.iSend(values(rank, 2, n2), n2, MPI.DOUBLE, right, 2);

        Message m = new Message();
        Check.isTrue(m.isNull() && !m.isNoProc(), "a new Message is null");
        Status s = m.mProbe(MPI.ANY_SOURCE, 1, comm);
        Check.isTrue(!m.isNull(), "a matched message is not null");
        Check.equal(left, s.getSource(), "mProbe source");
        Check.equal(1, s.getTag(), "mProbe tag");
        int count = s.getCount(MPI.DOUBLE);
        Check.equal(3 + left, count, "mProbe count");
        double[] got = new double[count];
        Status r = m.mRecv(got, count, MPI.DOUBLE);
        Check.isTrue(m.isNull(), "a received message is null again");
        Check.equal(left, r.getSource(), "mRecv source");
        Check.arrays(values(left, 1, count), got, "mRecv data");

        Message m2 = new Message();
        Status s2;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while ((s2 = m2.imProbe(left, MPI.ANY_TAG, comm)) == null) {
            Check.isTrue(System.nanoTime() < deadline, "imProbe found nothing within 60 s");
            Thread.onSpinWait();
        }
        Check.equal(2, s2.getTag(), "imProbe tag");
        int count2 = s2.getCount(MPI.DOUBLE);
        Check.equal(70_000 + left, count2, "imProbe count");
        double[] big = new double[count2];
        Request rr = m2.imRecv(big, count2, MPI.DOUBLE);
        Status st = rr.waitStatus();
        Check.equal(2, st.getTag(), "imRecv tag");
        Check.equal(count2, st.getCount(MPI.DOUBLE), "imRecv count");
        Check.arrays(values(left, 2, count2), big, "imRecv data");
        Request.waitAll(new Request[] {a, b});
        comm.barrier();
    }

    /** A matched message is out of matching: a wildcard receive posted afterwards takes the next message. */
    @RankTest
    public void matchedMessageIsNotTakenByOtherReceives(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        comm.send(values(rank, 5, 4), 4, MPI.DOUBLE, right, 5);
        comm.send(values(rank, 6, 6), 6, MPI.DOUBLE, right, 6);
        Message m = new Message();
        Status s = m.mProbe(left, 5, comm);
        Check.equal(4, s.getCount(MPI.DOUBLE), "first message's count");
        double[] other = new double[8];
        Status o = comm.recv(other, 8, MPI.DOUBLE, MPI.ANY_SOURCE, MPI.ANY_TAG);
        Check.equal(6, o.getTag(), "the wildcard receive got the second message, not the matched one");
        Check.arrays(values(left, 6, 6), java.util.Arrays.copyOf(other, 6), "second message");
        double[] first = new double[4];
        m.mRecv(first, 4, MPI.DOUBLE);
        Check.arrays(values(left, 5, 4), first, "matched message");
        comm.barrier();
    }

    /** MPI.OBJECT through matched probes: the serialized array, received whole, blocking and not. */
    @RankTest
    public void objectsThroughMatchedProbes(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        Object[] out = {"from " + rank, rank * 7, java.util.List.of(rank, -rank)};
        Request a = comm.iSend(out, 3, MPI.OBJECT, right, 12);
        Request b = comm.iSend(out, 2, MPI.OBJECT, right, 13);
        Message m = new Message();
        m.mProbe(left, 12, comm);
        Object[] in = new Object[4];
        Check.throwsMpi(MPI.ERR_BUFFER, () -> m.mRecv(new Object[2], 3, MPI.OBJECT), "count 3", "Object[2]");
        Status s = m.mRecv(in, 4, MPI.OBJECT);
        Check.equal(3, s.getCount(MPI.OBJECT), "objects received");
        Check.arrays(new Object[] {"from " + left, left * 7, java.util.List.of(left, -left), null}, in, "objects");
        Message m2 = new Message();
        m2.mProbe(left, 13, comm);
        Object[] in2 = new Object[2];
        Status s2 = m2.imRecv(in2, 2, MPI.OBJECT).waitStatus();
        Check.equal(2, s2.getCount(MPI.OBJECT), "objects received by imRecv");
        Check.equal(left, s2.getSource(), "imRecv source");
        Check.arrays(new Object[] {"from " + left, left * 7}, in2, "imRecv objects");
        Request.waitAll(new Request[] {a, b});
        comm.barrier();
    }

    /** MPI.PROC_NULL gives the no-process message; receiving it returns at once with an empty status. */
    @RankTest
    public void procNullGivesNoProcMessage(Intracomm comm) {
        Message m = new Message();
        Status s = m.mProbe(MPI.PROC_NULL, 3, comm);
        Check.isTrue(m.isNoProc() && !m.isNull(), "no-process message");
        Check.equal(MPI.PROC_NULL, s.getSource(), "probe source");
        double[] buf = {42.0};
        Status r = m.mRecv(buf, 1, MPI.DOUBLE);
        Check.equal(MPI.PROC_NULL, r.getSource(), "receive source");
        Check.equal(MPI.ANY_TAG, r.getTag(), "receive tag");
        Check.equal(0, r.getCount(MPI.DOUBLE), "receive count");
        Check.isTrue(buf[0] == 42.0, "buffer untouched");
        Check.isTrue(m.isNull(), "null after receive");
        Message m2 = new Message();
        Check.isTrue(m2.imProbe(MPI.PROC_NULL, MPI.ANY_TAG, comm) != null && m2.isNoProc(), "imProbe PROC_NULL");
        m2.imRecv(buf, 1, MPI.DOUBLE).waitFor();
        Check.isTrue(m2.isNull(), "null after imRecv");
    }

    /** isSend (synchronous) and irSend (ready, receive posted first) as Open MPI spells them. */
    @RankTest
    public void sendModeSpellings(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        double[] in = new double[5];
        Request r = comm.iRecv(in, 5, MPI.DOUBLE, left, 8);
        comm.barrier(); // every receive is posted before any ready send
        Request s = comm.irSend(values(rank, 8, 5), 5, MPI.DOUBLE, right, 8);
        Request.waitAll(new Request[] {r, s});
        Check.arrays(values(left, 8, 5), in, "irSend data");
        Request ss = comm.isSend(values(rank, 9, 7), 7, MPI.DOUBLE, right, 9);
        double[] in2 = new double[7];
        comm.recv(in2, 7, MPI.DOUBLE, left, 9);
        ss.waitFor();
        Check.arrays(values(left, 9, 7), in2, "isSend data");
        comm.barrier();
    }

    /** Bad input: every call refuses before anything moves, and the message stays receivable. */
    @RankTest
    public void badMatchedProbes(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Message empty = new Message();
        Check.throwsMpi(MPI.ERR_REQUEST, () -> empty.mRecv(new double[1], 1, MPI.DOUBLE), "message is null");
        Check.throwsMpi(MPI.ERR_REQUEST, () -> empty.imRecv(new double[1], 1, MPI.DOUBLE), "message is null");
        Check.throwsMpi(MPI.ERR_COMM, () -> new Message().mProbe(0, 1, null), "comm is null");
        Check.throwsMpi(MPI.ERR_RANK, () -> new Message().mProbe(size, 1, comm), "source " + size);
        Check.throwsMpi(MPI.ERR_RANK, () -> new Message().imProbe(-9, 1, comm), "source -9");
        Check.throwsMpi(MPI.ERR_TAG, () -> new Message().mProbe(0, -5, comm), "tag -5");

        comm.send(values(rank, 4, 3), 3, MPI.DOUBLE, rank, 4);
        Message m = new Message();
        m.mProbe(rank, 4, comm);
        Check.throwsMpi(MPI.ERR_REQUEST, () -> m.mProbe(rank, 4, comm), "still holds");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> m.mRecv(new double[2], 3, MPI.DOUBLE), "count 3", "double[2]");
        Check.throwsMpi(MPI.ERR_TYPE, () -> m.mRecv(new int[3], 3, MPI.DOUBLE), "MPI.DOUBLE", "int[]");
        Check.throwsMpi(MPI.ERR_TYPE, () -> m.mRecv(new double[3], 3, MPI.OBJECT), "MPI.OBJECT", "double[]");
        Check.throwsMpi(MPI.ERR_COUNT, () -> m.imRecv(new double[3], -1, MPI.DOUBLE), "-1");
        Check.throwsMpi(MPI.ERR_TYPE, () -> m.mRecv(new double[3], 3, null), "datatype is null");
        double[] got = new double[3];
        m.mRecv(got, 3, MPI.DOUBLE);
        Check.arrays(values(rank, 4, 3), got, "the message after the refused receives");
    }

    // ---- allToAllw ----

    /** Items rank r sends to rank j. */
    private static int items(int r, int j) {
        return (r + 2 * j) % 3 + 1;
    }

    /** The type of every block sent to rank j (so rank j receives only that type). */
    private static Datatype typeFor(int j) {
        return j % 2 == 0 ? MPI.INT : MPI.DOUBLE;
    }

    private static int bytesOf(Datatype t) {
        return t == MPI.INT ? 4 : 8;
    }

    /** Byte displacements of blocks of (count, type) laid out in order with an 8-byte gap before each. */
    private static int[] displs(int[] counts, Datatype[] types) {
        int[] d = new int[counts.length];
        int at = 0;
        for (int i = 0; i < counts.length; i++) {
            at += 8;
            d[i] = at;
            at += counts[i] * bytesOf(types[i]);
            at = (at + 7) & ~7;
        }
        return d;
    }

    private static int end(int[] counts, int[] displs, Datatype[] types) {
        int e = 0;
        for (int i = 0; i < counts.length; i++) e = Math.max(e, displs[i] + counts[i] * bytesOf(types[i]));
        return e + 8;
    }

    /** Per-peer types and byte displacements over direct ByteBuffers, blocking and not; gaps untouched. */
    @RankTest
    public void allToAllwMixedTypes(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int[] sc = new int[size], rc = new int[size];
        Datatype[] st = new Datatype[size], rt = new Datatype[size];
        for (int j = 0; j < size; j++) {
            sc[j] = items(rank, j);
            st[j] = typeFor(j);
            rc[j] = items(j, rank);
            rt[j] = typeFor(rank);
        }
        int[] sd = displs(sc, st), rd = displs(rc, rt);
        for (boolean nb : new boolean[] {false, true}) {
            ByteBuffer send = MPI.newByteBuffer(end(sc, sd, st));
            for (int j = 0; j < size; j++) {
                for (int k = 0; k < sc[j]; k++) {
                    int v = rank * 100 + j * 10 + k;
                    if (st[j] == MPI.INT) send.putInt(sd[j] + 4 * k, v);
                    else send.putDouble(sd[j] + 8 * k, v + 0.25);
                }
            }
            ByteBuffer recv = MPI.newByteBuffer(end(rc, rd, rt));
            for (int i = 0; i < recv.capacity(); i++) recv.put(i, (byte) 0x5A);
            if (nb) comm.iAllToAllw(send, sc, sd, st, recv, rc, rd, rt).waitFor();
            else comm.allToAllw(send, sc, sd, st, recv, rc, rd, rt);
            boolean[] data = new boolean[recv.capacity()];
            for (int i = 0; i < size; i++) {
                for (int k = 0; k < rc[i]; k++) {
                    int v = i * 100 + rank * 10 + k;
                    if (rt[i] == MPI.INT) {
                        Check.equal(v, recv.getInt(rd[i] + 4 * k), "int " + k + " from rank " + i + " nb=" + nb);
                    } else {
                        Check.isTrue(recv.getDouble(rd[i] + 8 * k) == v + 0.25, "double " + k + " from rank " + i
                                + " nb=" + nb + ": " + recv.getDouble(rd[i] + 8 * k));
                    }
                    for (int b = 0; b < bytesOf(rt[i]); b++) data[rd[i] + bytesOf(rt[i]) * k + b] = true;
                }
            }
            for (int i = 0; i < data.length; i++) {
                if (!data[i]) Check.equal(0x5A, recv.get(i), "gap byte " + i + " untouched, nb=" + nb);
            }
        }
    }

    /** An int[] with MPI.INT everywhere: displacements are still bytes. */
    @RankTest
    public void allToAllwIntArrays(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int[] counts = new int[size], sd = new int[size], rd = new int[size];
        Datatype[] types = new Datatype[size];
        for (int j = 0; j < size; j++) {
            counts[j] = 2;
            types[j] = MPI.INT;
            sd[j] = 4 * (3 * j + 1); // element 3j+1
            rd[j] = 4 * (3 * (size - 1 - j)); // reversed order, element 3(size-1-j)
        }
        int[] send = new int[3 * size + 1], recv = new int[3 * size];
        for (int j = 0; j < size; j++) {
            send[3 * j + 1] = rank * 1000 + j;
            send[3 * j + 2] = -(rank * 1000 + j);
        }
        java.util.Arrays.fill(recv, 7);
        comm.allToAllw(send, counts, sd, types, recv, counts, rd, types);
        int[] expect = new int[3 * size];
        java.util.Arrays.fill(expect, 7);
        for (int i = 0; i < size; i++) {
            expect[3 * (size - 1 - i)] = i * 1000 + rank;
            expect[3 * (size - 1 - i) + 1] = -(i * 1000 + rank);
        }
        Check.arrays(expect, recv, "allToAllw of int[] with byte displacements");
    }

    /** Bad input: checked before anything moves, on every rank alike (so no rank is left waiting). */
    @RankTest
    public void badAllToAllw(Intracomm comm) {
        int size = comm.getSize();
        int[] ones = new int[size], zeros = new int[size], neg = new int[size];
        Datatype[] ints = new Datatype[size], withNull = new Datatype[size], objs = new Datatype[size];
        java.util.Arrays.fill(ones, 1);
        java.util.Arrays.fill(ints, MPI.INT);
        java.util.Arrays.fill(withNull, MPI.INT);
        withNull[size - 1] = null;
        java.util.Arrays.fill(objs, MPI.OBJECT);
        neg[size - 1] = -4;
        int[] disp = new int[size];
        for (int j = 0; j < size; j++) disp[j] = 4 * j;
        int[] a = new int[size], b = new int[size];
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.allToAllw(a, new int[size + 1], disp, ints, b, ones, disp, ints),
                "sendcounts has " + (size + 1) + " entries", "" + size);
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.allToAllw(a, ones, null, ints, b, ones, disp, ints), "sdispls is null");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.allToAllw(a, ones, disp, ints, b, ones, neg, ints),
                "rdispls[" + (size - 1) + "] = -4");
        Check.throwsMpi(MPI.ERR_COUNT, () -> comm.allToAllw(a, neg, disp, ints, b, ones, disp, ints),
                "sendcounts[" + (size - 1) + "] = -4");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.allToAllw(a, ones, disp, withNull, b, ones, disp, ints),
                "sendtypes[" + (size - 1) + "] is null");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.allToAllw(a, ones, disp, objs, b, ones, disp, ints), "MPI.OBJECT");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.iAllToAllw(new double[size], ones, disp, ints, b, ones, disp, ints),
                "MPI.INT", "double[]");
        int[] far = disp.clone();
        far[0] = 4 * size; // one int past the end of b
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allToAllw(a, ones, disp, ints, b, ones, far, ints), "recvbuf",
                "int[" + size + "]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allToAllw(a, ones, disp, ints, a, ones, disp, ints), "same");
        // MPI.IN_PLACE is taken (MPI-2.2); its receive side is checked as usual.
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allToAllw(MPI.IN_PLACE, zeros, disp, ints, b, ones, far, ints),
                "recvbuf", "int[" + size + "]");
        comm.barrier();
    }
}
