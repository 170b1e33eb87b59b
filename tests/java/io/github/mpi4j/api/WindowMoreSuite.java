package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.Errhandler;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Win;

/**
 * One-sided communication beyond the basics (issue 11), on every backend: derived datatypes as
 * origin and target types of put, get and accumulate; accumulates from every rank at once under
 * shared locks (MPI: same-op accumulates are element-wise atomic); window attributes; window
 * error handlers. Expected values come from ranks and sizes.
 */
public class WindowMoreSuite {
    private static final int ROWS = 4;

    private static int right(int rank, int size) {
        return (rank + 1) % size;
    }

    private static int left(int rank, int size) {
        return (rank - 1 + size) % size;
    }

    /** The initial value of cell (i, j) of rank r's matrix. */
    private static int initial(int r, int i, int j) {
        return 10000 * (r + 1) + 100 * i + j;
    }

    /**
     * Each rank's window is a ROWS x size int matrix (row-major). A column is a vector type
     * (ROWS blocks of 1, stride size). Each rank puts ROWS contiguous ints into column "rank" of
     * its right neighbour (target type: the column); gets row 0 of its left neighbour into every
     * other int of a buffer (origin type: a vector of stride 2); and adds rank+1 to column 0 of
     * rank 0 with the column as target type; one fence epoch each.
     */
    @RankTest
    public void derivedDatatypesOnBothSides(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), cols = size;
        IntBuffer mem = MPI.newIntBuffer(ROWS * cols);
        for (int i = 0; i < ROWS; i++) for (int j = 0; j < cols; j++) mem.put(i * cols + j, initial(rank, i, j));
        Win win = new Win(mem, ROWS * cols, 1, MPI.INFO_NULL, comm);
        Datatype column = Datatype.createVector(ROWS, 1, cols, MPI.INT);
        column.commit();
        Datatype everyOther = Datatype.createVector(cols, 1, 2, MPI.INT);
        everyOther.commit();

