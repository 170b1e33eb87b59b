package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Fabric jobs started without mpi4jrun (srun- or torchrun-style variables) refuse to spawn,
 * saying why, at every rank, and start nothing.
 */
public class SpawnRefusalSuite {
    @RankTest(processOnly = true)
    public void spawnIsRefused(Intracomm comm) {
        int[] codes = {-1};
        String source = System.getenv("SLURM_PROCID") != null ? "srun" : "torchrun";
        if (comm.getRank() == 0) {
            Check.throwsMpi(MPI.ERR_SPAWN, () -> comm.spawn("java", new String[] {SpawnSuite.CHILD, "leaf"}, 1, null,
                    0, codes), "cannot start processes", source);
        } else {
            Check.throwsMpi(MPI.ERR_SPAWN, () -> comm.spawn("java", new String[] {SpawnSuite.CHILD, "leaf"}, 1, null,
                    0, codes), "failed at the root");
        }
        Check.equal(MPI.ERR_SPAWN, codes[0], "errcodes");
        Check.equal(0, ProcessHandle.current().children().count(), "processes started");
    }
}
