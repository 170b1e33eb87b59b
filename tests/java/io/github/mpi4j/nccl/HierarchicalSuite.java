package io.github.mpi4j.nccl;

import static io.github.mpi4j.nccl.Expect.assertArrayEquals;
import static io.github.mpi4j.nccl.Expect.assertEquals;
import static io.github.mpi4j.nccl.Expect.assertThrows;
import static io.github.mpi4j.nccl.Expect.assertTrue;

import io.github.mpi4j.cuda.Cuda;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.testing.RankTest;
import java.util.function.Consumer;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;

/**
 * HierarchicalComm on every rank of a job placed on simulated nodes ({@code mpi4jrun --hosts
 * localhost:2,127.0.0.1:2}: two nodes of two ranks; {@code localhost:3,127.0.0.1:1}: unequal
 * nodes), against the fake CUDA+NCCL pair whose "node" is the launcher's host. RankRunner runs
 * each method over the world, a duplicate and a reversed split; each method also runs over a
 * split whose ranks alternate between the nodes, so the parent's rank order is never the nodes'
 * order. Every rank's data is distinct and every expected value is computed from rank and size:
 * a composition that reduced only a node leader's shard, or put blocks in node order, fails.
 */
public class HierarchicalSuite {
    /** The counts that matter: 1 (less than one element per local rank), odd ones, a multiple of 4. */
    private static final int[] COUNTS = {1, 3, 1001, 4096};

    /** Runs {@code test} over {@code comm} and over a split of it whose ranks alternate between nodes. */
    private static void overBoth(Intracomm comm, Consumer<Intracomm> test) {
        test.accept(comm);
        Intracomm node = comm.splitType(Comm.TYPE_SHARED, comm.getRank(), MPI.INFO_NULL);
        int local = node.getRank();
        node.free();
        Intracomm alternating = comm.split(0, local * comm.getSize() + comm.getRank());
        try {
            test.accept(alternating);
        } finally {
            alternating.free();
        }
    }

    private static String launcherLocalRank() {
        return System.getenv("MPI4J_LOCAL_RANK");
    }

    @RankTest
    public void createReportsTheLayoutAndTheDeviceIsTheRankOnTheNode(Intracomm comm) {
        overBoth(comm, c -> {
            try (HierarchicalComm h = HierarchicalComm.create(c)) {
                assertEquals(c.getRank(), h.getRank(), "rank");
                assertEquals(c.getSize(), h.getSize(), "size");
                String local = launcherLocalRank();
                if (local != null) {
                    assertEquals(Integer.parseInt(local) % Cuda.deviceCount(), h.getDevice(),
                            "device = the launcher's local rank modulo the GPUs");
                }
                Intracomm node = c.splitType(Comm.TYPE_SHARED, c.getRank(), MPI.INFO_NULL);
                assertEquals(node.getRank(), h.getLocalRank(), "local rank");
                assertEquals(node.getSize(), h.getLocalSize(), "local size");
                node.free();
                // Node count: the number of distinct leaders.
                int[] leader = {h.getLocalRank() == 0 ? 1 : 0};
                c.allReduce(leader, 1, MPI.INT, MPI.SUM);
                assertEquals(leader[0], h.getNodeCount(), "node count");
                assertTrue(h.getNode() >= 0 && h.getNode() < h.getNodeCount(), "node index " + h.getNode());
                // Independently: the launcher's host of every rank (MPI4J_NODE).
                String host = System.getenv("MPI4J_NODE");
                if (host != null) {
                    int[] hosts = new int[c.getSize()];
                    c.allGather(new int[] {host.hashCode()}, 1, MPI.INT, hosts, 1, MPI.INT);
                    java.util.Set<Integer> distinct = new java.util.HashSet<>();
                    int same = 0;
                    for (int x : hosts) {
                        distinct.add(x);
                        if (x == host.hashCode()) same++;
                    }
                    assertEquals(distinct.size(), h.getNodeCount(), "node count = the launcher's hosts");
                    assertEquals(same, h.getLocalSize(), "local size = ranks on this host");
                }
            }
        });
    }

