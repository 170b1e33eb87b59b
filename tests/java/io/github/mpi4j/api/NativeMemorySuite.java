package io.github.mpi4j.api;

import io.github.mpi4j.memory.DeviceMemory;
import io.github.mpi4j.memory.HostMemory;
import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.OffHeap;
import io.github.mpi4j.testing.RankTest;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Buffers given by address ({@code io.github.mpi4j.memory}): host memory that Java did not
 * allocate travels through point-to-point and collective calls on every backend; bad addresses,
 * sizes and offsets, MPI.OBJECT and device memory are refused with messages that name them.
 * Memory is written and read through {@link OffHeap}, independently of mpi4j.
 */
public class NativeMemorySuite {

    private static int value(int rank, int i) {
        return rank * 100_003 + i * 7 + 1;
    }

    private static int next(Intracomm c) {
        return (c.getRank() + 1) % c.getSize();
    }

    private static int prev(Intracomm c) {
        return (c.getRank() + c.getSize() - 1) % c.getSize();
    }

    private static int[] expected(int rank, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = value(rank, i);
        return a;
    }

    /** Around a ring from host memory into host memory, at a byte offset (mpiJava style) and without. */
    @RankTest
    public void ringThroughHostMemory(Intracomm comm) {
        int me = comm.getRank();
        for (int n : new int[] {0, 1, 13, 5000, 70_000}) {
            try (OffHeap out = new OffHeap(4L * n + 8, (byte) 0); OffHeap in = new OffHeap(4L * n + 8, (byte) -1)) {
                for (int i = 0; i < n; i++) out.putInt(2 + i, value(me, i));
                Request r = comm.iSend(out.memory().slice(8, 4L * n), n, MPI.INT, next(comm), 3);
                Status s = comm.Recv(in.memory(), 8, n, MPI.INT, prev(comm), 3);
                r.waitFor();
                String what = "ring n=" + n;
                Check.arrays(expected(prev(comm), n), in.ints(2, n), what);
                Check.equal(-1, in.getInt(0), what + ": bytes before the offset untouched");
                Check.equal(n, s.getCount(MPI.INT), what + " count");
            }
        }
    }

    /** Host memory on one side and a Java array or direct buffer on the other. */
    @RankTest
    public void hostMemoryMeetsArraysAndBuffers(Intracomm comm) {
        int me = comm.getRank(), n = 1000;
        try (OffHeap out = new OffHeap(4L * n, (byte) 0); OffHeap in = new OffHeap(4L * n, (byte) 0)) {
            for (int i = 0; i < n; i++) out.putInt(i, value(me, i));
            int[] array = new int[n];
            Request r = comm.iSend(out.memory(), n, MPI.INT, next(comm), 4);
            comm.recv(array, n, MPI.INT, prev(comm), 4);
            r.waitFor();
            Check.arrays(expected(prev(comm), n), array, "host memory into int[]");

            java.nio.IntBuffer direct = MPI.newIntBuffer(n);
            for (int i = 0; i < n; i++) direct.put(i, value(me, i));
            r = comm.iSend(direct, n, MPI.INT, next(comm), 5);
            comm.recv(in.memory(), n, MPI.INT, prev(comm), 5);
            r.waitFor();
            Check.arrays(expected(prev(comm), n), in.ints(0, n), "direct buffer into host memory");
        }
    }

