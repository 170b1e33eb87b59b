package io.github.mpi4j.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;

/**
 * Where the time of osu_mbw_mr's loop goes (issue 12, item 1): rank 0 sends windows of 64
 * non-blocking 8-byte messages from 64 arrays and waits for them; rank 1 receives them. Before
 * each window rank 1 acknowledges the last one and then spins for {@code delayNanos} before it
 * posts its receives:
 * <ul>
 *   <li>delay 0: the benchmark's loop, the receiver polling the ring while the sender writes;</li>
 *   <li>delay 40,000 (40 µs, longer than a window): the sender writes lines nobody reads, so its
 *       time per {@code iSend} is its own CPU time (the API, the engine, the copy into the ring),
 *       and the receiver finds every message waiting.</li>
 * </ul>
 * With {@code persistent}, the 64 sends and receives are persistent requests made once
 * ({@code sendInit}, {@code recvInit}) and posting is {@code Prequest.startAll}: the loop of a
 * halo exchange, which allocates nothing per message. With {@code direct}, the 64 buffers are
 * direct buffers ({@code MPI.newByteBuffer}), as in {@code Osu bw direct}; {@code bytes=N} sends
 * N-byte messages instead of 8-byte ones; with {@code statuses}, the windows complete with
 * {@code Request.waitAllStatus} (a status per message, as mpiJava's {@code Waitall} returns).
 * Prints, per round after two of warm-up, on each rank: the time per message spent posting
 * ({@code iSend} or {@code iRecv}, or the starts) and in {@code waitAll}, and the heap bytes the
 * rank's thread allocated per message; then the medians.
 * <pre>
 *   mpi4jrun -np 2 -cp mpi4j.jar io.github.mpi4j.bench.RatePhases [delayNanos [rounds [windows [persistent|direct|statuses|bytes=N]...]]]
 * </pre>
 */
public final class RatePhases {
    private RatePhases() {
    }

    private static final int WINDOW = 64;

    public static void main(String[] args) {
        MPI.Init(args);
        long delay = args.length > 0 ? Long.parseLong(args[0]) : 40_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 12;
        int windows = args.length > 2 ? Integer.parseInt(args[2]) : 4000;
        boolean persistent = false, direct = false, statuses = false;
        int messageBytes = 8;
        for (int i = 3; i < args.length; i++) {
            if (args[i].equals("persistent")) persistent = true;
            else if (args[i].equals("statuses")) statuses = true;
            else if (args[i].equals("direct")) direct = true;
            else if (args[i].startsWith("bytes=")) messageBytes = Integer.parseInt(args[i].substring(6));
            else throw new IllegalArgumentException("option " + args[i] + " (persistent, direct, statuses or bytes=N)");
        }
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        if (comm.getSize() < 2) throw new IllegalStateException("RatePhases needs 2 ranks");
        Object[] bufs = new Object[WINDOW];
        for (int k = 0; k < WINDOW; k++) bufs[k] = direct ? MPI.newByteBuffer(messageBytes) : new byte[messageBytes];
        Request[] reqs = new Request[WINDOW];
        Prequest[] started = new Prequest[WINDOW];
        if (persistent && rank <= 1) {
            for (int k = 0; k < WINDOW; k++) {
                started[k] = rank == 0 ? comm.sendInit(bufs[k], messageBytes, MPI.BYTE, 1, 2)
                        : comm.recvInit(bufs[k], messageBytes, MPI.BYTE, 0, 2);
            }
            reqs = started;
        }
        byte[] ack = new byte[1];
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double[] post = new double[rounds], wait = new double[rounds], alloc = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            long posting = 0, waiting = 0, bytes = 0;
            for (int i = 0; i < windows && rank <= 1; i++) {
                if (rank == 0) {
                    comm.recv(ack, 1, MPI.BYTE, 1, 9);
                } else {
                    comm.send(ack, 1, MPI.BYTE, 0, 9);
                    long until = System.nanoTime() + delay;
                    while (System.nanoTime() < until) Thread.onSpinWait();
                }
                long a = threads.getCurrentThreadAllocatedBytes();
                long t0 = System.nanoTime();
                if (persistent) {
                    Prequest.startAll(started);
                } else {
                    for (int k = 0; k < WINDOW; k++) {
                        reqs[k] = rank == 0 ? comm.iSend(bufs[k], messageBytes, MPI.BYTE, 1, 2)
                                : comm.iRecv(bufs[k], messageBytes, MPI.BYTE, 0, 2);
                    }
                }
                long t1 = System.nanoTime();
                if (statuses) Request.waitAllStatus(reqs);
                else Request.waitAll(reqs);
                long t2 = System.nanoTime();
                bytes += threads.getCurrentThreadAllocatedBytes() - a;
                posting += t1 - t0;
                waiting += t2 - t1;
            }
            double n = (double) windows * WINDOW;
            post[round] = posting / n;
            wait[round] = waiting / n;
            alloc[round] = bytes / n;
            if (round >= 2 && rank <= 1) {
                System.out.println(String.format(Locale.ROOT, "rank %d round %d: %s %.1f ns/msg, waitAll %.1f ns/msg,"
                        + " %.1f B/msg", rank, round, verb(rank, persistent), post[round], wait[round], alloc[round]));
            }
        }
        if (rank <= 1 && rounds > 2) {
            System.out.println(String.format(Locale.ROOT,
                    "RESULT ratephases rank %d delay %d %s %.1f waitAll %.1f alloc %.1f", rank, delay,
                    verb(rank, persistent), median(post, 2), median(wait, 2), median(alloc, 2)));
        }
        for (Prequest r : started) {
            if (r != null) r.free();
        }
        MPI.Finalize();
    }

    private static String verb(int rank, boolean persistent) {
        if (persistent) return rank == 0 ? "startSend" : "startRecv";
        return rank == 0 ? "iSend" : "iRecv";
    }

    private static double median(double[] v, int from) {
        double[] s = Arrays.copyOfRange(v, from, v.length);
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
