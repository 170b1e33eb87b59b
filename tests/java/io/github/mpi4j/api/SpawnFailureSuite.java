package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Fabric only: children that never join their parents. The spawn fails at every parent with
 * {@code MPI.ERR_SPAWN} within seconds (not at a deadline), the error codes say so, and the
 * root has no child process left. (Under Open MPI a started program that exits before MPI_Init
 * takes the whole job down, so these run on the fabric only.)
 */
public class SpawnFailureSuite {

    private static void expectFailure(Intracomm comm, String command, String[] argv, String fragment) {
        int[] codes = {-1, -1};
        long t0 = System.nanoTime();
        MPIException e = Check.throwsMpi(MPI.ERR_SPAWN, () -> comm.spawn(command, argv, 2, null, 0, codes));
        double s = (System.nanoTime() - t0) / 1e9;
        Check.isTrue(s < 60, "failed after " + s + " s, expected within the start-up of a JVM");
        Check.arrays(new int[] {MPI.ERR_SPAWN, MPI.ERR_SPAWN}, codes, "errcodes");
        Check.isTrue(e.getMessage().contains(fragment) || e.getMessage().contains("another parent"),
                "message '" + e.getMessage() + "' mentions '" + fragment + "'");
        // No orphan: the root killed and reaped what it started.
        long left = ProcessHandle.current().children().count();
        Check.equal(0, left, "child processes left at rank " + comm.getRank());
        comm.barrier();
    }

    /** A JVM whose main class does not exist exits at once with status 1. */
    @RankTest(processOnly = true)
    public void childJvmExitsBeforeJoining(Intracomm comm) {
        expectFailure(comm, "java", new String[] {"io.github.mpi4j.api.NoSuchMainClass"}, "before joining");
    }

    /** A program that is not an MPI program at all. */
    @RankTest(processOnly = true)
    public void programThatNeverCallsInit(Intracomm comm) {
        expectFailure(comm, "/bin/false", null, "before joining");
    }

    /** After the failures, a spawn still works and the children are reaped after they end. */
    @RankTest(processOnly = true)
    public void spawnWorksAfterFailures(Intracomm comm) throws InterruptedException {
        Intercomm ic = comm.spawn("java", new String[] {SpawnSuite.CHILD, "leaf"}, 1, null, 0, null);
        if (comm.getRank() == 0) {
            int[] v = new int[1];
            ic.recv(v, 1, MPI.INT, 0, 5);
            Check.equal(7, v[0], "leaf's value");
        }
        ic.disconnect();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (ProcessHandle.current().children().count() > 0 && System.nanoTime() < deadline) Thread.sleep(50);
        Check.equal(0, ProcessHandle.current().children().count(), "children left 30 s after they disconnected");
    }
}
