package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.fabric.coll.CollChannel.CollOp;

/**
 * The "accepted" protocol of rooted collectives whose non-roots would otherwise finish without
 * hearing from the root (gather(v), reduce): the root sends every other rank an empty message
 * when it starts its part, and a non-root's part completes only once it has it. So a call that
 * the root refuses (arguments only the root can check) fails at every rank, not only there.
 */
final class Accepted {
    private Accepted() {
    }

    /** At the root: tell every other rank that it has taken part. */
    static CollOp[] sendAll(CollChannel ch, int acceptedTag) {
        int n = ch.size(), me = ch.rank();
        CollOp[] ops = new CollOp[n];
        for (int i = 0; i < n; i++) if (i != me) ops[i] = ch.isend(i, acceptedTag, CollContext.NONE, 0, 0);
        return ops;
    }

    /** At a non-root: the root's message, to wait for before returning. */
    static CollOp fromRoot(CollChannel ch, int root, int acceptedTag) {
        return ch.irecv(root, acceptedTag, CollContext.NONE, 0, 0);
    }
}
