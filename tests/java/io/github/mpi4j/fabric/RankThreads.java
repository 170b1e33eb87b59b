package io.github.mpi4j.fabric;

import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.Mpi;
import java.util.concurrent.atomic.AtomicReference;
import mpi.Intracomm;
import mpi.Worlds;

/** A fabric world of rank threads for tests that look at a rank's engine afterwards. */
final class RankThreads {
    private RankThreads() {
    }

    interface Body {
        void run(Intracomm world, Engine engine) throws Exception;
    }

    /** Runs {@code body} in every rank of a world of {@code n} threads; rethrows the first failure. */
    static void run(int n, double timeoutSeconds, Body body) throws Exception {
        run(n, timeoutSeconds, Mpi.THREAD_MULTIPLE, body);
    }

    /** The same, with the ranks' backends made at {@code threadLevel}. */
    static void run(int n, double timeoutSeconds, int threadLevel, Body body) throws Exception {
        run(n, timeoutSeconds, threadLevel, new int[n], body);
    }

    /** The same, with rank r pretending to live on node {@code nodeOf[r]}. */
    static void run(int n, double timeoutSeconds, int threadLevel, int[] nodeOf, Body body) throws Exception {
        run(n, timeoutSeconds, timeoutSeconds, threadLevel, nodeOf, body);
    }

    /**
     * The same, with the engines' deadline ({@code timeoutSeconds}) apart from how long the test
     * waits for the ranks ({@code joinSeconds}): for tests of the deadline itself.
     */
    static void run(int n, double timeoutSeconds, double joinSeconds, int threadLevel, int[] nodeOf, Body body)
            throws Exception {
        Backend[] backends = FabricBackend.threads(n, timeoutSeconds, nodeOf, threadLevel);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] threads = new Thread[n];
        for (int r = 0; r < n; r++) {
            int rank = r;
            threads[r] = new Thread(() -> {
                try {
                    Intracomm world = Worlds.worldOf(backends[rank]);
                    body.run(world, ((FabricBackend) backends[rank]).engine);
                    Worlds.finish(world);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                    for (Backend b : backends) ((FabricBackend) b).fail("rank " + rank + " failed: " + e);
                }
            }, "rank-" + r);
            threads[r].setDaemon(true);
            threads[r].start();
        }
        for (Thread t : threads) t.join((long) (joinSeconds * 1000));
        for (Thread t : threads) {
            if (t.isAlive()) {
                for (Backend b : backends) ((FabricBackend) b).fail("test timeout");
                throw new AssertionError(t.getName() + " still running after " + joinSeconds + " s");
            }
        }
        if (failure.get() != null) throw new AssertionError("a rank failed: " + failure.get(), failure.get());
    }
}
