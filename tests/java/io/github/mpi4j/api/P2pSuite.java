package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/** Point-to-point semantics, checked with values computed from rank and index. */
public class P2pSuite {

    private static int next(Intracomm c) {
        return (c.getRank() + 1) % c.getSize();
    }

    private static int prev(Intracomm c) {
        return (c.getRank() + c.getSize() - 1) % c.getSize();
    }

    /** Every kind, arrays and direct buffers, around a ring: iSend to the next, recv from the previous. */
    @RankTest
    public void ringAllKinds(Intracomm comm) {
        for (Data d : Data.values()) {
            for (boolean direct : new boolean[] {Holder.ARRAY, Holder.DIRECT}) {
                for (int n : new int[] {0, 1, 13, 5000}) {
                    Holder out = new Holder(d, direct, d.array(comm.getRank(), n));
                    Holder in = new Holder(d, direct, d.newArray(n));
                    Request r = comm.iSend(out.buf, n, d.type, next(comm), 7);
                    Status s = comm.recv(in.buf, n, d.type, prev(comm), 7);
                    r.waitFor();
                    String what = d + "/" + Holder.kind(direct) + "/n=" + n;
                    Check.arrays(d.array(prev(comm), n), in.contents(), what);
                    Check.equal(prev(comm), s.getSource(), what + " source");
                    Check.equal(7, s.getTag(), what + " tag");
                    Check.equal(n, s.getCount(d.type), what + " count");
                }
            }
        }
    }

    /** The four send modes between ranks 0 and 1. */
    @RankTest(minSize = 2, processOnly = true)
    public void sendModes(Intracomm comm) {
        int rank = comm.getRank();
        int[] buf = new int[64];
        ByteBuffer attached = MPI.newByteBuffer(64 * 4 + MPI.BSEND_OVERHEAD * 4);
        if (rank == 0) {
            MPI.attachBuffer(attached);
            comm.send(fill(64, 1), 64, MPI.INT, 1, 1);
            comm.sSend(fill(64, 2), 64, MPI.INT, 1, 2);
            comm.bSend(fill(64, 3), 64, MPI.INT, 1, 3);
            comm.barrier(); // rank 1 has posted the receive for the ready send
            comm.rSend(fill(64, 4), 64, MPI.INT, 1, 4);
            MPI.detachBuffer();
        } else if (rank == 1) {
            for (int k = 1; k <= 3; k++) {
                comm.recv(buf, 64, MPI.INT, 0, k);
                Check.arrays(fill(64, k), buf, "mode " + k);
            }
            Request ready = comm.iRecv(buf, 64, MPI.INT, 0, 4);
            comm.barrier();
            ready.waitFor();
            Check.arrays(fill(64, 4), buf, "ready send");
        } else {
            comm.barrier();
        }
    }

