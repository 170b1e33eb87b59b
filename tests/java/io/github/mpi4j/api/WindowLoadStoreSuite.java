package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.LongBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Win;

/**
 * Puts and gets that {@code mpi.Win} turns into loads and stores (an allocated window of one
 * node, a direct ByteBuffer, one predefined type, a passive-target epoch), mixed with the calls
 * that still go to the backend, on every backend. Expected values come from ranks and indices;
 * each test fails if a store is lost, lands in the wrong place, or is not protected by a lock.
 */
public class WindowLoadStoreSuite {

    private static double value(int from, int i) {
        return from * 1000 + i + 0.5;
    }

    /** A window of {@code bytes} at every rank, zeroed (MPI does not clear allocated memory). */
    private static Win zeroed(Intracomm comm, int bytes, int dispUnit) {
        Win win = Win.allocate(bytes, dispUnit, MPI.INFO_NULL, comm);
        int rank = comm.getRank();
        win.lock(MPI.LOCK_EXCLUSIVE, rank, 0);
        ByteBuffer base = win.getBase();
        for (int i = 0; i < bytes; i++) base.put(i, (byte) 0);
        win.unlock(rank);
        comm.barrier();
        return win;
    }

    /**
     * Every rank puts 8 doubles (as MPI.DOUBLE from a ByteBuffer) into its right neighbour's
     * window under lockAll and flushes; after a barrier each rank finds its left neighbour's
     * values in place, then gets its right neighbour's block back and finds its own values.
     */
    @RankTest
    public void neighbourPutsAndGetsUnderLockAll(Intracomm comm) {
        neighbourPutsAndGets(comm, 8);
    }

    /** As above with 32 KiB a put: copies above 16 KiB take memcpy (buffer.NativeCopy). */
    @RankTest
    public void largeNeighbourPutsAndGets(Intracomm comm) {
        neighbourPutsAndGets(comm, 4096 + 3);
    }

    private static void neighbourPutsAndGets(Intracomm comm, int n) {
        int rank = comm.getRank(), size = comm.getSize();
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        Win win = zeroed(comm, 8 * (n + 2), 8);
        ByteBuffer origin = MPI.newByteBuffer(8 * n);
        for (int i = 0; i < n; i++) origin.putDouble(8 * i, value(rank, i));
        win.lockAll(0);
        win.put(origin, n, MPI.DOUBLE, right, 1, n, MPI.DOUBLE); // from displacement 1: not at the window's start
        win.flush(right);
        win.unlockAll();
        comm.barrier();
        DoubleBuffer mine = win.getBase().asDoubleBuffer();
        win.lock(MPI.LOCK_SHARED, rank, 0);
        Check.equal(0.0, mine.get(0), "cell 0 is untouched");
        for (int i = 0; i < n; i++) Check.equal(value(left, i), mine.get(1 + i), "cell " + (1 + i) + " from rank " + left);
        Check.equal(0.0, mine.get(n + 1), "cell " + (n + 1) + " is untouched");
        win.unlock(rank);
        comm.barrier();
        ByteBuffer back = MPI.newByteBuffer(8 * n);
        win.lockAll(0);
        win.get(back, n, MPI.DOUBLE, right, 1, n, MPI.DOUBLE);
        win.flushAll();
        win.unlockAll();
        for (int i = 0; i < n; i++) Check.equal(value(rank, i), back.getDouble(8 * i), "got back element " + i);
        win.free();
    }

