package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.fabric.coll.CollChannel.CollOp;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.TypeDesc;

/**
 * Gather(v) and scatter(v): the root exchanges with every rank directly, all messages posted at
 * once. Block i of the root's buffer (count_i x extent bytes at displacement_i) belongs to rank i.
 */
final class Linear {
    private Linear() {
    }

    /** Gatherv; non-roots finish with the root's {@link Accepted} message. */
    static void gatherv(CollChannel ch, Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt,
                        int root, int tag, int acceptedTag) {
        int n = ch.size(), me = ch.rank();
        if (me != root) {
            CollOp accepted = Accepted.fromRoot(ch, root, acceptedTag);
            ch.waitAll(ch.isend(root, tag, s, 0, CollContext.bytes(sc, st)), accepted);
            return;
        }
        CollOp[] accepted = Accepted.sendAll(ch, acceptedTag);
        long ext = rt.extent;
        CollOp[] ops = new CollOp[n];
        for (int i = 0; i < n; i++) {
            if (i == me) continue;
            ops[i] = ch.irecv(i, tag, r, (long) displs[i] * ext, (long) rcounts[i] * ext);
        }
        if (s != Buf.IN_PLACE) ch.copy(s, 0, r, (long) displs[me] * ext, CollContext.bytes(sc, st));
        ch.waitAll(ops);
        ch.waitAll(accepted);
    }

    static void scatterv(CollChannel ch, Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt,
                         int root, int tag) {
        int n = ch.size(), me = ch.rank();
        if (me != root) {
            ch.recv(root, tag, r, 0, CollContext.bytes(rc, rt));
            return;
        }
        long ext = st.extent;
        CollOp[] ops = new CollOp[n];
        for (int i = 0; i < n; i++) {
            if (i == me) continue;
            ops[i] = ch.isend(i, tag, s, (long) displs[i] * ext, (long) scounts[i] * ext);
        }
        if (r != Buf.IN_PLACE) ch.copy(s, (long) displs[me] * ext, r, 0, (long) scounts[me] * ext);
        ch.waitAll(ops);
    }
}
