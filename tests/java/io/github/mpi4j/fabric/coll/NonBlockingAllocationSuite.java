package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.CollSettings;
import io.github.mpi4j.testing.RankTest;
import mpi.Intracomm;
import mpi.MPI;

/**
 * What a non-blocking collective allocates, with ranks as processes (in a world of threads the
 * in-process transport copies every message into a new array, which would hide what is measured
 * here). References are computed from rank and size.
 */
public class NonBlockingAllocationSuite {
    private static int value(int rank, int i) {
        return (rank + 1) * 1000 + i * 7;
    }

    /**
     * A loop of non-blocking allreduces reuses its temporaries: the calling thread allocates far
     * less per call than the message. Each call used to allocate a new array as large as the
     * message (about 1 GB/s in a loop of 1 MiB calls), and the collections and first touches of
     * the growing heap made stretches of calls 10-20 times slower.
     */
    @RankTest(minSize = 2)
    public void aLoopOfCallsReusesItsTemporaries(Intracomm comm) {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        if (!(mx instanceof com.sun.management.ThreadMXBean)
                || !((com.sun.management.ThreadMXBean) mx).isThreadAllocatedMemorySupported()) {
            throw new IllegalStateException("this JVM does not count allocations per thread");
        }
        com.sun.management.ThreadMXBean counter = (com.sun.management.ThreadMXBean) mx;
        counter.setThreadAllocatedMemoryEnabled(true);
        int size = comm.getSize(), rank = comm.getRank(), n = 1 << 17;  // 512 KiB of ints
        for (String alg : new String[] {"recursive_doubling", "rabenseifner"}) {
            Intracomm c = CollSettings.with(comm, alg, null, null, null);
            int[] in = new int[n], out = new int[n], expected = new int[n];
            for (int i = 0; i < n; i++) in[i] = value(rank, i);
            for (int r = 0; r < size; r++) for (int i = 0; i < n; i++) expected[i] += value(r, i);
            for (int i = 0; i < 3; i++) c.iAllReduce(in, out, n, MPI.INT, MPI.SUM).waitFor();
            int calls = 10;
            long before = counter.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < calls; i++) c.iAllReduce(in, out, n, MPI.INT, MPI.SUM).waitFor();
            long perCall = (counter.getCurrentThreadAllocatedBytes() - before) / calls;
            Check.arrays(expected, out, "iAllReduce " + alg);
            if (perCall > 4L * n / 8) {
                throw new AssertionError("iAllReduce " + alg + " of " + 4L * n + " bytes allocated " + perCall
                        + " bytes a call on the calling thread (its temporaries are not reused)");
            }
            c.free();
        }
    }
}
