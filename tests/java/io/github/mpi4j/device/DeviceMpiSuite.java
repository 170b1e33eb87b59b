package io.github.mpi4j.device;

import io.github.mpi4j.Mpi4j;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.memory.DeviceMemory;
import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.OffHeap;
import io.github.mpi4j.testing.RankTest;
import java.util.Arrays;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import mpi.UserFunction;

/**
 * DeviceBuffers in {@code mpi} calls, on every rank of a job (world, a duplicate, a reversed
 * split), against a GPU or the test-only fake CUDA runtime. In most calls some ranks pass device
 * memory and others Java arrays, and a rank's send and receive buffers are of different kinds,
 * so that every mix meets in one operation. Expected values come from rank and size only;
 * results are read back from the device with {@code copyTo}.
 */
public class DeviceMpiSuite {
    private static final int FILL = -7;

    /** Ints in device memory or in a Java array. */
    private static final class Ints implements AutoCloseable {
        final DeviceBuffer dev;
        final int[] arr;
        final int n;

        Ints(boolean device, int[] values) {
            n = values.length;
            if (device) {
                dev = DeviceBuffer.allocate(4L * n);
                dev.copyFrom(values);
                arr = null;
            } else {
                dev = null;
                arr = values.clone();
            }
        }

        static Ints filled(boolean device, int n, int value) {
            int[] v = new int[n];
            Arrays.fill(v, value);
            return new Ints(device, v);
        }

        Object buf() {
            return dev != null ? dev : arr;
        }

        int[] read() {
            if (arr != null) return arr.clone();
            int[] out = new int[n];
            dev.copyTo(out);
            return out;
        }

        @Override
        public void close() {
            if (dev != null) dev.close();
        }
    }

    /** Whether this rank passes device memory for buffer {@code salt} of a call: half the ranks do. */
    private static boolean dev(Intracomm c, int salt) {
        return (c.getRank() + salt) % 2 == 0;
    }

