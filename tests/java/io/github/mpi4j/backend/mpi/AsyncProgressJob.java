package io.github.mpi4j.backend.mpi;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.File;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Prequest;
import mpi.Request;
import mpi.UserFunction;

/**
 * A 2-rank job for {@link AsyncProgressTest} on the MPI backend, run with and without
 * {@code MPI4J_ASYNC_PROGRESS}. Each rank prints {@code KEY value} lines:
 * <ul>
 *   <li>{@code LEVEL}: the thread level MPI gave; {@code HELPER}: whether the helper runs;</li>
 *   <li>{@code PEER_WAIT_MS} (rank 1): how long rank 1 waited for a 1 MiB {@code iAllReduce}
 *       that rank 0 started and then slept {@link #SLEEP_MS} without calling MPI; Open MPI moves
 *       rank 0's part only while some thread of rank 0 is inside MPI;</li>
 *   <li>{@code POLLS_DURING_SLEEP} (rank 0): the helper's progress calls in that sleep;</li>
 *   <li>{@code SUM_OK}: the allreduce's values against the sum worked out from rank and size;</li>
 *   <li>{@code OUTSTANDING}: requests the helper counts after point-to-point, persistent,
 *       freed and tested requests all ended (0 when its bookkeeping is right);</li>
 *   <li>{@code OP_THREAD} (rank 0): the thread that ran a user reduction of an {@code iAllReduce}
 *       whose peer data arrived while rank 0 slept outside MPI; {@code OP_SUM_OK} its values;
 *       {@code OP_FAILURE}: what rank 0's {@code waitFor} threw when that reduction failed;</li>
 *   <li>{@code IO_OK}: {@link #FILE_ROUNDS} non-blocking writes, each waited for, read back;
 *       {@code POLLS_WITH_FILE_OPEN}: the helper's progress calls while a file was open and an
 *       {@code iAllReduce} outstanding (on Open MPI the helper pauses then);</li>
 *   <li>{@code IDLE_CPU_MS}: the helper's CPU time over a quiet {@link #QUIET_MS} (it parks);</li>
 *   <li>{@code ALIVE_AFTER_FINALIZE}: whether the helper thread outlived MPI.Finalize.</li>
 * </ul>
 */
public final class AsyncProgressJob {
    private AsyncProgressJob() {
    }

    static final long SLEEP_MS = 2000;
    static final long QUIET_MS = 500;
    /** Open MPI 4.1's ompio corrupted the heap within 5,000 such writes with a second thread progressing. */
    static final int FILE_ROUNDS = 3000;
    private static final int COUNT = (1 << 20) / Double.BYTES;

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Comm world = MPI.COMM_WORLD;
        int rank = world.getRank(), size = world.getSize();
        System.out.println("LEVEL " + MPI.queryThread());
        MpiAsyncProgress helper = MpiAsyncProgress.current();
        System.out.println("HELPER " + (helper != null) + (helper != null ? " batch=" + (helper.notBatch == null) : ""));

        DoubleBuffer send = direct(COUNT), recv = direct(COUNT);
        for (int i = 0; i < COUNT; i++) send.put(i, rank + 1 + size * (i % 7));
        world.barrier();
        if (rank == 0) {
            long before = helper == null ? 0 : helper.polls();
            Request r = world.iAllReduce(send, recv, COUNT, MPI.DOUBLE, MPI.SUM);
            Thread.sleep(SLEEP_MS);
            long during = helper == null ? 0 : helper.polls() - before;
            r.waitFor();
            System.out.println("POLLS_DURING_SLEEP " + during);
        } else {
            long t0 = System.nanoTime();
            world.iAllReduce(send, recv, COUNT, MPI.DOUBLE, MPI.SUM).waitFor();
            System.out.println("PEER_WAIT_MS " + (System.nanoTime() - t0) / 1_000_000);
        }
        boolean ok = true;
        for (int i = 0; i < COUNT; i++) {
            double want = size * (size + 1) / 2.0 + (double) size * size * (i % 7);
            if (recv.get(i) != want) ok = false;
        }
        System.out.println("SUM_OK " + ok);

        nonBlockingWrites(world, rank, args.length > 0 ? args[0] : "async-progress-job.dat", helper);
        userReductions(world, rank, size);
        endEveryKindOfRequest(world, rank);
        System.out.println("OUTSTANDING " + (helper == null ? 0 : helper.outstanding()));

