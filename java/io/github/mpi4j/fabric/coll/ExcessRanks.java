package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * The "excess ranks" step of the power-of-two schedules for any n: with p the largest power of
 * two &lt;= n and rem = n - p, ranks below 2*rem pair up (the even one sends its vector to the
 * odd one, which combines "lower op mine") so that p ranks remain, virtual ranks 0..p-1; after
 * the schedule the odd ones hand the result back.
 */
final class ExcessRanks {
    private ExcessRanks() {
    }

    /** Folds the excess in; returns this rank's virtual rank among the p, or -1 if it dropped out. */
    static int fold(CollChannel ch, Buf buf, int count, TypeDesc type, OpDesc op, int p, int tag, Buf tmp) {
        int r = ch.rank(), rem = ch.size() - p;
        long len = CollContext.bytes(count, type);
        if (r < 2 * rem) {
            if (r % 2 == 0) {
                ch.send(r + 1, tag, buf, 0, len);
                return -1;
            }
            ch.recv(r - 1, tag, tmp, 0, len);
            ch.reduce(op, type, tmp, 0, buf, 0, count); // lower rank's data op mine
            return r / 2;
        }
        return r - rem;
    }

    /** The real rank of virtual rank {@code vr}. */
    static int real(int vr, int rem) {
        return vr < rem ? 2 * vr + 1 : vr + rem;
    }

    /** Gives the dropped-out even ranks the final result. */
    static void unfold(CollChannel ch, Buf buf, long len, int p, int tag) {
        int r = ch.rank(), rem = ch.size() - p;
        if (r < 2 * rem) {
            if (r % 2 == 0) ch.recv(r + 1, tag, buf, 0, len);
            else ch.send(r - 1, tag, buf, 0, len);
        }
    }
}
