package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Win;

/**
 * One-sided communication over user memory, mpi.Win (issue 11, item 4; windows the library
 * allocates are {@link WindowAllocatedSuite}). Expected values are worked out here from
 * ranks and sizes (neighbours on a ring, the sum 0 + 1 + ... + n-1, every ticket of a counter
 * handed out once), never read back from the library. The bad-input part checks each misuse
 * throws naming its argument and that no window memory outside the window changes.
 */
public class WindowSuite {

    private static int left(int rank, int size) {
        return (rank - 1 + size) % size;
    }

    private static int right(int rank, int size) {
        return (rank + 1) % size;
    }

    /** The value a rank holds at interior cell i of the halo test. */
    private static double cell(int rank, int i) {
        return rank * 100.0 + i;
    }

    /**
     * 1-D halo exchange on a periodic ring: each rank owns N interior cells and two ghosts, and
     * puts its first cell into the left neighbour's right ghost and its last into the right
     * neighbour's left ghost between two fences.
     */
    @RankTest
    public void haloExchangeWithPutAndFence(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), n = 4;
        DoubleBuffer local = MPI.newDoubleBuffer(n + 2);
        local.put(0, -1).put(n + 1, -1);
        for (int i = 1; i <= n; i++) local.put(i, cell(rank, i));
        Win win = new Win(local, n + 2, 1, MPI.INFO_NULL, comm);
        DoubleBuffer first = MPI.newDoubleBuffer(1).put(0, cell(rank, 1));
        DoubleBuffer last = MPI.newDoubleBuffer(1).put(0, cell(rank, n));
        win.fence(0);
        win.put(first, 1, MPI.DOUBLE, left(rank, size), n + 1, 1, MPI.DOUBLE);
        win.put(last, 1, MPI.DOUBLE, right(rank, size), 0, 1, MPI.DOUBLE);
        win.fence(MPI.MODE_NOSUCCEED);
        Check.near(cell(left(rank, size), n), local.get(0), 0, "left ghost = left neighbour's last cell");
        Check.near(cell(right(rank, size), 1), local.get(n + 1), 0, "right ghost = right neighbour's first cell");
        for (int i = 1; i <= n; i++) Check.near(cell(rank, i), local.get(i), 0, "interior cell " + i + " unchanged");

