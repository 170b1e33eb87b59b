package io.github.mpi4j.nccl;

import static io.github.mpi4j.nccl.Expect.assertArrayEquals;
import static io.github.mpi4j.nccl.Expect.assertEquals;
import static io.github.mpi4j.nccl.Expect.assertNull;
import static io.github.mpi4j.nccl.Expect.assertThrows;
import static io.github.mpi4j.nccl.Expect.assertTrue;

import io.github.mpi4j.cuda.CudaStream;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.testing.OffHeap;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.IntPredicate;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;

/**
 * NcclComm on every rank of a job (RankRunner runs each method over the world, a duplicate and a
 * reversed split), against a GPU or the test-only fake CUDA+NCCL pair. Every expected value is
 * computed on the host from rank and size, never read back from a device.
 */
public class NcclSuite {
    private static DeviceBuffer ints(NcclComm c, int[] data) {
        DeviceBuffer d = DeviceBuffer.allocate(4L * data.length, c.getDevice());
        d.copyFrom(data);
        return d;
    }

    /**
     * The default device is the rank on its node whatever the communicator (the world, a
     * duplicate, a reversed split): the device {@code DeviceBuffer.allocate(bytes)} uses, so a
     * buffer allocated without a device number is accepted.
     */
    @RankTest
    public void theDefaultDeviceIsTheRankOnItsNodeOverEveryCommunicator(Intracomm comm) {
        Intracomm node = MPI.COMM_WORLD.splitType(mpi.Comm.TYPE_SHARED, 0, MPI.INFO_NULL);
        // With fewer GPUs than ranks on a node, ranks share them: local rank modulo the count.
        int onNode = node.getRank() % io.github.mpi4j.cuda.Cuda.deviceCount();
        node.free();
        try (NcclComm c = NcclComm.create(comm); DeviceBuffer d = DeviceBuffer.allocate(4)) {
            assertEquals(onNode, c.getDevice());
            assertEquals(onNode, d.device());
            d.copyFrom(new int[] {comm.getRank() + 1});
            c.allReduce(d, d, 1, MPI.INT, MPI.SUM);
            c.sync();
            int[] got = new int[1];
            d.copyTo(got);
            int n = comm.getSize();
            assertEquals(n * (n + 1) / 2, got[0]);
        }
    }

    @RankTest
    public void allReduceOfIntsLongsFloatsDoublesBytesMatchesTheReference(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize(), len = 1001;
        try (NcclComm c = NcclComm.create(comm)) {
            assertEquals(r, c.getRank());
            assertEquals(n, c.getSize());
            int[] a = new int[len];
            int[] sum = new int[len];
            for (int i = 0; i < len; i++) {
                a[i] = r * 1_000_003 + i * 7;
                for (int q = 0; q < n; q++) sum[i] += q * 1_000_003 + i * 7;
            }
            try (DeviceBuffer s = ints(c, a); DeviceBuffer d = DeviceBuffer.allocate(4L * len, c.getDevice())) {
                c.allReduce(s, d, len, MPI.INT, MPI.SUM);
                c.sync();
                int[] got = new int[len];
                d.copyTo(got);
                assertArrayEquals(sum, got, "int SUM");
                // In place.
                c.allReduce(s, s, len, MPI.INT, MPI.SUM);
                c.sync();
                s.copyTo(got);
                assertArrayEquals(sum, got, "int SUM in place");
            }
            double[] x = new double[len];
            double[] max = new double[len];
            long[] l = new long[len];
            long[] prod = new long[len];
            float[] f = new float[len];
            float[] fmin = new float[len];
            byte[] b = new byte[len];
            byte[] bsum = new byte[len];
            for (int i = 0; i < len; i++) {
                x[i] = Math.sin(r + i);
                l[i] = r + 2 + i % 5;
                f[i] = (r - 1.5f) * (i % 3 + 1);
                b[i] = (byte) (r * 50 + i);
                max[i] = Double.NEGATIVE_INFINITY;
                prod[i] = 1;
                fmin[i] = Float.POSITIVE_INFINITY;
                for (int q = 0; q < n; q++) {
                    max[i] = Math.max(max[i], Math.sin(q + i));
                    prod[i] *= q + 2 + i % 5;
                    fmin[i] = Math.min(fmin[i], (q - 1.5f) * (i % 3 + 1));
                    bsum[i] += (byte) (q * 50 + i); // wraps, as NCCL's int8 does
                }
            }
            try (DeviceBuffer d = DeviceBuffer.allocate(8L * len, c.getDevice())) {
                d.copyFrom(x);
                c.allReduce(d, d, len, MPI.DOUBLE, MPI.MAX);
                c.sync();
                double[] gx = new double[len];
                d.copyTo(gx);
                assertArrayEquals(max, gx, "double MAX");
                d.copyFrom(l);
                c.allReduce(d, d, len, MPI.LONG, MPI.PROD);
                c.sync();
                long[] gl = new long[len];
                d.copyTo(gl);
                assertArrayEquals(prod, gl, "long PROD");
                d.copyFrom(f);
                c.allReduce(d, d, len, MPI.FLOAT, MPI.MIN);
                c.sync();
                float[] gf = new float[len];
                d.copyTo(gf);
                assertArrayEquals(fmin, gf, "float MIN");
                d.copyFrom(b);
                c.allReduce(d, d, len, MPI.BYTE, MPI.SUM);
                c.sync();
                byte[] gb = new byte[len];
                d.copyTo(gb);
                assertArrayEquals(bsum, gb, "byte SUM");
            }
        }
    }

