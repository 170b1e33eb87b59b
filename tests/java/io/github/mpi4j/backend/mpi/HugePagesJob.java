package io.github.mpi4j.backend.mpi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.MPI;

/**
 * A job for {@link HugePagesTest} on the MPI backend: two 8 MiB arrays of doubles allreduced twice,
 * each rank printing {@code HUGE <rank> <KiB before> <KiB after> <wrong values>}: the process's
 * anonymous huge pages (/proc/self/smaps_rollup) after the arrays were made and after the calls,
 * and how many results differ from the sum computed here.
 */
public final class HugePagesJob {
    private HugePagesJob() {
    }

    public static void main(String[] args) throws IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize(), n = 1 << 20;
        double[] send = new double[n], recv = new double[n];
        for (int i = 0; i < n; i++) send[i] = rank + i;
        long before = anonHugeKiB();
        int wrong = 0;
        for (int call = 0; call < 2; call++) {
            MPI.COMM_WORLD.allReduce(send, recv, n, MPI.DOUBLE, MPI.SUM);
            for (int i = 0; i < n; i++) {
                if (recv[i] != (double) size * i + size * (size - 1) / 2.0) wrong++;
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
