package mpi;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Run by {@link WarmStartTest} as a real job (MPI4J_WARMUP set or not): after Init, the world
 * must be as a program expects it, whatever the warm start did. Checks a ring exchange, a sum
 * allreduce and a broadcast against values computed from rank and size, and that no message is
 * waiting on the world; prints {@code WARMSTART OK <rank> <size>} or exits 1, then how many
 * full (old-generation) collections the JVM has made.
 */
public final class WarmStartProgram {
    private WarmStartProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank(), size = world.getSize();
        try {
            // Nothing the warm start sent may be left for the program to receive.
            world.barrier();
            Status stray = world.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG);
            if (stray != null) {
                fail(rank, "a message from rank " + stray.getSource() + " tag " + stray.getTag() + " was waiting");
            }
            world.barrier();  // every rank has looked before any sends its ring message
            int[] token = {1000 + rank};
            int[] got = new int[1];
            int next = (rank + 1) % size, prev = (rank + size - 1) % size;
            world.sendRecv(token, 1, MPI.INT, next, 7, got, 1, MPI.INT, prev, 7);
            if (got[0] != 1000 + prev) fail(rank, "ring: got " + got[0] + " from rank " + prev);
            int n = 5000;
            double[] send = new double[n], sum = new double[n];
            for (int i = 0; i < n; i++) send[i] = rank + i;
            world.allReduce(send, sum, n, MPI.DOUBLE, MPI.SUM);
            for (int i = 0; i < n; i++) {
                double want = (double) size * i + size * (size - 1) / 2.0;
                if (sum[i] != want) fail(rank, "allreduce element " + i + " = " + sum[i] + ", expected " + want);
            }
            long[] root = {rank == size - 1 ? 42L * size : -1};
            world.bcast(root, 1, MPI.LONG, size - 1);
            if (root[0] != 42L * size) fail(rank, "bcast from rank " + (size - 1) + ": " + root[0]);
        } catch (RuntimeException e) {
            fail(rank, e.toString());
        }
        System.out.println("WARMSTART OK " + rank + " " + size);
        // A full collection (System.gc()) would shrink the heap the program starts with.
        long old = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc.getName().contains("Old") || gc.getName().contains("MarkSweep")) old += gc.getCollectionCount();
        }
        System.out.println("WARMSTART FULL COLLECTIONS " + rank + " " + old);
        MPI.Finalize();
    }

    private static void fail(int rank, String what) {
        System.out.println("WARMSTART FAILED " + rank + ": " + what);
        System.out.flush();
        System.exit(1);
    }
}
