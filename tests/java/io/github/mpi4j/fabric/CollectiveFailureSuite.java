package io.github.mpi4j.fabric;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Collectives that fail at one rank only (the root's own arguments are bad, which no other rank
 * can see): every rank must throw an exception naming the failed rank and its reason, within a
 * second, and the communicator must give right results afterwards. Fabric only: under mpirun the
 * other ranks of such a call block inside MPI (see docs/errors.md).
 */
public class CollectiveFailureSuite {
    /** Well under the world's deadline: a peer learns of the failure from a notice, not a timeout. */
    private static final long PROMPT_NANOS = 2_000_000_000L;

    /** Runs {@code action} at a rank whose own arguments are fine; it must fail because of {@code root}. */
    private static void peerFails(int root, String what, Runnable action, String reason) {
        long start = System.nanoTime();
        MPIException e = Check.throwsMpi(MPI.ERR_OTHER, action, "rank " + root, reason);
        long took = System.nanoTime() - start;
        Check.isTrue(took < PROMPT_NANOS, () -> what + ": the failure of rank " + root + " took " + took / 1_000_000
                + " ms to arrive (" + e.getMessage() + ")");
    }

    /** The communicator still works and nothing of the failed call is left over. */
    private static void stillRight(Intracomm comm, String after) {
        int n = comm.getSize(), rank = comm.getRank();
        int[] sum = new int[1];
        comm.allReduce(new int[] {rank + 1}, sum, 1, MPI.INT, MPI.SUM);
        Check.equal(n * (n + 1) / 2, sum[0], "allReduce of rank+1 after " + after);
        int[] got = {-1};
        int root = n - 1;
        comm.scatter(rank == root ? seq(n, 100) : null, 1, MPI.INT, got, 1, MPI.INT, root);
        Check.equal(100 + rank, got[0], "scatter after " + after);
    }

    private static int[] seq(int n, int base) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = base + i;
        return a;
    }

    @RankTest(minSize = 2)
    public void rootErrorsReachEveryRank(Intracomm comm) {
        int n = comm.getSize(), rank = comm.getRank();
        for (int root : new int[] {0, n - 1}) {
            boolean isRoot = rank == root;
            int[] mine = {rank};

            // gather: receive buffer too small at the root
            if (isRoot) {
                Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.gather(mine, 1, MPI.INT, new int[n - 1], 1, MPI.INT, root),
                        "recvbuf");
            } else {
                peerFails(root, "gather", () -> comm.gather(mine, 1, MPI.INT, null, 1, MPI.INT, root), "recvbuf");
            }
            stillRight(comm, "gather failed at the root");

            // gatherv: negative displacement at the root
            if (isRoot) {
                int[] displs = seq(n, 0);
                displs[n - 1] = -1;
                Check.throwsMpi(MPI.ERR_ARG, () -> comm.gatherv(mine, 1, MPI.INT, new int[n], ones(n), displs,
                        MPI.INT, root), "displs[" + (n - 1) + "] = -1");
            } else {
                peerFails(root, "gatherv", () -> comm.gatherv(mine, 1, MPI.INT, root), "displs");
            }
            stillRight(comm, "gatherv failed at the root");

            // reduce: no receive buffer at the root
            if (isRoot) {
                Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.reduce(mine, null, 1, MPI.INT, MPI.SUM, root), "recvbuf");
            } else {
                peerFails(root, "reduce", () -> comm.reduce(mine, null, 1, MPI.INT, MPI.SUM, root), "recvbuf");
            }
            stillRight(comm, "reduce failed at the root");

            // scatter: send buffer too small at the root
            int[] in = {-7};
            if (isRoot) {
                Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.scatter(new int[n - 1], 1, MPI.INT, in, 1, MPI.INT, root),
                        "sendbuf");
            } else {
                peerFails(root, "scatter", () -> comm.scatter(null, 1, MPI.INT, in, 1, MPI.INT, root), "sendbuf");
                Check.equal(-7, in[0], "a failed scatter leaves the receive buffer alone");
            }
            stillRight(comm, "scatter failed at the root");
        }
    }

    @RankTest(minSize = 2)
    public void rootErrorsOfNonBlockingCollectives(Intracomm comm) {
        int n = comm.getSize(), rank = comm.getRank();
        int root = 1;
        boolean isRoot = rank == root;
        int[] mine = {rank};
        if (isRoot) {
            Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.iGather(mine, 1, MPI.INT, new int[1], 1, MPI.INT, root),
                    "recvbuf");
        } else {
            Request r = comm.iGather(mine, 1, MPI.INT, null, 1, MPI.INT, root);
            peerFails(root, "iGather", r::waitFor, "recvbuf");
        }
        stillRight(comm, "iGather failed at the root");
        if (isRoot) {
            Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.iReduce(mine, null, 1, MPI.INT, MPI.SUM, root), "recvbuf");
        } else {
            Request r = comm.iReduce(mine, null, 1, MPI.INT, MPI.SUM, root);
            peerFails(root, "iReduce", r::waitFor, "recvbuf");
        }
        // A blocking and a non-blocking collective after the failed one, both right.
        int[] total = new int[1];
        Request sum = comm.iAllReduce(new int[] {rank + 1}, total, 1, MPI.INT, MPI.SUM);
        stillRight(comm, "iReduce failed at the root");
        sum.waitFor();
        Check.equal(n * (n + 1) / 2, total[0], "iAllReduce after iReduce failed at the root");
    }

    /** A rank whose part of a collective fails after it started (a user op throwing) tells the others. */
    @RankTest(minSize = 2)
    public void failureInsideAScheduleReachesThePeers(Intracomm comm) {
        int n = comm.getSize(), rank = comm.getRank();
        int failing = n - 1;
        mpi.Op bad = new mpi.Op(new mpi.UserFunction() {
            @Override
            public void call(Object in, Object inout, int count, mpi.Datatype type) {
                if (comm.getRank() == failing) throw new IllegalStateException("user op refuses at rank " + failing);
                int[] a = (int[]) in, b = (int[]) inout;
                for (int i = 0; i < count; i++) b[i] += a[i];
            }
        }, true);
        int[] out = new int[1];
        long start = System.nanoTime();
        try {
            comm.allReduce(new int[] {rank}, out, 1, MPI.INT, bad);
            // Ranks whose part never needed the failing rank's reduction may complete.
        } catch (RuntimeException e) {
            long took = System.nanoTime() - start;
            Check.isTrue(took < PROMPT_NANOS, () -> "allReduce failure took " + took / 1_000_000 + " ms");
            Check.isTrue(rank == failing || e instanceof MPIException && e.getMessage().contains("rank " + failing),
                    () -> "names the failed rank: " + e);
        }
        bad.free();
        stillRight(comm, "a user op failed");
    }

    private static int[] ones(int n) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, 1);
        return a;
    }
}