    @RankTest
    public void broadcastOfShortsFromTheLastRank(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize(), len = 333, root = n - 1;
        try (NcclComm c = NcclComm.create(comm); DeviceBuffer d = DeviceBuffer.allocate(2L * len, c.getDevice())) {
            short[] mine = new short[len];
            short[] expected = new short[len];
            for (int i = 0; i < len; i++) {
                mine[i] = (short) (r == root ? i * 31 - 5000 : -1);
                expected[i] = (short) (i * 31 - 5000);
            }
            d.copyFrom(mine);
            c.broadcast(d, len, MPI.SHORT, root);
            c.sync();
            short[] got = new short[len];
            d.copyTo(got);
            assertArrayEquals(expected, got);
        }
    }

    @RankTest
    public void reduceToRankOne(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize(), len = 64, root = 1 % n;
        try (NcclComm c = NcclComm.create(comm);
             DeviceBuffer s = DeviceBuffer.allocate(4L * len, c.getDevice());
             DeviceBuffer d = DeviceBuffer.allocate(4L * len, c.getDevice())) {
            float[] a = new float[len];
            float[] sum = new float[len];
            for (int i = 0; i < len; i++) {
                a[i] = r * 10 + i;
                for (int q = 0; q < n; q++) sum[i] += q * 10 + i;
            }
            s.copyFrom(a);
            c.reduce(s, r == root ? d : null, len, MPI.FLOAT, MPI.SUM, root);
            c.sync();
            if (r == root) {
                float[] got = new float[len];
                d.copyTo(got);
                assertArrayEquals(sum, got);
            }
        }
    }

    @RankTest
    public void allGatherOfLongsInRankOrder(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize(), len = 17;
        try (NcclComm c = NcclComm.create(comm);
             DeviceBuffer s = DeviceBuffer.allocate(8L * len, c.getDevice());
             DeviceBuffer d = DeviceBuffer.allocate(8L * len * n, c.getDevice())) {
            long[] a = new long[len];
            for (int i = 0; i < len; i++) a[i] = r * 1_000_000_000_000L + i;
            long[] expected = new long[len * n];
            for (int q = 0; q < n; q++) for (int i = 0; i < len; i++) expected[q * len + i] = q * 1_000_000_000_000L + i;
            s.copyFrom(a);
            c.allGather(s, d, len, MPI.LONG);
            c.sync();
            long[] got = new long[len * n];
            d.copyTo(got);
            assertArrayEquals(expected, got);
        }
    }

