package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * Allreduce of medium messages (Rabenseifner). After folding the excess ranks
 * ({@link ExcessRanks}) the vector is cut into p pieces; piece i ends up complete at virtual
 * rank i. Recursive halving: in round k partners exchange the half of their current range of
 * pieces that the other keeps, and each reduces the half it keeps. Then recursive doubling
 * retraces the halving in reverse, exchanging the reduced ranges. Each rank moves about
 * 2 len (p-1)/p bytes in 2 log2(p) messages.
 */
final class Rabenseifner {
    private Rabenseifner() {
    }

    /**
     * {@code send} may be {@link Buf#IN_PLACE} (the data is in {@code buf}). With a separate send
     * buffer and a power of two ranks, the first halving round receives the partner's half
     * straight into {@code buf} and folds this rank's half in from {@code send}: {@code buf} is
     * never filled with a copy of {@code send} first (the other half is written by the
     * allgather).
     */
    static void allReduce(CollContext c, Buf send, Buf buf, int count, TypeDesc type, OpDesc op, int tag) {
        CollChannel ch = c.ch;
        int n = ch.size();
        int p = Integer.highestOneBit(n), rem = n - p;
        long len = CollContext.bytes(count, type), ext = type.extent;
        if (send != Buf.IN_PLACE && rem > 0) {
            // The excess ranks' fold works on the whole vector in buf.
            ch.copy(send, 0, buf, 0, len);
            send = Buf.IN_PLACE;
        }
        Buf tmp = c.scratch(1, type, len);
        int vr = ExcessRanks.fold(ch, buf, count, type, op, p, tag, tmp);
        if (vr >= 0) {
            long[] at = CollContext.chunks(count, p);
            int lo = 0, hi = p; // current range of pieces [lo, hi)
            int[] los = new int[32], his = new int[32];
            int depth = 0;
            for (int mask = p >> 1; mask > 0; mask >>= 1) {
                int partner = ExcessRanks.real(vr ^ mask, rem);
                int mid = lo + (hi - lo) / 2;
                boolean keepLow = (vr & mask) == 0;
                int keepLo = keepLow ? lo : mid, keepHi = keepLow ? mid : hi;
                int sendLo = keepLow ? mid : lo, sendHi = keepLow ? hi : mid;
                long keepOff = at[keepLo] * ext, keepLen = (at[keepHi] - at[keepLo]) * ext;
                // Only commutative ops come here (Collectives sends the others to an order-keeping
                // schedule), so the partner's half can be folded into this rank's own copy
                // whichever side it comes from: no copy back.
                if (send != Buf.IN_PLACE) {
                    ch.sendRecv(partner, send, at[sendLo] * ext, (at[sendHi] - at[sendLo]) * ext,
                            partner, buf, keepOff, keepLen, tag);
                    ch.reduce(op, type, send, keepOff, buf, keepOff, at[keepHi] - at[keepLo]);
                    send = Buf.IN_PLACE;
                } else {
                    ch.sendRecv(partner, buf, at[sendLo] * ext, (at[sendHi] - at[sendLo]) * ext,
                            partner, tmp, keepOff, keepLen, tag);
                    ch.reduce(op, type, tmp, keepOff, buf, keepOff, at[keepHi] - at[keepLo]);
                }
                los[depth] = lo;
                his[depth] = hi;
                depth++;
                lo = keepLo;
                hi = keepHi;
            }
            // Allgather: retrace the halving in reverse, exchanging the pieces each side owns.
            for (int mask = 1; mask < p; mask <<= 1) {
                depth--;
                int partner = ExcessRanks.real(vr ^ mask, rem);
                int plo = los[depth], phi = his[depth];
                int mid = plo + (phi - plo) / 2;
                boolean mineLow = lo == plo;
                int otherLo = mineLow ? mid : plo, otherHi = mineLow ? phi : mid;
                ch.sendRecv(partner, buf, at[lo] * ext, (at[hi] - at[lo]) * ext,
                        partner, buf, at[otherLo] * ext, (at[otherHi] - at[otherLo]) * ext, tag);
                lo = plo;
                hi = phi;
            }
        }
        ExcessRanks.unfold(ch, buf, len, p, tag);
    }
}
