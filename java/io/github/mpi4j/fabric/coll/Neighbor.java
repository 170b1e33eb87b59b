package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.Neighbours;

/**
 * The neighbour collectives of a fabric communicator with a topology, in their most general
 * form (every other one is a special case): block i of the receive buffer comes from source i,
 * block j of the send buffer goes to destination j; {@code PROC_NULL} neighbours are skipped.
 * All receives are posted first, then all sends, then everything is waited for; one step, as
 * every block has its own peer. Offsets and lengths are in bytes.
 *
 * <p>Tags: a graph takes one tag of the call, and blocks between the same two processes match
 * in the order they are posted (MPI's rule for repeated edges). A Cartesian grid takes two:
 * what a process sends down a dimension arrives at the lower neighbour as the block "from
 * above", and vice versa. With the direction in the tag, a dimension of size 1 or 2, where both
 * neighbours are the same process, still puts every block in its place.
 */
public final class Neighbor {
    private Neighbor() {
    }

    /** Runs the exchange now, on the caller's thread. */
    public static void run(CollChannel ch, Neighbours nb, Buf s, long[] sOff, long[] sLen, Buf r, long[] rOff,
                           long[] rLen) {
        exchange(ch, nb, s, sOff, sLen, r, rOff, rLen);
    }

    /** Records the exchange inside the call and starts it; progress completes the request. */
    public static BackendRequest start(CollChannel ch, Neighbours nb, Buf s, long[] sOff, long[] sLen, Buf r,
                                       long[] rOff, long[] rLen) {
        Recorder rec = new Recorder(ch);
        exchange(rec, nb, s, sOff, sLen, r, rOff, rLen);
        return ch.start(rec.schedule);
    }

    private static void exchange(CollChannel ch, Neighbours nb, Buf s, long[] sOff, long[] sLen, Buf r, long[] rOff,
                                 long[] rLen) {
        int down = ch.tag();
        int up = nb.cartesian ? ch.tag() : down;
        int[] src = nb.sources, dst = nb.destinations;
        CollChannel.CollOp[] ops = new CollChannel.CollOp[src.length + dst.length];
        int k = 0;
        for (int i = 0; i < src.length; i++) {
            if (src[i] == Mpi.PROC_NULL) continue;
            // Block 2d comes from the lower neighbour, which sent it up; block 2d+1 was sent down.
            int tag = i % 2 == 0 ? up : down;
            ops[k++] = ch.irecv(src[i], tag, r, rOff[i], rLen[i]);
        }
        for (int j = 0; j < dst.length; j++) {
            if (dst[j] == Mpi.PROC_NULL) continue;
            int tag = j % 2 == 0 ? down : up;
            ops[k++] = ch.isend(dst[j], tag, s, sOff[j], sLen[j]);
        }
        ch.waitAll(java.util.Arrays.copyOf(ops, k));
    }
}