    @RankTest
    public void allReduceOfDistinctDataMatchesTheReferenceForEveryCount(Intracomm comm) {
        overBoth(comm, c -> {
            int r = c.getRank(), n = c.getSize();
            try (HierarchicalComm h = HierarchicalComm.create(c)) {
                for (int len : COUNTS) {
                    int[] a = new int[len];
                    int[] sum = new int[len];
                    float[] f = new float[len];
                    float[] max = new float[len];
                    for (int i = 0; i < len; i++) {
                        a[i] = (r + 1) * 1_000_003 + i * 7;
                        f[i] = (r * 37 + i * 11) % 101 - 50.5f;
                        max[i] = Float.NEGATIVE_INFINITY;
                        for (int q = 0; q < n; q++) {
                            sum[i] += (q + 1) * 1_000_003 + i * 7;
                            max[i] = Math.max(max[i], (q * 37 + i * 11) % 101 - 50.5f);
                        }
                    }
                    try (DeviceBuffer s = DeviceBuffer.allocate(4L * len, h.getDevice());
                         DeviceBuffer d = DeviceBuffer.allocate(4L * len, h.getDevice())) {
                        s.copyFrom(a);
                        d.memset(0x5a);
                        h.allReduce(s, d, len, MPI.INT, MPI.SUM);
                        int[] got = new int[len];
                        d.copyTo(got);
                        assertArrayEquals(sum, got, "int SUM of " + len);
                        int[] unchanged = new int[len];
                        s.copyTo(unchanged);
                        assertArrayEquals(a, unchanged, "send of " + len + " unchanged");
                        s.copyFrom(f);
                        h.allReduce(s, s, len, MPI.FLOAT, MPI.MAX);
                        float[] gf = new float[len];
                        s.copyTo(gf);
                        assertArrayEquals(max, gf, "float MAX of " + len + " in place");
                    }
                }
                // Doubles and longs of a count no local size divides.
                int len = 7;
                double[] x = new double[len];
                double[] xs = new double[len];
                long[] l = new long[len];
                long[] prod = new long[len];
                for (int i = 0; i < len; i++) {
                    x[i] = r * 0.5 + i;
                    l[i] = r + 2 + i;
                    prod[i] = 1;
                    for (int q = 0; q < n; q++) {
                        xs[i] += q * 0.5 + i;
                        prod[i] *= q + 2 + i;
                    }
                }
                try (DeviceBuffer d = DeviceBuffer.allocate(8L * len, h.getDevice())) {
                    d.copyFrom(x);
                    h.allReduce(d, d, len, MPI.DOUBLE, MPI.SUM);
                    double[] gx = new double[len];
                    d.copyTo(gx);
                    assertArrayEquals(xs, gx, "double SUM");
                    d.copyFrom(l);
                    h.allReduce(d, d, len, MPI.LONG, MPI.PROD);
                    long[] gl = new long[len];
                    d.copyTo(gl);
                    assertArrayEquals(prod, gl, "long PROD");
                }
            }
        });
    }

    @RankTest
    public void reductionsAndBroadcastsCrossNodesInPieces(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize(), len = 1001;
        long before = HierarchicalEngine.pieceBytes;
        HierarchicalEngine.pieceBytes = 40; // 10 ints: a shard of 501 goes in 51 pieces, the last of 1
        try (HierarchicalComm h = HierarchicalComm.create(comm);
             DeviceBuffer d = DeviceBuffer.allocate(4L * len, h.getDevice())) {
            int[] a = new int[len];
            int[] sum = new int[len];
            for (int i = 0; i < len; i++) {
                a[i] = (r + 1) * 100_000 + i;
                for (int q = 0; q < n; q++) sum[i] += (q + 1) * 100_000 + i;
            }
            d.copyFrom(a);
            h.allReduce(d, d, len, MPI.INT, MPI.SUM);
            int[] got = new int[len];
            d.copyTo(got);
            assertArrayEquals(sum, got, "allReduce in pieces");
            int root = n - 1;
            d.copyFrom(a);
            h.reduce(d, r == root ? d : null, len, MPI.INT, MPI.SUM, root);
            if (r == root) {
                d.copyTo(got);
                assertArrayEquals(sum, got, "reduce in pieces");
            }
            int[] mine = new int[len];
            for (int i = 0; i < len; i++) mine[i] = r == root ? i * 3 - 7 : -1;
            d.copyFrom(mine);
            h.broadcast(d, len, MPI.INT, root);
            d.copyTo(got);
            for (int i = 0; i < len; i++) assertEquals(i * 3 - 7, got[i], "broadcast in pieces at " + i);
        } finally {
            HierarchicalEngine.pieceBytes = before;
        }
    }

