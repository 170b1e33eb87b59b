package io.github.mpi4j.testing;

import io.github.mpi4j.fabric.bootstrap.RendezvousServer;
import io.github.mpi4j.fabric.bootstrap.Secrets;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts the ranks of a fabric job directly from a test, without mpi4jrun (which would end the
 * job at the first failure): the test hosts the rendezvous store and sees every rank's own
 * exit status and output, e.g. to check how survivors notice a dead peer.
 */
public final class DirectJob {
    private DirectJob() {
    }

    /** Exit status and output of every rank. */
    public static final class Outcome {
        public final int[] exitCodes;
        public final String[] outputs;

        Outcome(int[] exitCodes, String[] outputs) {
            this.exitCodes = exitCodes;
            this.outputs = outputs;
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            for (int r = 0; r < outputs.length; r++) {
                b.append("--- rank ").append(r).append(" exit ").append(exitCodes[r]).append('\n').append(outputs[r]);
            }
            return b.toString();
        }
    }

    public static Outcome run(int np, Map<String, String> extraEnv, double timeoutSeconds, String mainClass,
                              String... args) throws Exception {
        byte[] secret = Secrets.generate();
        String jobId = "t" + Long.toHexString(System.nanoTime() & 0xffffffL);
        try (RendezvousServer store = new RendezvousServer("127.0.0.1", 0, secret, System.err::println)) {
            Process[] procs = new Process[np];
            Path[] logs = new Path[np];
            for (int r = 0; r < np; r++) {
                List<String> cmd = new ArrayList<>();
                cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
                cmd.addAll(Jobs.jvmOptions());
                cmd.add("-cp");
                cmd.add(Jobs.classpath());
                cmd.add(mainClass);
                cmd.addAll(List.of(args));
                ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
                logs[r] = Files.createTempFile("mpi4j-rank", ".log");
                pb.redirectOutput(logs[r].toFile());
                Map<String, String> env = pb.environment();
                env.put("MPI4J_RANK", Integer.toString(r));
                env.put("MPI4J_SIZE", Integer.toString(np));
                env.put("MPI4J_LOCAL_RANK", Integer.toString(r));
                env.put("MPI4J_LOCAL_SIZE", Integer.toString(np));
                env.put("MPI4J_JOB_ID", jobId);
                env.put("MPI4J_RENDEZVOUS", "127.0.0.1:" + store.port());
                env.put("MPI4J_SECRET", Secrets.hex(secret));
                env.put("MPI4J_ADDR", "127.0.0.1");
                if (extraEnv != null) env.putAll(extraEnv);
                procs[r] = pb.start();
            }
            long deadline = System.nanoTime() + (long) (timeoutSeconds * 1e9);
            int[] codes = new int[np];
            String[] outs = new String[np];
            for (int r = 0; r < np; r++) {
                long left = Math.max(1, deadline - System.nanoTime());
                if (!procs[r].waitFor(left, TimeUnit.NANOSECONDS)) {
                    procs[r].destroyForcibly().waitFor();
                    codes[r] = -1;
                } else {
                    codes[r] = procs[r].exitValue();
                }
            }
            for (int r = 0; r < np; r++) {
                outs[r] = new String(Files.readAllBytes(logs[r]), StandardCharsets.UTF_8);
                Files.deleteIfExists(logs[r]);
            }
            return new Outcome(codes, outs);
        }
    }

    static String separator() {
        return File.separator;
    }
}
