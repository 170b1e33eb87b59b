package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.testing.Check;
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
}