        IntBuffer mine = MPI.newIntBuffer(ROWS);
        for (int i = 0; i < ROWS; i++) mine.put(i, -(rank * 10 + i));
        IntBuffer row = MPI.newIntBuffer(2 * cols);
        for (int k = 0; k < 2 * cols; k++) row.put(k, -7);
        win.fence(0);
        win.put(mine, ROWS, MPI.INT, right(rank, size), rank, 1, column);
        win.fence(0);
        win.get(row, 1, everyOther, left(rank, size), 0, cols, MPI.INT);
        win.fence(0);
        int l = left(rank, size), ll = left(l, size);
        for (int j = 0; j < cols; j++) {
            int want = j == ll ? -(ll * 10) : initial(l, 0, j);
            Check.equal(want, row.get(2 * j), "get through a vector origin type: element " + j);
            Check.equal(-7, row.get(2 * j + 1), "gap " + j + " of the origin type untouched");
        }
        win.accumulate(MPI.newIntBuffer(ROWS).put(0, rank + 1).put(1, rank + 1).put(2, rank + 1).put(3, rank + 1),
                ROWS, MPI.INT, 0, 0, 1, column, MPI.SUM);
        win.fence(MPI.MODE_NOSUCCEED);
        int from = left(rank, size), sum = size * (size + 1) / 2;
        for (int i = 0; i < ROWS; i++) {
            for (int j = 0; j < cols; j++) {
                int want = j == from ? -(from * 10 + i) : initial(rank, i, j);
                if (rank == 0 && j == 0) want += sum;
                Check.equal(want, mem.get(i * cols + j), "cell (" + i + ", " + j + ")");
            }
        }
        column.free();
        everyOther.free();
        win.free();
    }

    /**
     * Every rank adds 1 to each of N longs at every rank, K times, and takes K tickets with
     * fetchAndOp, all under lockAll at once: no update is lost (each long ends at size*K, the
     * tickets are all different). MAX of the ranks lands as size-1.
     */
    @RankTest
    public void concurrentAccumulatesAreAtomic(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), n = 6, k = 8;
        Win win = Win.allocate((n + 2) * 8, 8, MPI.INFO_NULL, comm);
        LongBuffer mine = win.getBase().asLongBuffer();
        for (int i = 0; i < n + 2; i++) mine.put(i, 0);
        mine.put(n + 1, -1);
        comm.barrier();
        LongBuffer ones = MPI.newLongBuffer(n);
        for (int i = 0; i < n; i++) ones.put(i, 1);
        LongBuffer me = MPI.newLongBuffer(1).put(0, rank), one = MPI.newLongBuffer(1).put(0, 1);
        LongBuffer ticket = MPI.newLongBuffer(1);
        long[] tickets = new long[k];
        win.lockAll(0);
        for (int round = 0; round < k; round++) {
            for (int t = 0; t < size; t++) win.accumulate(ones, n, MPI.LONG, t, 0, n, MPI.LONG, MPI.SUM);
            win.fetchAndOp(one, ticket, MPI.LONG, 0, n, MPI.SUM);
            win.flush(0);
            tickets[round] = ticket.get(0);
        }
        for (int t = 0; t < size; t++) win.accumulate(me, 1, MPI.LONG, t, n + 1, 1, MPI.LONG, MPI.MAX);
        win.unlockAll();
        comm.barrier();
        win.lock(MPI.LOCK_SHARED, rank, 0);
        for (int i = 0; i < n; i++) Check.equal((long) size * k, mine.get(i), "long " + i + " after every rank's adds");
        Check.equal(rank == 0 ? (long) size * k : 0L, mine.get(n), "the ticket counter");
        Check.equal(size - 1L, mine.get(n + 1), "MAX of the ranks");
        win.unlock(rank);
        long[] all = new long[k * size];
        comm.allGather(tickets, k, MPI.LONG, all, k, MPI.LONG);
        java.util.Arrays.sort(all);
        for (int i = 0; i < all.length; i++) Check.equal(i, all[i], "ticket " + i + " handed out once");
        win.free();
    }

    /** createKeyval/setAttr/getAttr/deleteAttr/freeKeyval on a window, next to the predefined attributes. */
    @RankTest
    public void windowAttributes(Intracomm comm) {
        int rank = comm.getRank();
        IntBuffer mem = MPI.newIntBuffer(3);
        Win win = new Win(mem, 3, 1, MPI.INFO_NULL, comm);
        int key = Win.createKeyval();
        Check.isTrue(win.getAttr(key) == null, "unset attribute is null");
        win.setAttr(key, "rank " + rank);
        Check.equal("rank " + rank, win.getAttr(key), "attribute read back");
        Check.equal(12L, ((Number) win.getAttr(MPI.WIN_SIZE)).longValue(), "WIN_SIZE still answers");
        win.deleteAttr(key);
        Check.isTrue(win.getAttr(key) == null, "deleted attribute is null");
        Win.freeKeyval(key);
        Check.throwsMpi(MPI.ERR_KEYVAL, () -> win.setAttr(key, 1), "keyval");
        Check.throwsMpi(MPI.ERR_KEYVAL, () -> Win.freeKeyval(key), "keyval");
        win.free();
    }

    /**
     * A window's error handler applies to its failing calls: a user handler sees the error code
     * (then the call throws), ERRORS_RETURN just throws; a new window starts with its
     * communicator's handler.
     */
    @RankTest
    public void windowErrorHandlers(Intracomm comm) {
        IntBuffer mem = MPI.newIntBuffer(2);
        Win win = new Win(mem, 2, 1, MPI.INFO_NULL, comm);
        Check.equal(comm.getErrhandler().toString(), win.getErrhandler().toString(),
                "a new window has its communicator's handler");
        int[] seen = {0, 0};
        Errhandler h = Comm.createErrhandler((c, code) -> {
            seen[0]++;
            seen[1] = code;
        });
        win.setErrhandler(h);
        IntBuffer one = MPI.newIntBuffer(1);
        Check.throwsMpi(MPI.ERR_RMA_SYNC, () -> win.put(one, 1, MPI.INT, 0, 0, 1, MPI.INT), "no access epoch");
        Check.equal(1, seen[0], "the user handler ran once");
        Check.equal(MPI.ERR_RMA_SYNC, seen[1], "with the error's code");
        win.fence(0);
        Check.throwsMpi(MPI.ERR_DISP, () -> win.get(one, 1, MPI.INT, 0, 2, 1, MPI.INT), "outside");
        Check.equal(2, seen[0], "the handler ran for the displacement error");
        Check.equal(MPI.ERR_DISP, seen[1], "with its code");
        win.setErrhandler(MPI.ERRORS_RETURN);
        Check.throwsMpi(MPI.ERR_RANK, () -> win.get(one, 1, MPI.INT, comm.getSize(), 0, 1, MPI.INT), "targetRank");
        Check.equal(2, seen[0], "ERRORS_RETURN calls no handler");
        win.fence(MPI.MODE_NOSUCCEED);
        win.free();
    }

    /**
     * A dynamic window: each rank attaches four ints and tells the others the address; puts its
     * rank into int 1 of its right neighbour's memory (fence), reads it back from there with get
     * under a lock, adds rank+1 to int 0 of rank 0 under lockAll; the values follow from the ranks.
     * On the fabric, an address outside attached memory is refused by the target with an
     * MPIException (MPI libraries do not promise to check).
     */
    @RankTest
    public void dynamicWindowAttachAndDetach(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Win win = Win.createDynamic(MPI.INFO_NULL, comm);
        IntBuffer mem = MPI.newIntBuffer(4);
        for (int i = 0; i < 4; i++) mem.put(i, -1);
        mem.put(0, 0);
        long at = win.attach(mem, 4);
        long[] addr = new long[size];
        comm.allGather(new long[] {at}, 1, MPI.LONG, addr, 1, MPI.LONG);
        int r = right(rank, size);
        win.fence(0);
        win.put(MPI.newIntBuffer(1).put(0, rank), 1, MPI.INT, r, addr[r] + 4, 1, MPI.INT);
        win.fence(MPI.MODE_NOSUCCEED);
        Check.equal(left(rank, size), mem.get(1), "int 1 holds the left neighbour's rank");
        IntBuffer got = MPI.newIntBuffer(1);
        win.lock(MPI.LOCK_SHARED, r, 0);
        win.get(got, 1, MPI.INT, r, addr[r] + 4, 1, MPI.INT);
        win.unlock(r);
        Check.equal(rank, got.get(0), "get from the right neighbour's attached memory");
        win.lockAll(0);
        win.accumulate(MPI.newIntBuffer(1).put(0, rank + 1), 1, MPI.INT, 0, addr[0], 1, MPI.INT, MPI.SUM);
        win.unlockAll();
        comm.barrier();
        if (rank == 0) Check.equal(size * (size + 1) / 2, mem.get(0), "accumulated 1 + ... + size");
        Check.equal(-1, mem.get(3), "int 3 untouched");
        if (!underMpiLibrary()) {
            win.lock(MPI.LOCK_SHARED, r, 0);
            Check.throwsMpi(MPI.ERR_DISP, () -> win.get(got, 1, MPI.INT, r, addr[r] + 16, 1, MPI.INT),
                    "not inside memory attached");
            win.unlock(r);
        }
        comm.barrier();
        win.detach(mem);
        win.free();
    }

    private static boolean underMpiLibrary() {
        String lib;
        try {
            lib = MPI.getLibVersion();
        } catch (RuntimeException e) {
            lib = "";
        }
        return lib != null && (lib.contains("Open MPI") || lib.contains("MPICH"));
    }
}
