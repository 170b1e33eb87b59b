package io.github.mpi4j.fabric.bootstrap;

import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.Timeout;
import java.util.List;
import java.util.Map;
import mpi.MPIException;

/**
 * Where this process stands in a fabric job, from its environment, in this order:
 * <ol>
 *   <li>mpi4j's launcher: {@code MPI4J_RANK}, {@code MPI4J_SIZE}, {@code MPI4J_LOCAL_RANK},
 *       {@code MPI4J_LOCAL_SIZE}, {@code MPI4J_JOB_ID}, {@code MPI4J_RENDEZVOUS} (host:port of the
 *       launcher's store), {@code MPI4J_SECRET} (hex);</li>
 *   <li>torchrun-style: {@code RANK}, {@code WORLD_SIZE}, {@code LOCAL_RANK},
 *       {@code LOCAL_WORLD_SIZE}, {@code MASTER_ADDR}, {@code MASTER_PORT} (rank 0 hosts the
 *       store there);</li>
 *   <li>SLURM: {@code SLURM_PROCID}, {@code SLURM_NTASKS}, {@code SLURM_LOCALID},
 *       {@code SLURM_STEP_NODELIST} (the first node hosts the store, on a port derived from the
 *       job and step ids unless {@code MASTER_PORT} is set);</li>
 *   <li>otherwise a world of one process.</li>
 * </ol>
 * The job secret comes from {@code MPI4J_SECRET}; without one (torchrun, srun without our
 * launcher) it is derived from the job's identity, which only keeps out processes that do not
 * know the job — see docs/launching.md.
 */
public final class Bootstrap {
    private Bootstrap() {
    }

    /** Default deadline of every fabric wait, seconds (MPI4J_TIMEOUT overrides). */

    public static boolean isLaunched(Map<String, String> env) {
        return size(env, "MPI4J_SIZE") > 0 || size(env, "WORLD_SIZE") > 0 || size(env, "SLURM_NTASKS") > 0;
    }