        Thread t = helperThread();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (t != null) {
            long c0 = mx.getThreadCpuTime(t.getId());
            Thread.sleep(QUIET_MS);
            System.out.println("IDLE_CPU_MS " + (mx.getThreadCpuTime(t.getId()) - c0) / 1_000_000);
        }
        MPI.Finalize();
        System.out.println("ALIVE_AFTER_FINALIZE " + (t != null && t.isAlive()));
    }

    /** Rank 1 starts 200 ms after rank 0, so rank 0 reduces rank 1's data during its sleep. */
    private static void userReductions(Comm world, int rank, int size) throws Exception {
        int n = 1024;
        IntBuffer send = ByteBuffer.allocateDirect(4 * n).order(ByteOrder.nativeOrder()).asIntBuffer();
        IntBuffer recv = ByteBuffer.allocateDirect(4 * n).order(ByteOrder.nativeOrder()).asIntBuffer();
        for (int i = 0; i < n; i++) send.put(i, (rank + 1) * (i + 1));
        Op add = new Op(new IntAdd(), true);
        world.barrier();
        if (rank == 1) Thread.sleep(200);
        Request r = world.iAllReduce(send, recv, n, MPI.INT, add);
        Thread.sleep(600);
        r.waitFor();
        boolean ok = true;
        for (int i = 0; i < n; i++) ok &= recv.get(i) == size * (size + 1) / 2 * (i + 1);
        if (rank == 0) System.out.println("OP_THREAD " + IntAdd.thread + "\nOP_SUM_OK " + ok);

        IntAdd.failing = true;
        world.barrier();
        if (rank == 1) Thread.sleep(200);
        r = world.iAllReduce(send, recv, n, MPI.INT, add);
        Thread.sleep(600);
        String failure = "none";
        try {
            r.waitFor();
        } catch (MPIException e) {
            failure = e.getMessage();
        }
        if (rank == 0) System.out.println("OP_FAILURE " + failure);
        IntAdd.failing = false;
        add.free();
    }

    /**
     * With a file open: an iAllReduce outstanding for 300 ms (counting the helper's calls); then
     * each rank rewrites its own 4 ints FILE_ROUNDS times with iWriteAt + waitFor and reads them back.
     */
    private static void nonBlockingWrites(Comm world, int rank, String path, MpiAsyncProgress helper)
            throws InterruptedException {
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
        long before = helper == null ? 0 : helper.polls();
        Request r = world.iAllReduce(new int[] {rank}, new int[1], 1, MPI.INT, MPI.SUM);
        Thread.sleep(300);
        System.out.println("POLLS_WITH_FILE_OPEN " + ((helper == null ? 0 : helper.polls()) - before));
        r.waitFor();
        IntBuffer b = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder()).asIntBuffer();
        for (int round = 0; round < FILE_ROUNDS; round++) {
            for (int j = 0; j < 4; j++) b.put(j, round * 100 + rank * 4 + j);
            f.iWriteAt(rank * 16L, b, 4, MPI.INT).waitFor();
        }
        int[] back = new int[4];
        f.readAt(rank * 16L, back, 4, MPI.INT);
        boolean ok = true;
        for (int j = 0; j < 4; j++) ok &= back[j] == (FILE_ROUNDS - 1) * 100 + rank * 4 + j;
        f.close();
        world.barrier();
        if (rank == 0) File.delete(path, null);
        System.out.println("IO_OK " + ok);
    }

    /** An integer sum as a user function; records the thread that ran it, and fails when told to. */
    static final class IntAdd extends UserFunction {
        static volatile String thread = "none";
        static volatile boolean failing;

        @Override
        public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
            thread = Thread.currentThread().getName();
            if (failing) throw new IllegalStateException("user op failed on purpose");
            for (int i = 0; i < count; i++) inOut.putInt(4 * i, inOut.getInt(4 * i) + in.getInt(4 * i));
        }

        @Override
        public void call(Object in, Object inOut, int count, Datatype type) {
            thread = Thread.currentThread().getName();
            if (failing) throw new IllegalStateException("user op failed on purpose");
            int[] a = (int[]) in, b = (int[]) inOut;
            for (int i = 0; i < count; i++) b[i] += a[i];
        }
    }

    /** Point-to-point requests waited for together, a persistent pair started twice, a freed send, a tested barrier. */
    private static void endEveryKindOfRequest(Comm world, int rank) throws Exception {
        int peer = 1 - rank;
        int[] out = {rank}, in = {-1};
        Request.waitAll(new Request[] {world.iSend(out, 1, MPI.INT, peer, 1), world.iRecv(in, 1, MPI.INT, peer, 1)});
        check(in[0] == peer, "iRecv got " + in[0]);

        ByteBuffer ps = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder());
        ByteBuffer pr = ByteBuffer.allocateDirect(4).order(ByteOrder.nativeOrder());
        Prequest s = world.sendInit(ps, 1, MPI.INT, peer, 2);
        Prequest r = world.recvInit(pr, 1, MPI.INT, peer, 2);
        for (int round = 0; round < 2; round++) {
            ps.putInt(0, 10 * rank + round);
            s.start();
            r.start();
            s.waitFor();
            r.waitFor();
            check(pr.getInt(0) == 10 * peer + round, "persistent round " + round + " got " + pr.getInt(0));
        }
        s.free();
        r.free();

        int[] one = {7};
        if (rank == 0) {
            world.iSend(one, 1, MPI.INT, 1, 3).free();
        } else {
            world.recv(in, 1, MPI.INT, 0, 3);
            check(in[0] == 7, "freed send delivered " + in[0]);
        }

        Request b = world.iBarrier();
        while (!b.test()) Thread.onSpinWait();
    }

    private static Thread helperThread() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("mpi4j-mpi-progress")) return t;
        }
        return null;
    }

    private static DoubleBuffer direct(int n) {
        return ByteBuffer.allocateDirect(n * Double.BYTES).order(ByteOrder.nativeOrder()).asDoubleBuffer();
    }

    private static void check(boolean ok, String what) {
        if (!ok) throw new IllegalStateException(what);
    }
}
