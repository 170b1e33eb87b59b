package io.github.mpi4j.bench;

import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.nccl.NcclComm;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;

/**
 * An nccl-tests-style benchmark of {@link NcclComm}: per collective and size, the time of one
 * operation and the bandwidths nccl-tests reports. One rank per GPU, each on the device of its
 * rank on its node ({@link NcclComm#create(Intracomm)}); start it with any launcher:
 * <pre>
 *   mpi4jrun -np 8 -cp mpi4j.jar io.github.mpi4j.bench.NcclBench [options]
 *   mpirun -np 8 java -cp mpi4j.jar io.github.mpi4j.bench.NcclBench [options]
 *
 *   -b BYTES   smallest size (default 8; K, M, G suffixes)      -e BYTES  largest (default 256M)
 *   -f N       factor between sizes (default 2)                  -n N      timed iterations (20)
 *   -w N       warm-up iterations (5)                            -c        check every result
 *   -j SECONDS JIT warm-up before the first row (default 2; 0: none)
 *   -o LIST    collectives, comma-separated (default: allreduce,allgather,reducescatter,
 *              broadcast,reduce,sendrecv)
 * </pre>
 * Elements are {@code MPI.FLOAT}, reductions {@code MPI.SUM}, roots 0. As in nccl-tests, the size
 * of a row is the largest buffer of the operation: the all-gathered result for allgather, the
 * input for reducescatter, rounded down to a multiple of 4 × ranks for both (sizes too small to
 * give each rank an element are skipped). Each row: {@code -w} operations and a synchronization,
 * an MPI barrier, then {@code -n} operations queued back to back and one synchronization of the
 * communicator's stream; time = elapsed / {@code n}, averaged over the ranks (as nccl-tests does).
 * algbw = size / time; busbw = algbw × 2(n−1)/n for allreduce, (n−1)/n for allgather and
 * reducescatter, 1 for broadcast, reduce and sendrecv (a ring: each rank sends to rank + 1 and
 * receives from rank − 1, in one group). 1 GB/s = 10^9 bytes per second.
 *
 * <p>Java needs what C does not: before the table, {@code -j} seconds of every selected collective
 * at the smallest size (rounds of 20 operations and a synchronization), so that the JIT has
 * compiled the call and wait paths before a row is timed. Without it the first thousands of
 * operations run interpreted or wait for the compiler (under {@code -Xbatch} compilation blocks
 * the thread that asked for it), and rows a few microseconds long measured that: on an H200 the
 * np 1 rows jumped between 8 and 270 µs from one size to the next.
 *
 * <p>With {@code -c} every operation's inputs are written from the host before its row and its
 * results read back after it and compared with values computed from rank and size (host copies of
 * whole buffers: keep {@code -e} small); a wrong value ends the run with exit status 1.
 *
 * <p>Rank 0 prints a table, one row per collective and size:
 * {@code collective size count time(µs) algbw(GB/s) busbw(GB/s) ok|WRONG|unchecked}; lines of
 * comments start with {@code #}.
 */
public final class NcclBench {
    private NcclBench() {
    }

    static final List<String> ALL = List.of("allreduce", "allgather", "reducescatter", "broadcast", "reduce",
            "sendrecv");

