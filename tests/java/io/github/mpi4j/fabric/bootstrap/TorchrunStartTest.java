package io.github.mpi4j.fabric.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Ports;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real JVMs started torchrun-style (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT; rank 0
 * hosts the store): the warning about a derived secret, and a rank with the wrong secret failing
 * the whole start-up quickly instead of leaving the other to wait for its deadline.
 */
class TorchrunStartTest {
    private static Process rank(int rank, int port, String secret, Path log) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(Jobs.jvmOptions());
        cmd.add("-cp");
        cmd.add(Jobs.classpath());
        cmd.add("io.github.mpi4j.api.LifecycleProgram");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("MPI4J_") || k.startsWith("SLURM_") || k.startsWith("OMPI_"));
        pb.environment().putAll(java.util.Map.of("RANK", Integer.toString(rank), "WORLD_SIZE", "2",
                "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", Integer.toString(port), "MPI4J_TIMEOUT", "100"));
        if (secret != null) pb.environment().put("MPI4J_SECRET", secret);
        return pb.start();
    }

    private static int await(Process p) throws Exception {
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }

    @Test
    void derivedSecretWarnsAndAWrongSecretFailsEveryRankFast(@TempDir Path dir) throws Exception {
        int port = Ports.freeStorePort();
        Path log0 = dir.resolve("r0"), log1 = dir.resolve("r1");
        Process r0 = rank(0, port, null, log0), r1 = rank(1, port, null, log1);
        assertEquals(0, await(r0), Files.readString(log0));
        assertEquals(0, await(r1), Files.readString(log1));
        String out0 = Files.readString(log0);
        assertTrue(out0.contains("LIFECYCLE OK 0 2 fabric"), out0);
        assertTrue(out0.contains("warning") && out0.contains("MPI4J_SECRET") && out0.contains("MASTER_PORT"), out0);

        port = Ports.freeStorePort();
        String good = Secrets.hex(Secrets.generate()), wrong = Secrets.hex(Secrets.generate());
        long t0 = System.nanoTime();
        r0 = rank(0, port, good, log0);
        r1 = rank(1, port, wrong, log1);
        int c1 = await(r1), c0 = await(r0);
        double secs = (System.nanoTime() - t0) / 1e9;
        out0 = Files.readString(log0);
        assertTrue(c1 != 0, Files.readString(log1));
        assertTrue(c0 != 0, out0);
        assertTrue(secs < 30, "the start-up failed only after " + secs + " s\n" + out0);
        assertTrue(out0.contains("rank 1") && out0.contains("authentication"), out0);
        assertTrue(!out0.contains("warning") || !out0.contains("derived"), "no warning when MPI4J_SECRET is set\n" + out0);
    }
}
