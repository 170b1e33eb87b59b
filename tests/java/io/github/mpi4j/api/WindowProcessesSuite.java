package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Win;

/**
 * The fabric with ranks as processes (one rank per JVM): a window over user memory cannot be
 * shared between processes, and is refused at every rank with a message that says so and names
 * the way out; on MPI.COMM_SELF the same window works.
 */
public class WindowProcessesSuite {

    @RankTest
    public void windowOverUserMemoryBetweenProcessesIsRefusedClearly(Intracomm comm) {
        int rank = comm.getRank();
        IntBuffer mem = MPI.newIntBuffer(2).put(0, 11).put(1, 12);
        if (comm.getSize() > 1) {
            Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> new Win(mem, 2, 1, MPI.INFO_NULL, comm),
                    "only between ranks in one JVM", "Win.allocate");
            Check.equal(11, mem.get(0), "window memory untouched after the refusal");
        }
        Win self = new Win(mem, 2, 1, MPI.INFO_NULL, MPI.COMM_SELF);
        self.fence(0);
        self.put(MPI.newIntBuffer(1).put(0, 100 + rank), 1, MPI.INT, 0, 1, 1, MPI.INT);
        self.fence(MPI.MODE_NOSUCCEED);
        Check.equal(11, mem.get(0), "int 0 untouched");
        Check.equal(100 + rank, mem.get(1), "int 1 written through the COMM_SELF window");
        self.free();
    }
}
