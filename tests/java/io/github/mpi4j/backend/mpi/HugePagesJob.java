package io.github.mpi4j.backend.mpi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.MPI;

/**
 * A job for {@link HugePagesTest} on the MPI backend: two 8 MiB arrays of doubles reduced twice by
 * the operation named in the first argument ({@code allreduce}, {@code scan} or {@code exscan}),
 * each rank printing {@code HUGE <rank> <KiB before> <KiB after> <wrong values>}: the process's
 * anonymous huge pages (/proc/self/smaps_rollup) after the arrays were made and after the calls,
 * and how many results differ from the sums computed here.
 */
public final class HugePagesJob {
    private HugePagesJob() {
    }

    public static void main(String[] args) throws IOException {
        MPI.Init(args);
        String op = args[0];
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize(), n = 1 << 20;
        double[] send = new double[n], recv = new double[n];
        for (int i = 0; i < n; i++) send[i] = rank + i;
        long before = anonHugeKiB();
        // Element i summed over ranks 0..last: (last + 1) * i + last * (last + 1) / 2.
        int last = op.equals("allreduce") ? size - 1 : op.equals("scan") ? rank : rank - 1;
        int wrong = 0;
        for (int call = 0; call < 2; call++) {
            switch (op) {
                case "allreduce": MPI.COMM_WORLD.allReduce(send, recv, n, MPI.DOUBLE, MPI.SUM); break;
                case "scan": MPI.COMM_WORLD.scan(send, recv, n, MPI.DOUBLE, MPI.SUM); break;
                case "exscan": MPI.COMM_WORLD.exScan(send, recv, n, MPI.DOUBLE, MPI.SUM); break;
                default: throw new IllegalArgumentException("operation " + op);
            }
            for (int i = 0; i < n; i++) {
                // An exclusive scan leaves rank 0's receive buffer as it was: zeros.
                double want = last < 0 ? 0 : (last + 1.0) * i + last * (last + 1) / 2.0;
                if (recv[i] != want) wrong++;
            }
        }
        System.out.println("HUGE " + rank + " " + before + " " + anonHugeKiB() + " " + wrong);
        MPI.Finalize();
    }

    private static long anonHugeKiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/smaps_rollup"))) {
            if (line.startsWith("AnonHugePages:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return -1;
    }
}