    @RankTest
    public void reduceScatterOfIntsGivesEachRankItsBlock(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize(), len = 5;
        try (NcclComm c = NcclComm.create(comm);
             DeviceBuffer d = DeviceBuffer.allocate(4L * len, c.getDevice())) {
            int[] a = new int[len * n];
            for (int j = 0; j < a.length; j++) a[j] = (r + 1) * (j + 3);
            int[] expected = new int[len];
            for (int i = 0; i < len; i++) for (int q = 0; q < n; q++) expected[i] += (q + 1) * (r * len + i + 3);
            try (DeviceBuffer s = ints(c, a)) {
                c.reduceScatter(s, d, len, MPI.INT, MPI.SUM);
                c.sync();
            }
            int[] got = new int[len];
            d.copyTo(got);
            assertArrayEquals(expected, got);
        }
    }

    @RankTest
    public void sendRecvRingInAGroup(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize(), len = 100;
        int right = (r + 1) % n, left = (r - 1 + n) % n;
        try (NcclComm c = NcclComm.create(comm);
             DeviceBuffer s = DeviceBuffer.allocate(8L * len, c.getDevice());
             DeviceBuffer d = DeviceBuffer.allocate(8L * len, c.getDevice())) {
            double[] a = new double[len];
            double[] expected = new double[len];
            for (int i = 0; i < len; i++) {
                a[i] = r + i / 1000.0;
                expected[i] = left + i / 1000.0;
            }
            s.copyFrom(a);
            NcclComm.groupStart();
            c.send(s, len, MPI.DOUBLE, right);
            c.recv(d, len, MPI.DOUBLE, left);
            NcclComm.groupEnd();
            c.sync();
            double[] got = new double[len];
            d.copyTo(got);
            assertArrayEquals(expected, got);
        }
    }

    @RankTest
    public void splitByParityOrderedByDescendingRank(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize();
        try (NcclComm c = NcclComm.create(comm)) {
            NcclComm half = c.split(r % 2, -r);
            try {
                int members = (n - r % 2 + 1) / 2;
                int above = 0;
                for (int q = r + 2; q < n; q += 2) above++;
                assertEquals(members, half.getSize(), "size");
                assertEquals(above, half.getRank(), "rank (key -rank: the highest rank first)");
                assertEquals(c.getDevice(), half.getDevice(), "device");
                int sum = 0;
                for (int q = r % 2; q < n; q += 2) sum += q;
                try (DeviceBuffer d = ints(half, new int[] {r})) {
                    half.allReduce(d, d, 1, MPI.INT, MPI.SUM);
                    half.sync();
                    int[] got = new int[1];
                    d.copyTo(got);
                    assertEquals(sum, got[0], "sum of the ranks of the same parity");
                }
            } finally {
                half.close();
            }
            assertThrows(IllegalArgumentException.class, () -> c.split(-5, 0));
        }
    }

    /** The sum of {@code q} over the ranks q of 0..n-1 that {@code member} accepts. */
    private static int sumOf(int n, IntPredicate member) {
        int sum = 0;
        for (int q = 0; q < n; q++) if (member.test(q)) sum += q;
        return sum;
    }

    /** Allreduces this rank's number over {@code c}; returns the sum. */
    private static int sumOfRanks(NcclComm c, int mine) {
        try (DeviceBuffer d = ints(c, new int[] {mine})) {
            c.allReduce(d, d, 1, MPI.INT, MPI.SUM);
            c.sync();
            int[] got = new int[1];
            d.copyTo(got);
            return got[0];
        }
    }

