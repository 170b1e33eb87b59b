package io.github.mpi4j.bench;

import io.github.mpi4j.fabric.FabricBackend;
import io.github.mpi4j.fabric.coll.Prediction;
import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.CollectiveOps;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Scaling study of the fabric's collective schedules (issue 12 item 6, docs/scaling.md): times
 * allreduce, bcast, allgather, reduce-scatter-block (doubles, SUM) and barrier at a set of sizes
 * and prints, per (collective, np, size), the measured median time, the algorithm the fabric's
 * cost model picks, and that model's predicted time.
 * <pre>
 *   Scaling threads NPS [colls] [sizes] [reps]    ranks as threads of this JVM, for each np in NPS
 *   Scaling procs [colls] [sizes] [reps]          one rank of a job started by mpi4jrun
 * </pre>
 * NPS, colls and sizes are comma-separated (colls: allreduce, bcast, allgather,
 * reduce_scatter_block, barrier; sizes in bytes, the whole vector: see {@link Prediction}).
 * The collectives run on the backend's world communicator directly (the spi, inside the
 * collective bracket the API opens), so both modes time the same code path without the
 * {@code mpi} layer's argument checks.
 *
 * <p>Each case runs {@code reps} times (default 5) after a warm-up; a repetition is a number of
 * calls worth about {@link #TARGET_SECONDS} by the model (at least one), timed per rank; its time
 * is the slowest rank's average per call. The printed time is the median repetition. Output,
 * on rank 0: {@code RESULT mode=threads np=4 coll=allreduce bytes=8 alg=recursive_doubling
 * measured_us=.. model_us=.. oversub=.. ratio=.. iters=.. background=..} where
 * oversub = max(1, (np + background) / cores) ({@link Prediction#oversubscription(int, double)}),
 * background the other runnable threads estimated at the start ({@link #background}), and
 * ratio = measured / (model · oversub); cpu_us is the CPU time per call and rank (the
 * process's CPU time over the ranks it holds: JIT, GC and waiting included), which the other
 * programs on the machine do not inflate.
 */
public final class Scaling {
    private Scaling() {
    }

    static final String[] ALL = {"allreduce", "bcast", "allgather", "reduce_scatter_block", "barrier"};
    static final long[] SIZES = {8, 64, 512, 4096, 32768, 262144, 2097152};
    static final double TARGET_SECONDS = 0.02;

    /** Seconds of warm-up before anything is timed ({@code -Dscaling.warm}, default 2). */
    static double warmSeconds() {
        return Double.parseDouble(System.getProperty("scaling.warm", "2"));
    }

    private static final TypeDesc DOUBLE = Predefined.T_DOUBLE;
    private static final OpDesc SUM = new OpDesc("MPI.SUM", OpCode.SUM, null, true);
    private static final OpDesc MAX = new OpDesc("MPI.MAX", OpCode.MAX, null, true);

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || !(args[0].equals("threads") || args[0].equals("procs"))) {
            System.err.println("usage: Scaling threads NPS [colls] [sizes] [reps] | Scaling procs [colls] [sizes] [reps]");
            System.exit(2);
        }
        boolean threads = args[0].equals("threads");
        int a = threads ? 2 : 1;
        String[] colls = args.length > a && !args[a].isEmpty() ? args[a].split(",") : ALL;
        long[] sizes = args.length > a + 1 && !args[a + 1].isEmpty() ? longs(args[a + 1]) : SIZES;
        int reps = args.length > a + 2 ? Integer.parseInt(args[a + 2]) : 5;
        for (String c : colls) {
            if (!Arrays.asList(ALL).contains(c)) throw new IllegalArgumentException("unknown collective " + c);
        }
        int cores = Runtime.getRuntime().availableProcessors();
        if (threads) {
            if (args.length < 2) throw new IllegalArgumentException("threads needs NPS");
            for (long np : longs(args[1])) runThreads((int) np, colls, sizes, reps, cores);
        } else {
            Backend b = FabricBackend.create(Mpi.THREAD_SINGLE, System.getenv(), null);
            BackendComm world = b.world();
            boolean slots = shmSlotsOn();
            sweep(world, "procs", colls, sizes, reps, Prediction.fromSettings(cores), slots);
            b.finish();
        }
    }

    private static long[] longs(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).mapToLong(Long::parseLong).toArray();
    }

    /** Whether processes of one node get shared-memory slots (MPI4J_SHM_COLL_KB not 0). */
    private static boolean shmSlotsOn() {
        return Prediction.slotKiB() > 0;
    }

    private static void runThreads(int np, String[] colls, long[] sizes, int reps, int cores) throws Exception {
        Backend[] backends = FabricBackend.threads(np, 600);
        Prediction model = Prediction.fromSettings(cores);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] ts = new Thread[np];
        for (int r = 0; r < np; r++) {
            int rank = r;
            ts[r] = new Thread(() -> {
                try {
                    sweep(backends[rank].world(), "threads", colls, sizes, reps, model, false);
                    backends[rank].finish();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    for (Backend b : backends) ((FabricBackend) b).fail("rank " + rank + " failed: " + e);
                }
            }, "rank-" + r);
            ts[r].setDaemon(true);
            ts[r].start();
        }
        for (Thread t : ts) t.join(1_800_000);
        for (Thread t : ts) if (t.isAlive()) throw new IllegalStateException(t.getName() + " still running");
        if (failure.get() != null) throw new IllegalStateException("a rank failed", failure.get());
    }

    /** One rank's part of every case; rank 0 prints. */
    static void sweep(BackendComm comm, String mode, String[] colls, long[] sizes, int reps, Prediction model,
                      boolean slots) {
        int p = comm.size(), me = comm.rank();
        int cores = Runtime.getRuntime().availableProcessors();
        double background = background(comm, cores);
        // Warm-up: every schedule at every size, round after round for warmSeconds() (rank 0's
        // clock decides, so all ranks stop after the same round), so the JIT has compiled them.
        long start = System.nanoTime();
        double warm = warmSeconds();
        Case any = new Case(comm, "barrier", 0);
        do {
            for (String c : colls) for (long s : sizes) new Case(comm, c, Math.min(s, 1 << 16)).run(2);
        } while (any.maxOverRanks(me == 0 && System.nanoTime() - start > warm * 1e9 ? 1 : 0) == 0);
        for (String c : colls) {
            for (long bytes : (c.equals("barrier") ? new long[] {0} : sizes)) {
                Case k = new Case(comm, c, bytes);
                Prediction.Choice choice = model.of(c, k.modelBytes(), p, slots);
                double oversub = model.oversubscription(p, background);
                int iters = (int) Math.max(1, Math.min(1000, TARGET_SECONDS / Math.max(1e-7, choice.seconds() * oversub)));
                k.run(1);
                double[] t = new double[reps], cpu = new double[reps];
                for (int i = 0; i < reps; i++) {
                    k.barrier();
                    long c0 = processCpuNanos(), t0 = System.nanoTime();
                    k.run(iters);
                    long c1 = processCpuNanos();
                    t[i] = k.maxOverRanks((System.nanoTime() - t0) * 1e-9 / iters);
                    // CPU time per call and rank: the process's (all ranks' threads in one JVM,
                    // counted once) or each process's, summed over the ranks, divided by p.
                    double mine = mode.equals("threads") && me != 0 ? 0 : (c1 - c0) * 1e-9 / iters;
                    cpu[i] = k.sumOverRanks(mine) / p;
                }
                k.check();
                Arrays.sort(t);
                Arrays.sort(cpu);
                double med = t[reps / 2];
                if (me == 0) {
                    System.out.println(String.format(Locale.ROOT,
                            "RESULT mode=%s np=%d coll=%s bytes=%d alg=%s measured_us=%.2f model_us=%.2f oversub=%.1f"
                                    + " ratio=%.2f iters=%d background=%.1f cpu_us=%.2f",
                            mode, p, c, k.modelBytes(), choice.algorithm(), med * 1e6, choice.seconds() * 1e6, oversub,
                            med / (choice.seconds() * oversub), iters, background, cpu[reps / 2] * 1e6));
                    System.out.flush();
                }
            }
        }
    }

    /**
     * How many other runnable threads share the cores, estimated the way the scheduler shares
     * them: every rank spins for {@link #PROBE_SECONDS} at once and measures the CPU time it
     * got; with a mean share s of a core, p + B runnable threads share the cores, so
     * B = cores / s - p (0 when every rank got a whole core). The same value at every rank.
     */
    static double background(BackendComm comm, int cores) {
        Case any = new Case(comm, "barrier", 0);
        any.barrier();
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long c0 = mx.getCurrentThreadCpuTime(), t0 = System.nanoTime();
        long x = 0;
        while (System.nanoTime() - t0 < PROBE_SECONDS * 1e9) x += x * 31 + 7;
        double share = (mx.getCurrentThreadCpuTime() - c0) / (double) (System.nanoTime() - t0);
        if (x == 42) System.out.print("");
        double mean = any.sumOverRanks(share) / comm.size();
        if (mean >= 0.95) return 0;
        return Math.max(0, cores / Math.max(mean, 1e-3) - comm.size());
    }

    static final double PROBE_SECONDS = 0.3;

    /** CPU time of this whole process (every thread, JIT and GC included), ns; -1 where unknown. */
    static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean
                ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : -1;
    }

    /** One collective at one size on one rank, with its buffers. */
    static final class Case {
        final BackendComm comm;
        final CollectiveOps ops;
        final String coll;
        final int p, me;
        /** Items of the operation: the vector (allreduce, bcast) or each rank's block. */
        final int count;
        final double[] send, recv;

        Case(BackendComm comm, String coll, long bytes) {
            this.comm = comm;
            this.ops = comm.collectives();
            this.coll = coll;
            this.p = comm.size();
            this.me = comm.rank();
            long items = Math.max(1, bytes / 8);
            boolean blocks = coll.equals("allgather") || coll.equals("reduce_scatter_block");
            this.count = (int) (blocks ? Math.max(1, items / p) : items);
            int sendLen = coll.equals("reduce_scatter_block") ? count * p : coll.equals("barrier") ? 0 : count;
            int recvLen = coll.equals("allgather") ? count * p : coll.equals("barrier") ? 0 : count;
            send = new double[sendLen];
            recv = new double[recvLen];
            for (int i = 0; i < sendLen; i++) send[i] = me + 1;
        }

        /** Bytes as the model counts them (the whole vector; see {@link Prediction}). */
        long modelBytes() {
            switch (coll) {
                case "barrier": return 0;
                case "allgather":
                case "reduce_scatter_block": return 8L * count * p;
                default: return 8L * count;
            }
        }

        void run(int iters) {
            Buf s = new Buf(send, BaseKind.DOUBLE, 0, send.length);
            Buf r = new Buf(recv, BaseKind.DOUBLE, 0, recv.length);
            for (int i = 0; i < iters; i++) {
                comm.beginCollective(coll, false);
                Throwable failure = null;
                try {
                    switch (coll) {
                        case "allreduce": ops.allReduce(s, r, count, DOUBLE, SUM); break;
                        case "bcast": ops.bcast(me == 0 ? s : r, count, DOUBLE, 0); break;
                        case "allgather": ops.allGather(s, count, DOUBLE, r, count, DOUBLE); break;
                        case "reduce_scatter_block": ops.reduceScatterBlock(s, r, count, DOUBLE, SUM); break;
                        default: ops.barrier();
                    }
                } catch (RuntimeException | Error e) {
                    failure = e;
                    throw e;
                } finally {
                    comm.endCollective(failure);
                }
            }
        }

        void barrier() {
            comm.bracketed("barrier", () -> ops.barrier());
        }

        double maxOverRanks(double mine) {
            return overRanks(mine, MAX);
        }

        double sumOverRanks(double mine) {
            return overRanks(mine, SUM);
        }

        private double overRanks(double mine, OpDesc op) {
            double[] in = {mine}, out = new double[1];
            comm.bracketed("allreduce", () -> ops.allReduce(new Buf(in, BaseKind.DOUBLE, 0, 1),
                    new Buf(out, BaseKind.DOUBLE, 0, 1), 1, DOUBLE, op));
            return out[0];
        }

        /** The last call's result against what it must be (a wrong schedule must not look fast). */
        void check() {
            double sum = p * (p + 1) / 2.0;
            List<String> bad = new ArrayList<>();
            switch (coll) {
                case "allreduce":
                    if (recv[0] != sum || recv[count - 1] != sum) bad.add("allreduce " + recv[0]);
                    break;
                case "bcast":
                    if (me != 0 && (recv[0] != 1 || recv[count - 1] != 1)) bad.add("bcast " + recv[0]);
                    break;
                case "allgather":
                    for (int r = 0; r < p; r++) if (recv[r * count] != r + 1) bad.add("allgather block " + r);
                    break;
                case "reduce_scatter_block":
                    if (recv[0] != sum) bad.add("reduce_scatter_block " + recv[0]);
                    break;
                default:
            }
            if (!bad.isEmpty()) throw new IllegalStateException("rank " + me + ": wrong result: " + bad);
        }
    }
}
