package io.github.mpi4j.device;

import io.github.mpi4j.fabric.FabricBackend;
import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.testing.RankRunner;
import java.util.concurrent.TimeUnit;
import mpi.Intracomm;
import mpi.Worlds;

/**
 * {@link DeviceMpiSuite} with ranks as threads of one JVM (the fabric's in-process transport),
 * each rank's backend wrapped by the device layer as {@code MPI.Init} would. Run in a JVM of its
 * own, whose environment names the fake CUDA runtime (the CUDA runtime is chosen once per
 * process). Prints RankRunner's result lines; exits 1 when a rank failed or time ran out.
 */
public final class DeviceThreadsProgram {
    private DeviceThreadsProgram() {
    }

    public static void main(String[] args) throws InterruptedException {
        int n = Integer.parseInt(args[0]);
        Backend[] backends = FabricBackend.threads(n, 120);
        boolean[] failed = {false};
        Thread[] threads = new Thread[n];
        for (int r = 0; r < n; r++) {
            int rank = r;
            threads[r] = new Thread(() -> {
                Intracomm world = Worlds.worldOf(DeviceBuffers.around(backends[rank]));
                try {
                    RankRunner.run(DeviceMpiSuite.class, world, null, System.out);
                    Worlds.finish(world);
                } catch (Throwable e) {
                    System.out.println("rank " + rank + " ended with " + e);
                    synchronized (failed) {
                        failed[0] = true;
                    }
                    for (Backend b : backends) ((FabricBackend) b).fail("rank " + rank + " failed a test");
                }
            }, "rank-" + r);
            threads[r].setDaemon(true);
            threads[r].start();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                System.out.println("timeout: " + t.getName() + " still running");
                System.exit(1);
            }
        }
        System.out.flush();
        System.exit(failed[0] ? 1 : 0);
    }
}
