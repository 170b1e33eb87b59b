package io.github.mpi4j.fabric.bootstrap;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts a process on another host through a remote agent: {@code ssh} by default, or any
 * command that runs its arguments there ({@code {host}} is replaced, e.g.
 * {@code ip netns exec {host}}). Used by mpi4jrun for a job's ranks and by a spawning root for
 * its children. The job's secret travels on the agent's standard input, never on a command line
 * (where {@code ps} on either host would show it); the remote shell reads it into
 * {@code MPI4J_SECRET}, changes to the working directory and execs the command with the given
 * variables.
 */
public final class RemoteStart {
    /** ssh without prompts and with a bounded connect: an unreachable host fails in seconds, with ssh's reason. */
    public static final String DEFAULT_AGENT = "ssh -o BatchMode=yes -o ConnectTimeout=10 {host}";

    private RemoteStart() {
    }

    /**
     * Starts {@code command} on {@code host} in {@code dir} with {@code env} (plus MPI4J_SECRET);
     * the caller reads or redirects the process's output as {@code builder} says.
     */
    public static Process start(String agent, String host, String dir, Map<String, String> env, List<String> command,
                                byte[] secret, ProcessBuilder.Redirect output) throws IOException {
        StringBuilder script = new StringBuilder("read -r MPI4J_SECRET && export MPI4J_SECRET && cd ")
                .append(quote(dir)).append(" && exec env");
        for (Map.Entry<String, String> e : env.entrySet()) {
            script.append(' ').append(quote(e.getKey() + "=" + e.getValue()));
        }
        for (String a : command) script.append(' ').append(quote(a));
        List<String> cmd = new ArrayList<>();
        for (String part : agent.replace("{host}", host).trim().split("\\s+")) cmd.add(part);
        cmd.add("sh");
        cmd.add("-c");
        cmd.add(script.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (output != null) pb.redirectOutput(output).redirectError(output);
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write((Secrets.hex(secret) + "\n").getBytes(StandardCharsets.US_ASCII));
        } catch (IOException agentGone) {
            // The agent exited before reading the secret (unknown host, refused login): the
            // caller's start-up wait sees the exit and reports the host and the agent's output.
        }
        return p;
    }

    /** {@code s} as one word for a POSIX shell. */
    public static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