    /**
     * A counter at rank 0 incremented K times by every rank with a get, an add and a put under
     * an exclusive lock: the lock must protect the loads and stores (MPI-3 requires it for
     * shared-memory windows), so the counter ends at size * K and every rank saw distinct values.
     */
    @RankTest
    public void exclusiveLockProtectsGetAndPut(Intracomm comm) {
        int size = comm.getSize(), k = 50;
        Win win = zeroed(comm, 8, 8);
        ByteBuffer cell = MPI.newByteBuffer(8);
        long seenSum = 0;
        for (int i = 0; i < k; i++) {
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            win.get(cell, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
            win.flush(0);
            long v = cell.getLong(0);
            seenSum += v;
            cell.putLong(0, v + 1);
            win.put(cell, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
            win.unlock(0);
        }
        comm.barrier();
        long[] all = new long[1];
        comm.allReduce(new long[] {seenSum}, all, 1, MPI.LONG, MPI.SUM);
        long total = (long) size * k;
        Check.equal(total * (total - 1) / 2, all[0], "every value 0 .. size*K-1 seen exactly once in sum");
        win.lock(MPI.LOCK_SHARED, 0, 0);
        win.get(cell, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
        win.unlock(0);
        Check.equal(total, cell.getLong(0), "the counter after size * K increments");
        win.free();
    }

    /**
     * Stores and backend calls in one epoch towards the same target: a put of slot 0, an
     * accumulate (SUM) of slot 1 and a put from a LongBuffer (not a ByteBuffer: the backend's path)
     * of slot 2, then one flush; the flush must complete the accumulate too. Values are summed
     * over ranks at rank 0.
     */
    @RankTest
    public void storesAndBackendCallsInOneEpoch(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Win win = zeroed(comm, 8 * (3 * size + 1), 8);
        ByteBuffer word = MPI.newByteBuffer(8);
        word.putLong(0, 100 + rank);
        LongBuffer typed = MPI.newLongBuffer(1).put(0, 200 + rank);
        LongBuffer one = MPI.newLongBuffer(1).put(0, rank + 1);
        win.lockAll(0);
        win.put(word, 1, MPI.LONG, 0, 3 * rank, 1, MPI.LONG);
        win.accumulate(one, 1, MPI.LONG, 0, 3 * size, 1, MPI.LONG, MPI.SUM);
        win.put(typed, 1, MPI.LONG, 0, 3 * rank + 2, 1, MPI.LONG);
        win.put(word, 1, MPI.LONG, 0, 3 * rank + 1, 1, MPI.LONG);
        win.flush(0);
        win.unlockAll();
        comm.barrier();
        if (rank == 0) {
            LongBuffer at0 = win.getBase().asLongBuffer();
            win.lock(MPI.LOCK_SHARED, 0, 0);
            for (int r = 0; r < size; r++) {
                Check.equal(100L + r, at0.get(3 * r), "slot " + 3 * r + " stored by rank " + r);
                Check.equal(100L + r, at0.get(3 * r + 1), "slot " + (3 * r + 1) + " stored by rank " + r);
                Check.equal(200L + r, at0.get(3 * r + 2), "slot " + (3 * r + 2) + " put by rank " + r);
            }
            Check.equal((long) size * (size + 1) / 2, at0.get(3 * size), "accumulated 1 + ... + size");
            win.unlock(0);
        }
        comm.barrier();
        win.free();
    }

    /** Calls the shortcut would take if they were valid still fail as before, and touch nothing. */
    @RankTest
    public void badCallsStillFail(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Win win = zeroed(comm, 16, 1);
        ByteBuffer origin = MPI.newByteBuffer(32);
        for (int i = 0; i < 32; i++) origin.put(i, (byte) (i + 1));
        win.lockAll(0);
        Check.throwsMpi(MPI.ERR_DISP, () -> win.put(origin, 8, MPI.BYTE, rank, 12, 8, MPI.BYTE), "targetDisp 12",
                "outside");
        Check.throwsMpi(MPI.ERR_DISP, () -> win.get(origin, 8, MPI.BYTE, rank, 20, 8, MPI.BYTE), "targetDisp 20");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> win.put(MPI.newByteBuffer(4), 8, MPI.BYTE, rank, 0, 8, MPI.BYTE),
                "capacity");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> win.get(origin.asReadOnlyBuffer(), 8, MPI.BYTE, rank, 0, 8, MPI.BYTE),
                "read-only");
        Check.throwsMpi(MPI.ERR_RANK, () -> win.put(origin, 8, MPI.BYTE, size, 0, 8, MPI.BYTE), "targetRank " + size);
        Check.throwsMpi(MPI.ERR_COUNT, () -> win.put(origin, 8, MPI.BYTE, rank, 0, 4, MPI.BYTE), "8 bytes");
        win.flush(rank);
        win.unlockAll();
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.put(origin, 8, MPI.BYTE, rank, 0, 8, MPI.BYTE), "access epoch");
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.flush(rank), "not locked");
        comm.barrier();
        ByteBuffer mine = win.getBase();
        for (int i = 0; i < 16; i++) Check.equal(0, mine.get(i), "window byte " + i + " untouched");
        comm.barrier();
        win.free();
        Check.throwsMpi(MPI.ERR_WIN, () -> win.put(origin, 8, MPI.BYTE, rank, 0, 8, MPI.BYTE), "freed");
    }
}
