package io.github.mpi4j.testing;

import io.github.mpi4j.fabric.bootstrap.Bootstrap;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for stores that a test's child JVMs will bind later. They are taken below Linux's
 * ephemeral range (32768-60999): a port from there, free when the test looked, can be handed to
 * any outgoing connection before the child binds it (CI once lost a whole suite that way).
 */
public final class Ports {
    private Ports() {
    }

    /** A loopback port in 12000-31999 that nothing listens on now. */
    public static int freeStorePort() {
        for (int tries = 0;; tries++) {
            int port = 12000 + ThreadLocalRandom.current().nextInt(20000);
            if (free(port)) return port;
            if (tries > 1000) throw new AssertionError("no free port in 12000-31999");
        }
    }

    /** A SLURM job id whose derived store port (step 0) is free now, so the derivation is what runs. */
    public static String slurmJobWithFreePort() {
        for (int tries = 0;; tries++) {
            String job = Integer.toString(1000 + ThreadLocalRandom.current().nextInt(1_000_000));
            if (free(Bootstrap.slurmStorePort(job, "0"))) return job;
            if (tries > 1000) throw new AssertionError("no SLURM job id with a free derived port");
        }
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
