package io.github.mpi4j.fabric.coll;

import java.util.Locale;

/**
 * What the fabric's {@link CostModel} picks for a collective on one node's ranks (no
 * node-aware schedule), and how long it predicts that to take: for the scaling study
 * ({@code io.github.mpi4j.bench.Scaling}, {@code io.github.mpi4j.bench.ScalingModel},
 * docs/scaling.md). The choices follow {@link Collectives} call for call; the times are the
 * model's alpha-beta-gamma terms ({@code CostModel.*Time}), which the choices compare.
 *
 * <p>Sizes: {@code bytes} of doubles. For allreduce and bcast it is the vector; for allgather
 * and reduce-scatter-block it is the whole vector too (allgather's result, reduce-scatter's
 * input): each rank's block is {@code bytes / p}.
 */
public final class Prediction {
    /** An algorithm by the name the fabric's knobs use, and its predicted time. */
    public record Choice(String algorithm, double seconds) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s %.3g s", algorithm, seconds);
        }
    }

    private final CostModel model;
    private final long slotBytes;
    private final int cores;

    private Prediction(CostModel model, long slotBytes, int cores) {
        this.model = model;
        this.slotBytes = slotBytes;
        this.cores = cores;
    }

    /**
     * The model the fabric's communicators use in this process (the same settings:
     * {@code MPI4J_COLL_*}, {@code MPI4J_SHM_COLL_*}, forced algorithms), for ranks that have
     * {@code cores} cores between them.
     */
    public static Prediction fromSettings(int cores) {
        if (cores < 1) throw new IllegalArgumentException("cores " + cores);
        return new Prediction(CostModel.fromSettings(), slotKiB() * 1024, cores);
    }

    /** Each rank's shared-memory slot for collectives, KiB ({@code MPI4J_SHM_COLL_KB}, default 1024; 0: none). */
    public static long slotKiB() {
        String kb = System.getProperty("mpi4j.shm.coll.kb", System.getenv("MPI4J_SHM_COLL_KB"));
        if (kb == null || kb.isBlank()) return 1024;
        try {
            double d = Double.parseDouble(kb.trim());
            if (d >= 0 && !Double.isInfinite(d)) return (long) d;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("MPI4J_SHM_COLL_KB='" + kb + "' is not a non-negative number");
    }

    /**
     * A model with the given constants and no forced algorithm: latency {@code alphaUs}
     * microseconds per message, a link of {@code gbitPerSecond} Gb/s (beta = 8 / rate per byte),
     * reductions at {@code gammaNsPerKiB}; the pipelining segment of the fabric's default. One
     * rank per core (no oversubscription); no shared-memory slots.
     */
    public static Prediction network(double alphaUs, double gbitPerSecond, double gammaNsPerKiB) {
        if (!(alphaUs >= 0) || !(gbitPerSecond > 0) || !(gammaNsPerKiB >= 0)) {
            throw new IllegalArgumentException("alpha " + alphaUs + " µs, link " + gbitPerSecond + " Gb/s, gamma "
                    + gammaNsPerKiB + " ns/KiB");
        }
        double beta = 8.0 / (gbitPerSecond * 1e9);
        CostModel m = new CostModel(alphaUs * 1e-6, beta, gammaNsPerKiB * 1e-9 / 1024, CostModel.DEFAULT_SEGMENT_BYTES,
                Long.MAX_VALUE, null, false, null, null);
        return new Prediction(m, 0, Integer.MAX_VALUE);
    }

    /** Latency per message, seconds. */
    public double alpha() {
        return model.alpha;
    }

    /** Seconds per byte moved. */
    public double beta() {
        return model.beta;
    }

    /** Seconds per byte reduced. */
    public double gamma() {
        return model.gamma;
    }

    /**
     * How many times slower than the model p ranks run on this prediction's cores: every
     * step of these schedules keeps all p ranks busy at once, so with p &gt; cores they take
     * turns, p / cores per step (measured, docs/scaling.md); 1 with a core per rank.
     */
    public double oversubscription(int p) {
        return oversubscription(p, 0);
    }

    /**
     * The same when {@code background} other runnable threads (other programs; not these
     * ranks) share the cores: the scheduler gives each runnable thread an equal share, so the
     * ranks get p / (p + background) of the cores and take (p + background) / cores times as
     * long as on a core each, when that is more than 1.
     */
    public double oversubscription(int p, double background) {
        double f = (p + Math.max(0, background)) / cores;
        return Math.max(1, f);
    }

    /**
     * Allreduce (SUM of doubles) of {@code bytes} over p ranks; {@code slots}: the ranks have
     * shared-memory slots (processes on one node, blocking calls).
     */
    public Choice allReduce(long bytes, int p, boolean slots) {
        int count = (int) Math.min(Integer.MAX_VALUE, bytes / 8);
        if (p <= 1 || count == 0) return new Choice("none", 0);
        if (slots && slotBytes > 0 && model.allReduceInSlots(bytes, p)) {
            return new Choice("shm", shmAllReduceTime(bytes, p));
        }
        CostModel.AllReduce a = model.allReduce(bytes, p, count);
        return new Choice(a.name().toLowerCase(Locale.ROOT), model.allReduceTime(a, bytes, p));
    }

    /**
     * Seconds per byte of a plain copy between the heap and a shared-memory slot: 20 ns/KiB.
     * Not the model's beta (150 ns/KiB), which prices a byte sent as a message (into a ring and
     * out again, with its matching). Derived from ShmAllReduce's measurement, 16 MiB of doubles
     * at 2 ranks in 1.8 ms, less the reduction (see docs/scaling.md).
     */
    static final double SLOT_COPY = 20e-9 / 1024;

    /**
     * {@link ShmAllReduce}: per chunk of min(half a slot, p · 128 KiB) two barriers, and one at
     * the end; per byte a copy into the slots, a copy of the parts out of the slots, the
     * reduction of (p-1)/p of it and the copy out. (The first version priced the copies at
     * beta, the cost of a message byte: 4.7 times the measured time, docs/scaling.md.)
     */
    double shmAllReduceTime(long bytes, int p) {
        long chunk = Math.max(1, Math.min(slotBytes / 2, p * 128L * 1024));
        long chunks = (bytes + chunk - 1) / chunk;
        return (chunks * 2 + 1) * model.barrierTime(p) + bytes * (3 * SLOT_COPY + (p - 1.0) / p * model.gamma);
    }

    /** Bcast of {@code bytes} of doubles over p ranks. */
    public Choice bcast(long bytes, int p) {
        long count = bytes / 8;
        if (p <= 1 || count == 0) return new Choice("none", 0);
        boolean sag = model.bcastScatterAllgather(bytes, p) && count >= p;
        return new Choice(sag ? "scatter_allgather" : "binomial", model.bcastTime(sag, bytes, p));
    }

    /** Allgather whose result is {@code bytes} ({@code bytes / p} from each rank). */
    public Choice allGather(long bytes, int p) {
        if (p <= 1) return new Choice("none", 0);
        boolean bruck = model.allGatherBruck(bytes, p);
        return new Choice(bruck ? "bruck" : "ring", model.allGatherTime(bruck, bytes, p));
    }

    /** Reduce-scatter-block (SUM of doubles) of a vector of {@code bytes} ({@code bytes / p} to each rank). */
    public Choice reduceScatterBlock(long bytes, int p) {
        if (p <= 1) return new Choice("none", 0);
        return new Choice("block_ring", model.reduceScatterTime(bytes, p));
    }

    public Choice barrier(int p) {
        if (p <= 1) return new Choice("none", 0);
        return new Choice("dissemination", model.barrierTime(p));
    }

    /** The choice for a collective by name: allreduce, bcast, allgather, reduce_scatter_block, barrier. */
    public Choice of(String collective, long bytes, int p, boolean slots) {
        switch (collective) {
            case "allreduce": return allReduce(bytes, p, slots);
            case "bcast": return bcast(bytes, p);
            case "allgather": return allGather(bytes, p);
            case "reduce_scatter_block": return reduceScatterBlock(bytes, p);
            case "barrier": return barrier(p);
            default: throw new IllegalArgumentException("unknown collective " + collective);
        }
    }
}