    /**
     * ncclCommSplit is collective over the parent, NO_COLOR ranks included (they get null):
     * splits in a row where some ranks opt out, each checked, then a collective on the last one
     * and on the parent. (The fake's colours of one split were overwritten by a fast rank's next
     * split before a slow rank had read them: a NO_COLOR rank, which returns at once, made later
     * splits fail or hang.)
     */
    @RankTest
    public void noColorRanksGetNullAndLaterSplitsAndCollectivesStillWork(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize();
        try (NcclComm c = NcclComm.create(comm)) {
            for (int round = 0; round < 8; round++) {
                int k = round;
                // A different third of the ranks opts out each round; the others split by parity.
                IntPredicate out = q -> (q + k) % 3 == 0;
                IntPredicate same = q -> !out.test(q) && q % 2 == r % 2;
                NcclComm part = c.split(out.test(r) ? NcclComm.NO_COLOR : r % 2, k % 2 == 0 ? r : -r);
                if (out.test(r)) {
                    assertNull(part);
                    continue;
                }
                try {
                    int below = countOf(r, same), above = countOf(n, same) - below - 1;
                    assertEquals(countOf(n, same), part.getSize(), "round " + k + ": size");
                    assertEquals(k % 2 == 0 ? below : above, part.getRank(), "round " + k + ": rank");
                    if (k == 7) assertEquals(sumOf(n, same), sumOfRanks(part, r), "round 7: sum of its parent ranks");
                } finally {
                    part.close();
                }
            }
            assertEquals(n * (n - 1) / 2, sumOfRanks(c, r), "parent after the splits");
        }
    }

    /** How many of 0..limit-1 {@code member} accepts. */
    private static int countOf(int limit, IntPredicate member) {
        int k = 0;
        for (int q = 0; q < limit; q++) if (member.test(q)) k++;
        return k;
    }