    private static int size(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null) return 0;
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static int require(Map<String, String> env, String name) {
        String v = env.get(name);
        if (v == null) throw bad(name + " is not set");
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw bad(name + "='" + v + "' is not a number");
        }
    }

    private static int optional(Map<String, String> env, String name, int dflt) {
        String v = env.get(name);
        if (v == null || v.isBlank()) return dflt;
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw bad(name + "='" + v + "' is not a number");
        }
    }

    private static MPIException bad(String what) {
        return MPIException.of(Mpi.ERR_OTHER, "MPI.Init (fabric): " + what);
    }

    public static JobInfo detect(Map<String, String> env) {
        double timeout = Timeout.seconds(env, "MPI.Init (fabric)");
        if (env.containsKey("MPI4J_SIZE")) {
            int rank = require(env, "MPI4J_RANK"), size = require(env, "MPI4J_SIZE");
            check(rank, size, "MPI4J_RANK", "MPI4J_SIZE");
            String rv = env.get("MPI4J_RENDEZVOUS");
            if (size > 1 && rv == null) throw bad("MPI4J_RENDEZVOUS is not set");
            return new JobInfo(rank, size, optional(env, "MPI4J_LOCAL_RANK", rank), optional(env, "MPI4J_LOCAL_SIZE", size),
                    env.getOrDefault("MPI4J_JOB_ID", "job"), rv, Secrets.fromEnv(env, null), "mpi4jrun", timeout);
        }
        if (env.containsKey("WORLD_SIZE") && env.containsKey("RANK")) {
            int rank = require(env, "RANK"), size = require(env, "WORLD_SIZE");
            check(rank, size, "RANK", "WORLD_SIZE");
            String host = env.getOrDefault("MASTER_ADDR", "127.0.0.1");
            int port = optional(env, "MASTER_PORT", 29500);
            String jobId = "t" + port;
            if (rank == 0) warnIfDerived(env, "user name, MASTER_ADDR, MASTER_PORT and WORLD_SIZE");
            return new JobInfo(rank, size, optional(env, "LOCAL_RANK", rank), optional(env, "LOCAL_WORLD_SIZE", size),
                    jobId, host + ":" + port, Secrets.fromEnv(env, "torchrun:" + host + ":" + port + ":" + size),
                    "torchrun variables (rank 0 hosts the store at " + host + ":" + port + ")", timeout);
        }
        if (env.containsKey("SLURM_NTASKS") && env.containsKey("SLURM_PROCID")) {
            int rank = require(env, "SLURM_PROCID"), size = require(env, "SLURM_NTASKS");
            check(rank, size, "SLURM_PROCID", "SLURM_NTASKS");
            String nodes = env.getOrDefault("SLURM_STEP_NODELIST", env.getOrDefault("SLURM_JOB_NODELIST", "localhost"));
            List<String> hosts = Hostlist.expand(nodes);
            String job = env.getOrDefault("SLURM_JOB_ID", "0"), step = env.getOrDefault("SLURM_STEP_ID", "0");
            int port = optional(env, "MASTER_PORT", slurmStorePort(job, step));
            int tasksOnNode = slurmTasksOnNode(env, size);
            if (rank == 0) warnIfDerived(env, "user name, SLURM_JOB_ID, SLURM_STEP_ID and the node list");
            return new JobInfo(rank, size, optional(env, "SLURM_LOCALID", 0), tasksOnNode, "s" + job + "." + step,
                    hosts.get(0) + ":" + port, Secrets.fromEnv(env, "slurm:" + job + "." + step + ":" + nodes),
                    "SLURM (task 0 on " + hosts.get(0) + " hosts the store on port " + port + ")", timeout);
        }
        return new JobInfo(0, 1, 0, 1, "single" + ProcessHandle.current().pid(), null, null,
                "a world of one process (no launcher variables)", timeout);
    }

    /**
     * The store port every task of a SLURM step derives alike from its job and step ids, in
     * 12000-31999: below Linux's default ephemeral range (32768-60999), so an outgoing
     * connection on the first node cannot already hold it.
     */
    public static int slurmStorePort(String job, String step) {
        return 12000 + Math.floorMod((job + "." + step).hashCode(), 20000);
    }

    /**
     * Tasks of this step on this node, from Slurm's compact lists ({@code 2(x3),1}) indexed by
     * {@code SLURM_NODEID}; {@code size} when Slurm does not say.
     */
    private static int slurmTasksOnNode(Map<String, String> env, int size) {
        int node = optional(env, "SLURM_NODEID", 0);
        for (String name : new String[] {"SLURM_STEP_TASKS_PER_NODE", "SLURM_TASKS_PER_NODE"}) {
            String spec = env.get(name);
            if (spec == null || spec.isBlank()) continue;
            try {
                return Hostlist.tasksOnNode(spec, node);
            } catch (IllegalArgumentException e) {
                throw bad(name + "='" + spec + "' for SLURM_NODEID=" + node + ": " + e.getMessage());
            }
        }
        return size;
    }

    /**
     * The warning for a job without {@code MPI4J_SECRET} (torchrun, srun without mpi4jrun), or
     * null when it has one. We warn rather than refuse: on a private cluster network the derived
     * secret still keeps other jobs apart, and these starts have no channel to hand out a secret.
     */
    public static String derivedSecretWarning(Map<String, String> env, String inputs) {
        String s = env.get("MPI4J_SECRET");
        if (s != null && !s.isBlank()) return null;
        return "mpi4j: warning: MPI4J_SECRET is not set, so the job secret is derived from the " + inputs
                + " — anyone who can reach the store and guess those can compute it and join or disturb the job."
                + " Set MPI4J_SECRET to the same random value in every rank (e.g. `openssl rand -hex 32`).";
    }

    private static void warnIfDerived(Map<String, String> env, String inputs) {
        String w = derivedSecretWarning(env, inputs);
        if (w != null) System.err.println(w);
    }

    private static void check(int rank, int size, String rankVar, String sizeVar) {
        if (size < 1) throw bad(sizeVar + "=" + size + " must be >= 1");
        if (rank < 0 || rank >= size) throw bad(rankVar + "=" + rank + " is not in [0, " + size + ")");
    }
}