    /** bcast, allReduce (separate and in place), allGather and gather on host memory. */
    @RankTest
    public void collectivesOnHostMemory(Intracomm comm) {
        int me = comm.getRank(), size = comm.getSize();
        for (int n : new int[] {1, 13, 40_000}) {
            String at = " n=" + n;
            int root = size - 1;
            try (OffHeap b = new OffHeap(4L * n, (byte) 0)) {
                if (me == root) for (int i = 0; i < n; i++) b.putInt(i, value(root, i));
                comm.bcast(b.memory(), n, MPI.INT, root);
                Check.arrays(expected(root, n), b.ints(0, n), "bcast" + at);
            }
            int[] sum = new int[n];
            for (int r = 0; r < size; r++) for (int i = 0; i < n; i++) sum[i] += value(r, i);
            try (OffHeap s = new OffHeap(4L * n, (byte) 0); OffHeap r = new OffHeap(4L * n, (byte) 0)) {
                for (int i = 0; i < n; i++) s.putInt(i, value(me, i));
                comm.allReduce(s.memory(), r.memory(), n, MPI.INT, MPI.SUM);
                Check.arrays(sum, r.ints(0, n), "allReduce" + at);
                Check.arrays(expected(me, n), s.ints(0, n), "allReduce leaves sendbuf" + at);
                comm.allReduce(s.memory(), n, MPI.INT, MPI.SUM);
                Check.arrays(sum, s.ints(0, n), "allReduce in place" + at);
            }
            try (OffHeap s = new OffHeap(4L * n, (byte) 0); OffHeap all = new OffHeap(4L * n * size, (byte) 0)) {
                for (int i = 0; i < n; i++) s.putInt(i, value(me, i));
                comm.allGather(s.memory(), n, MPI.INT, all.memory(), n, MPI.INT);
                for (int r = 0; r < size; r++) Check.arrays(expected(r, n), all.ints((long) r * n, n), "allGather from " + r + at);
                int[] gathered = me == 0 ? new int[n * size] : null;
                comm.gather(s.memory(), n, MPI.INT, gathered, n, MPI.INT, 0);
                if (me == 0) {
                    int[] want = new int[n * size];
                    for (int r = 0; r < size; r++) System.arraycopy(expected(r, n), 0, want, r * n, n);
                    Check.arrays(want, gathered, "gather into int[]" + at);
                }
            }
        }
    }

