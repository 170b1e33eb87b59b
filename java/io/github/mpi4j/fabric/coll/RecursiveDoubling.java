package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * Allreduce of small messages: after folding the excess ranks ({@link ExcessRanks}), in round
 * k each rank exchanges its whole vector with the partner whose virtual rank differs in bit k
 * and combines; log2(p) rounds. Every rank ends with the same bits: the lower partner's data
 * always goes first.
 */
final class RecursiveDoubling {
    private RecursiveDoubling() {
    }

    static void allReduce(CollContext c, Buf buf, int count, TypeDesc type, OpDesc op, int tag) {
        CollChannel ch = c.ch;
        int n = ch.size();
        int p = Integer.highestOneBit(n), rem = n - p;
        long len = CollContext.bytes(count, type);
        Buf tmp = c.scratch(1, type, len);
        int vr = ExcessRanks.fold(ch, buf, count, type, op, p, tag, tmp);
        if (vr >= 0) {
            for (int mask = 1; mask < p; mask <<= 1) {
                int partner = ExcessRanks.real(vr ^ mask, rem);
                ch.sendRecv(partner, buf, 0, len, partner, tmp, 0, len, tag);
                if ((vr & mask) != 0) {
                    // partner is lower: result = partner op mine
                    ch.reduce(op, type, tmp, 0, buf, 0, count);
                } else {
                    ch.reduce(op, type, buf, 0, tmp, 0, count);
                    ch.copy(tmp, 0, buf, 0, len);
                }
            }
        }
        ExcessRanks.unfold(ch, buf, len, p, tag);
    }
}
