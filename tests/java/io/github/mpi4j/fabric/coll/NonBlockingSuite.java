package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.CollSettings;
import io.github.mpi4j.testing.RankTest;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;

/**
 * Non-blocking collectives of the fabric as schedules advanced by progress: calls on different
 * communicators started in different orders at different ranks complete; {@code test()} never
 * blocks; a rank that computes without calling MPI does not hold its peers up; no thread per
 * communicator; cancelling one is an error. References are computed from rank and size.
 */
public class NonBlockingSuite {
    /** Large enough for rendezvous messages on every transport. */
    private static final int N = 1 << 16;

    private static int bcastValue(int i) {
        return i * 7 + 3;
    }

    private static int[] allReduceExpected(int size) {
        int[] e = new int[N];
        for (int r = 0; r < size; r++) for (int i = 0; i < N; i++) e[i] += r * 1000 + i;
        return e;
    }

    /**
     * Even ranks start an iBcast on A and then an iAllReduce on B, odd ranks the other way
     * round, and each waits for its first call first. MPI allows any order across
     * communicators; a single thread running the calls one after the other would deadlock.
     */
    @RankTest(minSize = 2)
    public void crossedOrderOnTwoCommunicators(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Intracomm a = comm.dup(), b = comm.dup();
        for (int round = 0; round < 3; round++) {
            int[] bc = new int[N];
            if (rank == 0) for (int i = 0; i < N; i++) bc[i] = bcastValue(i);
            int[] mine = new int[N], sum = new int[N];
            for (int i = 0; i < N; i++) mine[i] = rank * 1000 + i;
            Request first, second;
            if (rank % 2 == 0) {
                first = a.iBcast(bc, N, MPI.INT, 0);
                second = b.iAllReduce(mine, sum, N, MPI.INT, MPI.SUM);
            } else {
                first = b.iAllReduce(mine, sum, N, MPI.INT, MPI.SUM);
                second = a.iBcast(bc, N, MPI.INT, 0);
            }
            first.waitFor();
            second.waitFor();
            int[] expected = new int[N];
            for (int i = 0; i < N; i++) expected[i] = bcastValue(i);
            Check.arrays(expected, bc, "iBcast on A, round " + round);
            Check.arrays(allReduceExpected(size), sum, "iAllReduce on B, round " + round);
        }
        a.free();
        b.free();
    }

