package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * MPICH: Debian's and Ubuntu's packages (ucx netmod) have no dynamic processes, and a C
 * program's MPI_Comm_spawn fails there too. mpi4j must then fail at every rank with ERR_SPAWN
 * saying so, with the error codes filled, and the communicator must still work; an MPICH that
 * can spawn must deliver the child's value.
 */
public class SpawnMpichSuite {
    @RankTest(processOnly = true, worldOnly = true)
    public void spawnWorksOrIsRefusedClearly(Intracomm comm) {
        int[] codes = {-1};
        Intercomm ic;
        try {
            ic = comm.spawn("java", new String[] {SpawnSuite.CHILD, "leaf"}, 1, null, 0, codes);
        } catch (MPIException e) {
            Check.equal(MPI.ERR_SPAWN, e.getErrorClass(), "error class of " + e.getMessage());
            Check.isTrue(e.getMessage().contains("cannot spawn"), "message: " + e.getMessage());
            Check.isTrue(codes[0] != MPI.SUCCESS && codes[0] != -1, "errcodes " + codes[0]);
            comm.barrier();
            System.out.println("note: " + e.getMessage());
            return;
        }
        Check.equal(MPI.SUCCESS, codes[0], "errcodes");
        if (comm.getRank() == 0) {
            int[] v = new int[1];
            ic.recv(v, 1, MPI.INT, 0, 5);
            Check.equal(7, v[0], "leaf's value");
        }
        ic.disconnect();
    }
}
