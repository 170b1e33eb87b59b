package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Win;

/**
 * One-sided communication in windows the library allocates (issue 11, item 4). These run on
 * every backend, the fabric with ranks as processes included (its windows between processes are
 * shared-memory files). Expected values come from ranks and sizes only: every ticket of a counter
 * handed out once, one winner of compareAndSwap, the sum 1 + ... + size, a neighbour's cells.
 */
public class WindowAllocatedSuite {

    private static int right(int rank, int size) {
        return (rank + 1) % size;
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
        Check.equal(24L, ((Number) win.getAttr(MPI.WIN_SIZE)).longValue(), "WIN_SIZE");

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

        // getAccumulate with NO_OP (no origin) reads all three slots atomically under a shared lock.
        LongBuffer seen = MPI.newLongBuffer(3);
        win.lock(MPI.LOCK_SHARED, 0, MPI.MODE_NOCHECK);
        win.getAccumulate(null, 0, MPI.LONG, seen, 3, MPI.LONG, 0, 0, 3, MPI.LONG, MPI.NO_OP);
        win.unlock(0);
        Check.equal((long) size * k, seen.get(0), "getAccumulate(NO_OP) of the counter");
        Check.equal((long) size * (size + 1) / 2, seen.get(2), "getAccumulate(NO_OP) of the sum");
        comm.barrier();
        win.free();
    }

    /**
     * A shared window over the ranks of one node (splitType(TYPE_SHARED)): each rank stores into
     * its part, and reads its right neighbour's part directly. Over a communicator whose ranks
     * are not all on one node, allocateShared is refused at every rank.
     */
    @RankTest
    public void sharedWindowReadByNeighbour(Intracomm comm) {
        Intracomm node = comm.splitType(Comm.TYPE_SHARED, comm.getRank(), MPI.INFO_NULL);
        if (node.getSize() < comm.getSize()) {
            Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> Win.allocateShared(16, 4, MPI.INFO_NULL, comm),
                    "one node");
        }
        int rank = node.getRank(), size = node.getSize(), n = 4;
        Win win = Win.allocateShared(n * 4, 4, MPI.INFO_NULL, node);
        IntBuffer mine = win.getBase().asIntBuffer();
        for (int i = 0; i < n; i++) mine.put(i, rank * 10 + i);
        win.fence(0);
        int nb = right(rank, size);
        IntBuffer theirs = win.sharedQuery(nb).asIntBuffer();
        for (int i = 0; i < n; i++) Check.equal(nb * 10 + i, theirs.get(i), "neighbour's shared cell " + i);
        win.fence(MPI.MODE_NOSUCCEED);
        win.free();
        node.free();
    }
}