    @RankTest
    public void closedAndAbortedCommunicatorsRefuseEveryCall(Intracomm comm) {
        NcclComm c = NcclComm.create(comm);
        DeviceBuffer d = DeviceBuffer.allocate(64, c.getDevice());
        try {
            c.barrier();
            c.close();
            c.close(); // idempotent
            assertTrue(c.isClosed(), "closed");
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> c.allReduce(d, d, 4, MPI.INT, MPI.SUM));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
            assertThrows(IllegalStateException.class, c::getRank);
            assertThrows(IllegalStateException.class, c::sync);
            assertThrows(IllegalStateException.class, () -> c.broadcast(d, 1, MPI.INT, 0));
            NcclComm a = NcclComm.create(comm);
            a.abort();
            a.abort();
            assertTrue(a.isAborted(), "aborted");
            e = assertThrows(IllegalStateException.class, () -> a.send(d, 1, MPI.INT, 0));
            assertTrue(e.getMessage().contains("aborted"), e.getMessage());
            assertThrows(IllegalStateException.class, a::barrier);
            a.close();
        } finally {
            d.close();
        }
    }

    @RankTest
    public void countsBeyondABufferAreRefusedBeforeAnythingIsQueued(Intracomm comm) {
        int n = comm.getSize();
        try (NcclComm c = NcclComm.create(comm);
             DeviceBuffer small = DeviceBuffer.allocate(40, c.getDevice());
             DeviceBuffer big = DeviceBuffer.allocate(40L * n, c.getDevice())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> c.allReduce(small, small, 11, MPI.INT, MPI.SUM));
            assertTrue(e.getMessage().contains("40 bytes") && e.getMessage().contains("44"), e.getMessage());
            if (n > 1) {   // at size 1, 40 bytes is all an all-gather of 10 ints needs
                assertThrows(IllegalArgumentException.class, () -> c.allGather(small, small, 10, MPI.INT),
                        "recv of allGather needs size × 40 bytes");
                assertThrows(IllegalArgumentException.class, () -> c.reduceScatter(small, big, 10, MPI.INT, MPI.SUM));
            }
            assertThrows(IllegalArgumentException.class, () -> c.broadcast(small, 6, MPI.DOUBLE, 0));
            assertThrows(IllegalArgumentException.class, () -> c.send(small, -1, MPI.BYTE, 0));
            assertThrows(IllegalArgumentException.class, () -> c.allReduce(small, small, Long.MAX_VALUE / 2, MPI.INT, MPI.SUM));
            e = assertThrows(IllegalArgumentException.class, () -> c.broadcast(small, 1, MPI.INT, n));
            assertTrue(e.getMessage().contains("root " + n), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> c.send(small, 1, MPI.INT, -1));
            assertThrows(IllegalArgumentException.class, () -> c.allReduce(null, small, 1, MPI.INT, MPI.SUM));
            // Nothing was queued: the communicator still works, and its next result is right.
            int[] one = {comm.getRank() + 1};
            small.copyFrom(one);
            c.allReduce(small, small, 1, MPI.INT, MPI.SUM);
            c.sync();
            small.copyTo(one);
            assertEquals(n * (n + 1) / 2, one[0]);
        }
    }

    @RankTest
    public void whatNcclCannotDoIsRefusedByName(Intracomm comm) {
        try (NcclComm c = NcclComm.create(comm); DeviceBuffer d = DeviceBuffer.allocate(64, c.getDevice())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> c.allReduce(d, d, 2, MPI.INT, MPI.MINLOC));
            assertTrue(e.getMessage().contains("MINLOC"), e.getMessage());
            Op user = new Op(new mpi.UserFunction() { }, true);
            assertThrows(IllegalArgumentException.class, () -> c.allReduce(d, d, 2, MPI.INT, user));
            assertThrows(IllegalArgumentException.class, () -> c.allReduce(d, d, 2, MPI.INT, MPI.BAND));
            e = assertThrows(IllegalArgumentException.class, () -> c.allReduce(d, d, 2, MPI.SHORT, MPI.SUM));
            assertTrue(e.getMessage().contains("cannot be reduced"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> c.broadcast(d, 1, MPI.OBJECT, 0));
            assertThrows(IllegalArgumentException.class, () -> c.broadcast(d, 1, MPI.PACKED, 0));
            assertThrows(IllegalArgumentException.class, () -> c.allReduce(d, d, 2, MPI.INT, null));
        }
    }

    @RankTest
    public void rawAddressesWorkAndHostMemoryIsRefused(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize();
        try (NcclComm c = NcclComm.create(comm); DeviceBuffer d = ints(c, new int[] {r, 2 * r});
             OffHeap host = new OffHeap(64, (byte) 0)) {
            c.allReduce(d.address(), d.address(), 2, MPI.INT, MPI.SUM);
            c.barrier();
            int[] got = new int[2];
            d.copyTo(got);
            assertArrayEquals(new int[] {n * (n - 1) / 2, n * (n - 1)}, got);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> c.allReduce(host.address, d.address(), 2, MPI.INT, MPI.SUM));
            assertTrue(e.getMessage().contains("host memory"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> c.send(0L, 1, MPI.INT, 0));
        }
    }

    @RankTest
    public void anExternalStreamWaitsForTheCommunicatorsWork(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize(), len = 256;
        try (NcclComm c = NcclComm.create(comm);
             CudaStream ext = CudaStream.create(c.getDevice());
             DeviceBuffer d = DeviceBuffer.allocate(4L * len, c.getDevice())) {
            int[] a = new int[len];
            for (int i = 0; i < len; i++) a[i] = r + i;
            d.copyFrom(a);
            c.allReduce(d, d, len, MPI.INT, MPI.SUM);
            c.makeStreamWait(ext);
            ByteBuffer out = ByteBuffer.allocateDirect(4 * len).order(ByteOrder.nativeOrder());
            d.copyToAsync(out, ext);
            ext.synchronize(); // no c.sync(): the event orders the copy after the all-reduce
            for (int i = 0; i < len; i++) assertEquals(n * (n - 1) / 2 + n * i, out.getInt(4 * i), "element " + i);
            c.sync();
        }
    }

    @RankTest
    public void rawAddressesInsideABufferAreCheckedAgainstItsAllocation(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize(), len = 10;
        try (NcclComm c = NcclComm.create(comm); DeviceBuffer whole = DeviceBuffer.allocate(4L * len * n, c.getDevice())) {
            // A slice's address resolves to the allocation: 3 ints from element 7 of 10*n fit, the
            // end of the allocation is the limit, not the slice's.
            DeviceBuffer tail = whole.slice(4L * (len * n - 3), 12);
            tail.copyFrom(new int[] {r, r + 1, r + 2});
            c.allReduce(tail.address(), tail.address(), 3, MPI.INT, MPI.SUM);
            c.sync();
            int[] got = new int[3];
            tail.copyTo(got);
            int s = n * (n - 1) / 2;
            assertArrayEquals(new int[] {s, s + n, s + 2 * n}, got, "allreduce at a slice's address");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> c.allReduce(tail.address(), tail.address(), 4, MPI.INT, MPI.SUM));
            assertTrue(e.getMessage().contains("needs 16"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class,
                    () -> c.allReduce(whole.address() + 8, whole.address(), len * n - 1, MPI.INT, MPI.SUM));
            assertTrue(e.getMessage().contains("send"), e.getMessage());
            // allGather's receive buffer holds sendCount x size elements; reduceScatter's send too.
            long last = whole.address() + 4L * len * n;
            assertThrows(IllegalArgumentException.class,
                    () -> c.allGather(whole.address(), last - 4L * len * n + 4, len, MPI.INT));
            assertThrows(IllegalArgumentException.class,
                    () -> c.reduceScatter(last - 4L * len * n + 4, whole.address(), len, MPI.INT, MPI.SUM));
            try (DeviceBuffer mine = ints(c, new int[] {r * 100, r * 100 + 1})) {
                c.allGather(mine.address(), whole.address(), 2, MPI.INT);
                c.sync();
                int[] all = new int[2 * n];
                whole.copyTo(all, 0, 2 * n);
                int[] want = new int[2 * n];
                for (int q = 0; q < n; q++) {
                    want[2 * q] = q * 100;
                    want[2 * q + 1] = q * 100 + 1;
                }
                assertArrayEquals(want, all, "raw allGather");
            }
            int[] blocks = new int[len * n];
            for (int i = 0; i < blocks.length; i++) blocks[i] = r + i;
            whole.copyFrom(blocks);
            try (DeviceBuffer mine = DeviceBuffer.allocate(4L * len, c.getDevice())) {
                c.reduceScatter(whole.address(), mine.address(), len, MPI.INT, MPI.SUM);
                c.sync();
                int[] part = new int[len];
                mine.copyTo(part);
                int[] want = new int[len];
                for (int i = 0; i < len; i++) want[i] = n * (n - 1) / 2 + n * (r * len + i);
                assertArrayEquals(want, part, "raw reduceScatter");
            }
        }
    }

    @RankTest
    public void aBufferUsedByAQueuedOperationStaysAllocatedUntilTheSync(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize();
        try (NcclComm c = NcclComm.create(comm)) {
            DeviceBuffer d = ints(c, new int[] {r, r});
            long at = d.address();
            c.allReduce(at, at, 2, MPI.INT, MPI.SUM);
            d.close(); // the queued all-reduce still holds the memory
            assertTrue(d.isClosed(), "closed");
            assertEquals(c.getDevice(), io.github.mpi4j.cuda.Cuda.deviceOf(at), "still device memory before the sync");
            assertTrue(DeviceBuffer.hold(at) == null, "a closed buffer is no longer found by address");
            c.sync();
            // A buffer closed with nothing queued is freed at once; its address is then unknown.
            DeviceBuffer e = ints(c, new int[] {1});
            long gone = e.address();
            e.close();
            assertTrue(DeviceBuffer.hold(gone) == null, "unknown after close");
            assertEquals(n * (n - 1) / 2, sumOfRanks(c, r), "the communicator still works");
        }
    }

    /** Host data in a direct buffer (asynchronous copies need memory the GC does not move). */
    private static ByteBuffer direct(int[] values) {
        ByteBuffer b = ByteBuffer.allocateDirect(4 * values.length).order(ByteOrder.nativeOrder());
        for (int i = 0; i < values.length; i++) b.putInt(4 * i, values[i]);
        return b;
    }

    /**
     * The communicator waits for work queued on a stream of another library (raw handles): an
     * asynchronous copy there, then the all-reduce here. Without the wait the all-reduce would
     * read the old contents (the fake runs a stream's work only when it is synchronized).
     */
    @RankTest
    public void theCommunicatorWaitsForAnExternalStreamAndAnExternalEvent(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize(), len = 64;
        try (NcclComm c = NcclComm.create(comm);
             CudaStream ext = CudaStream.create(c.getDevice());
             io.github.mpi4j.cuda.CudaEvent ev = io.github.mpi4j.cuda.CudaEvent.create(c.getDevice());
             DeviceBuffer d = DeviceBuffer.allocate(4L * len, c.getDevice())) {
            int[] fresh = new int[len];
            int[] want = new int[len];
            for (int i = 0; i < len; i++) {
                fresh[i] = r * 1000 + i;
                want[i] = 1000 * n * (n - 1) / 2 + n * i;
            }
            // 1. waitStream(long): the stream's handle as another library would pass it.
            d.copyFrom(new int[len]);
            d.copyFromAsync(direct(fresh), ext);
            c.waitStream(ext.handle());
            c.allReduce(d, d, len, MPI.INT, MPI.SUM);
            c.sync();
            int[] got = new int[len];
            d.copyTo(got);
            assertArrayEquals(want, got, "after waitStream(long)");
            // 2. waitEvent(long): an event of another library, recorded on its stream.
            d.copyFrom(new int[len]);
            d.copyFromAsync(direct(fresh), ext);
            ev.record(ext);
            c.waitEvent(ev.handle());
            c.allReduce(d, d, len, MPI.INT, MPI.SUM);
            c.sync();
            d.copyTo(got);
            assertArrayEquals(want, got, "after waitEvent(long)");
            ext.synchronize();
            assertThrows(IllegalArgumentException.class, () -> c.waitEvent(0L));
        }
    }

    /** An external stream (raw handle) waits for the communicator's work; an event recorded on the communicator's stream completes after it. */
    @RankTest
    public void anExternalRawStreamAndARecordedEventFollowTheCommunicator(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize(), len = 64;
        try (NcclComm c = NcclComm.create(comm);
             CudaStream ext = CudaStream.create(c.getDevice());
             io.github.mpi4j.cuda.CudaEvent ev = io.github.mpi4j.cuda.CudaEvent.create(c.getDevice());
             DeviceBuffer d = DeviceBuffer.allocate(4L * len, c.getDevice())) {
            int[] a = new int[len];
            for (int i = 0; i < len; i++) a[i] = r - i;
            d.copyFrom(a);
            c.allReduce(d, d, len, MPI.INT, MPI.SUM);
            c.makeStreamWait(ext.handle());
            ByteBuffer out = ByteBuffer.allocateDirect(4 * len).order(ByteOrder.nativeOrder());
            d.copyToAsync(out, ext);
            ext.synchronize(); // no c.sync(): the wait orders the copy after the all-reduce
            for (int i = 0; i < len; i++) assertEquals(n * (n - 1) / 2 - n * i, out.getInt(4 * i), "element " + i);
            // recordEvent(event): the caller's event, after a second all-reduce.
            c.allReduce(d, d, len, MPI.INT, MPI.SUM);
            c.recordEvent(ev);
            ev.synchronize();
            int[] got = new int[len];
            d.copyTo(got);
            for (int i = 0; i < len; i++) assertEquals(n * (n * (n - 1) / 2 - n * i), got[i], "twice, element " + i);
            c.sync();
        }
    }
}
