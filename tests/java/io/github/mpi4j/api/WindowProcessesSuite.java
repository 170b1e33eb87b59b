package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Win;

/**
 * Fabric ranks in different processes (or on different nodes) with a window over user memory:
 * operations go through the transport to the target's RMA service, so passive-target epochs
 * complete while the target makes no MPI call at all.
 */
public class WindowProcessesSuite {

    /**
     * Rank 0 exposes size+1 ints and then only reads its own memory (no MPI call) until every
     * other rank, each under an exclusive lock, has added rank+1 to int 0 and put 7*rank into int
     * rank; the sum and the cells are known from the size.
     */
    @RankTest
    public void passiveTargetNeedsNoCallsAtTheTarget(Intracomm comm) throws InterruptedException {
        int rank = comm.getRank(), size = comm.getSize();
        IntBuffer mem = MPI.newIntBuffer(size + 1);
        for (int i = 0; i <= size; i++) mem.put(i, i == 0 ? 0 : -1);
        Win win = new Win(mem, size + 1, 1, MPI.INFO_NULL, comm);
        int sum = 0;
        for (int r = 1; r < size; r++) sum += r + 1;
        if (rank == 0) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!arrived(mem, size, sum)) {
                Check.isTrue(System.nanoTime() < deadline, "the other ranks' updates arrived within 60 s without "
                        + "rank 0 calling MPI (int 0 = " + mem.get(0) + ")");
                Thread.sleep(1);
            }
        } else {
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            win.accumulate(MPI.newIntBuffer(1).put(0, rank + 1), 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.SUM);
            win.put(MPI.newIntBuffer(1).put(0, 7 * rank), 1, MPI.INT, 0, rank, 1, MPI.INT);
            win.unlock(0);
        }
        comm.barrier();
        Check.isTrue(arrived(mem, size, sum) || rank != 0, "rank 0's window holds every update");
        Check.equal(-1, mem.get(size), rank == 0 ? "the int past the updated ones untouched" : "own last int");
        win.free();
    }

    private static boolean arrived(IntBuffer mem, int size, int sum) {
        java.lang.invoke.VarHandle.acquireFence();
        if (mem.get(0) != sum) return false;
        for (int r = 1; r < size; r++) if (mem.get(r) != 7 * r) return false;
        return true;
    }

    /** The same window on MPI.COMM_SELF works as on any communicator. */
    @RankTest
    public void windowOnCommSelf(Intracomm comm) {
        int rank = comm.getRank();
        IntBuffer mem = MPI.newIntBuffer(2).put(0, 11).put(1, 12);
        Win self = new Win(mem, 2, 1, MPI.INFO_NULL, MPI.COMM_SELF);
        self.fence(0);
        self.put(MPI.newIntBuffer(1).put(0, 100 + rank), 1, MPI.INT, 0, 1, 1, MPI.INT);
        self.fence(MPI.MODE_NOSUCCEED);
        Check.equal(11, mem.get(0), "int 0 untouched");
        Check.equal(100 + rank, mem.get(1), "int 1 written through the COMM_SELF window");
        self.free();
    }
}
