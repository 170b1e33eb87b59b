package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.CollSettings;
import io.github.mpi4j.testing.RankTest;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Every collective schedule of the fabric, forced one by one, at counts that hit their chunk
 * arithmetic (0, 1, fewer items than ranks, primes, large) and with tiny pipelining segments.
 * The fabric reads its schedule settings when a communicator is created, so each setting gets a
 * fresh {@code dup()}. On the MPI backend the settings mean nothing and the suite is a plain
 * correctness check. References are computed here from rank and size.
 */
public class ScheduleSuite {
    private static final int[] COUNTS = {0, 1, 2, 13, 1009, 65537};
    /** With tiny segments a large count would mean tens of thousands of messages: stop earlier. */
    private static final int[] COUNTS_TINY_SEGMENTS = {0, 1, 2, 13, 1009};
    /** "shm": through the shared-memory slots where the ranks have them (else the model's pick). */
    private static final String[] ALLREDUCE = {"recursive_doubling", "rabenseifner", "ring", "shm"};
    /** Pipelining segments: tiny (a few items) and the default. */
    private static final String[] SEGMENT_KB = {"0.02", null};

    private static long intValue(int rank, int i) {
        return (rank + 1) * 1_000_003L + i * 7L;
    }

    @RankTest
    public void allReduceEverySchedule(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        for (String alg : ALLREDUCE) {
            for (String seg : SEGMENT_KB) {
                Intracomm c = CollSettings.with(comm, alg, null, null, seg);
                for (int n : seg == null ? COUNTS : COUNTS_TINY_SEGMENTS) {
                    for (boolean direct : new boolean[] {false, true}) {
                        String what = "allReduce " + alg + " segment=" + seg + " n=" + n + (direct ? " direct" : " array");
                        int[] in = new int[n];
                        for (int i = 0; i < n; i++) in[i] = (int) intValue(rank, i);
                        int[] expected = new int[n];
                        for (int r = 0; r < size; r++) for (int i = 0; i < n; i++) expected[i] += (int) intValue(r, i);
                        Holder s = new Holder(Data.INT, direct, in);
                        Holder out = new Holder(Data.INT, direct, new int[n]);
                        c.allReduce(s.buf, out.buf, n, MPI.INT, MPI.SUM);
                        Check.arrays(expected, out.contents(), what + " SUM int");

                        double[] d = new double[n];
                        for (int i = 0; i < n; i++) d[i] = ((rank * 31 + i * 17) % 101) - 50;
                        double[] max = new double[n];
                        for (int i = 0; i < n; i++) {
                            max[i] = Double.NEGATIVE_INFINITY;
                            for (int r = 0; r < size; r++) max[i] = Math.max(max[i], ((r * 31 + i * 17) % 101) - 50);
                        }
                        Holder inPlace = new Holder(Data.DOUBLE, direct, d);
                        c.allReduce(inPlace.buf, n, MPI.DOUBLE, MPI.MAX);
                        Check.arrays(max, inPlace.contents(), what + " MAX double in place");
                    }
                }
                c.free();
            }
        }
    }

    @RankTest
    public void bcastAndAllgatherEverySchedule(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        String[][] settings = {{"binomial", "bruck"}, {"scatter_allgather", "ring"}};
        for (String[] setting : settings) {
            String bcast = setting[0], allgather = setting[1];
            Intracomm c = CollSettings.with(comm, null, bcast, allgather, "0.02");
            for (int n : COUNTS) {
                for (int root : new int[] {0, size - 1}) {
                    long[] buf = new long[n];
                    if (rank == root) for (int i = 0; i < n; i++) buf[i] = intValue(root, i);
                    c.bcast(buf, n, MPI.LONG, root);
                    for (int i = 0; i < n; i++) {
                        if (buf[i] != intValue(root, i)) {
                            Check.equal(intValue(root, i), buf[i], "bcast " + bcast + " n=" + n + " root=" + root + " [" + i + "]");
                        }
                    }
                }
                int[] mine = new int[n];
                for (int i = 0; i < n; i++) mine[i] = (int) intValue(rank, i);
                int[] all = new int[n * size];
                c.allGather(mine, n, MPI.INT, all, n, MPI.INT);
                int[] expected = new int[n * size];
                for (int r = 0; r < size; r++) for (int i = 0; i < n; i++) expected[r * n + i] = (int) intValue(r, i);
                Check.arrays(expected, all, "allGather " + allgather + " n=" + n);

                // Uneven blocks (rank r brings (r + n) % 4 items, some none), displaced in reverse.
                int[] counts = new int[size], displs = new int[size];
                int at = 0;
                for (int r = size - 1; r >= 0; r--) {
                    counts[r] = (r + n) % 4;
                    displs[r] = at;
                    at += counts[r] + 1;
                }
                int[] v = new int[at];
                int[] mineV = new int[counts[rank]];
                for (int i = 0; i < mineV.length; i++) mineV[i] = (int) intValue(rank, i);
                c.allGatherv(mineV, counts[rank], MPI.INT, v, counts, displs, MPI.INT);
                int[] expectedV = new int[at];
                for (int r = 0; r < size; r++) for (int i = 0; i < counts[r]; i++) expectedV[displs[r] + i] = (int) intValue(r, i);
                Check.arrays(expectedV, v, "allGatherv " + allgather + " n=" + n);
            }
            c.free();
        }
    }

    @RankTest
    public void reduceScatterBlockLarge(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Intracomm c = CollSettings.with(comm, null, null, null, "0.02");
        for (int block : new int[] {1, 13, 4099}) {
            int[] in = new int[block * size];
            for (int i = 0; i < in.length; i++) in[i] = (int) intValue(rank, i);
            int[] out = new int[block];
            c.reduceScatterBlock(in, out, block, MPI.INT, MPI.SUM);
            int[] expected = new int[block];
            for (int r = 0; r < size; r++) for (int i = 0; i < block; i++) expected[i] += (int) intValue(r, rank * block + i);
            Check.arrays(expected, out, "reduceScatterBlock block=" + block);
        }
        c.free();
    }
}
