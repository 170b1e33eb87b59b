package io.github.mpi4j.fabric;

import io.github.mpi4j.fabric.bootstrap.JobInfo;
import io.github.mpi4j.fabric.bootstrap.RemoteStart;
import io.github.mpi4j.fabric.bootstrap.RendezvousServer;
import io.github.mpi4j.fabric.bootstrap.Secrets;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.Spawning;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mpi.MPIException;

/**
 * Spawning processes on the fabric (MPI_Comm_spawn, MPI_Comm_spawn_multiple,
 * MPI_Comm_get_parent).
 *
 * <p><b>Who starts the children.</b> The spawning root itself, with {@link ProcessBuilder} on its
 * own machine, or through the job's remote agent ({@link RemoteStart}, MPI4J_AGENT) on the host
 * an info 'host' names: it works the same whether the parents were started by mpi4jrun or are a
 * singleton started with plain {@code java}, needs no channel to the launcher, and keeps the
 * children (or their agents) where the root can watch, kill and reap them. A job started by {@code srun} or by
 * torchrun-style variables refuses: there the resource manager or agent owns the processes, and
 * processes started behind its back would escape its accounting and clean-up.
 *
 * <p><b>How they join.</b> The root hosts two rendezvous stores with one fresh secret: the
 * children's own (they form their MPI_COMM_WORLD through it exactly as ranks of mpi4jrun do,
 * and keep their connection to it as a lifeline: if the root dies, they end) and the link's.
 * The link is a second fabric job of the P parents (ranks 0..P-1, their ranks in the spawning
 * communicator) and the C children (ranks P..P+C-1), connected like any fabric job (shared
 * memory on one node, authenticated TCP elsewhere). The intercommunicator is a
 * {@link FabricIntercomm} over the link: both groups already belong to one job there, so the
 * accept/connect machinery's intercommunicator serves unchanged.
 *
 * <p><b>Failures.</b> A command that cannot start fails at once; a child that exits before
 * the link is up, or the link not being up within {@code MPI4J_SPAWN_TIMEOUT} seconds (default
 * 100), aborts both stores, so every waiting parent and child fails with the reason; the root
 * then kills and reaps every child it started. At {@code MPI.Finalize} the links are finished
 * (a barrier of parents and children), then the root waits up to {@code MPI4J_SPAWN_GRACE}
 * seconds (default 10) for its children to exit and kills the rest; {@code abort} and a JVM
 * shutdown kill them at once.
 */
final class FabricSpawn {
    private FabricSpawn() {
    }

    /** Context id of the intercommunicator in a link job (0 and 1 are the link's world and self). */
    private static final int LINK_ID = 2;
    private static final AtomicInteger COUNTER = new AtomicInteger();
    private static final Map<FabricBackend, State> STATES = new IdentityHashMap<>();
    private static final List<Children> LIVE = new ArrayList<>();

    private static boolean hooked;

