package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.Mpi;
import java.util.Locale;
import mpi.MPIException;

/**
 * Chooses collective algorithms with an alpha-beta model: a message of n bytes costs
 * alpha + n * beta. For an allreduce over p ranks:
 * <ul>
 *   <li>recursive doubling: log2(p) (alpha + n beta + n gamma) — best when alpha dominates;</li>
 *   <li>Rabenseifner: 2 log2(p) alpha + 2 n (p-1)/p beta + n (p-1)/p gamma;</li>
 *   <li>ring: 2 (p-1) alpha + 2 n (p-1)/p beta + n (p-1)/p gamma — same bandwidth term, more
 *       latency, but works on any p without the excess-rank step and pipelines well.</li>
 * </ul>
 * alpha and beta default to values measured on shared memory here and can be overridden
 * ({@code MPI4J_COLL_ALPHA_US}, {@code MPI4J_COLL_BETA_NS_PER_KB}). The steps of node-aware
 * schedules that cross nodes (among the nodes' first ranks, or among the ranks with the same
 * local index) travel over TCP, and are priced with network constants instead
 * ({@link #acrossNodes}: {@code MPI4J_COLL_NET_ALPHA_US}, default 25 µs, and
 * {@code MPI4J_COLL_NET_BETA_NS_PER_KB}, default 1000 ns/KiB, about 1 GB/s: a 10 GbE link or
 * loopback TCP, not shared memory). An algorithm can be forced
 * with {@code MPI4J_ALLREDUCE=recursive_doubling|rabenseifner|ring}, {@code MPI4J_BCAST=binomial|
 * scatter_allgather} and {@code MPI4J_ALLGATHER=bruck|ring} (tests use these).
 *
 * <p>Inside one node, allreduces of at least {@code MPI4J_SHM_COLL_MIN_KB} go through the ranks'
 * shared-memory slots instead ({@link ShmAllReduce}) when they have them. By default 1 MiB at 2
 * ranks and 16 KiB at 3 or more. Measured on 2 cores: at 2 ranks, below 1 MiB the slots' three
 * barriers per chunk cost as much as they save, or more, for arrays (direct buffers gain from
 * 128 KiB, but the choice may depend only on what all ranks agree on: count, type, op, not on
 * each rank's buffers). At 3 and 4 ranks (more ranks than cores) the message schedules' steps
 * each wait for a peer to be scheduled, and the slots' empty-message barriers cost less: at
 * np 4 16 KiB took 32-41 µs against 56-61, 256 KiB 242-294 against 474-479 (np 3: equal at
 * 16 KiB, 62-69 against 104-127 µs at 64 KiB; docs/performance.md, tenth session);
 * {@code MPI4J_ALLREDUCE=shm} sends every allreduce there (and, where there are no slots,
 * lets the model pick), any other forced algorithm none.
 */
public final class CostModel {
    public enum AllReduce { RECURSIVE_DOUBLING, RABENSEIFNER, RING }

    /** Latency per message, seconds. */
    final double alpha;
    /** Time per byte moved, seconds. */
    final double beta;
    /** Time per byte reduced, seconds. */
    final double gamma;
    /** Pipelining segment of the ring allreduce, bytes. */
    final long segmentBytes;
    /**
     * The default segment: larger than every transport's eager limit for collectives (256 KiB at most), so that
     * a segment that reaches a rank before it has posted the receive waits there as a
     * rendezvous instead of being held in a heap copy. At 256 KiB over TCP, a 16 MiB ring at
     * np 3 caused 12 young collections in 60 calls, pauses to 180 ms (docs/performance.md,
     * "Thirtieth session").
     */
    static final long DEFAULT_SEGMENT_BYTES = 512 * 1024;
    /** Smallest allreduce, bytes, that goes through shared-memory slots. */
    final long shmMinBytes;
    private final AllReduce forcedAllReduce;
    /** Slots forced on ({@code MPI4J_ALLREDUCE=shm}) or off (another algorithm forced); null: by size. */
    private final Boolean forcedSlots;
    private final Boolean forcedBcastLarge;
    private final Boolean forcedAllGather;
    /**
     * Smallest broadcast, bytes, that goes through the root's shared-memory slot
     * ({@code MPI4J_SHM_BCAST_MIN_KB}); never in a model made for predictions.
     */
    private long shmBcastMinBytes = Long.MAX_VALUE;
    /**
     * Smallest allreduce, bytes, that goes through the slots at 3 or more ranks: 16 KiB unless
     * {@code MPI4J_SHM_COLL_MIN_KB} is set (then that, at every size); -1 (the same as at 2
     * ranks) in a model made for predictions.
     */
    private long shmMinBytesMany = -1;
    /** The slot broadcast forced on ({@code MPI4J_BCAST=shm}) or off (another schedule forced); null: by size. */
    private Boolean forcedBcastSlots;
    /**
     * Most members for the slot broadcast by default: its root sends one message to every member
     * and waits for one from each per chunk, which outgrows a tree's log2 L steps somewhere
     * above this; measured only up to 4 (on 2 cores).
     */
    static final int SHM_BCAST_MAX_MEMBERS = 8;
    /** The same model with network constants, for steps across nodes (itself for that model). */
    private CostModel acrossNodes;

