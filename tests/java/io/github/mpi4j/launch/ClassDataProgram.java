package io.github.mpi4j.launch;

import java.nio.file.Files;
import java.nio.file.Path;
import mpi.MPI;

/**
 * A rank program for {@link ClassDataArchiveIT}: after Init and an allreduce (checked against
 * the size), prints whether this JVM maps a class-data archive from the cache directory
 * ({@code MPI4J_CDS_DIR}): <pre>CDS rank mapped|unmapped OK|WRONG</pre>
 */
public final class ClassDataProgram {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        int[] one = {1};
        MPI.COMM_WORLD.allReduce(one, 1, MPI.INT, MPI.SUM);
        String dir = Path.of(System.getenv("MPI4J_CDS_DIR")).toRealPath().toString();
        boolean mapped = Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .anyMatch(l -> l.contains(dir + "/mpi4j-") && l.contains(".jsa"));
        System.out.println("CDS " + rank + " " + (mapped ? "mapped" : "unmapped") + " " + (one[0] == size ? "OK" : "WRONG"));
        MPI.Finalize();
    }
}
