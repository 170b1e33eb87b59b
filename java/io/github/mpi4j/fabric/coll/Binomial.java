package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/** Binomial trees: the broadcast of small messages and the reduction toward one rank. */
final class Binomial {
    private Binomial() {
    }

    /**
     * Broadcast over ranks relative to the root: in round k a rank that has the data sends it to
     * the rank 2^k further on. log2(n) rounds, the whole message each time.
     */
    static void bcast(CollChannel ch, Buf buf, long off, long len, int root, int tag) {
        int n = ch.size(), vr = (ch.rank() - root + n) % n;
        int mask = 1;
        while (mask < n) {
            if ((vr & mask) != 0) {
                ch.recv((vr - mask + root) % n, tag, buf, off, len);
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while (mask > 0) {
            if (vr + mask < n) ch.send((vr + mask + root) % n, tag, buf, off, len);
            mask >>= 1;
        }
    }

    /**
     * Reduction toward {@code base} (ranks taken relative to it): in round k a rank whose bit k
     * is set sends its partial result (covering 2^k ranks) to the rank 2^k below and stops; the
     * receiver combines "own op received", keeping rank order. Returns the buffer holding the
     * final result at {@code base} (a partial one elsewhere): {@code acc} or a temporary.
     */
    static Buf reduce(CollChannel ch, Buf acc, int count, TypeDesc type, OpDesc op, int base, int tag) {
        int n = ch.size(), vr = (ch.rank() - base + n) % n;
        long len = CollContext.bytes(count, type);
        Buf tmp = null;
        for (int mask = 1; mask < n; mask <<= 1) {
            if ((vr & mask) != 0) {
                ch.send((vr - mask + base) % n, tag, acc, 0, len);
                break;
            }
            if (vr + mask < n) {
                if (tmp == null) tmp = CollContext.temp(type, len);
                ch.recv((vr + mask + base) % n, tag, tmp, 0, len);
                // acc holds ranks [vr, vr+mask), tmp [vr+mask, vr+2mask): result = acc op tmp.
                ch.reduce(op, type, acc, 0, tmp, 0, count);
                Buf t = acc;
                acc = tmp;
                tmp = t;
            }
        }
        return acc;
    }
}
