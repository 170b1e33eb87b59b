package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * Scan and exclusive scan as a chain: rank r receives the prefix of ranks 0..r-1 from r-1,
 * combines it with its own data (prefix first, keeping rank order) and passes the new prefix on
 * to r+1. n-1 sequential steps; MPI's scans are rarely large or frequent.
 */
final class Chain {
    private Chain() {
    }

    /** {@code mine} is a temporary holding this rank's data; n > 1. */
    static void scan(CollChannel ch, Buf mine, Buf r, int count, TypeDesc type, OpDesc op, boolean exclusive,
                     int tag) {
        int n = ch.size(), me = ch.rank();
        long len = CollContext.bytes(count, type);
        Buf prefix = mine;
        if (me > 0) {
            Buf before = CollContext.temp(type, len);
            ch.recv(me - 1, tag, before, 0, len);
            if (exclusive) ch.copy(before, 0, r, 0, len);
            ch.reduce(op, type, before, 0, mine, 0, count); // before op mine
        }
        if (!exclusive) ch.copy(prefix, 0, r, 0, len);
        if (me < n - 1) ch.send(me + 1, tag, prefix, 0, len);
    }
}
