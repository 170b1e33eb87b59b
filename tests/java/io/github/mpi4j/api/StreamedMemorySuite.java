package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * Every kind of Java memory through a transport that streams it (the fabric's TCP): arrays
 * (written and read by their descriptor, or staged), booleans (always staged), direct buffers of
 * this machine's byte order (written and read in place, typed ones through a view) and of the
 * other order (staged and converted). Sizes below the copy-next-to-the-header limit, eager ones
 * that go out with their header in one gathering write, and rendezvous ones of several frames;
 * messages taken when they arrive unexpected and when their receive is already posted. Values
 * come from rank and index; every check is against them.
 */
public class StreamedMemorySuite {
    /** Small (copied next to the header), eager (gathered), rendezvous over several 1 MiB frames. */
    private static final int[] DOUBLES = {3, 9_000, 300_001};

    private static double value(int rank, int i) {
        return rank * 1e6 + i * 0.5 - 7;
    }

    private static ByteOrder otherOrder() {
        return ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    }

    private static DoubleBuffer direct(int n, ByteOrder order) {
        return ByteBuffer.allocateDirect(8 * n).order(order).asDoubleBuffer();
    }

    private static double[] contents(DoubleBuffer b, int n) {
        double[] out = new double[n];
        for (int i = 0; i < n; i++) out[i] = b.get(i);
        return out;
    }

    private static double[] expected(int rank, int n, int from) {
        double[] e = new double[n];
        for (int i = 0; i < n; i++) e[i] = value(rank, from + i);
        return e;
    }

    /** Rank 0 sends each form to rank 1 (posted first, then unexpected); rank 1 receives it into each form. */
    @RankTest
    public void everyFormOfMemoryBothWays(Intracomm comm) {
        int me = comm.getRank();
        if (me > 1) return;
        ByteOrder[] orders = {null, ByteOrder.nativeOrder(), otherOrder()}; // null: a double[]
        for (int n : DOUBLES) {
            for (ByteOrder from : orders) {
                for (ByteOrder to : orders) {
                    for (boolean unexpected : new boolean[] {false, true}) {
                        String what = "n=" + n + " from " + (from == null ? "array" : "direct " + from) + " to "
                                + (to == null ? "array" : "direct " + to) + (unexpected ? " unexpected" : " posted");
                        if (me == 0) {
                            if (!unexpected) comm.recv(new int[1], 1, MPI.INT, 1, 9); // the receive is posted
                            if (from == null) {
                                double[] a = new double[n + 2];
                                for (int i = 0; i < n + 2; i++) a[i] = value(0, i);
                                comm.Send(a, 2, n, MPI.DOUBLE, 1, 5); // from element 2 (mpiJava offset)
                            } else {
                                DoubleBuffer d = direct(n + 2, from);
                                for (int i = 0; i < n + 2; i++) d.put(i, value(0, i));
                                comm.send(MPI.slice(d, 2), n, MPI.DOUBLE, 1, 5);
                            }
                            if (unexpected) comm.recv(new int[1], 1, MPI.INT, 1, 9);
                        } else {
                            Request posted = null;
                            double[] a = to == null ? new double[n + 1] : null;
                            DoubleBuffer d = to == null ? null : direct(n + 1, to);
                            if (!unexpected) {
                                posted = a != null ? comm.Irecv(a, 1, n, MPI.DOUBLE, 0, 5)
                                        : comm.iRecv(MPI.slice(d, 1), n, MPI.DOUBLE, 0, 5);
                                comm.send(new int[1], 1, MPI.INT, 0, 9);
                                posted.waitFor();
                            } else {
                                // Wait until the message has certainly arrived before receiving it.
                                comm.probe(0, 5);
                                if (a != null) comm.Recv(a, 1, n, MPI.DOUBLE, 0, 5);
                                else comm.recv(MPI.slice(d, 1), n, MPI.DOUBLE, 0, 5);
                                comm.send(new int[1], 1, MPI.INT, 0, 9);
                            }
                            double[] got = a != null ? java.util.Arrays.copyOfRange(a, 1, n + 1)
                                    : java.util.Arrays.copyOfRange(contents(d, n + 1), 1, n + 1);
                            Check.arrays(expected(0, n, 2), got, what);
                            Check.equal(0.0, a != null ? a[0] : d.get(0), what + ": element before the range untouched");
                        }
                    }
                }
            }
        }
    }

    /** Booleans and ints in arrays, at the sizes of every path. */
    @RankTest
    public void booleansAndIntsAroundARing(Intracomm comm) {
        int me = comm.getRank(), size = comm.getSize();
        int next = (me + 1) % size, prev = (me + size - 1) % size;
        for (int n : new int[] {5, 40_000, 1_500_001}) {
            boolean[] bs = new boolean[n], br = new boolean[n];
            int[] is = new int[n], ir = new int[n];
            for (int i = 0; i < n; i++) {
                bs[i] = (i * 7 + me) % 3 == 0;
                is[i] = me * 1_000_003 + i;
            }
            Request r1 = comm.iRecv(br, n, MPI.BOOLEAN, prev, 1), r2 = comm.iRecv(ir, n, MPI.INT, prev, 2);
            comm.send(bs, n, MPI.BOOLEAN, next, 1);
            comm.send(is, n, MPI.INT, next, 2);
            r1.waitFor();
            r2.waitFor();
            for (int i = 0; i < n; i++) {
                if (br[i] != ((i * 7 + prev) % 3 == 0)) Check.isTrue(false, "boolean " + i + " of " + n);
                if (ir[i] != prev * 1_000_003 + i) Check.equal(prev * 1_000_003 + i, ir[i], "int " + i + " of " + n);
            }
        }
    }

    /** A large allreduce in place on a direct buffer of the other byte order, and on one of this order. */
    @RankTest
    public void allReduceOnDirectBuffersOfEitherOrder(Intracomm comm) {
        int size = comm.getSize(), me = comm.getRank(), n = 400_003;
        for (ByteOrder order : new ByteOrder[] {ByteOrder.nativeOrder(), otherOrder()}) {
            DoubleBuffer d = direct(n, order);
            for (int i = 0; i < n; i++) d.put(i, value(me, i));
            comm.allReduce(d, n, MPI.DOUBLE, MPI.SUM);
            double[] want = new double[n];
            for (int r = 0; r < size; r++) for (int i = 0; i < n; i++) want[i] += value(r, i);
            Check.arrays(want, contents(d, n), "allReduce direct " + order);
        }
    }
}
