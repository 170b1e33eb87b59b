package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.fabric.coll.CollChannel.CollOp;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.TypeDesc;

/**
 * Large broadcast (van de Geijn): the root cuts the message into n nearly equal chunks
 * ({@link CollContext#chunks}) and sends chunk i to rank i; a ring allgather then circulates
 * them. Each rank moves about 2(n-1)/n of the message instead of log2(n) whole copies.
 */
final class ScatterAllgather {
    private ScatterAllgather() {
    }

    static void bcast(CollChannel ch, Buf buf, int count, TypeDesc type, int root, int tag) {
        int n = ch.size(), r = ch.rank();
        long[] at = CollContext.chunks(count, n);
        long ext = type.extent;
        if (r == root) {
            CollOp[] ops = new CollOp[n];
            for (int i = 0; i < n; i++) {
                if (i != root) ops[i] = ch.isend(i, tag, buf, at[i] * ext, (at[i + 1] - at[i]) * ext);
            }
            ch.waitAll(ops);
        } else {
            ch.recv(root, tag, buf, at[r] * ext, (at[r + 1] - at[r]) * ext);
        }
        Ring.allgather(ch, buf, at, ext, tag, 0);
    }
}
