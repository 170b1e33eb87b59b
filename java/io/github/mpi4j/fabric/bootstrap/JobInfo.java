package io.github.mpi4j.fabric.bootstrap;

/**
 * Where this process stands in a fabric job, read from the environment (our launcher,
 * torchrun-style variables or SLURM) or made up for a world of one process.
 */
public final class JobInfo {
    /** Rank in the world and world size. */
    public final int rank;
    public final int size;
    /** Rank among the processes on this node, and how many there are. */
    public final int localRank;
    public final int localSize;
    /** Identifies this job (segment names, logs). */
    public final String jobId;
    /** Where the rendezvous store listens ("host:port"), or null for a world of one process. */
    public final String rendezvous;
    /** The per-job secret every connection proves it knows (HMAC), or null for a world of one. */
    public final byte[] secret;
    /** What decided these values ("mpi4jrun", "torchrun variables", "SLURM", "singleton"). */
    public final String source;
    /** Seconds any wait may take before it fails. */
    public final double timeoutSeconds;

    public JobInfo(int rank, int size, int localRank, int localSize, String jobId, String rendezvous,
                   byte[] secret, String source, double timeoutSeconds) {
        this.rank = rank;
        this.size = size;
        this.localRank = localRank;
        this.localSize = localSize;
        this.jobId = jobId;
        this.rendezvous = rendezvous;
        this.secret = secret;
        this.source = source;
        this.timeoutSeconds = timeoutSeconds;
    }

    @Override
    public String toString() {
        return "rank " + rank + " of " + size + " (local " + localRank + " of " + localSize + ", job " + jobId
                + ", from " + source + ")";
    }
}
