package io.github.mpi4j.bench;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Locale;
import mpi.MPI;
import mpi.Win;

/**
 * The fixed cost of one {@code Win.put} + {@code Win.flush} (issue 11): a one-rank job puts
 * {@code bytes} (default 64) into its own allocated window under lockAll, {@code n} times per
 * round (default 1,000,000), five rounds; prints per round the time and the bytes the calling
 * thread allocated per put + flush (HotSpot's per-thread allocation counter), so allocation per
 * call shows exactly even on a busy machine. Run it on the backend to measure:
 * <pre>
 *   mpirun -np 1 java -cp target/mpi4j.jar io.github.mpi4j.bench.RmaCallCost [n] [bytes]
 *   launch/mpi4jrun -np 1 -cp target/mpi4j.jar io.github.mpi4j.bench.RmaCallCost [n] [bytes]
 * </pre>
 */
public final class RmaCallCost {
    private RmaCallCost() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int bytes = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        Win win = Win.allocate(Math.max(bytes, 1), 1, MPI.INFO_NULL, MPI.COMM_SELF);
        ByteBuffer origin = MPI.newByteBuffer(Math.max(bytes, 1));
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        win.lockAll(0);
        for (int round = 0; round < 5; round++) {
            long a0 = allocated(mx, tid);
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                win.put(origin, bytes, MPI.BYTE, 0, 0, bytes, MPI.BYTE);
                win.flush(0);
            }
            long t1 = System.nanoTime();
            long a1 = allocated(mx, tid);
            System.out.println(String.format(Locale.ROOT, "RESULT round %d put+flush %d B: %.3f us, %.1f bytes "
                    + "allocated per call pair", round, bytes, (t1 - t0) / 1e3 / n, (a1 - a0) / (double) n));
        }
        win.unlockAll();
        win.free();
        MPI.Finalize();
    }

    private static long allocated(java.lang.management.ThreadMXBean mx, long tid) {
        if (mx instanceof com.sun.management.ThreadMXBean) {
            return ((com.sun.management.ThreadMXBean) mx).getThreadAllocatedBytes(tid);
        }
        return -1;
    }
}
