package io.github.mpi4j.bench;

import io.github.mpi4j.runtime.JitQuiet;
import java.nio.DoubleBuffer;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * OSU-style micro-benchmarks over the mpi4j API (the C twin is bench/osu_c.c; both print the
 * same lines, so bench/run.sh can compute ratios from one run):
 * <pre>
 *   Osu latency|bw|allreduce|bcast|init array|direct [maxBytes [minBytes]]
 * </pre>
 * <ul>
 *   <li>latency: one-way time of a ping-pong between ranks 0 and 1 (half the round trip), µs;</li>
 *   <li>bw: rank 0 sends a window of 64 non-blocking messages, rank 1 receives them and
 *       acknowledges; MB/s (10^6 bytes per second);</li>
 *   <li>allreduce (doubles, SUM) and bcast: average time per call over all ranks (the max of
 *       the ranks' averages), µs;</li>
 *   <li>init: milliseconds from the JVM's start to the end of {@code MPI.Init}, slowest rank.</li>
 * </ul>
 * Output: {@code RESULT <test> <kind> <bytes> <value>} on rank 0. Every size is warmed up
 * (JIT and caches) before it is timed.
 */
public final class Osu {
    private Osu() {
    }

    private static final int WINDOW = 64;

    /** Heap bytes allocated per message by rank 0's thread in the last timed latency phase. */
    private static double lastAllocPerMessage;

    public static void main(String[] args) {
        MPI.Init(args);
        long initDone = System.currentTimeMillis();
        String test = args.length > 0 ? args[0] : "latency";
        if (test.equals("init")) {
            reportInitTime(initDone);
            MPI.Finalize();
            return;
        }
        boolean direct = args.length > 1 && args[1].equals("direct");
        long max = args.length > 2 ? Long.parseLong(args[2]) : 16L << 20;
        Intracomm comm = MPI.COMM_WORLD;
        String kind = direct ? "direct" : "array";
        long minBytes = test.equals("allreduce") ? 8 : 1;
        warmUp(comm, test, direct, minBytes, max);
        // An optional fourth argument starts the timed sweep there (a quick look at large sizes).
        long from = args.length > 3 ? Math.max(minBytes, Long.parseLong(args[3])) : minBytes;
        for (long size = from; size <= max; size *= 2) {
            double value;
            switch (test) {
                case "latency": value = latency(comm, (int) size, direct); break;
                case "bw": value = bandwidth(comm, (int) size, direct); break;
                case "allreduce": value = allreduce(comm, (int) size, direct); break;
                case "bcast": value = bcast(comm, (int) size, direct); break;
                default: throw new IllegalArgumentException("unknown test " + test);
            }
            if (comm.getRank() == 0) {
                System.out.println(String.format(Locale.ROOT, "RESULT %s %s %d %.4f", test, kind, size, value));
                if (test.equals("latency") && Allocations.counted()) {
                    // Bytes the sending/receiving thread allocated per message (send or receive) while timed.
                    System.out.println(String.format(Locale.ROOT, "RESULT latency_alloc %s %d %.1f", kind, size,
                            lastAllocPerMessage));
                }
            }
        }
        MPI.Finalize();
    }

    /**
     * Milliseconds from the start of the slowest rank's JVM to the end of its {@code MPI.Init}
     * (the JVM's own start-up included: that is what a user waits for).
     */
    private static void reportInitTime(long initDone) {
        long start = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
        double[] mine = {initDone - start}, worst = new double[1];
        MPI.COMM_WORLD.reduce(mine, worst, 1, MPI.DOUBLE, MPI.MAX, 0);
        if (MPI.COMM_WORLD.getRank() == 0) {
            System.out.println(String.format(Locale.ROOT, "RESULT init java 0 %.1f", worst[0]));
        }
    }

    /**
     * Runs the test on sizes from tiny to 2 MiB (collectives: to the largest timed size) for
     * about three seconds (per rank a core carries) so the JIT has compiled
     * every path (C2) — eager and rendezvous protocols, every collective schedule — before
     * anything is timed (otherwise the first size past a protocol switch pays for compiling it),
     * then collects the warm-up's garbage and pauses briefly.
     */
    private static void warmUp(Intracomm comm, String test, boolean direct, long minBytes, long max) {
        // Three seconds per JVM a core must carry: with more ranks than cores, their JIT
        // compilers share the cores too and take longer to reach steady state.
        int perCore = Math.max(1, (comm.getSize() + Runtime.getRuntime().availableProcessors() - 1)
                / Runtime.getRuntime().availableProcessors());
        long start = System.nanoTime();
        long until = start + 3_000_000_000L * perCore, latest = start + 9_000_000_000L * perCore;
        JitQuiet jit = new JitQuiet();
        boolean more = true;
        while (more) {
            // Every size the timed part uses up to 2 MiB, so every protocol and schedule: eager
            // and rendezvous messages, small, medium and large collective schedules. Every size,
            // not every eighth: the code of a protocol is compiled once it has run some thousands
            // of times, and with a 64 KiB eager limit a sweep by eights met rendezvous only at 256
            // KiB and 2 MiB, too few times, so its compilation (which -Xbatch waits for) landed in
            // the timed 128 KiB size and doubled its latency (docs/performance.md, tenth session).
            // Collectives to the largest timed size: the shared-memory allreduce runs its loop
            // once per chunk, 64 times a call at 16 MiB and only 4-8 up to 2 MiB, so its C2
            // compilation (40 ms, which -Xbatch waits for) otherwise came in the timed 16 MiB
            // calls of some runs and doubled their average (docs/performance.md, seventeenth
            // session).
            long last = test.equals("allreduce") || test.equals("bcast") ? Math.max(max, 1 << 21) : 1 << 21;
            for (long size = minBytes; size <= last; size *= 2) runOnce(comm, test, size, direct);
            // Then on until no rank's JIT has finished a compile for a second (at most three
            // times as long): a method called once per rendezvous message, such as the fabric's
            // Engine.isend, reached C2's threshold only after the sweeps of three seconds, and
            // its compile (which -Xbatch waits for) fell in the timed 256 KiB latency: 45-94 µs
            // against 17-20 in a quiet run (docs/performance.md, twenty-ninth session).
            long now = System.nanoTime();
            // Every rank must agree on stopping, or the collectives would not match.
            int[] go = {now < until || (!jit.quietFor(1_000_000_000L) && now < latest) ? 1 : 0};
            comm.allReduce(go, 1, MPI.INT, MPI.MAX);
            more = go[0] == 1;
        }
        if (test.equals("latency") || test.equals("bw")) freshBuffers(comm, direct);
        // The warm-up allocated large buffers: collect now, not in the first timed size.
        System.gc();
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        comm.barrier();
        // Then the small sizes once more, untimed. Each pass above ended with the largest sizes,
        // and the shared copy routines compiled while those ran were recompiled (-Xbatch: the
        // rank waits) when the first timed size took their small-message branches again: the
        // 8-byte allreduce read 30-100 µs instead of 1-3 (-XX:+PrintCompilation, tenth session).
        for (long size = minBytes; size <= 8192; size *= 2) {
            runOnce(comm, test, size, direct);
        }
        comm.barrier();
    }

    /** Messages from buffers the library has not seen before, in {@link #freshBuffers}. */
    static final int FRESH_MESSAGES = 3000;

    /**
     * Ping-pongs of 8 bytes, each from a buffer made for it. Every timed size makes its buffers
     * anew, and the library checks a buffer in full only the first time it meets it; the sweeps
     * above meet too few new buffers for C2 to compile those checks, and under mpirun (no warm
     * start in Init) it then compiled them inside a timed size, which -Xbatch waits for: 16 ms
     * in the 2-byte window of 25 ms (docs/performance.md, twenty-seventh session).
     */
    private static void freshBuffers(Intracomm comm, boolean direct) {
        int rank = comm.getRank();
        if (rank > 1) return;
        int peer = 1 - rank;
        for (int i = 0; i < FRESH_MESSAGES; i++) {
            Object out = bytes(8, direct), in = bytes(8, direct);
            if (rank == 0) {
                comm.send(out, 8, MPI.BYTE, peer, 4);
                comm.recv(in, 8, MPI.BYTE, peer, 4);
            } else {
                comm.recv(in, 8, MPI.BYTE, peer, 4);
                comm.send(out, 8, MPI.BYTE, peer, 4);
            }
            if (i % 64 == 0) {
                Request r = comm.iSend(bytes(8, direct), 8, MPI.BYTE, peer, 5);
                comm.iRecv(bytes(8, direct), 8, MPI.BYTE, peer, 5).waitFor();
                r.waitFor();
            }
        }
    }

    private static void runOnce(Intracomm comm, String test, long size, boolean direct) {
        switch (test) {
            case "latency": latency(comm, (int) size, direct); break;
            case "bw": bandwidth(comm, (int) size, direct); break;
            case "allreduce": allreduce(comm, (int) size, direct); break;
            default: bcast(comm, (int) size, direct);
        }
    }

    /** Iterations for a message size: many for small messages, fewer for large ones. */
    static int iterations(long size, int small) {
        if (size <= 8192) return small;
        return (int) Math.max(20, Math.min(small, (64L << 20) / size));
    }

    private static Object bytes(int n, boolean direct) {
        return direct ? MPI.newByteBuffer(Math.max(n, 1)) : new byte[Math.max(n, 1)];
    }

    private static double latency(Intracomm comm, int size, boolean direct) {
        int rank = comm.getRank();
        Object buf = bytes(size, direct);
        int iters = iterations(size, 10000);
        int warm = Math.max(iters / 2, size <= 8192 ? 5000 : 10);
        double t = 0;
        for (int phase = 0; phase < 2; phase++) {
            int n = phase == 0 ? warm : iters;
            comm.barrier();
            long allocated = Allocations.ofThisThread();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                if (rank == 0) {
                    comm.send(buf, size, MPI.BYTE, 1, 1);
                    comm.recv(buf, size, MPI.BYTE, 1, 1);
                } else if (rank == 1) {
                    comm.recv(buf, size, MPI.BYTE, 0, 1);
                    comm.send(buf, size, MPI.BYTE, 0, 1);
                }
            }
            t = (System.nanoTime() - start) / 1e3 / (2.0 * n);
            lastAllocPerMessage = (Allocations.ofThisThread() - allocated) / (2.0 * n);
        }
        return t;
    }

    private static double bandwidth(Intracomm comm, int size, boolean direct) {
        int rank = comm.getRank();
        Object[] bufs = new Object[WINDOW];
        for (int w = 0; w < WINDOW; w++) bufs[w] = bytes(size, direct);
        int[] ack = new int[1];
        Request[] reqs = new Request[WINDOW];
        int iters = (int) Math.max(10, Math.min(2000, (256L << 20) / ((long) size * WINDOW)));
        double mbps = 0;
        for (int phase = 0; phase < 2; phase++) {
            int n = phase == 0 ? Math.max(10, iters / 4) : iters;
            comm.barrier();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                if (rank == 0) {
                    for (int w = 0; w < WINDOW; w++) reqs[w] = comm.iSend(bufs[w], size, MPI.BYTE, 1, 2);
                    Request.waitAll(reqs);
                    comm.recv(ack, 1, MPI.INT, 1, 3);
                } else if (rank == 1) {
                    for (int w = 0; w < WINDOW; w++) reqs[w] = comm.iRecv(bufs[w], size, MPI.BYTE, 0, 2);
                    Request.waitAll(reqs);
                    comm.send(ack, 1, MPI.INT, 0, 3);
                }
            }
            double secs = (System.nanoTime() - start) / 1e9;
            mbps = (double) size * WINDOW * n / secs / 1e6;
        }
        return mbps;
    }

    private static double allreduce(Intracomm comm, int size, boolean direct) {
        int count = size / 8;
        Object send, recv;
        if (direct) {
            DoubleBuffer s = MPI.newDoubleBuffer(count);
            for (int i = 0; i < count; i++) s.put(i, i);
            send = s;
            recv = MPI.newDoubleBuffer(count);
        } else {
            double[] s = new double[count];
            for (int i = 0; i < count; i++) s[i] = i;
            send = s;
            recv = new double[count];
        }
        int iters = iterations(size, 2000);
        return timed(comm, iters, () -> comm.allReduce(send, recv, count, MPI.DOUBLE, MPI.SUM));
    }

    private static double bcast(Intracomm comm, int size, boolean direct) {
        Object buf = bytes(size, direct);
        int iters = iterations(size, 2000);
        return timed(comm, iters, () -> comm.bcast(buf, size, MPI.BYTE, 0));
    }

    /** Average µs per call after a warm-up, as the maximum over ranks. */
    private static double timed(Intracomm comm, int iters, Runnable call) {
        int warm = Math.max(10, iters / 2);
        for (int i = 0; i < warm; i++) call.run();
        comm.barrier();
        long start = System.nanoTime();
        for (int i = 0; i < iters; i++) call.run();
        double[] mine = {(System.nanoTime() - start) / 1e3 / iters};
        double[] worst = new double[1];
        comm.reduce(mine, worst, 1, MPI.DOUBLE, MPI.MAX, 0);
        return worst[0];
    }
}