    @RankTest
    public void allReduceOnRawAddresses(Intracomm comm) {
        int r = comm.getRank(), n = comm.getSize(), len = 1001;
        try (HierarchicalComm h = HierarchicalComm.create(comm);
             DeviceBuffer s = DeviceBuffer.allocate(4L * len, h.getDevice());
             DeviceBuffer d = DeviceBuffer.allocate(4L * len, h.getDevice())) {
            int[] a = new int[len];
            int[] min = new int[len];
            for (int i = 0; i < len; i++) {
                a[i] = (r * 7919 + i * 31) % 1000;
                min[i] = Integer.MAX_VALUE;
                for (int q = 0; q < n; q++) min[i] = Math.min(min[i], (q * 7919 + i * 31) % 1000);
            }
            s.copyFrom(a);
            h.allReduce(s.address(), d.address(), len, MPI.INT, MPI.MIN);
            int[] got = new int[len];
            d.copyTo(got);
            assertArrayEquals(min, got, "int MIN on raw addresses");
        }
    }

    @RankTest
    public void broadcastFromEveryRoot(Intracomm comm) {
        overBoth(comm, c -> {
            int r = c.getRank(), n = c.getSize(), len = 333;
            try (HierarchicalComm h = HierarchicalComm.create(c);
                 DeviceBuffer d = DeviceBuffer.allocate(2L * len, h.getDevice())) {
                for (int root = 0; root < n; root++) {
                    short[] mine = new short[len];
                    short[] expected = new short[len];
                    for (int i = 0; i < len; i++) {
                        mine[i] = (short) (r == root ? root * 1000 + i : -1 - r);
                        expected[i] = (short) (root * 1000 + i);
                    }
                    d.copyFrom(mine);
                    h.broadcast(d, len, MPI.SHORT, root);
                    short[] got = new short[len];
                    d.copyTo(got);
                    assertArrayEquals(expected, got, "broadcast from " + root);
                }
            }
        });
    }

    @RankTest
    public void reduceToEveryRoot(Intracomm comm) {
        overBoth(comm, c -> {
            int r = c.getRank(), n = c.getSize(), len = 65;
            try (HierarchicalComm h = HierarchicalComm.create(c);
                 DeviceBuffer s = DeviceBuffer.allocate(4L * len, h.getDevice());
                 DeviceBuffer d = DeviceBuffer.allocate(4L * len, h.getDevice())) {
                for (int root = 0; root < n; root++) {
                    int[] a = new int[len];
                    int[] sum = new int[len];
                    for (int i = 0; i < len; i++) {
                        a[i] = (r + 1) * (i + 3) + root;
                        for (int q = 0; q < n; q++) sum[i] += (q + 1) * (i + 3) + root;
                    }
                    s.copyFrom(a);
                    int[] before = new int[len];
                    java.util.Arrays.fill(before, -7);
                    d.copyFrom(before);
                    h.reduce(s, r == root ? d : null, len, MPI.INT, MPI.SUM, root);
                    int[] got = new int[len];
                    d.copyTo(got);
                    assertArrayEquals(r == root ? sum : before, got, "reduce to " + root + (r == root ? "" : " (not root)"));
                }
            }
        });
    }

    @RankTest
    public void allGatherInTheParentsRankOrder(Intracomm comm) {
        overBoth(comm, c -> {
            int r = c.getRank(), n = c.getSize();
            try (HierarchicalComm h = HierarchicalComm.create(c)) {
                for (int len : new int[] {1, 17}) {
                    try (DeviceBuffer s = DeviceBuffer.allocate(8L * len, h.getDevice());
                         DeviceBuffer d = DeviceBuffer.allocate(8L * len * n, h.getDevice())) {
                        long[] a = new long[len];
                        for (int i = 0; i < len; i++) a[i] = r * 1_000_000_000_000L + i;
                        long[] expected = new long[len * n];
                        for (int q = 0; q < n; q++) {
                            for (int i = 0; i < len; i++) expected[q * len + i] = q * 1_000_000_000_000L + i;
                        }
                        s.copyFrom(a);
                        h.allGather(s, d, len, MPI.LONG);
                        long[] got = new long[len * n];
                        d.copyTo(got);
                        assertArrayEquals(expected, got, "allGather of " + len);
                    }
                }
            }
        });
    }