    private static int[] fill(int n, int seed) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = seed * 1000 + i;
        return a;
    }

    /** ANY_SOURCE/ANY_TAG at rank 0; per-sender order must be kept (non-overtaking). */
    /**
     * An empty message may name any object as its buffer (programs for Open MPI's bindings pass
     * an Integer): nothing moves, the status says 0 items; with a count it is still refused.
     */
    @RankTest(minSize = 2)
    public void emptyMessageWithPlaceholderObject(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Integer placeholder = 7;
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        Request r = comm.iRecv(new int[0], 0, MPI.INT, prev, 31);
        comm.send(placeholder, 0, MPI.INT, next, 31);
        Status s = r.waitStatus();
        Check.equal(prev, s.getSource(), "source of the empty message");
        Check.equal(0, s.getCount(MPI.INT), "items in the empty message");
        comm.send(placeholder, 0, MPI.INT, next, 32);
        Status s2 = comm.recv(placeholder, 0, MPI.INT, prev, 32);
        Check.equal(0, s2.getCount(MPI.INT), "items received into a placeholder");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(placeholder, 1, MPI.INT, next, 33),
                "must be a Java array or a direct NIO buffer", "java.lang.Integer");
        comm.barrier();
    }

    @RankTest(minSize = 2)
    public void wildcardsKeepOrderPerSender(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int perSender = 20;
        if (rank != 0) {
            for (int k = 0; k < perSender; k++) {
                comm.send(new int[] {rank, k}, 2, MPI.INT, 0, 100 + k % 3);
            }
            return;
        }
        int[] nextExpected = new int[size];
        int[] msg = new int[2];
        for (int m = 0; m < perSender * (size - 1); m++) {
            Status s = comm.recv(msg, 2, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            int src = s.getSource();
            Check.equal(src, msg[0], "payload names its sender");
            Check.equal(nextExpected[src], msg[1], "message order from rank " + src);
            Check.equal(100 + msg[1] % 3, s.getTag(), "tag");
            nextExpected[src]++;
        }
    }

    /** Receives matched by tag out of arrival order (the unexpected queue), and by source. */
    @RankTest(minSize = 2)
    public void selectByTag(Intracomm comm) {
        int rank = comm.getRank();
        if (rank == 1) {
            Request[] r = new Request[4];
            for (int t = 0; t < 4; t++) r[t] = comm.iSend(new long[] {t * 11L}, 1, MPI.LONG, 0, 40 + t);
            Request.waitAll(r);
        } else if (rank == 0) {
            long[] v = new long[1];
            for (int t = 3; t >= 0; t--) {
                Status s = comm.recv(v, 1, MPI.LONG, 1, 40 + t);
                Check.equal(t * 11L, v[0], "tag " + (40 + t));
                Check.equal(40 + t, s.getTag(), "status tag");
            }
        }
    }

    /** iProbe/probe report source, tag and size before the receive. */
    @RankTest(minSize = 2)
    public void probeThenReceive(Intracomm comm) {
        int rank = comm.getRank();
        if (rank == 1) {
            comm.send(new double[] {1.5, 2.5, 3.5}, 3, MPI.DOUBLE, 0, 9);
            comm.send(new short[] {4, 5}, 2, MPI.SHORT, 0, 10);
        } else if (rank == 0) {
            Status s;
            while ((s = comm.iProbe(1, 9)) == null) {
                Thread.onSpinWait();
            }
            Check.equal(3, s.getCount(MPI.DOUBLE), "probed count");
            Check.equal(1, s.getSource(), "probed source");
            double[] d = new double[s.getCount(MPI.DOUBLE)];
            comm.recv(d, d.length, MPI.DOUBLE, s.getSource(), s.getTag());
            Check.arrays(new double[] {1.5, 2.5, 3.5}, d, "after iProbe");
            s = comm.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
            Check.equal(10, s.getTag(), "probed tag");
            Check.equal(2, s.getCount(MPI.SHORT), "probed short count");
            Check.equal(MPI.UNDEFINED, s.getCount(MPI.LONG), "4 bytes are not a whole number of longs");
            short[] sh = new short[2];
            comm.recv(sh, 2, MPI.SHORT, s.getSource(), s.getTag());
            Check.arrays(new short[] {4, 5}, sh, "after probe");
        }
    }

    /** waitAll, waitAny, waitSome, testAll, testAny, testSome and their Status variants. */
    @RankTest
    public void requestCompletion(Intracomm comm) {
        int n = 6, rank = comm.getRank();
        int[][] in = new int[n][1];
        // waitAll + waitAllStatus
        Request[] recvs = postRecvs(comm, in, 0);
        Request[] sends = postSends(comm, 0);
        Status[] st = Request.waitAllStatus(recvs);
        Request.waitAll(sends);
        for (int k = 0; k < n; k++) {
            Check.equal(prev(comm) * 100 + k, in[k][0], "waitAll value " + k);
            Check.equal(prev(comm), st[k].getSource(), "waitAll source");
            Check.isTrue(recvs[k].isNull(), "completed request is inactive");
        }
        // waitAny until all done
        recvs = postRecvs(comm, in, 1);
        sends = postSends(comm, 1);
        boolean[] seen = new boolean[n];
        for (int k = 0; k < n; k++) {
            Status s = Request.waitAnyStatus(recvs);
            int i = s.getIndex();
            Check.isTrue(i >= 0 && i < n && !seen[i], "waitAny index " + i);
            seen[i] = true;
            Check.equal(prev(comm) * 100 + 10 + i, in[i][0], "waitAny value");
        }
        Check.equal(MPI.UNDEFINED, Request.waitAny(recvs), "waitAny with all inactive");
        Request.waitAll(sends);
        // waitSome
        recvs = postRecvs(comm, in, 2);
        sends = postSends(comm, 2);
        int done = 0;
        while (done < n) {
            int[] idx = Request.waitSome(recvs);
            Check.isTrue(idx != null && idx.length > 0, "waitSome completes at least one");
            for (int i : idx) Check.equal(prev(comm) * 100 + 20 + i, in[i][0], "waitSome value");
            done += idx.length;
        }
        Check.isTrue(Request.waitSome(recvs) == null, "waitSome with all inactive returns null");
        Request.waitAll(sends);
        // testAll / testAny / testSome polling
        recvs = postRecvs(comm, in, 3);
        sends = postSends(comm, 3);
        while (!Request.testAll(recvs)) Thread.onSpinWait();
        Request.waitAll(sends);
        recvs = postRecvs(comm, in, 4);
        sends = postSends(comm, 4);
        done = 0;
        while (done < n) {
            Status s = Request.testAnyStatus(recvs);
            if (s != null && s.getIndex() >= 0) done++;
        }
        Request.waitAll(sends);
        recvs = postRecvs(comm, in, 5);
        sends = postSends(comm, 5);
        done = 0;
        while (done < n) {
            int[] idx = Request.testSome(recvs);
            if (idx != null) done += idx.length;
        }
        for (int k = 0; k < n; k++) Check.equal(prev(comm) * 100 + 50 + k, in[k][0], "testSome value");
        Request.waitAll(sends);
        Check.isTrue(Request.testAll(recvs), "testAll of inactive requests");
        Check.isTrue(rank >= 0, "rank");
    }

    private static Request[] postRecvs(Intracomm comm, int[][] in, int round) {
        Request[] r = new Request[in.length];
        for (int k = 0; k < in.length; k++) r[k] = comm.iRecv(in[k], 1, MPI.INT, prev(comm), 300 + round * 10 + k);
        return r;
    }

    private static Request[] postSends(Intracomm comm, int round) {
        Request[] r = new Request[6];
        for (int k = 0; k < 6; k++) {
            r[k] = comm.iSend(new int[] {comm.getRank() * 100 + round * 10 + k}, 1, MPI.INT, next(comm),
                    300 + round * 10 + k);
        }
        return r;
    }

    @RankTest
    public void sendRecvAndReplace(Intracomm comm) {
        double[] out = {comm.getRank() + 0.5, -comm.getRank()};
        double[] in = new double[2];
        Status s = comm.sendRecv(out, 2, MPI.DOUBLE, next(comm), 5, in, 2, MPI.DOUBLE, prev(comm), 5);
        Check.arrays(new double[] {prev(comm) + 0.5, -prev(comm)}, in, "sendRecv");
        Check.equal(prev(comm), s.getSource(), "sendRecv source");
        IntBuffer buf = MPI.newIntBuffer(3);
        buf.put(0, comm.getRank()).put(1, 7).put(2, comm.getRank() * 2);
        comm.sendRecvReplace(buf, 3, MPI.INT, next(comm), 6, prev(comm), 6);
        Check.equal(prev(comm), buf.get(0), "replace [0]");
        Check.equal(prev(comm) * 2, buf.get(2), "replace [2]");
    }

    @RankTest
    public void procNull(Intracomm comm) {
        int[] b = {42};
        comm.send(b, 1, MPI.INT, MPI.PROC_NULL, 1);
        Status s = comm.recv(b, 1, MPI.INT, MPI.PROC_NULL, 1);
        Check.equal(MPI.PROC_NULL, s.getSource(), "source");
        Check.equal(0, s.getCount(MPI.INT), "count");
        Check.equal(42, b[0], "buffer untouched");
        Request r = comm.iRecv(b, 1, MPI.INT, MPI.PROC_NULL, 1);
        Check.equal(MPI.PROC_NULL, r.waitStatus().getSource(), "iRecv source");
    }

    @RankTest
    public void persistentRequests(Intracomm comm) {
        int[] out = new int[4];
        IntBuffer in = MPI.newIntBuffer(4);
        Prequest send = comm.sendInit(out, 4, MPI.INT, next(comm), 77);
        Prequest recv = comm.recvInit(in, 4, MPI.INT, prev(comm), 77);
        for (int round = 0; round < 5; round++) {
            if (round == 2) {
                // A started receive cancelled before any message: the next start still receives
                // (the fabric posts a fresh operation after a cancel, reuses it otherwise). The
                // barriers keep every send of this round until all have cancelled.
                comm.barrier();
                recv.start();
                recv.cancel();
                Check.isTrue(recv.waitStatus().isCancelled(), "a cancelled persistent receive reports it");
                comm.barrier();
            }
            for (int i = 0; i < 4; i++) out[i] = comm.getRank() * 10 + round + i;
            for (int i = 0; i < 4; i++) in.put(i, -1);
            recv.start();
            send.start();
            Status[] got = Request.waitAllStatus(new Request[] {recv, send});
            for (int i = 0; i < 4; i++) Check.equal(prev(comm) * 10 + round + i, in.get(i), "round " + round);
            Check.equal(prev(comm), got[0].getSource(), "round " + round + ": source");
            Check.equal(77, got[0].getTag(), "round " + round + ": tag");
            Check.equal(4, got[0].getCount(MPI.INT), "round " + round + ": count");
            Check.isTrue(!got[0].isCancelled(), "round " + round + ": not cancelled");
            Check.isTrue(!recv.isNull(), "a persistent request stays allocated");
        }
        send.free();
        recv.free();
    }

    /**
     * A completed send's status: MPI defines only that it is not cancelled (source, tag and count
     * are undefined; Open MPI gives the empty status for a standard send and its own rank for a
     * synchronous one, the fabric the empty status for all). Checked whether the send finished
     * at the call (small), by rendezvous (large), synchronously or through a persistent request,
     * with the data it carried.
     */
    @RankTest
    public void sendStatuses(Intracomm comm) {
        for (int n : new int[] {1, 1 << 18}) {
            int[] out = fill(n, comm.getRank());
            int[][] in = new int[3][n];
            Request recv = comm.iRecv(in[0], n, MPI.INT, prev(comm), 31);
            Request[] sends = {comm.iSend(out, n, MPI.INT, next(comm), 31), comm.iSSend(out, n, MPI.INT, next(comm), 32)};
            Request recv2 = comm.iRecv(in[1], n, MPI.INT, prev(comm), 32);
            Prequest persistent = comm.sendInit(out, n, MPI.INT, next(comm), 33);
            persistent.start();
            Status got = recv.waitStatus();
            Check.equal(n, got.getCount(MPI.INT), "receive count, n=" + n);
            Check.equal(31, got.getTag(), "receive tag, n=" + n);
            recv2.waitFor();
            comm.recv(in[2], n, MPI.INT, prev(comm), 33);
            for (int[] received : in) Check.arrays(fill(n, prev(comm)), received, "n=" + n);
            Status[] statuses = {sends[0].waitStatus(), sends[1].waitStatus(), persistent.waitStatus()};
            String[] names = {"iSend", "iSSend", "persistent send"};
            for (int k = 0; k < statuses.length; k++) {
                Check.isTrue(!statuses[k].isCancelled(), names[k] + " of " + n + " ints: cancelled");
            }
            persistent.free();
        }
    }

    /** mpiJava 1.2 style: offsets in elements, Rank()/Size(), Status fields. */
    @RankTest
    public void mpiJavaStyle(Intracomm comm) {
        int rank = comm.Rank(), size = comm.Size();
        int[] out = new int[10];
        int[] in = new int[10];
        for (int i = 0; i < 10; i++) out[i] = rank * 100 + i;
        Request r = comm.Isend(out, 3, 4, MPI.INT, (rank + 1) % size, 8);
        Status s = comm.Recv(in, 5, 4, MPI.INT, (rank + size - 1) % size, 8);
        r.Wait();
        int p = (rank + size - 1) % size;
        Check.arrays(new int[] {0, 0, 0, 0, 0, p * 100 + 3, p * 100 + 4, p * 100 + 5, p * 100 + 6, 0}, in, "offsets");
        Check.equal(p, s.source, "Status.source");
        Check.equal(8, s.tag, "Status.tag");
        Check.equal(4, s.Get_count(MPI.INT), "Get_count");
        comm.Sendrecv(out, 0, 2, MPI.INT, (rank + 1) % size, 9, in, 8, 2, MPI.INT, p, 9);
        Check.equal(p * 100 + 1, in[9], "Sendrecv with offsets");
    }

    /** MPI.OBJECT (mpiJava): serializable objects in Object[] buffers. */
    @RankTest
    public void objects(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Object[] out = {"from " + rank, rank, Arrays.asList(rank, rank * 2), null};
        Object[] in = new Object[5];
        Request r = comm.Isend(out, 0, 4, MPI.OBJECT, (rank + 1) % size, 3);
        Status s = comm.Recv(in, 1, 4, MPI.OBJECT, (rank + size - 1) % size, 3);
        r.Wait();
        int p = (rank + size - 1) % size;
        Check.equal("from " + p, in[1], "string");
        Check.equal(p, in[2], "integer");
        Check.equal(Arrays.asList(p, p * 2), in[3], "list");
        Check.equal(4, s.getCount(MPI.OBJECT), "object count");
        Object[] shared = new Object[2];
        if (rank == 0) {
            shared[0] = new ArrayList<>(List.of("a", "b"));
            shared[1] = 3.25;
        }
        comm.Bcast(shared, 0, 2, MPI.OBJECT, 0);
        Check.equal(List.of("a", "b"), shared[0], "bcast object 0");
        Check.equal(3.25, shared[1], "bcast object 1");
    }

    /** MPI.slice of direct buffers and arrays selects where data goes (position is ignored). */
    @RankTest
    public void slices(Intracomm comm) {
        IntBuffer big = MPI.newIntBuffer(10);
        int[] arr = new int[10];
        int[] out = {comm.getRank() + 1, comm.getRank() + 2};
        big.position(9); // ignored
        Request r1 = comm.iSend(out, 2, MPI.INT, next(comm), 1);
        comm.recv(MPI.slice(big, 6), 2, MPI.INT, prev(comm), 1);
        r1.waitFor();
        Check.equal(prev(comm) + 1, big.get(6), "slice[0]");
        Check.equal(prev(comm) + 2, big.get(7), "slice[1]");
        Check.equal(0, big.get(5), "before the slice");
        Request r2 = comm.iSend(out, 2, MPI.INT, next(comm), 2);
        comm.recv(MPI.slice(arr, 3), 2, MPI.INT, prev(comm), 2);
        r2.waitFor();
        Check.arrays(new int[] {0, 0, 0, prev(comm) + 1, prev(comm) + 2, 0, 0, 0, 0, 0}, arr, "array slice");
    }

    /**
     * The same direct buffers again and again, at several offsets, blocking and non-blocking: each
     * call lands where its offset says (a buffer met before from an offset reuses the descriptor
     * its first call made, Buffers.resolve).
     */
    @RankTest
    public void directBuffersReusedAtOffsets(Intracomm comm) {
        IntBuffer in = MPI.newIntBuffer(8);
        DoubleBuffer out = MPI.newDoubleBuffer(8);
        DoubleBuffer back = MPI.newDoubleBuffer(8);
        IntBuffer src = MPI.newIntBuffer(8);
        int from = prev(comm);
        for (int round = 0; round < 3; round++) {
            for (int off = 0; off < 8; off += 3) {
                for (int i = 0; i < 8; i++) {
                    src.put(i, comm.getRank() * 100 + round * 10 + i);
                    out.put(i, comm.getRank() + round + i / 8.0);
                    in.put(i, -1);
                    back.put(i, -1);
                }
                int n = Math.min(2, 8 - off);
                Request r = comm.Irecv(in, off, n, MPI.INT, from, 7);
                comm.Send(src, off, n, MPI.INT, next(comm), 7);
                r.waitFor();
                Request s = comm.Isend(out, off, n, MPI.DOUBLE, next(comm), 8);
                comm.Recv(back, off, n, MPI.DOUBLE, from, 8);
                s.waitFor();
                for (int i = 0; i < 8; i++) {
                    boolean sent = i >= off && i < off + n;
                    String at = "round " + round + " offset " + off + " element " + i;
                    Check.equal(sent ? from * 100 + round * 10 + i : -1, in.get(i), "ints, " + at);
                    Check.equal(sent ? from + round + i / 8.0 : -1.0, back.get(i), "doubles, " + at);
                }
            }
        }
    }

    /**
     * Windows of 200 non-blocking messages from and into arrays, each message shorter than its
     * receive array: 12 bytes (the MPI backend stages it in its smallest class, which a thread
     * keeps 128 of, and copies the whole array range back) and 4,400 bytes (a larger class, and
     * only the bytes that arrived copied back), completed by waitAll, then by single waits in
     * reverse. Every message lands in its own array, and the rest of each array is untouched.
     */
    @RankTest
    public void wideWindowsOfArrays(Intracomm comm) {
        int from = prev(comm), to = next(comm), me = comm.getRank();
        final int w = 200;
        for (int round = 0; round < 4; round++) {
            int n = round % 2 == 0 ? 3 : 1100;
            int[][] in = new int[w][n + 2];
            Request[] r = new Request[w], s = new Request[w];
            for (int k = 0; k < w; k++) {
                Arrays.fill(in[k], -5);
                r[k] = comm.iRecv(in[k], n + 2, MPI.INT, from, 40);
            }
            for (int k = 0; k < w; k++) s[k] = comm.iSend(fill(n, me * 1000 + round * w + k), n, MPI.INT, to, 40);
            if (round < 2) {
                Request.waitAll(r);
            } else {
                for (int k = w - 1; k >= 0; k--) r[k].waitFor();
            }
            Request.waitAll(s);
            for (int k = 0; k < w; k++) {
                int[] want = Arrays.copyOf(fill(n, from * 1000 + round * w + k), n + 2);
                want[n] = -5;
                want[n + 1] = -5;
                Check.arrays(want, in[k], "round " + round + ", message " + k + " of " + n + " ints");
            }
        }
    }

    /** Large messages (beyond any eager limit) land intact, arrays and direct. */
    @RankTest
    public void largeMessages(Intracomm comm) {
        int n = 1 << 20;
        for (boolean direct : new boolean[] {false, true}) {
            double[] src = new double[n];
            for (int i = 0; i < n; i++) src[i] = comm.getRank() * 1e6 + i;
            Holder out = new Holder(Data.DOUBLE, direct, src);
            Holder in = new Holder(Data.DOUBLE, direct, new double[n]);
            Request r = comm.iRecv(in.buf, n, MPI.DOUBLE, prev(comm), 11);
            comm.send(out.buf, n, MPI.DOUBLE, next(comm), 11);
            r.waitFor();
            double[] got = (double[]) in.contents();
            for (int i = 0; i < n; i += 4099) Check.near(prev(comm) * 1e6 + i, got[i], 0, "element " + i);
            Check.near(prev(comm) * 1e6 + n - 1, got[n - 1], 0, "last element");
        }
    }

    /** A message shorter than the receive buffer writes only its own bytes (blocking and not). */
    @RankTest
    public void shortMessageLeavesRestUntouched(Intracomm comm) {
        for (int n : new int[] {3, 3000}) {
            int[] in = new int[n + 5];
            java.util.Arrays.fill(in, -7);
            int[] out = new int[n];
            java.util.Arrays.fill(out, comm.getRank());
            Request r = comm.iRecv(in, n + 5, MPI.INT, prev(comm), 21);
            comm.send(out, n, MPI.INT, next(comm), 21);
            Status s = r.waitStatus();
            Check.equal(n, s.getCount(MPI.INT), "count");
            Check.equal(prev(comm), in[n - 1], "last received");
            for (int i = n; i < n + 5; i++) Check.equal(-7, in[i], "untouched element " + i);
            java.util.Arrays.fill(in, -7);
            Request w = comm.iSend(out, n, MPI.INT, next(comm), 22);
            comm.recv(in, n + 5, MPI.INT, prev(comm), 22);
            w.waitFor();
            for (int i = n; i < n + 5; i++) Check.equal(-7, in[i], "untouched element " + i + " (blocking)");
            java.util.Arrays.fill(in, -7);
            Request[] rs = {comm.iRecv(in, n + 5, MPI.INT, prev(comm), 23), comm.iSend(out, n, MPI.INT, next(comm), 23)};
            Request.waitAll(rs);
            for (int i = n; i < n + 5; i++) Check.equal(-7, in[i], "untouched element " + i + " (waitAll)");
        }
    }

    /** A receive can be cancelled; the status says so. */
    @RankTest
    public void cancelReceive(Intracomm comm) {
        int[] b = new int[1];
        Request r = comm.iRecv(b, 1, MPI.INT, MPI.ANY_SOURCE, 999);
        r.cancel();
        Status s = r.waitStatus();
        Check.isTrue(s.isCancelled(), "cancelled receive reports isCancelled");
    }

    /** A message longer than the receive buffer is an error (MPI_ERR_TRUNCATE), not a crash. */
    @RankTest(minSize = 2)
    public void truncation(Intracomm comm) {
        if (comm.getRank() == 0) {
            comm.send(new int[8], 8, MPI.INT, 1, 12);
        } else if (comm.getRank() == 1) {
            int[] small = new int[4];
            Check.throwsMpi(MPI.ERR_TRUNCATE, () -> comm.recv(small, 4, MPI.INT, 0, 12));
        }
    }
    /**
     * MPI_Testall completes all or nothing: while one receive cannot complete, testAll reports
     * false and leaves the finished one active, which later reports its own source and tag.
     * With int buffers and with MPI.OBJECT (which completes through a probe).
     */
    @RankTest(minSize = 2)
    public void testAllModifiesNothingUntilAllComplete(Intracomm comm) {
        for (boolean objects : new boolean[] {false, true}) {
            String kind = objects ? "MPI.OBJECT" : "MPI.INT";
            int rank = comm.getRank();
            if (rank == 0) {
                send(comm, objects, 41, 1, 21);
                comm.send(new int[1], 1, MPI.INT, 1, 20); // after 21: once it is in, so is 21
                comm.recv(new int[1], 1, MPI.INT, 1, 23); // rank 1 has seen testAll say "not all"
                send(comm, objects, 42, 1, 22);
            } else if (rank == 1) {
                Object[] objIn = new Object[2];
                int[][] intIn = {new int[1], new int[1]};
                Request[] reqs = {
                    objects ? comm.iRecv(objIn, 1, MPI.OBJECT, 0, 21) : comm.iRecv(intIn[0], 1, MPI.INT, 0, 21),
                    objects ? comm.Irecv(objIn, 1, 1, MPI.OBJECT, 0, 22) : comm.iRecv(intIn[1], 1, MPI.INT, 0, 22)};
                comm.recv(new int[1], 1, MPI.INT, 0, 20); // the first message has arrived too
                Check.isTrue(Request.testAllStatus(reqs) == null, kind + ": testAll before the second send");
                Check.isTrue(!reqs[0].isNull(), kind + ": testAll returned false but freed the finished request");
                Check.isTrue(!Request.testAll(new Request[] {reqs[1]}), kind + ": second receive cannot be done");
                Check.equal(MPI.UNDEFINED, Request.testAny(new Request[] {reqs[1]}),
                        kind + ": testAny with nothing completed");
                Check.isTrue(Request.testAnyStatus(new Request[] {reqs[1]}) == null, kind + ": testAnyStatus");
                Check.equal(0, Request.Testsome(new Request[] {reqs[1]}).length, kind + ": mpiJava Testsome");
                Check.equal(0, Request.testSome(new Request[] {reqs[1]}).length, kind + ": testSome");
                comm.send(new int[1], 1, MPI.INT, 0, 23);
                Status[] st = null;
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (st == null && System.nanoTime() < deadline) st = Request.testAllStatus(reqs);
                Check.isTrue(st != null, kind + ": testAll never completed");
                for (int k = 0; k < 2; k++) {
                    Check.equal(0, st[k].getSource(), kind + ": status " + k + " source");
                    Check.equal(21 + k, st[k].getTag(), kind + ": status " + k + " tag");
                    Check.isTrue(reqs[k].isNull(), kind + ": request " + k + " inactive after testAll");
                }
                Check.equal(1, objects ? st[0].getCount(MPI.OBJECT) : st[0].getCount(MPI.INT), kind + ": count");
                if (objects) {
                    Check.arrays(new Object[] {41, 42}, objIn, kind + ": data");
                } else {
                    Check.arrays(new int[] {41, 42}, new int[] {intIn[0][0], intIn[1][0]}, kind + ": data");
                }
                // All inactive: the mpiJava forms give empty arrays, never null.
                Check.equal(0, Request.Testsome(reqs).length, kind + ": Testsome of inactive requests");
                Check.equal(0, Request.Waitsome(reqs).length, kind + ": Waitsome of inactive requests");
                Check.equal(MPI.UNDEFINED, Request.testAny(reqs), kind + ": testAny of inactive requests");
            }
        }
    }

    private static void send(Intracomm comm, boolean objects, int value, int dest, int tag) {
        if (objects) comm.send(new Object[] {value}, 1, MPI.OBJECT, dest, tag);
        else comm.send(new int[] {value}, 1, MPI.INT, dest, tag);
    }

    /** MPI_Request_get_status reports a completion without freeing the request. */
    @RankTest(minSize = 2)
    public void getStatusLeavesRequestActive(Intracomm comm) {
        if (comm.getRank() == 0) {
            comm.send(new int[] {7}, 1, MPI.INT, 1, 24);
        } else if (comm.getRank() == 1) {
            int[] in = new int[1];
            Request r = comm.iRecv(in, 1, MPI.INT, 0, 24);
            Status s = null;
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (s == null && System.nanoTime() < deadline) s = r.getStatus();
            Check.isTrue(s != null && s.getTag() == 24, "getStatus reports the completion");
            Check.isTrue(!r.isNull(), "getStatus must not free the request");
            Status w = r.waitStatus();
            Check.equal(0, w.getSource(), "wait after getStatus: source");
            Check.equal(24, w.getTag(), "wait after getStatus: tag");
            Check.equal(7, in[0], "data");
        }
    }

    /**
     * The fabric posts a completed receive's backend request and operation again for a later
     * iRecv once the API has reported the completion. Every way of completing a window (waitAll,
     * single waits in reverse, test loops, waitAny, waitSome, getStatus then wait) must leave
     * the next windows their own data and status, small messages and large (rendezvous) ones,
     * with wildcard sources, after a cancelled receive and after a freed active one.
     */
    @RankTest
    public void receiveRequestsAfterEveryKindOfCompletion(Intracomm comm) {
        int from = prev(comm), to = next(comm), me = comm.getRank();
        final int w = 5;
        for (int round = 0; round < 18; round++) {
            int n = round % 3 == 2 ? 1 << 16 : 1 + round;
            int[][] in = new int[w][n];
            Request[] r = new Request[w];
            for (int k = 0; k < w; k++) {
                r[k] = comm.iRecv(in[k], n, MPI.INT, k % 2 == 0 ? from : MPI.ANY_SOURCE, 300 + k);
            }
            if (round == 4) {  // a cancelled receive between windows: it is not reused
                int[] never = new int[1];
                Request c = comm.iRecv(never, 1, MPI.INT, from, 399);
                c.cancel();
                Check.isTrue(c.waitStatus().isCancelled(), "round 4: the extra receive reports its cancel");
            }
            Request[] s = new Request[w];
            for (int k = w - 1; k >= 0; k--) s[k] = comm.iSend(fill(n, me * 100 + round * 5 + k), n, MPI.INT, to, 300 + k);
            Status[] got = completeAll(r, round % 6);
            for (int k = 0; k < w; k++) {
                String what = "round " + round + " (completion " + round % 6 + "), receive " + k;
                Check.arrays(fill(n, from * 100 + round * 5 + k), in[k], what);
                Check.equal(from, got[k].getSource(), what + ": source");
                Check.equal(300 + k, got[k].getTag(), what + ": tag");
                Check.equal(n, got[k].getCount(MPI.INT), what + ": count");
                Check.isTrue(r[k].isNull(), what + ": inactive after completion");
            }
            Request.waitAll(s);
            if (round == 7) {  // a receive freed while active: it takes its own message, no later one
                Request f = comm.iRecv(new int[3], 3, MPI.INT, from, 398);
                f.free();
                Check.isTrue(f.isNull(), "a freed receive is inactive");
                comm.send(fill(3, me), 3, MPI.INT, to, 398);
            }
        }
    }

    /** Completes every request of {@code r} in one of six ways; the statuses by index. */
    private static Status[] completeAll(Request[] r, int way) {
        Status[] got = new Status[r.length];
        switch (way) {
            case 0:
                return Request.waitAllStatus(r);
            case 1:
                for (int k = r.length - 1; k >= 0; k--) got[k] = r[k].waitStatus();
                return got;
            case 2:
                for (int left = r.length; left > 0; ) {
                    for (int k = 0; k < r.length; k++) {
                        if (got[k] != null) continue;
                        Status t = r[k].testStatus();
                        if (t != null) {
                            got[k] = t;
                            left--;
                        }
                    }
                }
                return got;
            case 3:
                for (int k = 0; k < r.length; k++) {
                    Status t = Request.waitAnyStatus(r);
                    got[t.getIndex()] = t;
                }
                return got;
            case 4:
                for (int left = r.length; left > 0; ) {
                    for (Status t : Request.waitSomeStatus(r)) {
                        got[t.getIndex()] = t;
                        left--;
                    }
                }
                return got;
            default:
                for (int k = 0; k < r.length; k++) {
                    while (r[k].getStatus() == null) Thread.onSpinWait();
                    got[k] = r[k].waitStatus();
                }
                return got;
        }
    }
}
