import mpi.*;
import java.util.SplittableRandom;

/**
 * Monte-Carlo estimate of pi: every rank throws darts at the unit square, an allReduce adds up
 * the hits. Usage: Pi [darts per rank, default 2,000,000].
 */
class Pi {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        long darts = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000L;

        SplittableRandom random = new SplittableRandom(12345L + rank);
        long hits = 0;
        for (long i = 0; i < darts; i++) {
            double x = random.nextDouble(), y = random.nextDouble();
            if (x * x + y * y <= 1.0) hits++;
        }

        long[] counts = {hits, darts};
        world.allReduce(counts, 2, MPI.LONG, MPI.SUM);
        double pi = 4.0 * counts[0] / counts[1];
        if (rank == 0) {
            System.out.printf("pi ~ %.6f from %d darts on %d ranks (error %.2e)%n",
                    pi, counts[1], size, Math.abs(pi - Math.PI));
        }
        MPI.Finalize();
    }
}