        // The same cells read back with get in a fence epoch, and rGet under lockAll (request-based
        // RMA needs a passive-target epoch).
        DoubleBuffer got = MPI.newDoubleBuffer(2);
        win.fence(0);
        win.get(got, 1, MPI.DOUBLE, right(rank, size), 1, 1, MPI.DOUBLE);
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.rGet(got, 1, MPI.DOUBLE, left(rank, size), n, 1, MPI.DOUBLE),
                "passive-target epoch");
        win.fence(MPI.MODE_NOSUCCEED);
        win.lockAll(0);
        Request r = win.rGet(got.slice(1, 1), 1, MPI.DOUBLE, left(rank, size), n, 1, MPI.DOUBLE);
        r.waitFor();
        win.unlockAll();
        comm.barrier();
        Check.near(cell(right(rank, size), 1), got.get(0), 0, "get of the right neighbour's first cell");
        Check.near(cell(left(rank, size), n), got.get(1), 0, "rGet of the left neighbour's last cell");
        win.free();
    }

    /** post/start/complete/wait on a ring: each rank puts its rank into its right neighbour's window. */
    @RankTest
    public void postStartCompleteWaitOnARing(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        IntBuffer cell = MPI.newIntBuffer(1).put(0, -1);
        Win win = new Win(cell, 1, 1, MPI.INFO_NULL, comm);
        Group all = comm.getGroup();
        Group from = all.incl(new int[] {left(rank, size)}), to = all.incl(new int[] {right(rank, size)});
        win.post(from, 0);
        win.start(to, 0);
        win.put(MPI.newIntBuffer(1).put(0, rank), 1, MPI.INT, right(rank, size), 0, 1, MPI.INT);
        win.complete();
        win.waitFor();
        Check.equal(left(rank, size), cell.get(0), "the left neighbour's rank arrived");
        win.free();
    }

    /**
     * Bad input: out-of-window displacements, operations without an epoch, wrong lock states,
     * epoch misuse, arrays and heap buffers, use after free. Each throws naming the problem; the
     * window memory and its neighbours' stay as they were.
     */
    @RankTest
    public void badInputThrowsAndWritesNothingOutsideTheWindow(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        // Four ints of window between sentinels: ints 0-3 and 8-11 are outside it. (The window
        // starts 16-byte aligned: MPICH 4.0's MPI_Win_create misplaces puts into a window that
        // does not, in C too; see docs/onesided.md.)
        IntBuffer mem = MPI.newIntBuffer(12);
        for (int i = 0; i < 12; i++) mem.put(i, 7000 + i);
        Win win = new Win(mem.slice(4, 4), 4, 1, MPI.INFO_NULL, comm);
        IntBuffer two = MPI.newIntBuffer(2).put(0, -5).put(1, -6);
        int t = right(rank, size);

        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.put(two, 1, MPI.INT, t, 0, 1, MPI.INT), "no access epoch",
                "rank " + t);
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.unlock(t), "not locked");
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.unlockAll(), "lockAll");
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.complete(), "start");
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.waitFor(), "post");
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.flush(t), "not locked");
        Check.throwsMpi(MPI.ERR_LOCKTYPE, () -> win.lock(7, t, 0), "lockType 7");
        Check.throwsMpi(MPI.ERR_RANK, () -> win.lock(MPI.LOCK_SHARED, size, 0), "rank " + size);
        Check.throwsMpi(MPI.ERR_ASSERT, () -> win.fence(1 << 20), "assertion");

        win.fence(0);
        Check.throwsMpi(MPI.ERR_DISP, () -> win.put(two, 2, MPI.INT, t, 3, 2, MPI.INT), "targetDisp 3",
                "outside rank " + t + "'s window of 16 bytes");
        Check.throwsMpi(MPI.ERR_DISP, () -> win.put(two, 1, MPI.INT, t, -1, 1, MPI.INT), "targetDisp", "-1");
        Check.throwsMpi(MPI.ERR_DISP, () -> win.get(two, 1, MPI.INT, t, 4, 1, MPI.INT), "targetDisp 4");
        Check.throwsMpi(MPI.ERR_RANK, () -> win.put(two, 1, MPI.INT, size, 0, 1, MPI.INT), "targetRank " + size);
        Check.throwsMpi(MPI.ERR_COUNT, () -> win.put(two, 2, MPI.INT, t, 0, 1, MPI.INT), "carries 8 bytes",
                "target 4");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> win.put(IntBuffer.allocate(1), 1, MPI.INT, t, 0, 1, MPI.INT),
                "heap buffer");
        Check.throwsMpi(MPI.ERR_OP, () -> win.accumulate(two, 1, MPI.INT, t, 0, 1, MPI.INT,
                new mpi.Op(new mpi.UserFunction() { }, true)), "user-defined");
        win.put(two, 1, MPI.INT, t, 3, 1, MPI.INT); // the last int of the window: allowed
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_SHARED, t, 0), "fence epoch");
        win.fence(MPI.MODE_NOSUCCEED);
        for (int i = 0; i < 12; i++) {
            Check.equal(i == 7 ? -5 : 7000 + i, mem.get(i), "int " + i + " (window is ints 4-7)");
        }

        win.lock(MPI.LOCK_SHARED, t, 0);
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.lock(MPI.LOCK_SHARED, t, 0), "already locked");
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.lockAll(0), "passive-target epoch");
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.fence(0), "passive-target epoch");
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.free(), "passive-target epoch");
        win.unlock(t);
        comm.barrier();

        ByteBuffer heap = ByteBuffer.allocate(8);
        Check.throwsMpi(MPI.ERR_BUFFER, () -> new Win(heap, 8, 1, MPI.INFO_NULL, comm), "direct buffer");
        Check.throwsMpi(MPI.ERR_WIN, () -> win.sharedQuery(0), "allocated shared");
        win.free();
        Check.throwsMpi(MPI.ERR_WIN, () -> win.fence(0), "freed");
        Check.throwsMpi(MPI.ERR_WIN, () -> win.free(), "freed");
    }
}
