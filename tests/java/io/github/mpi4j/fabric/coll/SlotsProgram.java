package io.github.mpi4j.fabric.coll;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import mpi.MPI;

/**
 * A rank program for {@link SharedSlotsTest}: after Init it reports what of its job is left in
 * /dev/shm and which of the job's (deleted) files it maps, how large; then it runs a small and
 * two large allreduces, then a small and two large broadcasts, checks them, and reports how many
 * went through the shared-memory slots:
 * <pre>SLOTS rank left mappedFiles deletedFiles smallestMapping smallRuns largeRuns smallBcasts largeBcasts OK|WRONG job</pre>
 * Arguments: the large count (doubles), and "multiple" to start under THREAD_MULTIPLE or
 * "smallparts" to run the large allreduces with the warm start's small parts ({@link SlotWarmUp}).
 */
public final class SlotsProgram {
    public static void main(String[] args) throws Exception {
        if (args.length > 1 && args[1].equals("multiple")) MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        else MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        String job = System.getenv("MPI4J_JOB_ID");
        String prefix = "mpi4j-" + job + "-";
        long left;
        try (Stream<Path> files = Files.list(Path.of("/dev/shm"))) {
            left = files.filter(f -> f.getFileName().toString().startsWith(prefix)).count();
        }
        Map<String, Long> mapped = new HashMap<>();
        int deleted = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            int at = line.indexOf("/" + prefix);
            if (at < 0) continue;
            String[] range = line.substring(0, line.indexOf(' ')).split("-");
            long bytes = Long.parseUnsignedLong(range[1], 16) - Long.parseUnsignedLong(range[0], 16);
            if (mapped.merge(line.substring(at).replace(" (deleted)", ""), bytes, Long::sum) == bytes
                    && line.endsWith("(deleted)")) {
                deleted++;
            }
        }
        long smallest = mapped.values().stream().mapToLong(Long::longValue).min().orElse(0);

        boolean ok = true;
        double[] small = new double[8];
        java.util.Arrays.fill(small, rank);
        MPI.COMM_WORLD.allReduce(small, 8, MPI.DOUBLE, MPI.SUM);
        for (double v : small) ok &= v == size * (size - 1) / 2.0;
        long smallRuns = ShmAllReduce.RUNS.get();

        int n = Integer.parseInt(args[0]);
        double[] in = new double[n], out = new double[n];
        DoubleBuffer direct = ByteBuffer.allocateDirect(8 * n).order(ByteOrder.nativeOrder()).asDoubleBuffer();
        for (int i = 0; i < n; i++) {
            in[i] = (rank + 1) * (double) (i % 1000);
            direct.put(i, -in[i]);
        }
        boolean smallParts = args.length > 1 && args[1].equals("smallparts");
        SlotWarmUp.smallParts(smallParts);
        ok &= ShmAllReduce.partBytes == (smallParts ? SlotWarmUp.SMALL_PART_BYTES : ShmAllReduce.PART_BYTES);
        MPI.COMM_WORLD.allReduce(in, out, n, MPI.DOUBLE, MPI.SUM);
        MPI.COMM_WORLD.allReduce(direct, n, MPI.DOUBLE, MPI.MIN);
        SlotWarmUp.smallParts(false);
        ok &= ShmAllReduce.partBytes == ShmAllReduce.PART_BYTES;
        for (int i = 0; i < n; i++) {
            ok &= out[i] == size * (size + 1) / 2.0 * (i % 1000);
            ok &= direct.get(i) == -size * (double) (i % 1000);
        }
        long largeRuns = ShmAllReduce.RUNS.get() - smallRuns;

        // Broadcasts: a small one (below the slot threshold), then a large one from the last
        // rank into an array and one from rank 1 into a direct buffer, both of n doubles.
        double[] few = new double[8];
        if (rank == 0) for (int i = 0; i < 8; i++) few[i] = 7 * i + 1;
        MPI.COMM_WORLD.bcast(few, 8, MPI.DOUBLE, 0);
        for (int i = 0; i < 8; i++) ok &= few[i] == 7 * i + 1;
        long smallBcasts = ShmBcast.RUNS.get();
        int last = size - 1;
        for (int i = 0; i < n; i++) {
            out[i] = rank == last ? i * 3.0 + 0.5 : -1;
            direct.put(i, rank == 1 ? -i : 0);
        }
        MPI.COMM_WORLD.bcast(out, n, MPI.DOUBLE, last);
        MPI.COMM_WORLD.bcast(direct, n, MPI.DOUBLE, 1);
        for (int i = 0; i < n; i++) {
            ok &= out[i] == i * 3.0 + 0.5;
            ok &= direct.get(i) == -i;
        }
        long largeBcasts = ShmBcast.RUNS.get() - smallBcasts;
        System.out.println("SLOTS " + rank + " " + left + " " + mapped.size() + " " + deleted + " " + smallest + " "
                + smallRuns + " " + largeRuns + " " + smallBcasts + " " + largeBcasts + " " + (ok ? "OK" : "WRONG")
                + " " + job);
        MPI.Finalize();
    }
}