    /** Once a process spawns: a JVM that exits without Finalize kills its children. */
    private static synchronized void hookShutdown() {
        if (hooked) return;
        hooked = true;
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(FabricSpawn::killLive, "mpi4j-spawn-cleanup"));
        } catch (IllegalStateException ignored) {
            // already shutting down
        }
    }

    /** What one process holds: its link to its parents, the links it spawned, the children it started. */
    private static final class State {
        Link parent;
        final List<Link> links = new ArrayList<>();
        final List<Children> children = new ArrayList<>();
    }

    private static final class Link {
        final FabricBackend backend;
        final FabricIntercomm ic;
        boolean finished;

        Link(FabricBackend backend, FabricIntercomm ic) {
            this.backend = backend;
            this.ic = ic;
        }

        synchronized void finish() {
            if (finished) return;
            finished = true;
            backend.finish();
        }
    }

    private static State state(FabricBackend b) {
        synchronized (STATES) {
            return STATES.computeIfAbsent(b, k -> new State());
        }
    }

    private static String setting(String name, String dflt) {
        String v = System.getProperty(name.toLowerCase().replace('_', '.'));
        if (v == null) v = System.getenv(name);
        return v == null || v.isBlank() ? dflt : v.trim();
    }

    /** {@code n} processes of another job, as groups name them (-1). */
    private static int[] outside(int n) {
        int[] a = new int[n];
        Arrays.fill(a, -1);
        return a;
    }

    private static int[] range(int from, int to) {
        int[] a = new int[to - from];
        for (int i = 0; i < a.length; i++) a[i] = from + i;
        return a;
    }

    // ---- the processes one root started ----------------------------------------------------

    private static final class Children {
        final List<Process> procs = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        RendezvousServer worldStore;
        RendezvousServer linkStore;
        volatile boolean settled;
        String linkAddress;
        String linkJob;
        byte[] secret;

        /** Watches the children until the spawn is settled: one that exits first aborts the start-up. */
        void watch(long deadlineNanos, double seconds) {
            Thread t = new Thread(() -> {
                while (!settled) {
                    for (int i = 0; i < procs.size(); i++) {
                        Process p = procs.get(i);
                        if (!p.isAlive() && !settled) {
                            abortStartup("spawned process " + i + " of " + procs.size() + " (" + names.get(i) + ", pid "
                                    + p.pid() + ") exited with status " + p.exitValue() + " before joining its parents");
                            return;
                        }
                    }
                    if (System.nanoTime() - deadlineNanos > 0) {
                        abortStartup("the spawned processes did not all join their parents within " + seconds
                                + " s (MPI4J_SPAWN_TIMEOUT)");
                        return;
                    }
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "mpi4j-spawn-watch");
            t.setDaemon(true);
            t.start();
        }

        void abortStartup(String reason) {
            if (worldStore != null) worldStore.abort(reason);
            if (linkStore != null) linkStore.abort(reason);
        }

        /** Kills every child and waits a little for each; closes the stores. */
        void kill() {
            settled = true;
            for (Process p : procs) p.descendants().forEach(ProcessHandle::destroyForcibly);
            for (Process p : procs) p.destroyForcibly();
            for (Process p : procs) {
                try {
                    p.waitFor(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            close();
        }

        /** Waits up to {@code graceMillis} for the children to exit, then kills the rest. */
        void reap(long graceMillis) {
            long deadline = System.currentTimeMillis() + graceMillis;
            for (int i = 0; i < procs.size(); i++) {
                Process p = procs.get(i);
                try {
                    long left = deadline - System.currentTimeMillis();
                    if (left > 0) p.waitFor(left, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (p.isAlive()) {
                    System.err.println("mpi4j: spawned process " + i + " (" + names.get(i) + ", pid " + p.pid()
                            + ") is still running " + graceMillis / 1000.0 + " s after its parents' MPI.Finalize"
                            + " (MPI4J_SPAWN_GRACE); killing it");
                }
            }
            kill();
        }

        void close() {
            if (worldStore != null) worldStore.close();
            if (linkStore != null) linkStore.close();
            synchronized (LIVE) {
                LIVE.remove(this);
            }
        }
    }

    private static void killLive() {
        List<Children> all;
        synchronized (LIVE) {
            all = new ArrayList<>(LIVE);
        }
        for (Children c : all) {
            for (Process p : c.procs) p.destroyForcibly();
        }
    }

    // ---- the capability ---------------------------------------------------------------------

    /** The {@link Spawning} capability of a fabric intracommunicator. */
    static final class Ops implements Spawning {
        private final FabricComm comm;

        Ops(FabricComm comm) {
            this.comm = comm;
        }

        @Override
        public BackendComm parent() {
            synchronized (STATES) {
                State s = STATES.get(comm.backend);
                return s == null || s.parent == null ? null : s.parent.ic;
            }
        }

        @Override
        public BackendComm spawn(Command[] commands, boolean multiple, int root, int[] errcodes) {
            FabricBackend b = comm.backend;
            int parents = comm.size();
            Children kids = null;
            MPIException failure = null;
            String plan = null;
            if (comm.rank() == root) {
                try {
                    kids = start(b, comm, commands, parents);
                    plan = "ok|" + kids.procs.size() + "|" + kids.linkAddress + "|" + kids.linkJob + "|"
                            + Secrets.hex(kids.secret);
                } catch (MPIException e) {
                    failure = e;
                    plan = "fail|" + e.getErrorClass();
                }
            }
            String[] got = decode(FabricInterOps.bcastInts(comm, root, encode(plan))).split("\\|");
            if (failure != null) {
                Arrays.fill(errcodes, failure.getErrorClass());
                throw failure;
            }
            if (!got[0].equals("ok")) {
                Arrays.fill(errcodes, Integer.parseInt(got[1]));
                throw MPIException.of(Integer.parseInt(got[1]), "spawn: failed at the root (rank " + root
                        + "); its exception says why");
            }
            int children = Integer.parseInt(got[1]);
            byte[] secret = HexFormat.of().parseHex(got[4]);
            JobInfo job = b.job();
            FabricBackend link = null;
            MPIException linkFailure = null;
            try {
                JobInfo lj = new JobInfo(comm.rank(), parents + children, comm.rank(), parents + children, got[3], got[2],
                        secret, "spawn link (parents)", job.timeoutSeconds);
                link = (FabricBackend) FabricConnector.connect(lj, b.threadLevel(), "spawn link");
            } catch (MPIException e) {
                linkFailure = e;
            }
            // Everyone's verdict: a link that is up at some parents only is no link.
            int[] mine = {linkFailure == null ? 0 : 1}, any = new int[1];
            comm.collectives().allReduce(new Buf(mine, BaseKind.INT, 0, 1), new Buf(any, BaseKind.INT, 0, 1), 1,
                    Predefined.T_INT, FabricBackend.MAX);
            if (kids != null) {
                if (any[0] == 0) {
                    kids.settled = true;
                    state(b).children.add(kids);
                } else {
                    kids.kill();
                }
            }
            if (any[0] != 0) {
                if (link != null) link.engine.close();
                Arrays.fill(errcodes, Mpi.ERR_SPAWN);
                if (linkFailure != null) {
                    throw MPIException.of(Mpi.ERR_SPAWN, "spawn: the spawned processes did not join: "
                            + linkFailure.getMessage());
                }
                throw MPIException.of(Mpi.ERR_SPAWN, "spawn: the spawned processes did not join another parent");
            }
            Arrays.fill(errcodes, Mpi.SUCCESS);
            link.contextIdUsed(LINK_ID);
            FabricIntercomm ic = new FabricIntercomm(link, range(0, parents), range(parents, parents + children), LINK_ID);
            ic.localNames = comm.worldRanks();
            ic.remoteNames = outside(children);
            Link l = new Link(link, ic);
            ic.afterDisconnect = l::finish;
            state(b).links.add(l);
            return ic;
        }
    }

    private static int[] encode(String s) {
        if (s == null) return null;
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        int[] a = new int[bytes.length];
        for (int i = 0; i < a.length; i++) a[i] = bytes[i];
        return a;
    }

    private static String decode(int[] a) {
        byte[] bytes = new byte[a.length];
        for (int i = 0; i < a.length; i++) bytes[i] = (byte) a[i];
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Why this process cannot start processes, or null when it can. */
    static String noLauncherRole(JobInfo job) {
        if ("threads".equals(job.jobId)) {
            return "the ranks are threads of one JVM (a test world); spawning starts processes and needs ranks that "
                    + "are processes (mpi4jrun, or a singleton started with java)";
        }
        if (job.source.startsWith("torchrun")) {
            return "this job was started by torchrun-style variables (RANK, WORLD_SIZE, MASTER_ADDR...); the agent that "
                    + "started it owns its processes, and mpi4j starts spawned processes only for jobs of mpi4jrun or a "
                    + "singleton started with java";
        }
        if (job.source.startsWith("SLURM")) {
            return "this job was started by srun (SLURM_PROCID, SLURM_NTASKS...); processes started behind Slurm's back "
                    + "would escape the allocation's accounting and clean-up, so mpi4j starts spawned processes only "
                    + "for jobs of mpi4jrun or a singleton started with java";
        }
        return null;
    }

    private static boolean isLocalHost(String host) {
        String h = host.trim();
        if (h.equals("localhost") || h.equals("127.0.0.1") || h.equals("::1")) return true;
        if (h.equals(FabricConnector.hostName()) || h.equals(FabricConnector.hostAddress())) return true;
        String node = System.getenv("MPI4J_NODE");
        return node != null && h.equals(node.trim());
    }

    /** The root: starts every child and the two stores; throws (having cleaned up) on failure. */
    private static Children start(FabricBackend b, FabricComm comm, Spawning.Command[] commands, int parents) {
        JobInfo job = b.job();
        String refusal = noLauncherRole(job);
        if (refusal != null) throw MPIException.of(Mpi.ERR_SPAWN, "spawn: cannot start processes: " + refusal);
        boolean allHere = true;
        for (Spawning.Command c : commands) allHere &= remoteHost(c) == null;
        for (int w : comm.worldRanks()) allHere &= b.nodeOfWorld(w) == b.nodeOfWorld(job.rank);
        String bind = allHere ? "127.0.0.1" : "0.0.0.0";
        String advertise = allHere ? "127.0.0.1" : setting("MPI4J_ADDR", FabricConnector.hostAddress());
        int n = COUNTER.incrementAndGet();
        long pid = ProcessHandle.current().pid();
        hookShutdown();
        Children kids = new Children();
        kids.secret = Secrets.generate();
        kids.linkJob = "sl" + pid + "-" + n;
        String worldJob = "sp" + pid + "-" + n;
        int total = 0;
        for (Spawning.Command c : commands) total += c.count;
        double seconds = Double.parseDouble(setting("MPI4J_SPAWN_TIMEOUT", "100"));
        try {
            kids.worldStore = new RendezvousServer(bind, 0, kids.secret, msg -> System.err.println("mpi4j: spawn: " + msg));
            kids.linkStore = new RendezvousServer(bind, 0, kids.secret, msg -> System.err.println("mpi4j: spawn: " + msg));
            kids.linkAddress = advertise + ":" + kids.linkStore.port();
            synchronized (LIVE) {
                LIVE.add(kids);
            }
            Map<String, String> base = childEnvironment();
            String node = setting("MPI4J_NODE", FabricConnector.hostName());
            // Children are numbered per host for their local rank and size (shared memory among them).
            Map<String, Integer> perHost = new java.util.HashMap<>();
            for (Spawning.Command c : commands) perHost.merge(String.valueOf(remoteHost(c)), c.count, Integer::sum);
            Map<String, Integer> seen = new java.util.HashMap<>();
            String agent = setting("MPI4J_AGENT", RemoteStart.DEFAULT_AGENT);
            int rank = 0;
            for (Spawning.Command c : commands) {
                String remote = remoteHost(c);
                for (int k = 0; k < c.count; k++, rank++) {
                    List<String> cmd = new ArrayList<>();
                    cmd.add(c.program);
                    cmd.addAll(Arrays.asList(c.args));
                    ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
                    String wdir = c.info.get("wdir");
                    if (wdir != null) pb.directory(new File(wdir));
                    Map<String, String> env = pb.environment();
                    env.clear();
                    env.putAll(base);
                    env.put("MPI4J_RANK", Integer.toString(rank));
                    env.put("MPI4J_SIZE", Integer.toString(total));
                    env.put("MPI4J_LOCAL_RANK", Integer.toString(seen.merge(String.valueOf(remote), 1, Integer::sum) - 1));
                    env.put("MPI4J_LOCAL_SIZE", Integer.toString(perHost.get(String.valueOf(remote))));
                    env.put("MPI4J_JOB_ID", worldJob);
                    env.put("MPI4J_RENDEZVOUS", advertise + ":" + kids.worldStore.port());
                    env.put("MPI4J_SECRET", Secrets.hex(kids.secret));
                    env.put("MPI4J_NODE", remote != null ? remote : node);
                    env.put("MPI4J_PARENT", kids.linkAddress);
                    env.put("MPI4J_PARENT_SIZE", Integer.toString(parents));
                    env.put("MPI4J_PARENT_JOB", kids.linkJob);
                    if (allHere) {
                        env.put("MPI4J_BIND", "127.0.0.1");
                        env.put("MPI4J_ADDR", "127.0.0.1");
                    }
                    String name = String.join(" ", cmd.subList(0, Math.min(cmd.size(), 1))) + (c.args.length > 0
                            ? " ... " + c.args[c.args.length - 1] : "");
                    kids.names.add(name);
                    try {
                        kids.procs.add(remote == null ? pb.start() : startRemote(agent, remote, pb, kids.secret));
                    } catch (IOException e) {
                        throw MPIException.of(Mpi.ERR_SPAWN, "spawn: cannot start '" + c.program + "': " + e.getMessage());
                    }
                }
            }
        } catch (IOException e) {
            kids.kill();
            throw MPIException.of(Mpi.ERR_SPAWN, "spawn: cannot host the children's rendezvous: " + e.getMessage());
        } catch (RuntimeException e) {
            kids.kill();
            throw e;
        }
        kids.watch(System.nanoTime() + (long) (seconds * 1e9), seconds);
        return kids;
    }

    /** The host a command's info 'host' names when it is not this machine; null for this machine. */
    private static String remoteHost(Spawning.Command c) {
        String host = c.info.get("host");
        return host == null || host.isBlank() || isLocalHost(host) ? null : host.trim();
    }

    /**
     * A child on another host, through the remote agent as mpi4jrun starts ranks there
     * ({@link RemoteStart}): the job's own variables and the mpi4j settings (MPI4J_*, CLASSPATH)
     * travel, not the rest of this process's environment; the secret goes on the agent's
     * standard input. It advertises the host's name or address as given.
     */
    private static Process startRemote(String agent, String host, ProcessBuilder local, byte[] secret)
            throws IOException {
        Map<String, String> env = new java.util.TreeMap<>();
        for (Map.Entry<String, String> e : local.environment().entrySet()) {
            String k = e.getKey();
            if ((k.startsWith("MPI4J_") || k.equals("CLASSPATH")) && !k.equals("MPI4J_SECRET") && !k.equals("MPI4J_BIND")) {
                env.put(k, e.getValue());
            }
        }
        env.put("MPI4J_ADDR", host);
        String dir = local.directory() != null ? local.directory().getPath() : System.getProperty("user.dir");
        return RemoteStart.start(agent, host, dir, env, local.command(), secret, ProcessBuilder.Redirect.INHERIT);
    }

    /** This process's environment without the variables that describe its own job. */
    private static Map<String, String> childEnvironment() {
        Map<String, String> env = new java.util.HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.equals("MPI4J_RANK") || k.equals("MPI4J_SIZE") || k.equals("MPI4J_LOCAL_RANK")
                || k.equals("MPI4J_LOCAL_SIZE") || k.equals("MPI4J_JOB_ID") || k.equals("MPI4J_RENDEZVOUS")
                || k.equals("MPI4J_SECRET") || k.startsWith("MPI4J_PARENT") || k.equals("RANK")
                || k.equals("WORLD_SIZE") || k.equals("LOCAL_RANK") || k.equals("LOCAL_WORLD_SIZE")
                || k.equals("MASTER_ADDR") || k.equals("MASTER_PORT") || k.startsWith("OMPI_") || k.startsWith("PMIX_")
                || k.startsWith("PMI_") || k.startsWith("MV2_") || k.equals("SLURM_PROCID") || k.equals("SLURM_NTASKS"));
        String warmup = childWarmup(env.get("MPI4J_WARMUP"));
        if (warmup != null) env.put("MPI4J_WARMUP", warmup);
        return env;
    }

    /**
     * The warm-start setting a spawned child gets from its parent's: {@code auto} (what mpi4jrun
     * gives its ranks) becomes off, since children share the node with their parents, which their
     * own world cannot count; an explicit setting passes unchanged (null: as it was).
     */
    static String childWarmup(String parents) {
        return parents != null && parents.trim().equalsIgnoreCase("auto") ? "0" : null;
    }

    // ---- the children's side, and the end -------------------------------------------------

    /** In {@code MPI.Init} of a spawned process: joins the link to the parents (MPI4J_PARENT). */
    static void joinParent(FabricBackend b, Map<String, String> env) {
        String at = env.get("MPI4J_PARENT");
        if (at == null || at.isBlank()) return;
        JobInfo job = b.job();
        int parents;
        try {
            parents = Integer.parseInt(env.getOrDefault("MPI4J_PARENT_SIZE", "").trim());
        } catch (NumberFormatException e) {
            throw MPIException.of(Mpi.ERR_OTHER, "MPI.Init (fabric): MPI4J_PARENT_SIZE='"
                    + env.get("MPI4J_PARENT_SIZE") + "' is not a number");
        }
        JobInfo lj = new JobInfo(parents + job.rank, parents + job.size, parents + job.rank, parents + job.size,
                env.getOrDefault("MPI4J_PARENT_JOB", "link"), at, job.secret, "spawn link (children)",
                job.timeoutSeconds);
        FabricBackend link = (FabricBackend) FabricConnector.connect(lj, b.threadLevel(), "spawn link");
        link.contextIdUsed(LINK_ID);
        FabricIntercomm ic = new FabricIntercomm(link, range(parents, parents + job.size), range(0, parents), LINK_ID);
        ic.localNames = range(0, job.size);
        ic.remoteNames = outside(parents);
        Link l = new Link(link, ic);
        ic.afterDisconnect = l::finish;
        state(b).parent = l;
    }

    /**
     * At {@code MPI.Finalize} of {@code b}: finishes the links not yet disconnected (the link to
     * the parents first, then the spawned ones in order: every rank of a group does the same),
     * then reaps the children this process started.
     */
    static void finishAll(FabricBackend b) {
        State s;
        synchronized (STATES) {
            s = STATES.remove(b);
        }
        if (s == null) return;
        List<Link> links = new ArrayList<>();
        if (s.parent != null) links.add(s.parent);
        links.addAll(s.links);
        RuntimeException first = null;
        for (Link l : links) {
            try {
                l.finish();
            } catch (RuntimeException e) {
                if (first == null) first = e;
            }
        }
        long grace = (long) (Double.parseDouble(setting("MPI4J_SPAWN_GRACE", "10")) * 1000);
        for (Children c : s.children) c.reap(grace);
        if (first != null) throw first;
    }

    /** At abort: kills every child this process started, at once. */
    static void killAll(FabricBackend b) {
        killLive();
    }
}
