package io.github.mpi4j.bench;

import java.nio.ByteBuffer;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Win;

/**
 * OSU-style one-sided benchmarks over mpi.Win (the C twin is bench/osu_rma_c.c; bench/run_rma.sh
 * runs both in one session):
 * <pre>
 *   OsuRma put_latency|get_latency|get_bw &lt;label&gt; [maxBytes]
 * </pre>
 * put_latency (get_latency): rank 0 puts {@code n} bytes into (gets them from) rank 1's window
 * and flushes, per iteration, under lockAll (osu_put_latency / osu_get_latency with flush
 * synchronization; OSU's 10,000 iterations below 64 KiB), µs per iteration; get_bw: rank 0
 * gets a window of 64 blocks of {@code n} bytes from rank 1 and flushes (osu_get_bw), MB/s.
 * The window is {@code Win.allocate}d; 2 s of warm-up (JIT) come first, and every size is warmed up
 * again before it is timed. Output on
 * rank 0: {@code RESULT <label> <test> <bytes> <value>}.
 */
public final class OsuRma {
    private OsuRma() {
    }

    private static final int WINDOW = 64;

    public static void main(String[] args) {
        MPI.Init(args);
        String test = args.length > 0 ? args[0] : "put_latency";
        String label = args.length > 1 ? args[1] : "java";
        long max = args.length > 2 ? Long.parseLong(args[2]) : 1 << 20;
        boolean bw = test.equals("get_bw"), get = test.equals("get_latency");
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        int winBytes = (int) (bw ? max * WINDOW : max);
        Win win = Win.allocate(winBytes, 1, MPI.INFO_NULL, comm);
        ByteBuffer origin = MPI.newByteBuffer(winBytes);
        comm.barrier();
        // JIT warm-up (as Osu does): 2 s of the timed method at every size of the run, before any
        // timing. The timed loop is a method of its own, so every size runs compiled code (a loop
        // in main would run interpreted until on-stack replacement, inside the first size's
        // timing), and every size's path is compiled (a path first met inside a timing would
        // send the compiled method back to the interpreter there).
        if (rank == 0) {
            win.lockAll(0);
            long end = System.nanoTime() + 2_000_000_000L;
            while (System.nanoTime() < end) {
                for (long n = bw ? 4096 : 8; n <= max; n *= bw ? 16 : 8) {
                    rounds(win, origin, bw, get, (int) n, bw ? 2 : 20);
                }
            }
            win.unlockAll();
        }
        comm.barrier();
        for (long n = bw ? 4096 : 8; n <= max; n *= bw ? 16 : 8) {
            int iters = bw ? (n >= 1 << 20 ? 10 : 40) : (n >= 65536 ? 1000 : 10000);
            int warm = Math.max(iters / 10, bw ? 2 : 200);
            comm.barrier();
            if (rank == 0) {
                win.lockAll(0);
                rounds(win, origin, bw, get, (int) n, warm);
                long t0 = System.nanoTime();
                rounds(win, origin, bw, get, (int) n, iters);
                double t = (System.nanoTime() - t0) / 1e9;
                win.unlockAll();
                double v = bw ? n * (double) WINDOW * iters / t / 1e6 : t * 1e6 / iters;
                System.out.println(String.format(Locale.ROOT, bw ? "RESULT %s %s %d %.2f" : "RESULT %s %s %d %.3f",
                        label, test, n, v));
                System.out.flush();
            }
            comm.barrier();
        }
        win.free();
        MPI.Finalize();
    }

    /** {@code iters} iterations of the test at {@code n} bytes towards rank 1 (under lockAll). */
    private static void rounds(Win win, ByteBuffer origin, boolean bw, boolean get, int n, int iters) {
        for (int i = 0; i < iters; i++) {
            if (bw) {
                for (int w = 0; w < WINDOW; w++) {
                    win.get(MPI.slice(origin, w * n), n, MPI.BYTE, 1, w * n, n, MPI.BYTE);
                }
            } else if (get) {
                win.get(origin, n, MPI.BYTE, 1, 0, n, MPI.BYTE);
            } else {
                win.put(origin, n, MPI.BYTE, 1, 0, n, MPI.BYTE);
            }
            win.flush(1);
        }
    }
}
