package io.github.mpi4j.fabric;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import mpi.CartComm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Topology constructors and neighbour collectives that fail at one rank only (its own arguments
 * are bad, which no other rank can see): the others must throw an exception naming that rank,
 * promptly, and the communicator must work afterwards. Fabric only, as CollectiveFailureSuite:
 * under mpirun the other ranks block inside MPI and the watchdog ends the job.
 */
public class TopologyFailureSuite {
    private static final long PROMPT_NANOS = 2_000_000_000L;

    private static void peerFails(int bad, String what, Runnable action) {
        long start = System.nanoTime();
        MPIException e = Check.throwsMpi(MPI.ERR_OTHER, action, "rank " + bad);
        long took = System.nanoTime() - start;
        Check.isTrue(took < PROMPT_NANOS, () -> what + ": the failure of rank " + bad + " took " + took / 1_000_000
                + " ms to arrive (" + e.getMessage() + ")");
    }

    private static void stillRight(Intracomm comm, String after) {
        int n = comm.getSize();
        int[] sum = new int[1];
        comm.allReduce(new int[] {comm.getRank() + 1}, sum, 1, MPI.INT, MPI.SUM);
        Check.equal(n * (n + 1) / 2, sum[0], "allReduce after " + after);
    }

    @RankTest(minSize = 2)
    public void oneRankWithBadTopologyArguments(Intracomm comm) {
        int n = comm.getSize(), rank = comm.getRank(), bad = n - 1;
        // A grid larger than the communicator, at one rank only.
        if (rank == bad) {
            Check.throwsMpi(MPI.ERR_DIMS, () -> comm.createCart(new int[] {n + 1}, new boolean[] {true}, false),
                    "more than the " + n);
        } else {
            peerFails(bad, "createCart", () -> comm.createCart(new int[] {n}, new boolean[] {true}, false));
        }
        stillRight(comm, "createCart failed at one rank");

        // A distributed graph edge to a rank that does not exist, at one rank only.
        if (rank == bad) {
            Check.throwsMpi(MPI.ERR_RANK, () -> comm.createDistGraph(new int[] {rank}, new int[] {1},
                    new int[] {n}, null, false), "destinations[0] = " + n);
        } else {
            peerFails(bad, "createDistGraph", () -> comm.createDistGraph(new int[] {rank}, new int[] {1},
                    new int[] {(rank + 1) % n}, null, false));
        }
        stillRight(comm, "createDistGraph failed at one rank");

        // A receive buffer too small for the two neighbours of a ring, at one rank only.
        CartComm ring = comm.createCart(new int[] {n}, new boolean[] {true}, false);
        boolean adjacent = rank == (bad + 1) % n || rank == (bad - 1 + n) % n;
        if (rank == bad) {
            Check.throwsMpi(MPI.ERR_BUFFER, () -> ring.neighborAllGather(new int[] {rank}, 1, MPI.INT, new int[1], 1,
                    MPI.INT), "recvbuf");
        } else if (adjacent) {
            peerFails(bad, "neighborAllGather", () -> ring.neighborAllGather(new int[] {rank}, 1, MPI.INT,
                    new int[2], 1, MPI.INT));
        } else {
            // A process that does not exchange with the failed one may finish (neighbour
            // collectives do not synchronize), or learn of the failure; it never waits long.
            int[] got = new int[2];
            long start = System.nanoTime();
            try {
                ring.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
                Check.arrays(new int[] {(rank - 1 + n) % n, (rank + 1) % n}, got, "allgather away from the failure");
            } catch (MPIException e) {
                Check.isTrue(e.getMessage().contains("rank " + bad), "names rank " + bad + ": " + e.getMessage());
            }
            Check.isTrue(System.nanoTime() - start < PROMPT_NANOS, "allgather away from the failure is prompt");
        }
        stillRight(ring, "neighborAllGather failed at one rank");
        int[] got = new int[2];
        ring.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
        Check.arrays(new int[] {(rank - 1 + n) % n, (rank + 1) % n}, got, "ring allgather after the failure");
        ring.free();
    }
}
