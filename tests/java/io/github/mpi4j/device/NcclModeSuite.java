package io.github.mpi4j.device;

import io.github.mpi4j.cuda.Cuda;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.function.IntUnaryOperator;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.Request;
import mpi.UserFunction;

/**
 * NCCL mode ({@code MPI4J_DEVICE_COLLECTIVES=nccl}, the job's environment) against the fake
 * CUDA runtime and NCCL: the collectives NCCL can do go through NCCL on every rank, whatever
 * buffers each rank passes (DeviceBuffers, Java arrays, direct buffers, host and device mixed in
 * one call; the kind rotates with the rank, so every mix meets), and {@link NcclPath#calls()}
 * proves it; everything else keeps the staged path and still works. Expected values come from
 * rank and size only.
 */
public class NcclModeSuite {
    private static final int FILL = -7;

    /** The kinds a rank passes, rotating with rank and a per-buffer salt. */
    enum Kind { DEVICE, ARRAY, DIRECT }

    private static Kind kind(Intracomm c, int salt) {
        return Kind.values()[(c.getRank() + salt) % 3];
    }

    /** Ints of one kind, read back as an int[]. */
    private static final class Ints implements AutoCloseable {
        final Kind kind;
        final DeviceBuffer dev;
        final int[] arr;
        final IntBuffer direct;
        final int n;

        Ints(Kind kind, int[] values) {
            this.kind = kind;
            n = values.length;
            dev = kind == Kind.DEVICE ? DeviceBuffer.allocate(4L * n) : null;
            arr = kind == Kind.ARRAY ? values.clone() : null;
            direct = kind == Kind.DIRECT
                    ? ByteBuffer.allocateDirect(4 * n).order(ByteOrder.nativeOrder()).asIntBuffer() : null;
            if (dev != null) dev.copyFrom(values);
            if (direct != null) direct.put(0, values);
        }

        static Ints filled(Kind kind, int n, int value) {
            return new Ints(kind, seq(n, i -> value));
        }

        Object buf() {
            return dev != null ? dev : arr != null ? arr : direct;
        }

        int[] read() {
            int[] out = new int[n];
            if (dev != null) dev.copyTo(out);
            else if (arr != null) System.arraycopy(arr, 0, out, 0, n);
            else direct.get(0, out);
            return out;
        }

        @Override
        public void close() {
            if (dev != null) dev.close();
        }

        @Override
        public String toString() {
            return kind.toString();
        }
    }