    private static int[] seq(int n, java.util.function.IntUnaryOperator f) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = f.applyAsInt(i);
        return a;
    }

    @RankTest
    public void allReduceMixesKindsAndRunsInPlace(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), len = 1031;
        int[] sum = seq(len, i -> {
            int s = 0;
            for (int q = 0; q < n; q++) s += q * 1000 + i;
            return s;
        });
        try (Ints s = new Ints(dev(c, 0), seq(len, i -> r * 1000 + i)); Ints d = Ints.filled(dev(c, 1), len, FILL)) {
            c.allReduce(s.buf(), d.buf(), len, MPI.INT, MPI.SUM);
            Check.arrays(sum, d.read(), "allReduce SUM into " + (d.dev != null ? "device" : "array"));
            Check.arrays(seq(len, i -> r * 1000 + i), s.read(), "allReduce's send buffer is unchanged");
        }
        try (Ints x = new Ints(true, seq(len, i -> r * 1000 + i))) {
            c.allReduce(x.buf(), len, MPI.INT, MPI.SUM);
            Check.arrays(sum, x.read(), "allReduce in place on device memory");
        }
        int[] max = seq(len, i -> (n - 1) * 3 - i);
        try (Ints x = new Ints(dev(c, 1), seq(len, i -> r * 3 - i))) {
            c.allReduce(x.buf(), len, MPI.INT, MPI.MAX);
            Check.arrays(max, x.read(), "allReduce MAX in place");
        }
    }

    @RankTest
    public void allReduceOfSeveralBuffersMixesKinds(Intracomm c) {
        int r = c.getRank(), n = c.getSize();
        int[] counts = {5, 300, 1};
        Ints[] s = new Ints[counts.length];
        Ints[] d = new Ints[counts.length];
        try {
            for (int b = 0; b < counts.length; b++) {
                int k = b;
                s[b] = new Ints(dev(c, b), seq(counts[b], i -> r * 10 + k + i));
                d[b] = Ints.filled(dev(c, b + 1), counts[b], FILL);
            }
            Object[] sb = new Object[counts.length], db = new Object[counts.length];
            for (int b = 0; b < counts.length; b++) {
                sb[b] = s[b].buf();
                db[b] = d[b].buf();
            }
            c.allReduce(sb, db, counts, MPI.INT, MPI.SUM);
            for (int b = 0; b < counts.length; b++) {
                int k = b;
                Check.arrays(seq(counts[b], i -> 10 * n * (n - 1) / 2 + n * (k + i)), d[b].read(), "bucket " + b);
            }
        } finally {
            for (int b = 0; b < counts.length; b++) {
                if (s[b] != null) s[b].close();
                if (d[b] != null) d[b].close();
            }
        }
    }

    @RankTest
    public void allReduceWithAUserOpStagesEvenUnderACudaAwareMpi(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), len = 100;
        Op plus = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, mpi.Datatype type) {
                int[] a = (int[]) in, b = (int[]) inOut;
                for (int i = 0; i < count; i++) b[i] += a[i];
            }
        }, true);
        try (Ints s = new Ints(true, seq(len, i -> r + i)); Ints d = Ints.filled(dev(c, 0), len, FILL)) {
            c.allReduce(s.buf(), d.buf(), len, MPI.INT, plus);
            Check.arrays(seq(len, i -> n * (n - 1) / 2 + n * i), d.read(), "allReduce with a user op");
        } finally {
            plus.free();
        }
    }

    @RankTest
    public void bcastFromEveryRootToEveryKind(Intracomm c) {
        int n = c.getSize(), len = 300;
        for (int root = 0; root < n; root++) {
            int rt = root;
            int[] data = seq(len, i -> rt * 100 + i);
            try (Ints b = c.getRank() == root ? new Ints(dev(c, root), data) : Ints.filled(dev(c, root), len, FILL)) {
                c.bcast(b.buf(), len, MPI.INT, root);
                Check.arrays(data, b.read(), "bcast from root " + root);
            }
        }
    }

    @RankTest
    public void reduceToTheLastRank(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), len = 77, root = n - 1;
        try (Ints s = new Ints(dev(c, 0), seq(len, i -> r * 2 + i)); Ints d = Ints.filled(dev(c, 1), len, FILL)) {
            c.reduce(s.buf(), d.buf(), len, MPI.INT, MPI.SUM, root);
            if (r == root) Check.arrays(seq(len, i -> n * (n - 1) + n * i), d.read(), "reduce SUM at the root");
        }
    }

    /** Displacements of blocks of {@code counts} with a gap of one item after each. */
    private static int[] gappedDispls(int[] counts) {
        int[] d = new int[counts.length];
        for (int q = 1; q < counts.length; q++) d[q] = d[q - 1] + counts[q - 1] + 1;
        return d;
    }

    @RankTest
    public void gatherAndGathervLeaveGapsAlone(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), k = 3;
        try (Ints s = new Ints(dev(c, 0), seq(k, j -> r * 10 + j)); Ints d = Ints.filled(dev(c, 1), n * k, FILL)) {
            c.gather(s.buf(), k, MPI.INT, d.buf(), k, MPI.INT, 0);
            if (r == 0) Check.arrays(seq(n * k, i -> (i / k) * 10 + i % k), d.read(), "gather at the root");
        }
        int[] counts = seq(n, q -> q + 1);
        int[] displs = gappedDispls(counts);
        int total = displs[n - 1] + counts[n - 1];
        int[] expect = new int[total];
        Arrays.fill(expect, FILL);
        for (int q = 0; q < n; q++) for (int j = 0; j <= q; j++) expect[displs[q] + j] = q * 10 + j;
        try (Ints s = new Ints(dev(c, 1), seq(r + 1, j -> r * 10 + j)); Ints d = Ints.filled(dev(c, 0), total, FILL)) {
            c.gatherv(s.buf(), r + 1, MPI.INT, d.buf(), counts, displs, MPI.INT, n - 1);
            if (r == n - 1) Check.arrays(expect, d.read(), "gatherv at the root, gaps untouched");
        }
    }

    @RankTest
    public void scatterAndScatterv(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), k = 2;
        try (Ints s = new Ints(dev(c, 0), seq(n * k, i -> (i / k) * 10 + i % k)); Ints d = Ints.filled(dev(c, 1), k, FILL)) {
            c.scatter(s.buf(), k, MPI.INT, d.buf(), k, MPI.INT, 0);
            Check.arrays(seq(k, j -> r * 10 + j), d.read(), "scatter");
        }
        int[] counts = seq(n, q -> q + 1);
        int[] displs = gappedDispls(counts);
        int total = displs[n - 1] + counts[n - 1];
        int[] src = new int[total];
        for (int q = 0; q < n; q++) for (int j = 0; j <= q; j++) src[displs[q] + j] = q * 10 + j;
        try (Ints s = new Ints(dev(c, 1), src); Ints d = Ints.filled(dev(c, 0), r + 1, FILL)) {
            c.scatterv(s.buf(), counts, displs, MPI.INT, d.buf(), r + 1, MPI.INT, n - 1);
            Check.arrays(seq(r + 1, j -> r * 10 + j), d.read(), "scatterv");
        }
    }

    @RankTest
    public void allGatherAndAllGatherv(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), k = 2;
        try (Ints s = new Ints(dev(c, 0), seq(k, j -> r * 10 + j)); Ints d = Ints.filled(dev(c, 1), n * k, FILL)) {
            c.allGather(s.buf(), k, MPI.INT, d.buf(), k, MPI.INT);
            Check.arrays(seq(n * k, i -> (i / k) * 10 + i % k), d.read(), "allGather");
        }
        int[] counts = seq(n, q -> q + 1);
        int[] displs = gappedDispls(counts);
        int total = displs[n - 1] + counts[n - 1];
        int[] expect = new int[total];
        Arrays.fill(expect, FILL);
        for (int q = 0; q < n; q++) for (int j = 0; j <= q; j++) expect[displs[q] + j] = q * 10 + j;
        try (Ints s = new Ints(dev(c, 1), seq(r + 1, j -> r * 10 + j)); Ints d = Ints.filled(dev(c, 0), total, FILL)) {
            c.allGatherv(s.buf(), r + 1, MPI.INT, d.buf(), counts, displs, MPI.INT);
            Check.arrays(expect, d.read(), "allGatherv, gaps untouched");
        }
    }

    @RankTest
    public void allToAllAndAllToAllv(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), k = 2;
        try (Ints s = new Ints(dev(c, 0), seq(n * k, i -> r * 100 + (i / k) * 10 + i % k));
             Ints d = Ints.filled(dev(c, 1), n * k, FILL)) {
            c.allToAll(s.buf(), k, MPI.INT, d.buf(), k, MPI.INT);
            Check.arrays(seq(n * k, i -> (i / k) * 100 + r * 10 + i % k), d.read(), "allToAll");
        }
        // To rank p: p + 1 items; from every rank: r + 1 items, in blocks with gaps.
        int[] sendCounts = seq(n, p -> p + 1);
        int[] sendDispls = seq(n, p -> p * (p + 1) / 2);
        int[] recvCounts = seq(n, q -> r + 1);
        int[] recvDispls = seq(n, q -> q * (r + 2));
        int sendTotal = n * (n + 1) / 2, recvTotal = n * (r + 2);
        int[] src = new int[sendTotal];
        for (int p = 0; p < n; p++) for (int j = 0; j <= p; j++) src[sendDispls[p] + j] = r * 100 + p * 10 + j;
        int[] expect = new int[recvTotal];
        Arrays.fill(expect, FILL);
        for (int q = 0; q < n; q++) for (int j = 0; j <= r; j++) expect[recvDispls[q] + j] = q * 100 + r * 10 + j;
        try (Ints s = new Ints(dev(c, 1), src); Ints d = Ints.filled(dev(c, 0), recvTotal, FILL)) {
            c.allToAllv(s.buf(), sendCounts, sendDispls, MPI.INT, d.buf(), recvCounts, recvDispls, MPI.INT);
            Check.arrays(expect, d.read(), "allToAllv, gaps untouched");
        }
    }

    @RankTest
    public void reduceScatterAndReduceScatterBlock(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), k = 3;
        try (Ints s = new Ints(dev(c, 0), seq(n * k, i -> r + 10 * i)); Ints d = Ints.filled(dev(c, 1), k, FILL)) {
            c.reduceScatterBlock(s.buf(), d.buf(), k, MPI.INT, MPI.SUM);
            Check.arrays(seq(k, j -> n * (n - 1) / 2 + n * 10 * (r * k + j)), d.read(), "reduceScatterBlock");
        }
        int[] counts = seq(n, q -> q + 1);
        int total = n * (n + 1) / 2, first = r * (r + 1) / 2;
        try (Ints s = new Ints(dev(c, 1), seq(total, i -> r + 10 * i)); Ints d = Ints.filled(dev(c, 0), r + 1, FILL)) {
            c.reduceScatter(s.buf(), d.buf(), counts, MPI.INT, MPI.SUM);
            Check.arrays(seq(r + 1, j -> n * (n - 1) / 2 + n * 10 * (first + j)), d.read(), "reduceScatter");
        }
    }

    @RankTest
    public void scanAndExScan(Intracomm c) {
        int r = c.getRank(), len = 50;
        try (Ints s = new Ints(dev(c, 0), seq(len, i -> r + 1 + i)); Ints d = Ints.filled(dev(c, 1), len, FILL)) {
            c.scan(s.buf(), d.buf(), len, MPI.INT, MPI.SUM);
            Check.arrays(seq(len, i -> (r + 1) * (r + 2) / 2 + (r + 1) * i), d.read(), "scan");
        }
        try (Ints s = new Ints(dev(c, 1), seq(len, i -> r + 1 + i)); Ints d = Ints.filled(dev(c, 0), len, FILL)) {
            c.exScan(s.buf(), d.buf(), len, MPI.INT, MPI.SUM);
            if (r > 0) Check.arrays(seq(len, i -> r * (r + 1) / 2 + r * i), d.read(), "exScan");
        }
    }

    @RankTest(minSize = 2)
    public void sendRecvSendRecvAndNonBlockingAroundARing(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), len = 513;
        int right = (r + 1) % n, left = (r + n - 1) % n;
        int[] fromLeft = seq(len, i -> left * 1000 + i);
        try (Ints s = new Ints(dev(c, 0), seq(len, i -> r * 1000 + i)); Ints d = Ints.filled(dev(c, 1), len, FILL)) {
            Status st = c.sendRecv(s.buf(), len, MPI.INT, right, 5, d.buf(), len, MPI.INT, left, 5);
            Check.equal(len, st.getCount(MPI.INT), "sendRecv count");
            Check.arrays(fromLeft, d.read(), "sendRecv");
        }
        try (Ints s = new Ints(dev(c, 1), seq(len, i -> r * 1000 + i)); Ints d = Ints.filled(dev(c, 0), len, FILL)) {
            Request q = c.iRecv(d.buf(), len, MPI.INT, left, 6);
            Request p = c.iSend(s.buf(), len, MPI.INT, right, 6);
            p.waitFor();
            Status st = q.waitStatus();
            Check.equal(left, st.getSource(), "iRecv source");
            Check.arrays(fromLeft, d.read(), "iSend/iRecv, data there when the request completed");
        }
        // Blocking send and recv: even ranks send first; a message shorter than the receive
        // buffer writes only its own items.
        int sent = 4;
        try (Ints s = new Ints(dev(c, 0), seq(sent, i -> r * 1000 + i)); Ints d = Ints.filled(dev(c, 1), len, FILL)) {
            Status st;
            if (r % 2 == 0) {
                c.send(s.buf(), sent, MPI.INT, right, 7);
                st = c.recv(d.buf(), len, MPI.INT, left, 7);
            } else {
                st = c.recv(d.buf(), len, MPI.INT, left, 7);
                c.send(s.buf(), sent, MPI.INT, right, 7);
            }
            Check.equal(sent, st.getCount(MPI.INT), "recv count");
            int[] expect = seq(len, i -> i < sent ? left * 1000 + i : FILL);
            Check.arrays(expect, d.read(), "send/recv of a short message");
        }
    }

    @RankTest(minSize = 2)
    public void persistentRequestsCopyAtEveryStartAndRawDeviceMemoryWorks(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), len = 64;
        int right = (r + 1) % n, left = (r + n - 1) % n;
        try (DeviceBuffer s = DeviceBuffer.allocate(4L * len); DeviceBuffer d = DeviceBuffer.allocate(4L * len)) {
            // The receive side as a framework's raw pointer: staged by address, not through DeviceBuffer.
            DeviceMemory raw = DeviceMemory.of(d.address(), d.size(), d.device());
            Prequest recv = c.recvInit(raw, len, MPI.INT, left, 8);
            Prequest send = c.sendInit(s, len, MPI.INT, right, 8);
            for (int round = 0; round < 3; round++) {
                int k = round;
                s.copyFrom(seq(len, i -> r * 1000 + k * 100 + i));
                d.memset(0);
                recv.start();
                send.start();
                send.waitFor();
                recv.waitFor();
                int[] got = new int[len];
                d.copyTo(got);
                Check.arrays(seq(len, i -> left * 1000 + k * 100 + i), got, "persistent round " + round);
            }
            recv.free();
            send.free();
        }
    }

    @RankTest
    public void nonBlockingCollectivesCopyBackWhenTheRequestCompletes(Intracomm c) {
        int r = c.getRank(), n = c.getSize(), len = 211;
        int[] sum = seq(len, i -> n * (n - 1) / 2 + n * i);
        try (Ints s = new Ints(dev(c, 1), seq(len, i -> r + i)); Ints d = Ints.filled(dev(c, 0), len, FILL);
             Ints b = n > 0 && r == 0 ? new Ints(true, seq(len, i -> 5 * i)) : Ints.filled(true, len, FILL)) {
            Request q = c.iAllReduce(s.buf(), d.buf(), len, MPI.INT, MPI.SUM);
            Request p = c.iBcast(b.buf(), len, MPI.INT, 0);
            q.waitFor();
            p.waitFor();
            Check.arrays(sum, d.read(), "iAllReduce");
            Check.arrays(seq(len, i -> 5 * i), b.read(), "iBcast");
        }
        try (Ints x = new Ints(true, seq(len, i -> r + i))) {
            Request q = c.iAllReduce(x.buf(), len, MPI.INT, MPI.SUM);
            while (!q.test()) Thread.onSpinWait();
            Check.arrays(sum, x.read(), "iAllReduce in place, completed by test");
        }
    }

    /** Whether the job runs in NCCL mode: the collectives NCCL can do go through NCCL (NcclModeSuite checks more). */
    private static boolean ncclMode() {
        return "nccl".equalsIgnoreCase(System.getenv("MPI4J_DEVICE_COLLECTIVES"));
    }

    @RankTest
    public void theRightPathIsTaken(Intracomm c) {
        boolean cudaAwareMpi = "mpi".equals(Mpi4j.backendName())
                && "yes".equalsIgnoreCase(System.getenv("MPI4J_MPI_CUDA_AWARE"));
        long before = PinnedPool.taken();
        long nccl = NcclPath.calls();
        try (Ints x = new Ints(true, seq(10, i -> i))) {
            c.allReduce(x.buf(), 10, MPI.INT, MPI.SUM);
            Check.arrays(seq(10, i -> c.getSize() * i), x.read(), "allReduce");
        }
        long staged = PinnedPool.taken() - before;
        if (ncclMode()) {
            Check.equal(1, NcclPath.calls() - nccl, "NCCL-mode calls (MPI4J_DEVICE_COLLECTIVES=nccl)");
            Check.equal(0, staged, "pinned buffers taken in NCCL mode");
        } else if (cudaAwareMpi) {
            Check.equal(0, staged, "pinned buffers taken with a CUDA-aware MPI (device memory goes to MPI as it is)");
        } else {
            // At least one: ranks that are threads of one JVM share the pool.
            Check.isTrue(staged >= 1, "a pinned buffer was taken to stage the in-place allReduce (" + staged + ")");
            Check.isTrue(PinnedPool.idleBytes() > 0, "the pinned buffer is kept for the next call");
        }
    }

    @RankTest
    public void aPointerThatIsNotMemoryOfItsDeviceIsRefusedBeforeAnythingMoves(Intracomm c) {
        try (OffHeap host = new OffHeap(64, (byte) 0); DeviceBuffer d = DeviceBuffer.allocate(64)) {
            DeviceMemory notDevice = DeviceMemory.of(host.address, 64, d.device());
            DeviceMemory otherDevice = DeviceMemory.of(d.address(), 64, d.device() + 1);
            boolean cudaAwareMpi = "mpi".equals(Mpi4j.backendName())
                    && "yes".equalsIgnoreCase(System.getenv("MPI4J_MPI_CUDA_AWARE"));
            if (cudaAwareMpi) return; // MPI takes device addresses as they are: nothing to check them against
            Check.throwsMpi(MPI.ERR_BUFFER, () -> c.allReduce(notDevice, 16, MPI.INT, MPI.SUM), "allReduce",
                    "is not accepted by the", "cudaPointerGetAttributes says", "is host memory, not of device "
                    + d.device());
            Check.throwsMpi(MPI.ERR_BUFFER, () -> c.bcast(otherDevice, 16, MPI.INT, 0), "bcast",
                    "is memory of device " + d.device() + ", not of device " + (d.device() + 1));
            // Nothing moves, so nothing is checked.
            c.bcast(notDevice, 0, MPI.INT, 0);
        }
    }

    @RankTest
    public void aClosedDeviceBufferIsAnExceptionOnEveryRank(Intracomm c) {
        DeviceBuffer d = DeviceBuffer.allocate(64);
        d.close();
        try {
            c.bcast(d, 4, MPI.INT, 0);
            throw new AssertionError("bcast of a closed DeviceBuffer returned");
        } catch (IllegalStateException e) {
            Check.isTrue(String.valueOf(e.getMessage()).contains("closed"), "the message says closed: " + e);
        }
        // The communicator still works.
        try (Ints x = new Ints(dev(c, 0), seq(3, i -> 1))) {
            c.allReduce(x.buf(), 3, MPI.INT, MPI.SUM);
            Check.arrays(seq(3, i -> c.getSize()), x.read(), "allReduce after the refused call");
        }
    }
}
