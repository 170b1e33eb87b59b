package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * Reduce-scatter of a commutative op as a ring over the caller's blocks (block i, of
 * {@code at[i+1] - at[i]} items, ends at rank i): in step s rank r sends its running result of
 * block (r-s-1) to r+1 and adds the one it receives for block (r-s-2) into its own copy; after
 * n-1 steps block r is complete at rank r. Unlike {@link Ring#reduceScatter} the blocks are
 * the caller's (any sizes), and not cut into segments.
 */
final class BlockRing {
    private BlockRing() {
    }

    /** {@code work} holds this rank's whole vector and is reduced in place. */
    static void reduceScatter(CollChannel ch, Buf work, long[] at, TypeDesc type, OpDesc op, int tag) {
        int n = ch.size(), me = ch.rank();
        long ext = type.extent;
        int right = (me + 1) % n, left = (me - 1 + n) % n;
        long maxBlock = 0;
        for (int i = 0; i < n; i++) maxBlock = Math.max(maxBlock, at[i + 1] - at[i]);
        Buf tmp = CollContext.temp(type, maxBlock * ext);
        for (int step = 0; step < n - 1; step++) {
            int sb = (me - step - 1 + 2 * n) % n;
            int rb = (me - step - 2 + 2 * n) % n;
            ch.sendRecv(right, work, at[sb] * ext, (at[sb + 1] - at[sb]) * ext,
                    left, tmp, 0, (at[rb + 1] - at[rb]) * ext, tag);
            ch.reduce(op, type, tmp, 0, work, at[rb] * ext, at[rb + 1] - at[rb]);
        }
    }
}
