package io.github.mpi4j.bench;

import io.github.mpi4j.runtime.JitQuiet;
import java.nio.DoubleBuffer;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * Communication/computation overlap of a non-blocking allreduce, after OSU's osu_iallreduce
 * (issue 12, item 5); its C twin is bench/overlap_c.c, both print the same lines.
 * <pre>
 *   Overlap array|direct [sizes=1048576,16777216] [iters=100] [busy|idle]
 * </pre>
 * For each size (bytes of doubles, SUM), after a warm-up of at least {@code iters} calls and 3 s,
 * which goes on until no rank's JIT has compiled anything for 2 s (at most 60 s):
 * <ol>
 *   <li>pure: average time of {@code iAllReduce} + {@code waitFor} alone;</li>
 *   <li>compute: a busy loop (floating-point work, no MPI calls) sized to the pure time, timed
 *       on its own;</li>
 *   <li>overall: average time of {@code iAllReduce}, the busy loop, {@code waitFor};</li>
 *   <li>overlap % = max(0, 100 × (1 − (overall − compute) / pure)).</li>
 * </ol>
 * With {@code idle} the computation is a sleep of the same length instead of the busy loop (the
 * rank waits for a device, a disk or another program, and its core is free): the kind is then
 * printed as {@code array-idle} / {@code direct-idle}. That shows what progress achieves when
 * a core is free for it; with as many busy ranks as cores, the communication's own copies and
 * reductions can only run by taking time from the computation.
 * Each time is the mean over the ranks of their averages, as OSU reports. Output on rank 0:
 * {@code OVERLAP <kind> <bytes> <pureUs> <computeUs> <overallUs> <overlapPct>}. The reduced
 * values are checked against the sum computed from rank and size.
 */
public final class Overlap {
    private Overlap() {
    }

    /** Keeps the busy loop's result alive so the JIT cannot drop the loop. */
    static volatile double sink;

    public static void main(String[] args) {
        MPI.Init(args);
        boolean direct = args.length > 0 && args[0].equals("direct");
        String kind = direct ? "direct" : "array";
        String sizes = args.length > 1 ? args[1] : "1048576,16777216";
        int iters = args.length > 2 ? ColdStart.positive("iters", args[2]) : 100;
        String computeKind = args.length > 3 ? args[3] : "busy";
        if (!computeKind.equals("busy") && !computeKind.equals("idle")) {
            throw new IllegalArgumentException("compute = " + computeKind + " (busy or idle)");
        }
        boolean sleeps = computeKind.equals("idle");
        if (sleeps) kind += "-idle";
        Intracomm comm = MPI.COMM_WORLD;
        for (String s : sizes.split(",")) {
            int bytes = ColdStart.positive("size", s.trim());
            double[] r = measure(comm, direct, bytes, iters, sleeps);
            if (comm.getRank() == 0) {
                System.out.println(String.format(Locale.ROOT, "OVERLAP %s %d %.2f %.2f %.2f %.1f", kind, bytes,
                        r[0], r[1], r[2], overlap(r[0], r[1], r[2])));
            }
        }
        MPI.Finalize();
    }

    /** OSU's overlap: the share of the pure communication time hidden behind computation. */
    static double overlap(double pure, double compute, double overall) {
        if (!(pure > 0)) return 0;
        return Math.max(0, 100 * (1 - (overall - compute) / pure));
    }

    /**
     * Busy work for about {@code nanos} ns: floating-point arithmetic, the clock read every 64
     * steps; returns the time it took.
     */
    static long compute(long nanos) {
        long start = System.nanoTime(), end = start + nanos, now;
        double x = 1.0;
        do {
            for (int i = 0; i < 64; i++) x = x * 1.0000001 + 1e-9;
            now = System.nanoTime();
        } while (now < end);
        sink = x;
        return now - start;
    }

    /** The computation of the overlapped call: the busy loop, or a sleep; returns the time it took. */
    private static long work(boolean sleeps, long nanos) {
        return sleeps ? idle(nanos) : compute(nanos);
    }

    /** The same span of time without the core (parked); returns the time it took. */
    static long idle(long nanos) {
        long start = System.nanoTime(), end = start + nanos, now;
        while ((now = System.nanoTime()) < end) java.util.concurrent.locks.LockSupport.parkNanos(end - now);
        return now - start;
    }

    /** Shortest warm-up per size, on top of the iters calls ({@code -Dmpi4j.overlap.warmup.ms}, 3000). */
    private static final long WARM_UP_NANOS = Long.getLong("mpi4j.overlap.warmup.ms", 3000) * 1_000_000;
    /**
     * How long no compilation may have finished on a rank before its warm-up may end
     * ({@code -Dmpi4j.overlap.quiet.ms}, 2000; the tests shorten both).
     */
    private static final long JIT_QUIET_NANOS = Long.getLong("mpi4j.overlap.quiet.ms", 2000) * 1_000_000;
    /** Longest warm-up per size, quiet or not. */
    private static final long WARM_UP_LIMIT_NANOS = 60_000_000_000L;

