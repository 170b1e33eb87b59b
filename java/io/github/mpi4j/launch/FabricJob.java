package io.github.mpi4j.launch;

import io.github.mpi4j.fabric.bootstrap.RemoteStart;
import io.github.mpi4j.fabric.bootstrap.RendezvousServer;
import io.github.mpi4j.fabric.bootstrap.Secrets;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/** A job of N JVMs on the fabric, started and watched by {@code mpi4jrun}. */
final class FabricJob {
    private final Options o;
    private final List<String> java;
    private final Process[] procs;
    private final String[] hostOf;
    private final List<Thread> pumps = new ArrayList<>();
    private final String jobId;
    private final byte[] secret;
    private volatile boolean ending;
    private RendezvousServer store;

    FabricJob(Options o, List<String> java) throws Options.UsageException {
        this.o = o;
        this.java = java;
        List<Hosts.Host> hosts = o.hosts.isEmpty() ? List.of(new Hosts.Host("localhost", o.np)) : o.hosts;
        this.hostOf = Hosts.assign(hosts, o.np, o.oversubscribe);
        this.procs = new Process[o.np];
        this.jobId = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffL);
        this.secret = Secrets.generate();
    }

    int run() throws IOException {
        String firstRemote = null;
        for (String h : hostOf) {
            if (firstRemote == null && !Hosts.isLocal(h)) firstRemote = h;
        }
        String myAddress = Launcher.launcherAddress(o, firstRemote);
        Map<String, Integer> perHost = new HashMap<>();
        for (String h : hostOf) perHost.merge(h, 1, Integer::sum);
        Map<String, Integer> seen = new HashMap<>();

        Thread cleanup = new Thread(() -> {
            if (!ending) {
                System.err.println("mpi4jrun: interrupted; ending the job");
                killAll();
            }
            Launcher.removeSegments(jobId);
        });
        Runtime.getRuntime().addShutdownHook(cleanup);
        long start = System.nanoTime();
        try (RendezvousServer store = Launcher.startStore(secret, myAddress)) {
            this.store = store;
            String rendezvous = myAddress + ":" + store.port();
            for (int r = 0; r < o.np; r++) {
                String host = hostOf[r];
                int localRank = seen.merge(host, 1, Integer::sum) - 1;
                Map<String, String> env = new LinkedHashMap<>(o.exports);
                env.put("MPI4J_RANK", Integer.toString(r));
                env.put("MPI4J_SIZE", Integer.toString(o.np));
                env.put("MPI4J_LOCAL_RANK", Integer.toString(localRank));
                env.put("MPI4J_LOCAL_SIZE", Integer.toString(perHost.get(host)));
                env.put("MPI4J_JOB_ID", jobId);
                env.put("MPI4J_RENDEZVOUS", rendezvous);
                env.put("MPI4J_NODE", host);
                // How this job reaches other hosts: a rank that spawns processes there uses it too.
                env.put("MPI4J_AGENT", o.agent);
                boolean local = Hosts.isLocal(host);
                env.put("MPI4J_ADDR", local ? myAddress : host);
                // A job on this host alone: ranks accept each other on loopback only.
                if (isLoopback(myAddress) && !o.exports.containsKey("MPI4J_BIND")) env.put("MPI4J_BIND", "127.0.0.1");
                if (o.forceTcp) env.put("MPI4J_TRANSPORT", "tcp");
                procs[r] = local ? startLocal(env) : startRemote(host, env);
                if (o.verbose) {
                    System.err.println("mpi4jrun: rank " + r + " on " + host + " (pid " + procs[r].pid() + ")");
                }
                pump(r, procs[r].getInputStream(), System.out);
                pump(r, procs[r].getErrorStream(), System.err);
            }
            int code = watch(start);
            for (Thread t : pumps) {
                try {
                    t.join(2000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return code;
        } finally {
            ending = true;
            Launcher.removeSegments(jobId);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException ignored) {
                // already shutting down
            }
        }
    }

    private Process startLocal(Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(java);
        pb.environment().putAll(env);
        pb.environment().put("MPI4J_SECRET", Secrets.hex(secret));
        Process p = pb.start();
        p.getOutputStream().close();
        return p;
    }

    /**
     * A rank on another host, started through the agent (ssh, or e.g. 'ip netns exec'). The
     * secret travels on the agent's standard input, never on a command line.
     */
    private Process startRemote(String host, Map<String, String> env) throws IOException {
        return RemoteStart.start(o.agent, host, System.getProperty("user.dir"), env, java, secret, null);
    }

    private static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (IOException e) {
            return false;
        }
    }

    static String quote(String s) {
        return RemoteStart.quote(s);
    }

    private void pump(int rank, InputStream in, PrintStream out) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (out) {
                        out.println(o.tagOutput ? "[" + rank + "] " + line : line);
                    }
                }
            } catch (IOException ignored) {
                // the rank is gone
            }
            out.flush();
        }, "mpi4jrun-output-" + rank);
        t.setDaemon(true);
        t.start();
        pumps.add(t);
    }

    /**
     * Waits for the ranks; the first failure (or the timeout) ends the job. A failure is a rank
     * that exits with a non-zero status, one that called MPI.Init and exits without MPI.Finalize
     * (an error under mpirun too), or one that has not reached the rendezvous store by
     * --connect-timeout (its host is named; the ranks waiting for it are not blamed).
     */
    private int watch(long start) {
        // Exits arrive as events (the JDK's process reaper completes onExit), so the launcher
        // sleeps between them instead of polling: a poll every 5 ms woke it 200 times a second,
        // each time taking a core from ranks that spin for their messages (perf sched: 740
        // wakeups in a 3-second job of 2 ranks on 2 cores, now 210, most of them its start-up).
        BlockingQueue<Integer> exits = new LinkedBlockingQueue<>();
        for (int r = 0; r < o.np; r++) {
            int rank = r;
            procs[r].onExit().thenRun(() -> exits.add(rank));
        }
        boolean[] done = new boolean[o.np];
        int remaining = o.np;
        boolean toldWaiting = false;
        while (remaining > 0) {
            Integer exited;
            try {
                exited = exits.poll(CHECK_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                killAll();
                return 130;
            }
            for (; exited != null; exited = exits.poll()) {
                int r = exited;  // each rank's exit comes once
                done[r] = true;
                remaining--;
                int code = procs[r].exitValue();
                String failure = exitFailure(r, code);
                if (failure != null) {
                    ending = true;
                    // A rank that gave up waiting for a peer is not the cause: name the peer too.
                    String missing = notConnected(done);
                    System.err.println("mpi4jrun: rank " + r + " on " + hostOf[r] + " (pid " + procs[r].pid() + ") "
                            + failure + "; ending the job" + (missing.isEmpty() ? "" : " (" + missing
                            + " had not connected to the rendezvous store yet)"));
                    killAll();
                    awaitAll();
                    return code != 0 ? code : 1;
                }
            }
            if (remaining == 0) break;
            double elapsed = (System.nanoTime() - start) / 1e9;
            if (!toldWaiting && elapsed > Math.min(10, o.connectTimeoutSeconds / 2) && !notConnected(done).isEmpty()) {
                toldWaiting = true;
                System.err.println("mpi4jrun: still waiting for " + notConnected(done) + " to reach the rendezvous store"
                        + " after " + (int) elapsed + " s");
            }
            if (elapsed > o.connectTimeoutSeconds && !notConnected(done).isEmpty()) {
                ending = true;
                System.err.println("mpi4jrun: " + notConnected(done) + " never connected to the rendezvous store within "
                        + o.connectTimeoutSeconds + " s (--connect-timeout) although started (the agent or JVM is still"
                        + " running: host unreachable, firewalled or very slow?); ending the job");
                store.abort("mpi4jrun ended the job: " + notConnected(done) + " never connected");
                killAll();
                awaitAll();
                return 1;
            }
            if (o.timeoutSeconds > 0 && elapsed > o.timeoutSeconds) {
                ending = true;
                System.err.println("mpi4jrun: the job exceeded --timeout " + o.timeoutSeconds + " s; killing "
                        + remaining + " rank(s)");
                killAll();
                awaitAll();
                return 124;
            }
        }
        return 0;
    }

    /** How often the launcher looks at the clock (connect timeout, --timeout) while no rank exits. */
    private static final long CHECK_MILLIS = 100;

    /** Why rank r's exit with {@code code} fails the job, or null when it does not. */
    private String exitFailure(int r, int code) {
        boolean joined = store.connected(r);
        if (code != 0) {
            return describe(code) + (joined ? "" : " before connecting to the rendezvous store"
                    + (Hosts.isLocal(hostOf[r]) ? "" : " (see the agent's message above: '"
                    + o.agent.replace("{host}", hostOf[r]) + "')"));
        }
        if (!joined) {
            // A program that never calls MPI.Init is fine on its own; ranks waiting for it are told.
            store.abort("rank " + r + " on " + hostOf[r] + " exited without calling MPI.Init");
            return null;
        }
        try {
            store.awaitGone(r, 2000); // its "finalized" note travels on the connection that just ended
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return store.finalized(r) ? null : "exited without calling MPI.Finalize (status 0)";
    }

    /** "rank 2 on hostB, rank 3 on hostB" for the live ranks that have not reached the store. */
    private String notConnected(boolean[] done) {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < o.np; r++) {
            if (done[r] || store.connected(r)) continue;
            b.append(b.length() == 0 ? "" : ", ").append("rank ").append(r).append(" on ").append(hostOf[r]);
        }
        return b.toString();
    }

    static String describe(int code) {
        if (code > 128 && code < 128 + 65) {
            int sig = code - 128;
            return "was killed by signal " + sig + signalName(sig);
        }
        return "exited with status " + code;
    }

    private static String signalName(int sig) {
        switch (sig) {
            case 9: return " (SIGKILL)";
            case 15: return " (SIGTERM)";
            case 11: return " (SIGSEGV)";
            case 6: return " (SIGABRT)";
            case 2: return " (SIGINT)";
            default: return "";
        }
    }

    /** SIGTERM to every rank (and what it started), SIGKILL to those still alive a moment later. */
    private void killAll() {
        for (Process p : procs) {
            if (p == null) continue;
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }
        long deadline = System.nanoTime() + 2_000_000_000L;
        for (Process p : procs) {
            if (p == null) continue;
            while (p.isAlive() && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    break;
                }
            }
            if (p.isAlive()) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }

    private void awaitAll() {
        for (Process p : procs) {
            if (p == null) continue;
            try {
                p.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