    CostModel(double alpha, double beta, double gamma, long segmentBytes, long shmMinBytes, AllReduce forcedAllReduce,
              Boolean forcedSlots, Boolean forcedBcastLarge, Boolean forcedAllGather) {
        this.alpha = alpha;
        this.beta = beta;
        this.gamma = gamma;
        this.segmentBytes = segmentBytes;
        this.shmMinBytes = shmMinBytes;
        this.forcedAllReduce = forcedAllReduce;
        this.forcedSlots = forcedSlots;
        this.forcedBcastLarge = forcedBcastLarge;
        this.forcedAllGather = forcedAllGather;
        this.acrossNodes = this;
    }

    /**
     * The model for the steps of a node-aware schedule that cross nodes: the same settings,
     * with the network's alpha and beta.
     */
    CostModel acrossNodes() {
        return acrossNodes;
    }

    static CostModel fromSettings() {
        double alpha = setting("MPI4J_COLL_ALPHA_US", 2.0) * 1e-6;
        double beta = setting("MPI4J_COLL_BETA_NS_PER_KB", 150.0) * 1e-9 / 1024;
        double gamma = setting("MPI4J_COLL_GAMMA_NS_PER_KB", 100.0) * 1e-9 / 1024;
        long seg = (long) setting("MPI4J_COLL_SEGMENT_KB", DEFAULT_SEGMENT_BYTES / 1024) * 1024;
        long shmMin = (long) (setting("MPI4J_SHM_COLL_MIN_KB", 1024) * 1024);
        String ar = choice("MPI4J_ALLREDUCE", "recursive_doubling", "rabenseifner", "ring", "shm");
        boolean slots = "shm".equals(ar);
        AllReduce forced = ar == null || slots ? null : AllReduce.valueOf(ar.toUpperCase(Locale.ROOT));
        String bc = choice("MPI4J_BCAST", "binomial", "scatter_allgather", "shm");
        Boolean large = bc == null || bc.equals("shm") ? null : bc.equals("scatter_allgather");
        long shmBcastMin = (long) (setting("MPI4J_SHM_BCAST_MIN_KB", 32) * 1024);
        String ag = choice("MPI4J_ALLGATHER", "bruck", "ring");
        Boolean bruck = ag == null ? null : ag.equals("bruck");
        double netAlpha = setting("MPI4J_COLL_NET_ALPHA_US", 25.0) * 1e-6;
        double netBeta = setting("MPI4J_COLL_NET_BETA_NS_PER_KB", 1000.0) * 1e-9 / 1024;
        Boolean forcedSlots = ar == null ? null : slots;
        CostModel m = new CostModel(alpha, beta, gamma, Math.max(8, seg), Math.max(0, shmMin), forced, forcedSlots,
                large, bruck);
        m.acrossNodes = new CostModel(netAlpha, netBeta, gamma, Math.max(8, seg), Math.max(0, shmMin), forced,
                forcedSlots, large, bruck);
        m.shmBcastMinBytes = Math.max(0, shmBcastMin);
        String shmMinSet = text("MPI4J_SHM_COLL_MIN_KB");
        m.shmMinBytesMany = shmMinSet == null || shmMinSet.isBlank() ? 16 * 1024 : Math.max(0, shmMin);
        m.forcedBcastSlots = bc == null ? null : bc.equals("shm");
        return m;
    }

    private static String text(String name) {
        String v = System.getProperty(name.toLowerCase().replace('_', '.'));
        return v != null ? v : System.getenv(name);
    }

    /** A non-negative number setting; a malformed one is an error naming it (not silently the default). */
    private static double setting(String name, double dflt) {
        String v = text(name);
        if (v == null || v.isBlank()) return dflt;
        double d;
        try {
            d = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            d = Double.NaN;
        }
        if (!(d >= 0) || Double.isInfinite(d)) {
            throw MPIException.of(Mpi.ERR_OTHER, name + "='" + v + "' is not a non-negative number");
        }
        return d;
    }

    /** One of {@code allowed} (lower case), or null when unset; anything else is an error naming it. */
    private static String choice(String name, String... allowed) {
        String v = text(name);
        if (v == null || v.isBlank()) return null;
        String c = v.trim().toLowerCase(Locale.ROOT);
        for (String a : allowed) if (a.equals(c)) return c;
        throw MPIException.of(Mpi.ERR_OTHER, name + "='" + v + "' is not one of " + String.join(", ", allowed));
    }

    /** Whether an allreduce of {@code bytes} over {@code p} ranks goes through shared-memory slots, where there are some. */
    boolean allReduceInSlots(long bytes, int p) {
        if (forcedSlots != null) return forcedSlots;
        return bytes >= (p >= 3 && shmMinBytesMany >= 0 ? shmMinBytesMany : shmMinBytes);
    }

