package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Win;

/**
 * Request-based RMA (rPut, rGet, rAccumulate, rGetAccumulate; issue 11, WindowAsyncTest): every
 * request carries its own operation, requests complete in any order, and flush or unlock complete
 * the ones nobody waited for yet. References come from the ranks and sizes alone: rank r's window
 * cell i holds {@code 1000 * r + i} before the epochs.
 */
public class WindowAsyncSuite {
    private static final int CELLS = 64;

    private static int cell(int rank, int i) {
        return 1000 * rank + i;
    }

    private static Win window(Intracomm comm, IntBuffer mem) {
        int rank = comm.getRank();
        for (int i = 0; i < CELLS; i++) mem.put(i, cell(rank, i));
        Win win = new Win(mem, CELLS, 1, MPI.INFO_NULL, comm);
        comm.barrier();
        return win;
    }

    /**
     * Eight rGets of different blocks (contiguous and strided) from the right neighbour into
     * distinct parts of one buffer, waited for in reverse order, some by test loops.
     */
    @RankTest
    public void rGetsCompleteInAnyOrder(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), right = (rank + 1) % size;
        IntBuffer mem = MPI.newIntBuffer(CELLS);
        Win win = window(comm, mem);
        Datatype every2nd = Datatype.createVector(3, 1, 2, MPI.INT);
        every2nd.commit();
        IntBuffer got = MPI.newIntBuffer(8 * 4);
        for (int i = 0; i < got.capacity(); i++) got.put(i, -1);
        win.lockAll(0);
        Request[] rs = new Request[8];
        for (int k = 0; k < 8; k++) {
            IntBuffer part = MPI.slice(got, 4 * k);
            rs[k] = k % 2 == 0 ? win.rGet(part, 3, MPI.INT, right, 7 * k, 3, MPI.INT)
                    : win.rGet(part, 3, MPI.INT, right, 7 * k, 1, every2nd);
        }
        for (int k = 7; k >= 0; k--) {
            if (k % 3 == 0) {
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (!rs[k].test()) {
                    Check.isTrue(System.nanoTime() < deadline, "rGet " + k + " completed within 60 s of tests");
                }
            } else {
                rs[k].waitFor();
            }
            for (int j = 0; j < 3; j++) {
                int want = cell(right, 7 * k + (k % 2 == 0 ? j : 2 * j));
                Check.equal(want, got.get(4 * k + j), "rGet " + k + " (waited for after " + (7 - k)
                        + " later ones) element " + j);
            }
            Check.equal(-1, got.get(4 * k + 3), "the int after rGet " + k + "'s data untouched");
        }
        win.unlockAll();
        every2nd.free();
        comm.barrier();
        win.free();
    }

    /**
     * A flush completes rGets nobody waited for: the data is there before the waits, which
     * return at once (one waited for only after the epoch ended); an unlock does the same.
     */
    @RankTest
    public void flushCompletesUnwaitedRequests(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), left = (rank + size - 1) % size;
        IntBuffer mem = MPI.newIntBuffer(CELLS);
        Win win = window(comm, mem);
        IntBuffer got = MPI.newIntBuffer(CELLS);
        win.lock(MPI.LOCK_SHARED, left, 0);
        Request a = win.rGet(got, 10, MPI.INT, left, 0, 10, MPI.INT);
        Request b = win.rGet(MPI.slice(got, 10), 20, MPI.INT, left, 30, 20, MPI.INT);
        Request late = win.rGet(MPI.slice(got, 30), 5, MPI.INT, left, 50, 5, MPI.INT);
        win.flush(left);
        for (int i = 0; i < 10; i++) Check.equal(cell(left, i), got.get(i), "after flush, before wait: int " + i);
        for (int i = 0; i < 20; i++) Check.equal(cell(left, 30 + i), got.get(10 + i), "second rGet, int " + i);
        for (int i = 0; i < 5; i++) Check.equal(cell(left, 50 + i), got.get(30 + i), "third rGet, int " + i);
        b.waitFor();
        a.waitFor();
        // An unlock completes them too.
        IntBuffer more = MPI.newIntBuffer(4);
        Request last = win.rGet(more, 4, MPI.INT, left, 60, 4, MPI.INT);
        win.unlock(left);
        for (int i = 0; i < 4; i++) Check.equal(cell(left, 60 + i), more.get(i), "after unlock: int " + i);
        late.waitFor(); // after the epoch: complete already (MPI wants every request completed or freed)
        last.waitFor();
        comm.barrier();
        win.free();
    }

    /**
     * rAccumulate adds rank + 1 to cell 0 of every rank; rGetAccumulate with SUM fetches and adds
     * 1 to cell 1 of rank 0 (the fetched values are a permutation of 0..size-1, offset by the
     * cell's start); rPut writes 7 * rank into cell 2 + rank of rank 0; then rGetAccumulate with
     * NO_OP reads the results back.
     */
    @RankTest
    public void accumulatesAndPutsThroughRequests(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        IntBuffer mem = MPI.newIntBuffer(CELLS);
        Win win = window(comm, mem);
        win.lockAll(0);
        Request[] adds = new Request[size];
        for (int t = 0; t < size; t++) {
            adds[t] = win.rAccumulate(MPI.newIntBuffer(1).put(0, rank + 1), 1, MPI.INT, t, 0, 1, MPI.INT, MPI.SUM);
        }
        IntBuffer fetched = MPI.newIntBuffer(1).put(0, -1);
        Request fetch = win.rGetAccumulate(MPI.newIntBuffer(1).put(0, 1), 1, MPI.INT, fetched, 1, MPI.INT, 0, 1, 1,
                MPI.INT, MPI.SUM);
        Request put = win.rPut(MPI.newIntBuffer(1).put(0, 7 * rank), 1, MPI.INT, 0, 2 + rank, 1, MPI.INT);
        put.waitFor();
        fetch.waitFor();
        for (int t = size - 1; t >= 0; t--) adds[t].waitFor();
        win.flushAll();
        int start = cell(0, 1);
        Check.isTrue(fetched.get(0) >= start && fetched.get(0) < start + size, "fetched " + fetched.get(0)
                + " lies in [" + start + ", " + (start + size) + ")");
        int[] all = new int[size];
        comm.allGather(new int[] {fetched.get(0)}, 1, MPI.INT, all, 1, MPI.INT);
        java.util.Arrays.sort(all);
        for (int r = 0; r < size; r++) Check.equal(start + r, all[r], "the fetched values are distinct");
        comm.barrier();
        int sum = size * (size + 1) / 2;
        IntBuffer back = MPI.newIntBuffer(2 + size);
        Request read = win.rGetAccumulate(null, 0, MPI.INT, back, 2 + size, MPI.INT, 0, 0, 2 + size, MPI.INT,
                MPI.NO_OP);
        IntBuffer mine = MPI.newIntBuffer(1);
        Request own = win.rGetAccumulate(null, 0, MPI.INT, mine, 1, MPI.INT, rank, 0, 1, MPI.INT, MPI.NO_OP);
        own.waitFor();
        read.waitFor();
        Check.equal(cell(rank, 0) + sum, mine.get(0), "own cell 0 after every rank's rAccumulate");
        Check.equal(cell(0, 0) + sum, back.get(0), "rank 0's cell 0");
        Check.equal(start + size, back.get(1), "rank 0's counter after size fetch-and-adds");
        for (int r = 0; r < size; r++) Check.equal(7 * r, back.get(2 + r), "rank 0's cell " + (2 + r) + " (rPut)");
        win.unlockAll();
        comm.barrier();
        win.free();
    }

    /** PROC_NULL requests complete at once and move nothing; bad targets are refused at the call. */
    @RankTest
    public void requestsOnProcNullAndBadArguments(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        IntBuffer mem = MPI.newIntBuffer(CELLS);
        Win win = window(comm, mem);
        win.lockAll(0);
        IntBuffer got = MPI.newIntBuffer(2).put(0, -5);
        win.rGet(got, 1, MPI.INT, MPI.PROC_NULL, 0, 1, MPI.INT).waitFor();
        Check.equal(-5, got.get(0), "rGet from PROC_NULL moves nothing");
        Check.throwsMpi(MPI.ERR_DISP, () -> win.rGet(got, 2, MPI.INT, (rank + 1) % size, CELLS - 1, 2, MPI.INT),
                "outside");
        Check.throwsMpi(MPI.ERR_RANK, () -> win.rGetAccumulate(null, 0, MPI.INT, got, 1, MPI.INT, size, 0, 1,
                MPI.INT, MPI.NO_OP), "targetRank");
        win.unlockAll();
        comm.barrier();
        win.free();
    }
}
