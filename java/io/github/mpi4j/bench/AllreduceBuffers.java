package io.github.mpi4j.bench;

import java.nio.DoubleBuffer;
import java.util.Arrays;
import java.util.Locale;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Where a large allreduce's buffers live, and what it costs: the same allreduce (doubles, SUM)
 * with its send and receive buffer each a Java array or a direct buffer, the four combinations
 * taking turns in blocks of calls so that they share the machine's moods.
 * <pre>
 *   AllreduceBuffers [bytes] [rounds] [callsPerRound]     (defaults 16777216 6 50)
 * </pre>
 * Output on rank 0: {@code RESULT allreduce-buffers <send>/<recv> <bytes> <median ms> <p10>
 * <p90>}, over every call of every round, each timed between barriers on rank 0. Written for
 * issue 12's question why the MPI backend's allreduce of pinned arrays was slower than of direct
 * buffers (docs/performance.md, "Eighteenth session").
 */
public final class AllreduceBuffers {
    private AllreduceBuffers() {
    }

    private static final String[] KINDS = {"array", "direct"};

    public static void main(String[] args) {
        MPI.Init(args);
        int bytes = args.length > 0 ? Integer.parseInt(args[0]) : 16 << 20;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
        int perRound = args.length > 2 ? Integer.parseInt(args[2]) : 50;
        int count = bytes / 8;
        Intracomm comm = MPI.COMM_WORLD;
        Object[][] buffers = new Object[2][];   // [send=0 / recv=1][array=0 / direct=1]
        buffers[0] = new Object[] {filledArray(count), filledDirect(count)};
        buffers[1] = new Object[] {new double[count], MPI.newDoubleBuffer(count)};
        double[][] millis = new double[4][rounds * perRound];
        for (int i = 0; i < 4 * perRound; i++) {   // warm-up: JIT, caches, Open MPI's set-up
            comm.allReduce(buffers[0][i & 1], buffers[1][(i >> 1) & 1], count, MPI.DOUBLE, MPI.SUM);
        }
        for (int round = 0; round < rounds; round++) {
            for (int combo = 0; combo < 4; combo++) {
                Object send = buffers[0][combo >> 1];
                Object recv = buffers[1][combo & 1];
                for (int call = 0; call < perRound; call++) {
                    comm.barrier();
                    long start = System.nanoTime();
                    comm.allReduce(send, recv, count, MPI.DOUBLE, MPI.SUM);
                    millis[combo][round * perRound + call] = (System.nanoTime() - start) / 1e6;
                }
                check(recv, count, comm.getSize());
            }
        }
        if (comm.getRank() == 0) {
            for (int combo = 0; combo < 4; combo++) {
                double[] t = millis[combo].clone();
                Arrays.sort(t);
                System.out.println(String.format(Locale.ROOT, "RESULT allreduce-buffers %s/%s %d %.3f %.3f %.3f",
                        KINDS[combo >> 1], KINDS[combo & 1], bytes, t[t.length / 2], t[t.length / 10],
                        t[t.length * 9 / 10]));
            }
        }
        MPI.Finalize();
    }

    private static double[] filledArray(int count) {
        double[] a = new double[count];
        for (int i = 0; i < count; i++) a[i] = i;
        return a;
    }

    private static DoubleBuffer filledDirect(int count) {
        DoubleBuffer b = MPI.newDoubleBuffer(count);
        for (int i = 0; i < count; i++) b.put(i, i);
        return b;
    }

    /** Every rank sent i at index i, so the sum is i times the number of ranks. */
    private static void check(Object recv, int count, int size) {
        for (int i = 0; i < count; i += 4099) {
            double got = recv instanceof double[] ? ((double[]) recv)[i] : ((DoubleBuffer) recv).get(i);
            if (got != (double) i * size) {
                throw new IllegalStateException("allreduce: element " + i + " is " + got + ", expected " + (double) i * size);
            }
        }
    }
}