    private static int[] seq(int n, IntUnaryOperator f) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = f.applyAsInt(i);
        return a;
    }

    /** Runs {@code body} and checks that it made exactly {@code expected} NCCL-mode calls and staged nothing. */
    private static void throughNccl(String what, int expected, Runnable body) {
        long calls = NcclPath.calls(), staged = PinnedPool.taken();
        body.run();
        Check.equal(expected, NcclPath.calls() - calls, what + ": NCCL-mode calls");
        Check.equal(0, PinnedPool.taken() - staged, what + ": pinned buffers taken (nothing is staged in NCCL mode)");
    }

    /** Runs {@code body} and checks that it made no NCCL-mode call. */
    private static void notThroughNccl(String what, Runnable body) {
        long calls = NcclPath.calls();
        body.run();
        Check.equal(0, NcclPath.calls() - calls, what + ": NCCL-mode calls");
    }

    @RankTest
    public void allReduceAndReduceGoThroughNcclWithEveryMix(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), len = 1031;
        int[] sum = seq(len, i -> n * (n - 1) / 2 * 1000 + n * i);
        for (int salt = 0; salt < 3; salt++) {
            try (Ints s = new Ints(kind(c, salt), seq(len, i -> r * 1000 + i));
                 Ints d = Ints.filled(kind(c, salt + 1), len, FILL)) {
                throughNccl("allReduce", 1, () -> c.allReduce(s.buf(), d.buf(), len, MPI.INT, MPI.SUM));
                Check.arrays(sum, d.read(), "allReduce SUM from " + s + " into " + d);
                Check.arrays(seq(len, i -> r * 1000 + i), s.read(), "allReduce's send buffer is unchanged");
            }
            try (Ints x = new Ints(kind(c, salt), seq(len, i -> r * 3 - i))) {
                throughNccl("allReduce in place", 1, () -> c.allReduce(x.buf(), len, MPI.INT, MPI.MAX));
                Check.arrays(seq(len, i -> (n - 1) * 3 - i), x.read(), "allReduce MAX in place on " + x);
            }
            int root = (n - 1 + salt) % n;
            try (Ints s = new Ints(kind(c, salt + 2), seq(len, i -> r + 2 * i));
                 Ints d = Ints.filled(kind(c, salt), len, FILL)) {
                throughNccl("reduce", 1, () -> c.reduce(s.buf(), d.buf(), len, MPI.INT, MPI.MIN, root));
                if (r == root) Check.arrays(seq(len, i -> 2 * i), d.read(), "reduce MIN at root " + root);
                else Check.arrays(seq(len, i -> FILL), d.read(), "reduce leaves a non-root's receive buffer alone");
            }
            try (Ints x = new Ints(kind(c, salt + 1), seq(len, i -> r + i))) {
                throughNccl("reduce in place", 1, () -> c.reduce(x.buf(), len, MPI.INT, MPI.SUM, root));
                if (r == root) Check.arrays(seq(len, i -> n * (n - 1) / 2 + n * i), x.read(), "reduce in place at the root");
            }
        }
    }

    @RankTest
    public void bcastAllGatherAndReduceScatterBlockGoThroughNccl(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), k = 5;
        for (int root = 0; root < n; root++) {
            int rt = root;
            int[] data = seq(300, i -> rt * 100 + i);
            try (Ints b = r == root ? new Ints(kind(c, root), data) : Ints.filled(kind(c, root), 300, FILL)) {
                throughNccl("bcast", 1, () -> c.bcast(b.buf(), 300, MPI.INT, rt));
                Check.arrays(data, b.read(), "bcast from root " + root + " into " + b);
            }
        }
        int[] gathered = seq(n * k, i -> (i / k) * 10 + i % k);
        for (int salt = 0; salt < 3; salt++) {
            try (Ints s = new Ints(kind(c, salt), seq(k, j -> r * 10 + j)); Ints d = Ints.filled(kind(c, salt + 1), n * k, FILL)) {
                throughNccl("allGather", 1, () -> c.allGather(s.buf(), k, MPI.INT, d.buf(), k, MPI.INT));
                Check.arrays(gathered, d.read(), "allGather from " + s + " into " + d);
            }
            int[] mine = new int[n * k];
            java.util.Arrays.fill(mine, FILL);
            for (int j = 0; j < k; j++) mine[r * k + j] = r * 10 + j;
            try (Ints x = new Ints(kind(c, salt), mine)) {
                throughNccl("allGather in place", 1, () -> c.allGather(x.buf(), k, MPI.INT));
                Check.arrays(gathered, x.read(), "allGather in place on " + x);
            }
            int[] block = seq(k, j -> n * (n - 1) / 2 + n * 10 * (r * k + j));
            try (Ints s = new Ints(kind(c, salt + 2), seq(n * k, i -> r + 10 * i)); Ints d = Ints.filled(kind(c, salt), k, FILL)) {
                throughNccl("reduceScatterBlock", 1, () -> c.reduceScatterBlock(s.buf(), d.buf(), k, MPI.INT, MPI.SUM));
                Check.arrays(block, d.read(), "reduceScatterBlock from " + s + " into " + d);
            }
            try (Ints x = new Ints(kind(c, salt + 1), seq(n * k, i -> r + 10 * i))) {
                throughNccl("reduceScatterBlock in place", 1, () -> c.reduceScatterBlock(x.buf(), k, MPI.INT, MPI.SUM));
                int[] got = x.read();
                Check.arrays(block, java.util.Arrays.copyOf(got, k), "reduceScatterBlock in place: the first block of " + x);
            }
        }
    }

    @RankTest
    public void nonBlockingCollectivesAreCompleteWhenTheyReturn(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), len = 211;
        try (Ints s = new Ints(kind(c, 0), seq(len, i -> r + i)); Ints d = Ints.filled(kind(c, 1), len, FILL);
             Ints b = r == 0 ? new Ints(kind(c, 2), seq(len, i -> 5 * i)) : Ints.filled(kind(c, 2), len, FILL);
             Ints g = Ints.filled(kind(c, 0), n * 2, FILL); Ints rs = Ints.filled(kind(c, 1), 2, FILL);
             Ints sc = new Ints(kind(c, 2), seq(n * 2, i -> r + i))) {
            Request[] q = new Request[5];
            throughNccl("non-blocking collectives", 5, () -> {
                q[0] = c.iAllReduce(s.buf(), d.buf(), len, MPI.INT, MPI.SUM);
                q[1] = c.iBcast(b.buf(), len, MPI.INT, 0);
                q[2] = c.iAllGather(new int[] {r, -r}, 2, MPI.INT, g.buf(), 2, MPI.INT);
                q[3] = c.iReduceScatterBlock(sc.buf(), rs.buf(), 2, MPI.INT, MPI.SUM);
                q[4] = c.iReduce(s.buf(), r == 0 ? d.buf() : null, len, MPI.INT, MPI.SUM, 0);
            });
            Check.isTrue(q[0].test(), "iAllReduce's request is complete at once");
            Request.waitAll(q);
            Check.arrays(seq(len, i -> n * (n - 1) / 2 + n * i), d.read(), "iAllReduce / iReduce");
            Check.arrays(seq(len, i -> 5 * i), b.read(), "iBcast");
            Check.arrays(seq(n * 2, i -> i % 2 == 0 ? i / 2 : -(i / 2)), g.read(), "iAllGather");
            Check.arrays(seq(2, j -> n * (n - 1) / 2 + n * (r * 2 + j)), rs.read(), "iReduceScatterBlock");
        }
    }

    @RankTest
    public void typesAndOpsNcclHas(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), len = 64;
        // LONG PROD into a direct buffer or an array; values stay small: 2^(r+1) per rank.
        long prod = 1;
        for (int q = 0; q < n; q++) prod *= 1L << (q + 1);
        long[] lv = new long[len];
        java.util.Arrays.fill(lv, 1L << (r + 1));
        LongBuffer lb = ByteBuffer.allocateDirect(8 * len).order(ByteOrder.nativeOrder()).asLongBuffer();
        long[] lout = new long[len];
        long p = prod;
        throughNccl("allReduce LONG PROD", 1, () -> c.allReduce(lv, r % 2 == 0 ? lb : lout, len, MPI.LONG, MPI.PROD));
        if (r % 2 == 0) lb.get(0, lout);
        for (int i = 0; i < len; i++) Check.equal(p, lout[i], "LONG PROD item " + i);
        // DOUBLE MAX and FLOAT MIN on device memory of some ranks.
        double[] dv = new double[len];
        for (int i = 0; i < len; i++) dv[i] = r + i * 0.5;
        try (DeviceBuffer dd = DeviceBuffer.allocate(8L * len)) {
            dd.copyFrom(dv);
            Object buf = r % 2 == 1 ? dd : dv;
            throughNccl("allReduce DOUBLE MAX", 1, () -> c.allReduce(buf, len, MPI.DOUBLE, MPI.MAX));
            double[] got = new double[len];
            if (r % 2 == 1) dd.copyTo(got);
            else got = dv;
            for (int i = 0; i < len; i++) Check.equal((Object) (n - 1 + i * 0.5), (Object) got[i], "DOUBLE MAX item " + i);
        }
        float[] fv = new float[len];
        for (int i = 0; i < len; i++) fv[i] = 10 - r + i;
        throughNccl("allReduce FLOAT MIN", 1, () -> c.allReduce(fv, len, MPI.FLOAT, MPI.MIN));
        for (int i = 0; i < len; i++) Check.equal((Object) (float) (10 - (n - 1) + i), (Object) fv[i], "FLOAT MIN item " + i);
        byte[] bv = new byte[len];
        java.util.Arrays.fill(bv, (byte) 100);
        throughNccl("allReduce BYTE SUM", 1, () -> c.allReduce(bv, len, MPI.BYTE, MPI.SUM));
        Check.equal((long) (byte) (100 * n), bv[0], "BYTE SUM wraps as Java's byte does");
        // Movement of any fixed-size predefined type: CHAR and DOUBLE_COMPLEX by bytes.
        char[] cv = new char[len];
        if (r == 0) for (int i = 0; i < len; i++) cv[i] = (char) (0xfff0 + i);
        throughNccl("bcast CHAR", 1, () -> c.bcast(cv, len, MPI.CHAR, 0));
        for (int i = 0; i < len; i++) Check.equal((long) (char) (0xfff0 + i), cv[i], "CHAR item " + i);
        double[] z = new double[2 * n];
        throughNccl("allGather DOUBLE_COMPLEX", 1,
                () -> c.allGather(new double[] {r, -0.5 * r}, 1, MPI.DOUBLE_COMPLEX, z, 1, MPI.DOUBLE_COMPLEX));
        for (int q = 0; q < n; q++) {
            Check.equal((Object) (double) q, (Object) z[2 * q], "complex re " + q);
            Check.equal((Object) (-0.5 * q), (Object) z[2 * q + 1], "complex im " + q);
        }
    }

    @RankTest
    public void deviceMemoryOfAnotherDeviceIsCopied(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), len = 100;
        int other = (Cuda.defaultDevice() + 1) % Cuda.deviceCount();
        try (DeviceBuffer d = DeviceBuffer.allocate(4L * len, other)) {
            d.copyFrom(seq(len, i -> r + i));
            throughNccl("allReduce on device " + other, 1, () -> c.allReduce(d, len, MPI.INT, MPI.SUM));
            int[] got = new int[len];
            d.copyTo(got);
            Check.arrays(seq(len, i -> n * (n - 1) / 2 + n * i), got, "allReduce in place on another device's memory");
        }
    }

    @RankTest
    public void callsNcclCannotDoKeepTheStagedPath(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), len = 40;
        Op plus = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, mpi.Datatype type) {
                int[] a = (int[]) in, b = (int[]) inOut;
                for (int i = 0; i < count; i++) b[i] += a[i];
            }
        }, true);
        try (Ints x = new Ints(kind(c, 0), seq(len, i -> r + i))) {
            notThroughNccl("allReduce with a user op", () -> c.allReduce(x.buf(), len, MPI.INT, plus));
            Check.arrays(seq(len, i -> n * (n - 1) / 2 + n * i), x.read(), "user-op allReduce");
        } finally {
            plus.free();
        }
        short[] sv = new short[len];
        java.util.Arrays.fill(sv, (short) (r + 1));
        notThroughNccl("allReduce of MPI.SHORT (NCCL has no 16-bit integers)", () -> c.allReduce(sv, len, MPI.SHORT, MPI.SUM));
        Check.equal((long) n * (n + 1) / 2, sv[0], "SHORT SUM");
        int[] bits = {1 << r};
        notThroughNccl("allReduce BOR", () -> c.allReduce(bits, 1, MPI.INT, MPI.BOR));
        Check.equal((1L << n) - 1, bits[0], "BOR");
        try (Ints s = new Ints(kind(c, 1), seq(2, j -> r * 10 + j)); Ints d = Ints.filled(kind(c, 2), 2 * n, FILL)) {
            notThroughNccl("gather", () -> c.gather(s.buf(), 2, MPI.INT, d.buf(), 2, MPI.INT, 0));
            if (r == 0) Check.arrays(seq(2 * n, i -> (i / 2) * 10 + i % 2), d.read(), "gather");
        }
        int[] counts = seq(n, q -> 1);
        int[] displs = seq(n, q -> q);
        try (Ints d = Ints.filled(kind(c, 0), n, FILL)) {
            notThroughNccl("allGatherv", () -> c.allGatherv(new int[] {r * 7}, 1, MPI.INT, d.buf(), counts, displs, MPI.INT));
            Check.arrays(seq(n, q -> q * 7), d.read(), "allGatherv");
        }
        try (Ints s = new Ints(kind(c, 2), seq(3, j -> r * 100 + j)); Ints d = Ints.filled(kind(c, 0), 3, FILL)) {
            int right = (r + 1) % n, left = (r + n - 1) % n;
            notThroughNccl("sendRecv", () -> c.sendRecv(s.buf(), 3, MPI.INT, right, 5, d.buf(), 3, MPI.INT, left, 5));
            Check.arrays(seq(3, j -> left * 100 + j), d.read(), "sendRecv around the ring");
        }
        // Nothing to move: no NCCL call either, on every rank alike.
        notThroughNccl("allReduce of 0 items", () -> c.allReduce(new int[0], 0, MPI.INT, MPI.SUM));
    }
}
