package io.github.mpi4j.testing;

import io.github.mpi4j.fabric.FabricBackend;
import io.github.mpi4j.spi.Backend;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mpi.Intracomm;
import mpi.Worlds;

/**
 * Tier 1: a fabric world whose ranks are threads of this JVM. Runs a rank suite in every
 * thread and returns their combined output in the same form as a real job's, so the same
 * result parsing applies. When one rank fails, the others are failed at once instead of
 * waiting for their deadlines.
 */
public final class ThreadWorld {
    private ThreadWorld() {
    }

    public static Jobs.Result run(Class<?> suite, int n, double timeoutSeconds) throws InterruptedException {
        return run(suite, new int[n], timeoutSeconds);
    }

    /** The same with rank r on node {@code nodeOf[r]} (the node-aware schedules take over). */
    public static Jobs.Result run(Class<?> suite, int[] nodeOf, double timeoutSeconds) throws InterruptedException {
        int n = nodeOf.length;
        Backend[] backends = FabricBackend.threads(n, timeoutSeconds, nodeOf);
        ByteArrayOutputStream[] outs = new ByteArrayOutputStream[n];
        List<Thread> threads = new ArrayList<>();
        int[] failed = {0};
        for (int r = 0; r < n; r++) {
            int rank = r;
            outs[r] = new ByteArrayOutputStream();
            Thread t = new Thread(() -> {
                PrintStream out = new PrintStream(outs[rank], true, StandardCharsets.UTF_8);
                Intracomm world = Worlds.worldOf(backends[rank]);
                try {
                    RankRunner.run(suite, world, null, out);
                    Worlds.finish(world);
                } catch (Throwable e) {
                    if (!(e instanceof RankRunner.Failed)) {
                        out.println("rank " + rank + " ended with " + e);
                        e.printStackTrace(out);
                    }
                    synchronized (failed) {
                        failed[0]++;
                    }
                    for (Backend b : backends) ((FabricBackend) b).fail("rank " + rank + " failed a test");
                }
            }, "rank-" + r);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        long deadline = System.nanoTime() + (long) (timeoutSeconds * 1e9);
        boolean timedOut = false;
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            if (t.isAlive()) timedOut = true;
        }
        if (timedOut) {
            for (Backend b : backends) ((FabricBackend) b).fail("timeout of the threads world");
        }
        StringBuilder all = new StringBuilder();
        for (int r = 0; r < n; r++) {
            for (String line : outs[r].toString(StandardCharsets.UTF_8).split("\n")) {
                all.append("[rank ").append(r).append("] ").append(line).append('\n');
            }
        }
        return new Jobs.Result(failed[0] > 0 ? 1 : 0, timedOut, all.toString(),
                List.of("threads", suite.getSimpleName(), "nodes=" + java.util.Arrays.toString(nodeOf)));
    }
}