    /** The options of one run. */
    static final class Options {
        long minBytes = 8;
        long maxBytes = 256L << 20;
        long factor = 2;
        int iters = 20;
        int warmup = 5;
        double jitSeconds = 2;
        boolean check;
        List<String> ops = ALL;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("-c")) {
                    o.check = true;
                    continue;
                }
                if (i + 1 >= args.length) throw new IllegalArgumentException("NcclBench: " + a + " needs a value");
                String v = args[++i];
                switch (a) {
                    case "-b": o.minBytes = bytes(v); break;
                    case "-e": o.maxBytes = bytes(v); break;
                    case "-f": o.factor = Long.parseLong(v); break;
                    case "-n": o.iters = Integer.parseInt(v); break;
                    case "-w": o.warmup = Integer.parseInt(v); break;
                    case "-j": o.jitSeconds = Double.parseDouble(v); break;
                    case "-o": o.ops = Arrays.asList(v.split(",")); break;
                    default: throw new IllegalArgumentException("NcclBench: unknown option " + a);
                }
            }
            if (o.minBytes < 1 || o.maxBytes < o.minBytes) {
                throw new IllegalArgumentException("NcclBench: sizes need 1 <= -b <= -e, got -b " + o.minBytes + " -e "
                        + o.maxBytes);
            }
            if (!(o.jitSeconds >= 0 && o.jitSeconds <= 3600)) {
                throw new IllegalArgumentException("NcclBench: -j must be 0 to 3600 seconds, got " + o.jitSeconds);
            }
            if (o.factor < 2) throw new IllegalArgumentException("NcclBench: -f must be >= 2, got " + o.factor);
            if (o.iters < 1 || o.warmup < 0) {
                throw new IllegalArgumentException("NcclBench: -n must be >= 1 and -w >= 0, got -n " + o.iters + " -w "
                        + o.warmup);
            }
            for (String op : o.ops) {
                if (!ALL.contains(op)) throw new IllegalArgumentException("NcclBench: unknown collective " + op + " (" + ALL + ")");
            }
            return o;
        }

        static long bytes(String v) {
            String s = v.trim().toUpperCase(Locale.ROOT);
            long unit = 1;
            if (s.endsWith("K")) unit = 1L << 10;
            else if (s.endsWith("M")) unit = 1L << 20;
            else if (s.endsWith("G")) unit = 1L << 30;
            if (unit > 1) s = s.substring(0, s.length() - 1);
            return Math.multiplyExact(Long.parseLong(s), unit);
        }
    }

    /** nccl-tests' bus-bandwidth factor of {@code op} on {@code n} ranks. */
    static double busFactor(String op, int n) {
        switch (op) {
            case "allreduce": return 2.0 * (n - 1) / n;
            case "allgather":
            case "reducescatter": return (double) (n - 1) / n;
            default: return 1.0;
        }
    }

    public static void main(String[] args) {
        Options o = Options.parse(args);
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank(), n = world.getSize();
        boolean ok = true;
        try (NcclComm c = NcclComm.create(world);
             DeviceBuffer send = DeviceBuffer.allocate(o.maxBytes, c.getDevice());
             DeviceBuffer recv = DeviceBuffer.allocate(o.maxBytes, c.getDevice())) {
            if (rank == 0) {
                System.out.printf(Locale.ROOT, "# NcclBench: %d ranks, float, sum, root 0, %d warm-up + %d timed"
                        + " iterations, JIT warm-up %.1f s%s%n", n, o.warmup, o.iters, o.jitSeconds,
                        o.check ? ", results checked" : "");
            }
            describeDevices(world, c);
            jitWarmup(world, c, send, recv, o);
            for (String op : o.ops) {
                if (rank == 0) {
                    System.out.printf(Locale.ROOT, "#%n# %-13s %12s %12s %10s %9s %9s %9s%n", "collective", "size (B)",
                            "count", "time (us)", "algbw", "busbw", "check");
                }
                for (long size = o.minBytes; size <= o.maxBytes; size = Math.multiplyExact(size, o.factor)) {
                    ok &= row(world, c, send, recv, op, size, o);
                }
            }
        }
        MPI.Finalize();
        if (!ok) System.exit(1);
    }

    /** Each rank's host and device, printed by rank 0 (as nccl-tests' header). */
    private static void describeDevices(Intracomm world, NcclComm c) {
        String mine = String.format(Locale.ROOT, "#   rank %3d on %s, device %d", world.getRank(), host(), c.getDevice());
        byte[] line = Arrays.copyOf(mine.getBytes(java.nio.charset.StandardCharsets.UTF_8), 128);
        byte[] all = new byte[128 * world.getSize()];
        world.gather(line, 128, MPI.BYTE, all, 128, MPI.BYTE, 0);
        if (world.getRank() != 0) return;
        for (int r = 0; r < world.getSize(); r++) {
            System.out.println(new String(all, 128 * r, 128, java.nio.charset.StandardCharsets.UTF_8).trim());
        }
    }

    private static String host() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "?";
        }
    }

    /** One row: times {@code op} at {@code size} bytes; returns false when a checked result is wrong. */
    private static boolean row(Intracomm world, NcclComm c, DeviceBuffer send, DeviceBuffer recv, String op,
                               long size, Options o) {
        int rank = world.getRank(), n = world.getSize();
        boolean perRank = op.equals("allgather") || op.equals("reducescatter");
        long count = size / 4;                       // elements of the operation's largest buffer
        long block = perRank ? count / n : count;    // elements each rank contributes or receives
        if (block == 0) return true;
        long bytes = 4 * (perRank ? block * n : count);
        if (o.check) fill(send, recv, rank, count);
        for (int i = 0; i < o.warmup; i++) run(c, send, recv, op, block);
        wait(c);
        world.barrier();
        long t0 = System.nanoTime();
        for (int i = 0; i < o.iters; i++) run(c, send, recv, op, block);
        wait(c);
        double mine = (System.nanoTime() - t0) / 1e3 / o.iters;
        double[] time = {mine};
        world.allReduce(time, 1, MPI.DOUBLE, MPI.SUM);
        double us = time[0] / n;
        String verdict = o.check ? verify(recv, op, rank, n, block) : "ok";
        int[] wrong = {verdict.equals("ok") ? 0 : 1};
        world.allReduce(wrong, 1, MPI.INT, MPI.SUM);
        if (rank == 0) {
            double algbw = bytes / (us * 1e3);
            double busbw = algbw * busFactor(op, n);
            String shown = o.check ? (wrong[0] == 0 ? "ok" : "WRONG") : "unchecked";
            System.out.printf(Locale.ROOT, "  %-13s %12d %12d %10.2f %9.3f %9.3f %9s%n", op, bytes, bytes / 4, us, algbw,
                    busbw, shown);
        }
        if (!verdict.equals("ok")) System.out.println("rank " + rank + ": " + op + " " + bytes + " B: " + verdict);
        return wrong[0] == 0;
    }

    /**
     * Runs every collective of the run at the smallest size that gives each rank an element and
     * fits the buffers, in rounds of 20 operations and a synchronization, for about
     * {@code o.jitSeconds} in all. Rank 0 decides after each round whether to go on (a broadcast),
     * so every rank runs the same operations.
     */
    private static void jitWarmup(Intracomm world, NcclComm c, DeviceBuffer send, DeviceBuffer recv, Options o) {
        if (o.jitSeconds == 0) return;
        int n = world.getSize();
        long share = (long) (o.jitSeconds * 1e9 / o.ops.size());
        int[] more = {1};
        for (String op : o.ops) {
            boolean perRank = op.equals("allgather") || op.equals("reducescatter");
            long count = Math.max(o.minBytes / 4, perRank ? n : 1);
            if (4 * count > o.maxBytes) continue;
            long block = perRank ? count / n : count;
            long start = System.nanoTime();
            do {
                for (int i = 0; i < 20; i++) run(c, send, recv, op, block);
                wait(c);
                more[0] = System.nanoTime() - start < share ? 1 : 0;
                world.bcast(more, 1, MPI.INT, 0);
            } while (more[0] == 1);
        }
    }

    /** Queues one operation of {@code op} with {@code block} elements per rank (see the class comment). */
    private static void run(NcclComm c, DeviceBuffer send, DeviceBuffer recv, String op, long block) {
        int rank = c.getRank(), n = c.getSize();
        switch (op) {
            case "allreduce": c.allReduce(send, recv, block, MPI.FLOAT, MPI.SUM); break;
            case "allgather": c.allGather(send, recv, block, MPI.FLOAT); break;
            case "reducescatter": c.reduceScatter(send, recv, block, MPI.FLOAT, MPI.SUM); break;
            case "broadcast": c.broadcast(recv, block, MPI.FLOAT, 0); break;
            case "reduce": c.reduce(send, recv, block, MPI.FLOAT, MPI.SUM, 0); break;
            case "sendrecv":
                NcclComm.groupStart();
                try {
                    c.send(send, block, MPI.FLOAT, (rank + 1) % n);
                    c.recv(recv, block, MPI.FLOAT, (rank - 1 + n) % n);
                } finally {
                    NcclComm.groupEnd();
                }
                break;
            default: throw new IllegalArgumentException("NcclBench: unknown collective " + op);
        }
    }

    /**
     * Waits for the communicator's stream: spins on the stream (a sleeping back-off would add
     * its granularity to the time) for up to 2 s, then leaves the rest to {@link NcclComm#sync()},
     * which checks NCCL's asynchronous error and has the deadline ({@code MPI4J_TIMEOUT}).
     */
    private static void wait(NcclComm c) {
        long spinUntil = System.nanoTime() + 2_000_000_000L;
        while (!c.stream().query() && System.nanoTime() - spinUntil < 0) Thread.onSpinWait();
        c.sync();
    }

    // ---- checked runs: inputs from rank and index, references computed on the host ----

    /** Input element {@code i} of rank {@code r}: small integers, so float sums are exact. */
    static float input(int r, long i) {
        return r + 1 + (int) (i % 13);
    }

    /** Writes this rank's inputs (complete on return: the copies are synchronous). */
    private static void fill(DeviceBuffer send, DeviceBuffer recv, int rank, long count) {
        float[] s = new float[Math.toIntExact(count)];
        for (int i = 0; i < s.length; i++) s[i] = input(rank, i);
        send.copyFrom(s);
        // The receive buffer starts as this rank's input too, so that a broadcast that did not
        // arrive, or a stale result, shows.
        recv.copyFrom(s);
    }

    /** "ok", or the first wrong element of this rank's result. */
    static String verify(DeviceBuffer recv, String op, int rank, int n, long block) {
        if (op.equals("reduce") && rank != 0) return "ok";
        long len = op.equals("allgather") ? block * n : block;
        float[] got = new float[Math.toIntExact(len)];
        recv.copyTo(got);
        for (int i = 0; i < got.length; i++) {
            float want = expected(op, rank, n, block, i);
            if (got[i] != want) return "element " + i + " is " + got[i] + ", expected " + want;
        }
        return "ok";
    }

    /** Element {@code i} of rank {@code rank}'s result of {@code op}, from the inputs' formula. */
    static float expected(String op, int rank, int n, long block, long i) {
        switch (op) {
            case "allreduce":
            case "reduce": {
                float sum = 0;
                for (int q = 0; q < n; q++) sum += input(q, i);
                return sum;
            }
            case "allgather": return input((int) (i / block), i % block);
            case "reducescatter": {
                float sum = 0;
                for (int q = 0; q < n; q++) sum += input(q, rank * block + i);
                return sum;
            }
            case "broadcast": return input(0, i);
            case "sendrecv": return input((rank - 1 + n) % n, i);
            default: throw new IllegalArgumentException(op);
        }
    }
}
