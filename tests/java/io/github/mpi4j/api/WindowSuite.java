package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Win;

/**
 * One-sided communication, mpi.Win (issue 11, item 4). Expected values are worked out here from
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

    /**
     * A distributed counter at rank 0: every rank takes K tickets with fetchAndOp(SUM, 1) under
     * lockAll. The tickets of all ranks together are 0 .. size*K-1, each once, and the counter
     * ends at size*K. Then compareAndSwap elects one rank; accumulate sums rank+1 at rank 0.
     */
    @RankTest
    public void counterWithFetchAndOpUnderLockAll(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), k = 5;
        Win win = Win.allocate(3 * 8, 8, MPI.INFO_NULL, comm);
        LongBuffer mine = win.getBase().asLongBuffer();
        mine.put(0, 0).put(1, -1).put(2, 0);
        win.fence(0);
        win.fence(MPI.MODE_NOSUCCEED);
        Check.equal(MPI.WIN_FLAVOR_ALLOCATE, ((Integer) win.getAttr(MPI.WIN_CREATE_FLAVOR)).longValue(), "flavor");
        Check.equal(24L, ((Long) win.getAttr(MPI.WIN_SIZE)).longValue(), "WIN_SIZE");

        LongBuffer one = MPI.newLongBuffer(1).put(0, 1), ticket = MPI.newLongBuffer(1);
        long[] tickets = new long[k];
        win.lockAll(0);
        for (int i = 0; i < k; i++) {
            win.fetchAndOp(one, ticket, MPI.LONG, 0, 0, MPI.SUM);
            win.flush(0);
            tickets[i] = ticket.get(0);
        }
        win.unlockAll();
        long[] all = new long[k * size];
        comm.allGather(tickets, k, MPI.LONG, all, k, MPI.LONG);
        Arrays.sort(all);
        for (int i = 0; i < all.length; i++) Check.equal(i, all[i], "ticket " + i + " handed out exactly once");

        // compareAndSwap: slot 1 starts at -1; exactly one rank replaces it with its rank.
        LongBuffer me = MPI.newLongBuffer(1).put(0, rank), minusOne = MPI.newLongBuffer(1).put(0, -1);
        LongBuffer old = MPI.newLongBuffer(1);
        win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
        win.compareAndSwap(me, minusOne, old, MPI.LONG, 0, 1);
        win.unlock(0);
        long[] winners = new long[size];
        comm.allGather(new long[] {old.get(0) == -1 ? 1 : 0}, 1, MPI.LONG, winners, 1, MPI.LONG);
        Check.equal(1, Arrays.stream(winners).sum(), "exactly one compareAndSwap wins");

        // accumulate: slot 2 becomes 1 + 2 + ... + size.
        win.fence(0);
        win.accumulate(MPI.newLongBuffer(1).put(0, rank + 1), 1, MPI.LONG, 0, 2, 1, MPI.LONG, MPI.SUM);
        win.fence(0);
        LongBuffer counter = MPI.newLongBuffer(3);
        win.get(counter, 3, MPI.LONG, 0, 0, 3, MPI.LONG);
        win.fence(MPI.MODE_NOSUCCEED);
        Check.equal((long) size * k, counter.get(0), "the counter after all tickets");
        Check.isTrue(counter.get(1) >= 0 && counter.get(1) < size, "slot 1 holds the winner's rank");
        Check.equal((long) size * (size + 1) / 2, counter.get(2), "accumulated 1 + ... + size");
        win.free();
    }

    /** A shared window: each rank stores into its part, and reads its right neighbour's part directly. */
    @RankTest
    public void sharedWindowReadByNeighbour(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), n = 4;
        Win win = Win.allocateShared(n * 4, 4, MPI.INFO_NULL, comm);
        IntBuffer mine = win.getBase().asIntBuffer();
        for (int i = 0; i < n; i++) mine.put(i, rank * 10 + i);
        win.fence(0);
        int nb = right(rank, size);
        IntBuffer theirs = win.sharedQuery(nb).asIntBuffer();
        for (int i = 0; i < n; i++) Check.equal(nb * 10 + i, theirs.get(i), "neighbour's shared cell " + i);
        win.fence(MPI.MODE_NOSUCCEED);
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
