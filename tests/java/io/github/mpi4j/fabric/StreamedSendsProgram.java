package io.github.mpi4j.fabric;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Rank 0 sends a stream of blocking 64 KiB messages (eager over shared memory) to rank 1, then
 * broadcasts a stream of 64 KiB vectors; rank 1 receives them one by one and checks each one's
 * contents (its sequence number at every 509th int). Rank 0 never waits for rank 1, so rank 1's
 * receives would find the messages already there. Prints, on rank 1, what its thread allocated
 * per message over the second half of each stream: {@code STREAM recv=<bytes> bcast=<bytes>},
 * or {@code WRONG ...}.
 */
public final class StreamedSendsProgram {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final int INTS = 16 * 1024;  // 64 KiB
    private static final int MESSAGES = 4000;

    private StreamedSendsProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        int[] buf = new int[INTS];
        double recv = stream(comm, rank, buf, false), bcast = stream(comm, rank, buf, true);
        if (rank == 1) System.out.println(String.format(Locale.ROOT, "STREAM recv=%.1f bcast=%.1f", recv, bcast));
        MPI.Finalize();
    }

    /** One stream; returns rank 1's allocated bytes per message over its second half. */
    private static double stream(Intracomm comm, int rank, int[] buf, boolean bcast) {
        long from = 0;
        for (int i = 0; i < MESSAGES; i++) {
            if (i == MESSAGES / 2) from = THREADS.getCurrentThreadAllocatedBytes();
            if (rank == 0) {
                for (int k = 0; k < INTS; k += 509) buf[k] = i * 7 + k;
            }
            if (bcast) {
                comm.bcast(buf, INTS, MPI.INT, 0);
            } else if (rank == 0) {
                comm.send(buf, INTS, MPI.INT, 1, 3);
            } else if (rank == 1) {
                comm.recv(buf, INTS, MPI.INT, 0, 3);
            }
            if (rank == 1) {
                for (int k = 0; k < INTS; k += 509) {
                    if (buf[k] != i * 7 + k) {
                        System.out.println("WRONG " + (bcast ? "bcast " : "recv ") + i + " int " + k + ": " + buf[k]);
                        System.exit(3);
                    }
                }
            }
        }
        return (THREADS.getCurrentThreadAllocatedBytes() - from) / (double) (MESSAGES - MESSAGES / 2);
    }
}
