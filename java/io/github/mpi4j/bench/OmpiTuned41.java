package io.github.mpi4j.bench;

/**
 * Which algorithm Open MPI 4.1's {@code coll/tuned} component picks with its fixed decision
 * rules (no dynamic rules file, no forced algorithm), for commutative operations on
 * communicators of 64 to 2047 ranks: the rows of its decision functions for those sizes,
 * written out as a lookup for the scaling study's model table (docs/scaling.md). Sizes are
 * Open MPI's keys: the message for allreduce and bcast, <em>each rank's block</em> for
 * allgather and reduce-scatter-block.
 */
final class OmpiTuned41 {
    private OmpiTuned41() {
    }

    static final int MIN_RANKS = 64, MAX_RANKS = 2047;

    private static void checkRanks(int p) {
        if (p < MIN_RANKS || p > MAX_RANKS) {
            throw new IllegalArgumentException("the table covers " + MIN_RANKS + ".." + MAX_RANKS + " ranks, not " + p);
        }
    }

    /** Allreduce of {@code bytes} (commutative op). */
    static String allReduce(long bytes, int p) {
        checkRanks(p);
        if (p < 128) return bytes < 262144 ? "recursive_doubling" : "rabenseifner";
        if (p < 256) {
            if (bytes < 131072) return "nonoverlapping";
            return bytes < 262144 ? "recursive_doubling" : "rabenseifner";
        }
        if (p < 512) return bytes < 4096 ? "nonoverlapping" : "rabenseifner";
        if (bytes < 2048) return "nonoverlapping";
        return bytes < 16384 ? "recursive_doubling" : "rabenseifner";
    }

    /** Bcast of {@code bytes}. */
    static String bcast(long bytes, int p) {
        checkRanks(p);
        if (p < 128) return "knomial";
        if (p < 256) {
            if (bytes < 2) return "binomial";
            if (bytes < 16384) return "binary_tree";
            if (bytes < 32768) return "basic_linear";
            if (bytes < 65536) return "binary_tree";
            return "knomial";
        }
        if (p < 1024) {
            if (bytes < 16384) return "knomial";
            return bytes < 32768 ? "split_binary_tree" : "knomial";
        }
        return bytes < 524288 ? "knomial" : "scatter_allgather";
    }

    /** Allgather where each rank contributes {@code blockBytes}. */
    static String allGather(long blockBytes, int p) {
        checkRanks(p);
        long b = blockBytes;
        if (p < 128) {
            if (b < 512) return "recursive_doubling";
            return b < 65536 ? "neighbor" : "ring";
        }
        if (p < 256) {
            if (b < 512) return "recursive_doubling";
            if (b < 131072) return "neighbor";
            if (b < 524288) return "ring";
            return b < 1048576 ? "neighbor" : "ring";
        }
        if (p < 512) {
            if (b < 32) return "recursive_doubling";
            if (b < 128) return "bruck";
            if (b < 1024) return "recursive_doubling";
            if (b < 131072) return "neighbor";
            if (b < 524288) return "ring";
            return b < 1048576 ? "neighbor" : "ring";
        }
        if (p < 1024) {
            if (b < 64) return "recursive_doubling";
            if (b < 256) return "bruck";
            return b < 2048 ? "recursive_doubling" : "neighbor";
        }
        if (b < 4) return "recursive_doubling";
        if (b < 8) return "bruck";
        if (b < 16) return "recursive_doubling";
        if (b < 32) return "bruck";
        if (b < 256) return "recursive_doubling";
        if (b < 512) return "bruck";
        return b < 4096 ? "recursive_doubling" : "neighbor";
    }

    /** Reduce-scatter-block where each rank receives {@code blockBytes} (commutative op; one row from 32 ranks on). */
    static String reduceScatterBlock(long blockBytes, int p) {
        checkRanks(p);
        long b = blockBytes;
        if (b < 4) return "recursive_halving";
        if (b < 16) return "basic_linear";
        if (b < 65536) return "butterfly";
        return b < 262144 ? "basic_linear" : "butterfly";
    }

    static String barrier(int p) {
        checkRanks(p);
        if (p < 256) return "bruck";
        if (p < 512) return "tree";
        return p < 1024 ? "bruck" : "tree";
    }
}
