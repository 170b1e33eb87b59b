package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.LongBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Win;

/**
 * Open MPI 4 with osc/rdma chosen by the user (OMPI_MCA_osc=rdma): compareAndSwap between
 * processes, which kills the process inside that component, is refused with an exception that
 * says why; the other one-sided operations keep working. Run by {@link WindowMoreTest} under
 * Open MPI only.
 */
public class WindowOscSuite {

    @RankTest
    public void compareAndSwapIsRefusedWhereOscRdmaWouldCrash(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Win win = Win.allocate(16, 8, MPI.INFO_NULL, comm);
        win.getBase().asLongBuffer().put(0, 0).put(1, -1);
        comm.barrier();
        LongBuffer one = MPI.newLongBuffer(1).put(0, 1), old = MPI.newLongBuffer(1);
        LongBuffer me = MPI.newLongBuffer(1).put(0, rank), minusOne = MPI.newLongBuffer(1).put(0, -1);
        win.lockAll(0);
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> win.compareAndSwap(me, minusOne, old, MPI.LONG, 0, 1),
                "osc/rdma", "SIGSEGV", "OMPI_MCA_osc=rdma");
        win.fetchAndOp(one, old, MPI.LONG, 0, 0, MPI.SUM);
        win.flush(0);
        win.unlockAll();
        comm.barrier();
        if (rank == 0) {
            Check.equal(size, win.getBase().asLongBuffer().get(0), "every rank's fetchAndOp counted");
            Check.equal(-1, win.getBase().asLongBuffer().get(1), "slot 1 untouched by the refused compareAndSwap");
        }
        comm.barrier();
        win.free();
    }
}