    /** {pure, compute, overall} in µs, each the mean over ranks. */
    private static double[] measure(Intracomm comm, boolean direct, int bytes, int iters, boolean sleeps) {
        int count = bytes / 8, rank = comm.getRank(), size = comm.getSize();
        Object send, recv;
        if (direct) {
            DoubleBuffer s = MPI.newDoubleBuffer(count);
            for (int i = 0; i < count; i++) s.put(i, rank + i);
            send = s;
            recv = MPI.newDoubleBuffer(count);
        } else {
            double[] s = new double[count];
            for (int i = 0; i < count; i++) s[i] = rank + i;
            send = s;
            recv = new double[count];
        }
        // Warm-up: JIT, buffers, schedules (OSU skips its first iterations the same way), at
        // least iters calls and WARM_UP_NANOS (a fresh JVM needs hundreds of calls of a large
        // collective before the reductions and the progress loop are compiled); every rank
        // agrees on stopping, or the calls would not match.
        // Both forms are warmed up, as OSU skips iterations of both loops: a call waited for at
        // once, and a call left to progress while the rank computes (or sleeps) as long as the
        // previous call took (otherwise the progress thread's path is compiled, or with
        // -Xbatch waited for, inside the timed loop).
        // The warm-up ends when the JIT has gone quiet on every rank (JitQuiet): a call
        // progressed by the other thread reaches the compile thresholds of its per-call methods
        // only after thousands of calls (6-7 s at 1 MiB here), and under -Xbatch each of those
        // late compilations stopped a call for 30-150 ms inside the timed loop.
        // Each warm-up call also ends with the calls that come between the timed loops (a
        // barrier, a MAX allreduce of doubles from fresh arrays): a first barrier after the
        // warm-up, and a first allreduce from arrays the buffer cache had not seen, took
        // branches the compiled collective paths had never taken, and their deoptimisation and
        // recompilation fell into the timed loops (a 2-4 ms call 125 calls in).
        // The warm-up and the timed phases run the same two methods (pureCalls, overlappedCalls):
        // with the loops written out in measure, the timed loops were new code after the
        // warm-up's compiled loop, and their first runs recompiled barrier, waitFor, work and
        // the blocking allreduce inside the timed phase (-Xbatch: each compile stops its thread;
        // 45-57 compilations there in 5 jobs of 1 MiB arrays, overlap 23.9-94.6 %).
        long start = System.nanoTime();
        JitQuiet jit = new JitQuiet();
        double[] anyMore = {1};
        for (int i = 0; anyMore[0] == 1; i++) {
            long last = pureCalls(comm, send, recv, count, 1);
            overlappedCalls(comm, send, recv, count, 1, sleeps, last);
            long elapsed = System.nanoTime() - start;
            boolean enough = i + 1 >= iters && elapsed >= WARM_UP_NANOS && jit.quietFor(JIT_QUIET_NANOS);
            double[] more = {enough || elapsed >= WARM_UP_LIMIT_NANOS ? 0 : 1};
            anyMore = new double[1];
            comm.barrier();
            comm.allReduce(more, anyMore, 1, MPI.DOUBLE, MPI.MAX);
        }
        comm.barrier();
        double pure = pureCalls(comm, send, recv, count, iters) / 1e3;
        check(recv, direct, count, size);
        // The busy loop is sized to the pure time of the slowest rank, so every rank computes
        // as long (OSU sizes it to the maximum over ranks too).
        double[] mine = {pure}, max = new double[1];
        comm.allReduce(mine, max, 1, MPI.DOUBLE, MPI.MAX);
        long span = (long) (max[0] * 1e3);
        comm.barrier();
        long[] times = overlappedCalls(comm, send, recv, count, iters, sleeps, span);
        long computeNs = times[0], overallNs = times[1];
        check(recv, direct, count, size);
        double[] local = {pure, computeNs / 1e3 / iters, overallNs / 1e3 / iters}, sum = new double[3];
        comm.allReduce(local, sum, 3, MPI.DOUBLE, MPI.SUM);
        for (int i = 0; i < 3; i++) sum[i] /= size;
        return sum;
    }

    /** {@code calls} iAllReduces, each waited for at once; returns the mean time of one, ns. */
    private static long pureCalls(Intracomm comm, Object send, Object recv, int count, int calls) {
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) comm.iAllReduce(send, recv, count, MPI.DOUBLE, MPI.SUM).waitFor();
        return (System.nanoTime() - t0) / calls;
    }

    /**
     * {@code calls} iAllReduces, each overlapped with {@code span} ns of work before its waitFor;
     * returns {work, whole calls} in ns, summed over the calls.
     */
    private static long[] overlappedCalls(Intracomm comm, Object send, Object recv, int count, int calls, boolean sleeps,
            long span) {
        long computeNs = 0, overallNs = 0;
        for (int i = 0; i < calls; i++) {
            long a = System.nanoTime();
            Request r = comm.iAllReduce(send, recv, count, MPI.DOUBLE, MPI.SUM);
            computeNs += work(sleeps, span);
            r.waitFor();
            overallNs += System.nanoTime() - a;
        }
        return new long[] {computeNs, overallNs};
    }

    private static void check(Object recv, boolean direct, int count, int size) {
        for (int i : new int[] {0, count / 2, count - 1}) {
            if (i < 0 || i >= count) continue;
            double got = direct ? ((DoubleBuffer) recv).get(i) : ((double[]) recv)[i];
            double want = (double) size * i + size * (size - 1) / 2.0;
            if (got != want) throw new IllegalStateException("iAllReduce element " + i + " = " + got + ", expected " + want);
        }
    }
}
