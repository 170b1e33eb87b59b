package io.github.mpi4j.fabric.coll;

/**
 * Dissemination barrier. In round k (k = 1, 2, 4, ...) every rank signals rank + k and hears
 * from rank - k (mod n), with empty messages; after ceil(log2 n) rounds every rank has heard,
 * directly or through others, from every rank.
 */
final class Barrier {
    private Barrier() {
    }

    static void run(CollChannel ch, int tag) {
        int n = ch.size(), r = ch.rank();
        for (int k = 1; k < n; k <<= 1) {
            ch.sendRecv((r + k) % n, CollContext.NONE, 0, 0, (r - k + n) % n, CollContext.NONE, 0, 0, tag);
        }
    }
}