    /** Non-blocking and personalized collectives: iAllReduce, reduce to a root, allToAll, scatter. */
    @RankTest
    public void moreCollectivesOnHostMemory(Intracomm comm) throws Exception {
        int me = comm.getRank(), size = comm.getSize(), n = 777;
        int[] sum = new int[n];
        for (int r = 0; r < size; r++) for (int i = 0; i < n; i++) sum[i] += value(r, i);
        try (OffHeap s = new OffHeap(4L * n, (byte) 0); OffHeap r = new OffHeap(4L * n, (byte) 0)) {
            for (int i = 0; i < n; i++) s.putInt(i, value(me, i));
            Request q = comm.iAllReduce(s.memory(), r.memory(), n, MPI.INT, MPI.SUM);
            q.waitFor();
            Check.arrays(sum, r.ints(0, n), "iAllReduce");
            try (OffHeap t = new OffHeap(4L * n, (byte) 0)) {
                int root = size / 2;
                comm.reduce(s.memory(), t.memory(), n, MPI.INT, MPI.SUM, root);
                if (me == root) Check.arrays(sum, t.ints(0, n), "reduce at " + root);
            }
        }
        // A user op (array form) over host memory: max of |x| computed by the function.
        mpi.Op absMax = new mpi.Op(new mpi.UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, mpi.Datatype type) {
                int[] a = (int[]) in, b = (int[]) inOut;
                for (int j = 0; j < count; j++) b[j] = Math.max(Math.abs(a[j]), Math.abs(b[j]));
            }
        }, true);
        try (OffHeap s = new OffHeap(4L * n, (byte) 0); OffHeap r = new OffHeap(4L * n, (byte) 0)) {
            for (int i = 0; i < n; i++) s.putInt(i, (i % 2 == 0 ? -1 : 1) * value(me, i));
            comm.allReduce(s.memory(), r.memory(), n, MPI.INT, absMax);
            int[] want = new int[n];
            // One rank: MPI copies the input and never calls the function.
            for (int i = 0; i < n; i++) want[i] = size == 1 ? (i % 2 == 0 ? -1 : 1) * value(0, i) : value(size - 1, i);
            Check.arrays(want, r.ints(0, n), "allReduce with a user op");
        } finally {
            absMax.free();
        }
        int k = 5;
        try (OffHeap s = new OffHeap(4L * k * size, (byte) 0); OffHeap r = new OffHeap(4L * k * size, (byte) 0)) {
            // Block j of rank me is value(me, j * k + i): rank me receives block me of every rank.
            for (int i = 0; i < k * size; i++) s.putInt(i, value(me, i));
            comm.allToAll(s.memory(), k, MPI.INT, r.memory(), k, MPI.INT);
            for (int from = 0; from < size; from++) {
                int[] want = new int[k];
                for (int i = 0; i < k; i++) want[i] = value(from, me * k + i);
                Check.arrays(want, r.ints((long) from * k, k), "allToAll block from " + from);
            }
            try (OffHeap part = new OffHeap(4L * k, (byte) 0)) {
                comm.scatter(s.memory(), k, MPI.INT, part.memory(), k, MPI.INT, 0);
                int[] want = new int[k];
                for (int i = 0; i < k; i++) want[i] = value(0, me * k + i);
                Check.arrays(want, part.ints(0, k), "scatter from 0");
            }
        }
    }

    /** Address, size and offset checks come before anything moves, and name the argument and value. */
    @RankTest
    public void badHostMemoryIsRefused(Intracomm comm) {
        int dest = next(comm);
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(HostMemory.of(0, 64), 4, MPI.INT, dest, 1),
                "send", "buf", "host memory", "address 0", "count is 4");
        try (OffHeap m = new OffHeap(40, (byte) 0)) {
            Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(m.memory(), 11, MPI.INT, dest, 1),
                    "send", "count 11", "needs 44 bytes", "buf", "40 bytes");
            Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(m.memory(), 41, 0, MPI.INT, dest, 1),
                    "offset 41", "beyond the end", "40 bytes");
            Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send(m.memory(), 8, 9, MPI.INT, dest, 1),
                    "count 9", "from offset 8", "has 32");
            Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce(m.memory(), HostMemory.of(m.address, 8), 3,
                    MPI.INT, MPI.SUM), "recvbuf", "needs 12 bytes");
            Check.throwsMpi(MPI.ERR_TYPE, () -> comm.send(m.memory(), 1, MPI.OBJECT, dest, 1), "OBJECT");
        }
        // Nothing moves: a null address with count 0 is fine (as in C).
        Request r = comm.iSend(HostMemory.of(0, 0), 0, MPI.INT, dest, 2);
        comm.recv(HostMemory.of(0, 0), 0, MPI.INT, prev(comm), 2);
        r.waitFor();
    }

    /**
     * These jobs load no CUDA runtime, so device memory can be neither staged nor handed to a
     * CUDA-aware MPI: every call refuses it by name, before anything is sent (the device suites in
     * io.github.mpi4j.device move it with a CUDA runtime loaded).
     */
    @RankTest
    public void deviceMemoryIsRefusedByName(Intracomm comm) {
        DeviceMemory d = DeviceMemory.of(0x10000, 64, 0);
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.send(d, 4, MPI.INT, next(comm), 1),
                "device memory", "DeviceMemory[device 0", "is not accepted by the", "backend");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.iSend(d, 4, MPI.INT, next(comm), 1),
                "device memory", "is not accepted by the");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.recv(d, 4, MPI.INT, prev(comm), 1),
                "device memory", "is not accepted by the");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.sendRecv(new int[4], 4, MPI.INT, next(comm), 9, d, 4, MPI.INT,
                prev(comm), 9), "device memory", "is not accepted by the");
        DeviceMemory e = DeviceMemory.of(0x20000, 64, 0);
        for (int n : new int[] {1, 16}) {
            Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allReduce(d, e, n, MPI.INT, MPI.SUM),
                    "device memory", "is not accepted by the");
            // A bcast in a world of one moves nothing, so nothing looks at the memory.
            if (comm.getSize() > 1) {
                Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.bcast(d, n, MPI.INT, 0), "device memory",
                        "is not accepted by the");
            }
        }
        // The world still works afterwards.
        int[] x = {comm.getRank()};
        comm.allReduce(x, 1, MPI.INT, MPI.SUM);
        Check.equal((long) comm.getSize() * (comm.getSize() - 1) / 2, x[0], "allReduce after the refusals");
    }
}
