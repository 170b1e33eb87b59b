package io.github.mpi4j.fabric;

import java.lang.management.ManagementFactory;
import java.nio.IntBuffer;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;

/**
 * A ping-pong of small messages between ranks 0 and 1 that counts the heap bytes rank 0's thread
 * allocates per blocking send and per blocking receive once warm, and checks every message's
 * contents (the iteration number and the sender's rank). Prints, on rank 0,
 * {@code ALLOC <kind> send=<bytes per call> recv=<bytes per call>}, or {@code WRONG ...}.
 *
 * <p>Then osu_mbw_mr's loop: rank 0 sends windows of 64 non-blocking messages from 64 different
 * arrays and waits for them all, rank 1 receives and checks them; prints
 * {@code WINDOW isend=<bytes per message>}, what rank 0's thread allocated per message for the
 * {@code iSend}s and the {@code waitAll} once warm, and rank 1 {@code WINDOW irecv=...}, the
 * same for its {@code iRecv}s. Then the same with persistent requests on
 * both sides ({@link #persistentWindow}).
 */
public final class SmallMessageAllocationProgram {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private SmallMessageAllocationProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        Intracomm comm = MPI.COMM_WORLD;
        for (String kind : new String[] {"array", "direct"}) {
            run(comm, kind, 20_000);  // warm-up
            run(comm, kind, 20_000);
        }
        window(comm, 500);  // warm-up
        window(comm, 500);
        persistentWindow(comm, 500);  // warm-up
        persistentWindow(comm, 500);
        MPI.Finalize();
    }

    private static void run(Intracomm comm, String kind, int n) {
        int rank = comm.getRank();
        boolean direct = kind.equals("direct");
        int[] array = new int[2];
        IntBuffer buffer = MPI.newIntBuffer(2);
        Object buf = direct ? buffer : array;
        long sendBytes = 0, recvBytes = 0;
        for (int i = 0; i < n; i++) {
            if (rank == 0) {
                put(direct, array, buffer, i, 0);
                long a = THREADS.getCurrentThreadAllocatedBytes();
                comm.send(buf, 2, MPI.INT, 1, 5);
                long b = THREADS.getCurrentThreadAllocatedBytes();
                comm.recv(buf, 2, MPI.INT, 1, 6);
                long c = THREADS.getCurrentThreadAllocatedBytes();
                sendBytes += b - a;
                recvBytes += c - b;
                check(direct, array, buffer, i, 1);
            } else if (rank == 1) {
                comm.recv(buf, 2, MPI.INT, 0, 5);
                check(direct, array, buffer, i, 0);
                put(direct, array, buffer, i, 1);
                comm.send(buf, 2, MPI.INT, 0, 6);
            }
        }
        if (rank == 0) {
            System.out.println(String.format(Locale.ROOT, "ALLOC %s send=%.2f recv=%.2f", kind,
                    sendBytes / (double) n, recvBytes / (double) n));
        }
    }

    private static void window(Intracomm comm, int windows) {
        final int w = 64;
        int rank = comm.getRank();
        int[][] bufs = new int[w][2];
        mpi.Request[] reqs = new mpi.Request[w];
        int[] ack = new int[1];
        long bytes = 0;
        for (int i = 0; i < windows; i++) {
            if (rank == 0) {
                mark(bufs, i);
                long a = THREADS.getCurrentThreadAllocatedBytes();
                for (int k = 0; k < w; k++) reqs[k] = comm.iSend(bufs[k], 2, MPI.INT, 1, 7);
                mpi.Request.waitAll(reqs);
                bytes += THREADS.getCurrentThreadAllocatedBytes() - a;
                comm.recv(ack, 1, MPI.INT, 1, 8);
            } else if (rank == 1) {
                long a = THREADS.getCurrentThreadAllocatedBytes();
                for (int k = 0; k < w; k++) reqs[k] = comm.iRecv(bufs[k], 2, MPI.INT, 0, 7);
                mpi.Request.waitAll(reqs);
                bytes += THREADS.getCurrentThreadAllocatedBytes() - a;
                checkWindow(bufs, i, "window");
                comm.send(ack, 1, MPI.INT, 0, 8);
            }
        }
        if (rank < 2) {
            System.out.println(String.format(Locale.ROOT, "WINDOW %s=%.2f", rank == 0 ? "isend" : "irecv",
                    bytes / (double) windows / w));
        }
    }

    /**
     * The same windows with persistent requests: rank 0 starts 64 persistent sends and waits for
     * them, rank 1 has its 64 persistent receives started before it lets rank 0 go on (so every
     * message meets a posted receive, as in a halo exchange), waits, checks and starts them
     * again. Each rank prints {@code PERSISTENT <rank> bytes=<per message>}: what its thread
     * allocated per message for the starts and the waits once warm.
     */
    private static void persistentWindow(Intracomm comm, int windows) {
        final int w = 64;
        int rank = comm.getRank();
        if (rank > 1) return;
        int[][] bufs = new int[w][2];
        mpi.Prequest[] reqs = new mpi.Prequest[w];
        for (int k = 0; k < w; k++) {
            reqs[k] = rank == 0 ? comm.sendInit(bufs[k], 2, MPI.INT, 1, 9) : comm.recvInit(bufs[k], 2, MPI.INT, 0, 9);
        }
        int[] ack = new int[1];
        long bytes = 0;
        if (rank == 1) {
            mpi.Prequest.startAll(reqs);
            comm.send(ack, 1, MPI.INT, 0, 10);
        } else {
            comm.recv(ack, 1, MPI.INT, 1, 10);
        }
        for (int i = 0; i < windows; i++) {
            if (rank == 0) {
                mark(bufs, i);
                long a = THREADS.getCurrentThreadAllocatedBytes();
                mpi.Prequest.startAll(reqs);
                mpi.Request.waitAll(reqs);
                bytes += THREADS.getCurrentThreadAllocatedBytes() - a;
                comm.recv(ack, 1, MPI.INT, 1, 10);
            } else {
                long a = THREADS.getCurrentThreadAllocatedBytes();
                mpi.Request.waitAll(reqs);
                bytes += THREADS.getCurrentThreadAllocatedBytes() - a;
                checkWindow(bufs, i, "persistent window");
                if (i + 1 < windows) {
                    a = THREADS.getCurrentThreadAllocatedBytes();
                    mpi.Prequest.startAll(reqs);
                    bytes += THREADS.getCurrentThreadAllocatedBytes() - a;
                }
                comm.send(ack, 1, MPI.INT, 0, 10);
            }
        }
        for (mpi.Prequest r : reqs) r.free();
        System.out.println(String.format(Locale.ROOT, "PERSISTENT %d bytes=%.2f", rank, bytes / (double) windows / w));
    }

    /** Message k of window i carries (i, k). */
    private static void mark(int[][] bufs, int window) {
        for (int k = 0; k < bufs.length; k++) {
            bufs[k][0] = window;
            bufs[k][1] = k;
        }
    }

    private static void checkWindow(int[][] bufs, int window, String what) {
        for (int k = 0; k < bufs.length; k++) {
            if (bufs[k][0] != window || bufs[k][1] != k) {
                System.out.println("WRONG " + what + " " + window + " message " + k + ": got " + bufs[k][0] + ", "
                        + bufs[k][1]);
                System.out.flush();
                MPI.COMM_WORLD.abort(3);
            }
        }
    }

    private static void put(boolean direct, int[] array, IntBuffer buffer, int i, int rank) {
        if (direct) {
            buffer.put(0, i);
            buffer.put(1, rank);
        } else {
            array[0] = i;
            array[1] = rank;
        }
    }

    private static void check(boolean direct, int[] array, IntBuffer buffer, int i, int from) {
        int got0 = direct ? buffer.get(0) : array[0];
        int got1 = direct ? buffer.get(1) : array[1];
        if (got0 != i || got1 != from) {
            System.out.println("WRONG message " + i + " from " + from + ": got " + got0 + ", " + got1);
            System.out.flush();
            MPI.COMM_WORLD.abort(3);
        }
    }
}
