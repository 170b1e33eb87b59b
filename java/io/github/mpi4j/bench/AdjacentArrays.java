package io.github.mpi4j.bench;

import java.util.Arrays;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Scan, exscan and allreduce of doubles from a send array into a receive array allocated right
 * after it, as programs allocate them: the pair a JVM places 16 bytes apart modulo 4 KiB, where
 * Open MPI's reduction loop meets 4K aliasing (docs/performance.md, "Twenty-eighth session").
 * <pre>
 *   AdjacentArrays [bytes] [calls]      (defaults 16777216 30)
 * </pre>
 * Output on the last rank (a scan's busiest): {@code RESULT adjacent-arrays <op> <bytes> <median
 * ms>} over {@code calls} calls, each between barriers, after 10 untimed ones.
 */
public final class AdjacentArrays {
    private AdjacentArrays() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        int bytes = args.length > 0 ? Integer.parseInt(args[0]) : 16 << 20;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank(), size = comm.getSize(), n = bytes / 8;
        double[] send = new double[n], recv = new double[n];
        for (int i = 0; i < n; i++) send[i] = rank + i % 1000;
        for (String op : new String[] {"scan", "exscan", "allreduce"}) {
            double[] millis = new double[calls];
            for (int c = -10; c < calls; c++) {
                comm.barrier();
                long start = System.nanoTime();
                switch (op) {
                    case "scan": comm.scan(send, recv, n, MPI.DOUBLE, MPI.SUM); break;
                    case "exscan": comm.exScan(send, recv, n, MPI.DOUBLE, MPI.SUM); break;
                    default: comm.allReduce(send, recv, n, MPI.DOUBLE, MPI.SUM);
                }
                if (c >= 0) millis[c] = (System.nanoTime() - start) / 1e6;
            }
            // Element 999 of a scan at the last rank: the sum over every rank of (rank + 999).
            double want = op.equals("exscan") ? (size - 1) * 999.0 + (size - 1) * (size - 2) / 2.0
                    : size * 999.0 + size * (size - 1) / 2.0;
            if (rank == size - 1 && n > 999 && recv[999] != want) {
                throw new IllegalStateException(op + ": element 999 is " + recv[999] + ", not " + want);
            }
            Arrays.sort(millis);
            if (rank == size - 1) {
                System.out.println(String.format(Locale.ROOT, "RESULT adjacent-arrays %s %d %.3f", op, bytes,
                        millis[calls / 2]));
            }
        }
        MPI.Finalize();
    }
}