    @RankTest
    public void reduceScatterGivesEachRankItsBlock(Intracomm comm) {
        overBoth(comm, c -> {
            int r = c.getRank(), n = c.getSize();
            try (HierarchicalComm h = HierarchicalComm.create(c)) {
                for (int len : new int[] {1, 5}) {
                    int[] a = new int[len * n];
                    for (int j = 0; j < a.length; j++) a[j] = (r + 1) * (j + 3);
                    int[] expected = new int[len];
                    for (int i = 0; i < len; i++) for (int q = 0; q < n; q++) expected[i] += (q + 1) * (r * len + i + 3);
                    try (DeviceBuffer s = DeviceBuffer.allocate(4L * len * n, h.getDevice());
                         DeviceBuffer d = DeviceBuffer.allocate(4L * len, h.getDevice())) {
                        s.copyFrom(a);
                        h.reduceScatter(s, d, len, MPI.INT, MPI.SUM);
                        int[] got = new int[len];
                        d.copyTo(got);
                        assertArrayEquals(expected, got, "reduceScatter of " + len);
                    }
                }
            }
        });
    }

    @RankTest
    public void barrierAndSyncReturn(Intracomm comm) {
        try (HierarchicalComm h = HierarchicalComm.create(comm)) {
            h.barrier();
            h.sync();
            h.barrier();
        }
    }

    @RankTest
    public void badArgumentsAndClosedOrAbortedCommunicatorsAreExceptions(Intracomm comm) {
        int n = comm.getSize();
        HierarchicalComm h = HierarchicalComm.create(comm);
        try (DeviceBuffer small = DeviceBuffer.allocate(16, h.getDevice());
             DeviceBuffer big = DeviceBuffer.allocate(4096, h.getDevice())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> h.allReduce(small, big, 10, MPI.INT, MPI.SUM), "count beyond send");
            assertTrue(e.getMessage().contains("16 bytes") && e.getMessage().contains("40"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> h.allGather(small, small, 4, MPI.INT), "recv too small");
            assertThrows(IllegalArgumentException.class, () -> h.reduceScatter(small, big, 4, MPI.INT, MPI.SUM),
                    "send of reduceScatter too small");
            assertThrows(IllegalArgumentException.class, () -> h.allReduce(big, big, -1, MPI.INT, MPI.SUM), "negative count");
            e = assertThrows(IllegalArgumentException.class, () -> h.broadcast(big, 1, MPI.INT, n), "root out of range");
            assertTrue(e.getMessage().contains("root " + n), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> h.allReduce(big, big, 1, MPI.SHORT, MPI.SUM),
                    "short cannot be reduced");
            assertThrows(IllegalArgumentException.class, () -> h.allReduce(big, big, 1, MPI.INT, MPI.BOR), "BOR");
            assertThrows(IllegalArgumentException.class, () -> h.allReduce(null, big, 1, MPI.INT, MPI.SUM), "null send");
            // A host pointer where device memory is required.
            try (io.github.mpi4j.testing.OffHeap host = new io.github.mpi4j.testing.OffHeap(64, (byte) 0)) {
                e = assertThrows(IllegalArgumentException.class,
                        () -> h.allReduce(host.address, big.address(), 4, MPI.INT, MPI.SUM), "host address");
                assertTrue(e.getMessage().contains("host memory"), e.getMessage());
            }
            // Nothing was queued: a good call still works.
            int[] one = {comm.getRank() + 1};
            big.copyFrom(one);
            h.allReduce(big, big, 1, MPI.INT, MPI.SUM);
            int[] got = new int[1];
            big.copyTo(got);
            assertEquals((long) n * (n + 1) / 2, got[0], "sum after refused calls");
            h.close();
            IllegalStateException closed = assertThrows(IllegalStateException.class,
                    () -> h.allReduce(big, big, 1, MPI.INT, MPI.SUM), "closed");
            assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
            assertThrows(IllegalStateException.class, h::getRank, "getRank after close");
            assertThrows(IllegalStateException.class, h::barrier, "barrier after close");
            h.close(); // idempotent
            HierarchicalComm a = HierarchicalComm.create(comm);
            a.abort();
            IllegalStateException aborted = assertThrows(IllegalStateException.class,
                    () -> a.broadcast(big, 1, MPI.INT, 0), "aborted");
            assertTrue(aborted.getMessage().contains("aborted"), aborted.getMessage());
            a.close();
        } finally {
            h.close();
        }
    }
}
