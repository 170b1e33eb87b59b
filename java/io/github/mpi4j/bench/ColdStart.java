package io.github.mpi4j.bench;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Cold-start benchmark (issue 12, item 1b): what a job sees from its first call, with no
 * warm-up and no benchmark-chosen JVM flags (bench/run.sh coldstart runs it as plain
 * {@code java -cp jar}, a fresh job each time). Its C twin is bench/coldstart_c.c; both print
 * the same lines.
 * <pre>
 *   ColdStart lat array|direct [rounds=20] [perRound=5000]
 *   ColdStart allreduce array|direct [calls=20] [bytes=16777216]
 * </pre>
 * <ul>
 *   <li>lat: an 8-byte ping-pong between ranks 0 and 1 from the first message after
 *       {@code MPI.Init}, in rounds of {@code perRound} round trips; per round, on rank 0, the
 *       average one-way latency and the largest single round trip / 2 (the worst stall), µs:
 *       {@code COLD lat <kind> <round> <avgUs> <stallUs>};</li>
 *   <li>allreduce: successive allreduces (SUM) of {@code bytes/8} doubles from the first call,
 *       each preceded by a barrier; each call's time as the slowest rank's, ms:
 *       {@code COLD allreduce <kind> <call> <ms> <bytes>}. The results of the first and the last call
 *       are checked against the sum computed from rank and size.</li>
 * </ul>
 * Timings are kept in arrays and printed after the last round, so printing costs nothing that
 * is timed.
 */
public final class ColdStart {
    private ColdStart() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        String test = args.length > 0 ? args[0] : "lat";
        boolean direct = args.length > 1 && args[1].equals("direct");
        String kind = direct ? "direct" : "array";
        Intracomm comm = MPI.COMM_WORLD;
        switch (test) {
            case "lat": {
                int rounds = args.length > 2 ? positive("rounds", args[2]) : 20;
                int per = args.length > 3 ? positive("perRound", args[3]) : 5000;
                latency(comm, kind, direct, rounds, per);
                break;
            }
            case "allreduce": {
                int calls = args.length > 2 ? positive("calls", args[2]) : 20;
                int bytes = args.length > 3 ? positive("bytes", args[3]) : 16 << 20;
                allreduce(comm, kind, direct, calls, bytes);
                break;
            }
            default:
                throw new IllegalArgumentException("test " + test + " (lat or allreduce)");
        }
        MPI.Finalize();
    }

    static int positive(String name, String value) {
        int v;
        try {
            v = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " = " + value + " (not an integer)");
        }
        if (v <= 0) throw new IllegalArgumentException(name + " = " + v + " (must be > 0)");
        return v;
    }

    private static void latency(Intracomm comm, String kind, boolean direct, int rounds, int per) {
        if (comm.getSize() < 2) throw new IllegalArgumentException("lat needs 2 ranks or more, not " + comm.getSize());
        int rank = comm.getRank();
        Object buf = direct ? MPI.newByteBuffer(8) : new byte[8];
        if (direct) ((ByteBuffer) buf).putLong(0, 0x0123456789abcdefL);
        else ((byte[]) buf)[0] = 1;
        double[] avg = new double[rounds], stall = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long worst = 0;
            long start = System.nanoTime();
            for (int i = 0; i < per; i++) {
                if (rank == 0) {
                    long t0 = System.nanoTime();
                    comm.send(buf, 8, MPI.BYTE, 1, 1);
                    comm.recv(buf, 8, MPI.BYTE, 1, 1);
                    long rt = System.nanoTime() - t0;
                    if (rt > worst) worst = rt;
                } else if (rank == 1) {
                    comm.recv(buf, 8, MPI.BYTE, 0, 1);
                    comm.send(buf, 8, MPI.BYTE, 0, 1);
                }
            }
            avg[r] = (System.nanoTime() - start) / 1e3 / (2.0 * per);
            stall[r] = worst / 1e3 / 2;
        }
        if (rank == 0) {
            for (int r = 0; r < rounds; r++) {
                System.out.println(String.format(Locale.ROOT, "COLD lat %s %d %.4f %.3f", kind, r + 1, avg[r], stall[r]));
            }
        }
    }

    private static void allreduce(Intracomm comm, String kind, boolean direct, int calls, int bytes) {
        int count = bytes / 8, rank = comm.getRank(), size = comm.getSize();
        if (count == 0) throw new IllegalArgumentException("bytes = " + bytes + " (at least 8: one double)");
        Object send, recv;
        // Buffers are written before the first call (as the C twin does), so no call pays for
        // first-touch page faults of its buffers.
        if (direct) {
            DoubleBuffer s = MPI.newDoubleBuffer(count), d = MPI.newDoubleBuffer(count);
            for (int i = 0; i < count; i++) {
                s.put(i, rank + i);
                d.put(i, -1);
            }
            send = s;
            recv = d;
        } else {
            double[] s = new double[count], d = new double[count];
            for (int i = 0; i < count; i++) {
                s[i] = rank + i;
                d[i] = -1;
            }
            send = s;
            recv = d;
        }
        double[] ms = new double[calls];
        for (int c = 0; c < calls; c++) {
            comm.barrier();
            long t0 = System.nanoTime();
            comm.allReduce(send, recv, count, MPI.DOUBLE, MPI.SUM);
            ms[c] = (System.nanoTime() - t0) / 1e6;
            if (c == 0 || c == calls - 1) check(recv, direct, count, size, c);
        }
        double[] worst = new double[calls];
        comm.reduce(ms, worst, calls, MPI.DOUBLE, MPI.MAX, 0);
        if (rank == 0) {
            for (int c = 0; c < calls; c++) {
                System.out.println(String.format(Locale.ROOT, "COLD allreduce %s %d %.4f %d", kind, c + 1, worst[c], bytes));
            }
        }
    }

    /** Element i of the sum over ranks of (rank + i) is size*i + size*(size-1)/2. */
    private static void check(Object recv, boolean direct, int count, int size, int call) {
        for (int i : new int[] {0, 1, count / 2, count - 1}) {
            if (i < 0 || i >= count) continue;
            double got = direct ? ((DoubleBuffer) recv).get(i) : ((double[]) recv)[i];
            double want = (double) size * i + size * (size - 1) / 2.0;
            if (got != want) {
                throw new IllegalStateException("allreduce call " + (call + 1) + ": element " + i + " = " + got
                        + ", expected " + want);
            }
        }
    }
}