    AllReduce allReduce(long bytes, int p, int count) {
        if (forcedAllReduce != null) return forcedAllReduce;
        if (count < p) return AllReduce.RECURSIVE_DOUBLING;
        double rd = allReduceTime(AllReduce.RECURSIVE_DOUBLING, bytes, p);
        double rab = allReduceTime(AllReduce.RABENSEIFNER, bytes, p);
        double ring = allReduceTime(AllReduce.RING, bytes, p);
        if (rd <= rab && rd <= ring) return AllReduce.RECURSIVE_DOUBLING;
        return rab <= ring ? AllReduce.RABENSEIFNER : AllReduce.RING;
    }

    /**
     * Bruck instead of a ring for an allgather of {@code totalBytes} over p ranks. Both move
     * (p-1)/p of the total per rank; Bruck needs ceil(log2 p) messages instead of p-1 but copies
     * everything twice more (into its rotated temporary and out again, costed like a reduction).
     */
    boolean allGatherBruck(long totalBytes, int p) {
        if (forcedAllGather != null) return forcedAllGather;
        return allGatherTime(true, totalBytes, p) < allGatherTime(false, totalBytes, p);
    }

    /**
     * Whether a broadcast of {@code bytes} among {@code p} members goes through the root's
     * shared-memory slot, where there are slots: from {@code MPI4J_SHM_BCAST_MIN_KB} (32 KiB) on,
     * for 3 to {@link #SHM_BCAST_MAX_MEMBERS} members. Not at 2, where a broadcast is one message
     * and the slot's extra step measured slower (docs/performance.md, tenth session).
     */
    boolean bcastInSlots(long bytes, int p) {
        if (forcedBcastSlots != null) return forcedBcastSlots;
        return p >= 3 && p <= SHM_BCAST_MAX_MEMBERS && bytes >= shmBcastMinBytes;
    }

    /** Scatter + allgather instead of a binomial tree for a broadcast of {@code bytes}. */
    boolean bcastScatterAllgather(long bytes, int p) {
        if (forcedBcastLarge != null) return forcedBcastLarge;
        return p > 2 && bcastTime(true, bytes, p) < bcastTime(false, bytes, p);
    }

    // ---- predicted times, seconds: the terms the choices above compare (also printed by
    // ---- Prediction for the scaling study, docs/scaling.md) --------------------------------

    private static double log2Ceil(int p) {
        return p <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(p - 1);
    }

    /**
     * An allreduce of {@code bytes} over p ranks by {@code a}. Non-powers of two pay the
     * excess-rank step (two extra full-message transfers) in the recursive schedules.
     */
    double allReduceTime(AllReduce a, long bytes, int p) {
        if (p <= 1) return 0;
        double logp = log2Ceil(p);
        double frac = (p - 1.0) / p;
        double excess = Integer.bitCount(p) == 1 ? 0 : 2 * (alpha + bytes * beta);
        switch (a) {
            case RECURSIVE_DOUBLING:
                return logp * (alpha + bytes * (beta + gamma)) + excess;
            case RABENSEIFNER:
                return 2 * logp * alpha + 2 * bytes * frac * beta + bytes * frac * gamma + excess;
            default:
                return 2 * (p - 1) * alpha + 2 * bytes * frac * beta + bytes * frac * gamma;
        }
    }

    /**
     * Bruck or ring allgather of {@code totalBytes} over p ranks. Both move (p-1)/p of the
     * total per rank; Bruck needs ceil(log2 p) messages instead of p-1 but copies everything
     * twice more (into its rotated temporary and out again, costed like a reduction).
     */
    double allGatherTime(boolean bruck, long totalBytes, int p) {
        if (p <= 1) return 0;
        double moved = totalBytes * (p - 1.0) / p * beta;
        return bruck ? log2Ceil(p) * alpha + moved + 2 * totalBytes * gamma : (p - 1) * alpha + moved;
    }

    /** A binomial-tree broadcast of {@code bytes}, or scatter + ring allgather (van de Geijn). */
    double bcastTime(boolean scatterAllgather, long bytes, int p) {
        if (p <= 1) return 0;
        return scatterAllgather ? (p - 1 + p - 1) * alpha + 2 * bytes * (p - 1.0) / p * beta
                : log2Ceil(p) * (alpha + bytes * beta);
    }

    /** The block ring of a commutative reduce-scatter of a vector of {@code totalBytes}. */
    double reduceScatterTime(long totalBytes, int p) {
        if (p <= 1) return 0;
        double frac = (p - 1.0) / p;
        return (p - 1) * alpha + totalBytes * frac * (beta + gamma);
    }

    /** The dissemination barrier: ceil(log2 p) rounds of empty messages. */
    double barrierTime(int p) {
        return log2Ceil(p) * alpha;
    }
}
