package io.github.mpi4j.api;

import mpi.MPI;
import mpi.MPIException;

/**
 * A root that fails a collective's validation while its peers enter it (issue 7 item 1, MPI
 * backend): rank 0 calls scatter with a send buffer too small for the world, catches the
 * exception and then waits outside MPI; the other ranks block in MPI_Scatter, which MPI cannot
 * cancel. Run with a short MPI4J_TIMEOUT: the watchdog must end the job, naming rank and call.
 * With argument "slow" the root is merely late (by a third of the deadline) with a valid buffer:
 * every rank must get its part and the job end normally.
 */
public final class RootFailsCollectiveProgram {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        int[] recv = new int[1];
        if (args.length > 0 && args[0].equals("slow")) {
            if (rank == 0) Thread.sleep(1000);
            int[] parts = new int[size];
            for (int r = 0; r < size; r++) parts[r] = 100 + r;
            MPI.COMM_WORLD.scatter(parts, 1, MPI.INT, recv, 1, MPI.INT, 0);
            if (recv[0] == 100 + rank) System.out.println("SLOW ROOT OK " + rank);
            MPI.Finalize();
            return;
        }
        if (rank == 0) {
            try {
                MPI.COMM_WORLD.scatter(new int[size - 1], 1, MPI.INT, recv, 1, MPI.INT, 0);
                System.out.println("ROOT SCATTER UNEXPECTEDLY SUCCEEDED");
            } catch (MPIException e) {
                System.out.println("ROOT REFUSED: " + e.getMessage());
            }
            System.out.flush();
            Thread.sleep(120_000); // busy elsewhere, not in MPI: only the watchdog can end the job
        } else {
            MPI.COMM_WORLD.scatter(null, 1, MPI.INT, recv, 1, MPI.INT, 0);
            System.out.println("NON-ROOT " + rank + " SCATTER RETURNED " + recv[0]);
        }
        MPI.Finalize();
    }
}