    /**
     * {@code test()} of an iBarrier returns false at once while the last rank has not joined
     * (it waits for a message that rank 0 sends only after testing), and true soon after it has.
     */
    @RankTest(minSize = 2)
    public void testDoesNotBlockAndCompletesLater(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), late = size - 1;
        int[] token = new int[1];
        if (rank == late) {
            comm.recv(token, 1, MPI.INT, 0, 5);
            comm.iBarrier().waitFor();
            return;
        }
        Request r = comm.iBarrier();
        if (rank == 0) {
            long until = System.nanoTime() + 200_000_000L;
            int tests = 0;
            while (System.nanoTime() < until) {
                long t0 = System.nanoTime();
                boolean done = r.test();
                long took = System.nanoTime() - t0;
                Check.isTrue(!done, "iBarrier.test() true before rank " + late + " joined");
                // A blocking test() would wait for rank `late`, which waits for us: far longer.
                Check.isTrue(took < 1_000_000_000L, () -> "iBarrier.test() took " + took / 1_000_000 + " ms");
                tests++;
            }
            Check.isTrue(tests > 1, "test() was called more than once in 200 ms");
            comm.send(token, 1, MPI.INT, late, 5);
        }
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!r.test()) {
            Check.isTrue(System.nanoTime() < deadline, "iBarrier.test() still false 20 s after every rank joined");
            Thread.onSpinWait();
        }
    }

    /**
     * The root starts a large iBcast and then computes for a while without calling MPI: the
     * other ranks get the data during that time (the progress thread answers for the root).
     */
    @RankTest(minSize = 2)
    public void peersProgressWhileARankComputes(Intracomm comm) {
        int rank = comm.getRank();
        int[] data = new int[N];
        if (rank == 0) for (int i = 0; i < N; i++) data[i] = bcastValue(i);
        long t0 = System.nanoTime();
        Request r = comm.iBcast(data, N, MPI.INT, 0);
        if (rank == 0) {
            long busyUntil = t0 + 1_500_000_000L;
            long x = 0;
            while (System.nanoTime() < busyUntil) x += System.nanoTime() & 1; // no MPI call here
            Check.isTrue(x >= 0, "computing");
            r.waitFor();
        } else {
            r.waitFor();
            long took = System.nanoTime() - t0;
            Check.isTrue(took < 1_200_000_000L, () -> "rank " + rank + " waited " + took / 1_000_000
                    + " ms for an iBcast whose root was computing (no progress made for it)");
        }
        int[] expected = new int[N];
        for (int i = 0; i < N; i++) expected[i] = bcastValue(i);
        Check.arrays(expected, data, "iBcast while the root computes");
        comm.barrier();
    }

    /** Non-blocking calls in flight on many communicators do not each take a thread. */
    @RankTest(minSize = 2)
    public void noThreadPerCommunicator(Intracomm comm) {
        int comms = 16;
        Intracomm[] cs = new Intracomm[comms];
        for (int i = 0; i < comms; i++) cs[i] = comm.dup();
        comm.barrier();
        int before = Thread.activeCount();
        Request[] rs = new Request[comms];
        for (int i = 0; i < comms; i++) rs[i] = cs[i].iBarrier();
        int during = Thread.activeCount();
        for (Request r : rs) r.waitFor();
        comm.barrier();
        // Ranks that are threads share the JVM: allow the one progress thread and some noise.
        Check.isTrue(during - before < comms / 2, () -> (during - before) + " more threads with " + comms
                + " non-blocking calls in flight");
        for (Intracomm c : cs) c.free();
    }

    /** MPI_Cancel of a non-blocking collective is erroneous: an exception saying so, and the call still completes. */
    @RankTest(minSize = 1)
    public void cancelIsAnError(Intracomm comm) {
        int size = comm.getSize();
        int[] sum = new int[1];
        Request r = comm.iAllReduce(new int[] {comm.getRank() + 1}, sum, 1, MPI.INT, MPI.SUM);
        Check.throwsMpi(MPI.ERR_REQUEST, r::cancel, "cannot be cancelled");
        r.waitFor();
        Check.equal(size * (size + 1) / 2, sum[0], "iAllReduce after a refused cancel");
    }

    // ---- every recorded schedule against references --------------------------------------

    private static int value(int rank, int i) {
        return (rank + 1) * 1000 + i * 7;
    }

    /**
     * Non-blocking allreduces take their temporaries from the communicator's pool and give them
     * back when they finish: four calls in flight at once (arrays and direct buffers, sizes that
     * need temporaries of different lengths), waited in different orders, round after round so
     * later calls run on buffers earlier ones gave back. A temporary handed to two calls at once,
     * or back to the pool before its call ended, would mix their sums.
     */
    @RankTest(minSize = 1)
    public void concurrentCallsNeverShareTemporaries(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int[] lengths = {N, 3 * N / 4, 1 << 12, N / 2};
        for (int round = 0; round < 6; round++) {
            Request[] reqs = new Request[lengths.length];
            Object[] outs = new Object[lengths.length];
            for (int k = 0; k < lengths.length; k++) {
                int n = lengths[k], salt = round * 10 + k;
                if (k % 2 == 0) {
                    int[] in = new int[n];
                    for (int i = 0; i < n; i++) in[i] = value(rank, i) + salt;
                    outs[k] = new int[n];
                    reqs[k] = comm.iAllReduce(in, outs[k], n, MPI.INT, MPI.SUM);
                } else {
                    java.nio.IntBuffer in = MPI.newIntBuffer(n), out = MPI.newIntBuffer(n);
                    for (int i = 0; i < n; i++) in.put(i, value(rank, i) + salt);
                    outs[k] = out;
                    reqs[k] = comm.iAllReduce(in, out, n, MPI.INT, MPI.SUM);
                }
            }
            for (int j = 0; j < reqs.length; j++) {
                int k = (round + j * (rank + 1)) % reqs.length;  // each rank waits in its own order
                if (reqs[k] != null) {
                    reqs[k].waitFor();
                    reqs[k] = null;
                }
            }
            for (Request q : reqs) if (q != null) q.waitFor();
            for (int k = 0; k < lengths.length; k++) {
                int n = lengths[k], salt = round * 10 + k;
                int[] expected = new int[n], got = new int[n];
                for (int r = 0; r < size; r++) for (int i = 0; i < n; i++) expected[i] += value(r, i) + salt;
                if (outs[k] instanceof int[]) got = (int[]) outs[k];
                else ((java.nio.IntBuffer) outs[k]).get(0, got);
                Check.arrays(expected, got, "round " + round + ", call " + k + " (" + n + " ints)");
            }
        }
    }

    /**
     * Every allreduce schedule forced, with tiny and default segments, run non-blocking (the
     * node-aware ones too on pretended nodes), and the other rooted and vector collectives
     * non-blocking, all checked against references from rank and size.
     */
    @RankTest(minSize = 1)
    public void recordedSchedulesGiveTheReferences(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        for (String alg : new String[] {"recursive_doubling", "rabenseifner", "ring"}) {
            for (String seg : new String[] {"0.02", null}) {
                Intracomm c = CollSettings.with(comm, alg, null, null, seg);
                for (int n : new int[] {0, 1, 13, 1009}) {
                    int[] in = new int[n], out = new int[n], expected = new int[n];
                    for (int i = 0; i < n; i++) in[i] = value(rank, i);
                    for (int r = 0; r < size; r++) for (int i = 0; i < n; i++) expected[i] += value(r, i);
                    c.iAllReduce(in, out, n, MPI.INT, MPI.SUM).waitFor();
                    Check.arrays(expected, out, "iAllReduce " + alg + " segment=" + seg + " n=" + n);
                }
                c.free();
            }
        }
        for (String ag : new String[] {"bruck", "ring"}) {
            Intracomm c = CollSettings.with(comm, null, null, ag, null);
            // allGatherv: rank r gives r+1 items
            int[] counts = new int[size], displs = new int[size];
            int total = 0;
            for (int r = 0; r < size; r++) {
                counts[r] = r + 1;
                displs[r] = total;
                total += r + 1;
            }
            int[] mine = new int[rank + 1], all = new int[total], expected = new int[total];
            for (int i = 0; i <= rank; i++) mine[i] = value(rank, i);
            for (int r = 0; r < size; r++) for (int i = 0; i <= r; i++) expected[displs[r] + i] = value(r, i);
            Request q = c.iAllGatherv(mine, rank + 1, MPI.INT, all, counts, displs, MPI.INT);
            q.waitFor();
            Check.arrays(expected, all, "iAllGatherv " + ag);
            c.free();
        }
        int root = size - 1, n = 17;
        // iReduce (SUM) to the last rank
        int[] in = new int[n], out = new int[n], expected = new int[n];
        for (int i = 0; i < n; i++) in[i] = value(rank, i);
        for (int r = 0; r < size; r++) for (int i = 0; i < n; i++) expected[i] += value(r, i);
        comm.iReduce(in, rank == root ? out : null, n, MPI.INT, MPI.SUM, root).waitFor();
        if (rank == root) Check.arrays(expected, out, "iReduce to rank " + root);
        // iReduceScatter: block r has r+2 items
        int[] rcounts = new int[size];
        int total = 0;
        for (int r = 0; r < size; r++) total += rcounts[r] = r + 2;
        int[] vec = new int[total], block = new int[rank + 2], blockExpected = new int[rank + 2];
        for (int i = 0; i < total; i++) vec[i] = value(rank, i);
        int first = 0;
        for (int r = 0; r < rank; r++) first += rcounts[r];
        for (int r = 0; r < size; r++) for (int i = 0; i < rank + 2; i++) blockExpected[i] += value(r, first + i);
        comm.iReduceScatter(vec, block, rcounts, MPI.INT, MPI.SUM).waitFor();
        Check.arrays(blockExpected, block, "iReduceScatter");
        // iExScan: the sum over ranks below
        int[] ex = new int[n], exExpected = new int[n];
        for (int r = 0; r < rank; r++) for (int i = 0; i < n; i++) exExpected[i] += value(r, i);
        comm.iExScan(in, ex, n, MPI.INT, MPI.SUM).waitFor();
        if (rank > 0) Check.arrays(exExpected, ex, "iExScan");
        // iScatterv from the last rank: rank r gets r+1 items
        int[] sc = new int[size], sd = new int[size];
        int all = 0;
        for (int r = 0; r < size; r++) {
            sc[r] = r + 1;
            sd[r] = all;
            all += r + 1;
        }
        int[] src = new int[all];
        for (int i = 0; i < all; i++) src[i] = 5 * i + 1;
        int[] got = new int[rank + 1], gotExpected = new int[rank + 1];
        for (int i = 0; i <= rank; i++) gotExpected[i] = 5 * (sd[rank] + i) + 1;
        comm.iScatterv(rank == root ? src : null, sc, sd, MPI.INT, got, rank + 1, MPI.INT, root).waitFor();
        Check.arrays(gotExpected, got, "iScatterv from rank " + root);
    }
}
