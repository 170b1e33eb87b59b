package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.Buf;

/**
 * All-to-all(v) by pairwise exchange: in step k rank r sends its block for r+k and receives the
 * block from r-k; n-1 steps, one peer each, so no rank is flooded. Own blocks are copied by the
 * caller. Counts and displacements are in elements of {@code sext} / {@code rext} bytes.
 */
final class Pairwise {
    private Pairwise() {
    }

    static void allToAllv(CollChannel ch, Buf src, int[] sc, int[] sd, long sext, Buf r, int[] rc, int[] rd, long rext,
                          int tag) {
        int n = ch.size(), me = ch.rank();
        for (int k = 1; k < n; k++) {
            int to = (me + k) % n, from = (me - k + n) % n;
            ch.sendRecv(to, src, (long) sd[to] * sext, (long) sc[to] * sext,
                    from, r, (long) rd[from] * rext, (long) rc[from] * rext, tag);
        }
    }
}
