package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.fabric.coll.CollChannel.CollOp;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * Ring schedules: every rank sends only to its right neighbour (r+1) and receives only from its
 * left (r-1), n-1 steps per phase. Bandwidth-optimal for large messages.
 */
final class Ring {
    private Ring() {
    }

    /**
     * Allreduce of large messages: reduce-scatter then allgather, over n chunks. After the
     * reduce-scatter rank r holds chunk (r+1) mod n complete; the allgather circulates the
     * complete chunks. Each rank sends 2(n-1)/n of the message. {@code send} may be
     * {@link Buf#IN_PLACE} (the data is in {@code buf}).
     */
    static void allReduce(CollContext c, Buf send, Buf buf, int count, TypeDesc type, OpDesc op, int tag) {
        long[] at = CollContext.chunks(count, c.ch.size());
        reduceScatter(c, send, buf, type, op, tag, at);
        allgather(c.ch, buf, at, type.extent, tag, 1);
    }

    /**
     * Reduce-scatter: in step s rank r sends chunk (r-s) to r+1 and receives chunk (r-s-1) from
     * r-1, reducing it into its own copy; after n-1 steps rank r holds chunk (r+1) mod n of
     * {@code at} (item offsets) reduced over all ranks in {@code buf}, other chunks hold partial
     * results. Chunks are further cut into segments of {@link CostModel#segmentBytes} so that
     * transfer and reduction overlap.
     *
     * <p>With a separate {@code send} buffer, each chunk of {@code buf} is first written by the
     * step that receives it: the partial result is received straight into {@code buf} and this
     * rank's own data folded in from {@code send} (the op is commutative). No copy of
     * {@code send}, no temporary. In place, segments are received into two alternating
     * temporaries.
     */
    static void reduceScatter(CollContext c, Buf send, Buf buf, TypeDesc type, OpDesc op, int tag, long[] at) {
        CollChannel ch = c.ch;
        int n = ch.size(), r = ch.rank();
        long ext = type.extent;
        long maxChunk = 0;
        for (int i = 0; i < n; i++) maxChunk = Math.max(maxChunk, at[i + 1] - at[i]);
        int right = (r + 1) % n, left = (r - 1 + n) % n;
        long segItems = Math.max(1, c.model.segmentBytes / ext);
        boolean inPlace = send == Buf.IN_PLACE;
        Buf tmp = inPlace ? c.scratch(1, type, Math.min(maxChunk, 2 * segItems) * ext) : null;
        for (int s = 0; s < n - 1; s++) {
            int sendChunk = (r - s + n) % n;
            int recvChunk = (r - s - 1 + 2 * n) % n;
            long sFrom = at[sendChunk], sTo = at[sendChunk + 1];
            long rFrom = at[recvChunk], rTo = at[recvChunk + 1];
            long segs = (rTo - rFrom + segItems - 1) / segItems;
            if (!inPlace) {
                // Every segment has its place in buf: post all the receives before the sends, so
                // that no segment arrives unexpected (and is held in a copy), then fold each in
                // as it arrives. Step 0 sends this rank's own data; later steps pass on what the
                // step before reduced.
                CollOp[] recvs = new CollOp[(int) segs];
                for (int g = 0; g < segs; g++) {
                    long from = rFrom + g * segItems;
                    recvs[g] = ch.irecv(left, tag, buf, from * ext, Math.min(segItems, rTo - from) * ext);
                }
                CollOp[] sends = sendSegments(ch, right, tag, s == 0 ? send : buf, sFrom, sTo, segItems, ext);
                for (int g = 0; g < segs; g++) {
                    long from = rFrom + g * segItems;
                    ch.waitAll(recvs[g]);
                    ch.reduce(op, type, send, from * ext, buf, from * ext, Math.min(segItems, rTo - from));
                }
                ch.waitAll(sends);
                continue;
            }
            // In place: receive segment by segment into two alternating temporaries, reducing
            // each while the next is in flight.
            CollOp[] sends = sendSegments(ch, right, tag, buf, sFrom, sTo, segItems, ext);
            CollOp prev = null;
            long prevFrom = 0, prevItems = 0, prevSlot = 0;
            for (long g = 0; g < segs; g++) {
                long from = rFrom + g * segItems;
                long items = Math.min(segItems, rTo - from);
                long slot = (g & 1) * segItems;
                CollOp cur = ch.irecv(left, tag, tmp, slot * ext, items * ext);
                if (prev != null) {
                    ch.waitAll(prev);
                    ch.reduce(op, type, tmp, prevSlot * ext, buf, prevFrom * ext, prevItems);
                }
                prev = cur;
                prevFrom = from;
                prevItems = items;
                prevSlot = slot;
            }
            if (prev != null) {
                ch.waitAll(prev);
                ch.reduce(op, type, tmp, prevSlot * ext, buf, prevFrom * ext, prevItems);
            }
            ch.waitAll(sends);
        }
    }

    /**
     * Posts the sends of every segment of items [from, to) of {@code src} at once: one message
     * per segment, since the receiver posts one receive per segment and a message may not be
     * split over receives.
     */
    private static CollOp[] sendSegments(CollChannel ch, int right, int tag, Buf src, long from, long to,
                                         long segItems, long ext) {
        CollOp[] sends = new CollOp[(int) ((to - from + segItems - 1) / segItems)];
        for (int g = 0; g < sends.length; g++) {
            long at = from + g * segItems;
            sends[g] = ch.isend(right, tag, src, at * ext, Math.min(segItems, to - at) * ext);
        }
        return sends;
    }

    /**
     * Allgather in place of chunk i of {@code at} (item offsets, elements of {@code ext} bytes),
     * where rank r holds chunk (r + shift) mod n: in step s rank r passes on the chunk it got in
     * step s-1 (its own in step 0). n-1 steps, one chunk each.
     */
    static void allgather(CollChannel ch, Buf buf, long[] at, long ext, int tag, int shift) {
        int n = ch.size(), r = ch.rank();
        int right = (r + 1) % n, left = (r - 1 + n) % n;
        for (int s = 0; s < n - 1; s++) {
            int sendChunk = (r + shift - s + n) % n;
            int recvChunk = (r + shift - s - 1 + 2 * n) % n;
            ch.sendRecv(right, buf, at[sendChunk] * ext, (at[sendChunk + 1] - at[sendChunk]) * ext,
                    left, buf, at[recvChunk] * ext, (at[recvChunk + 1] - at[recvChunk]) * ext, tag);
        }
    }

    /**
     * Allgatherv with the caller's counts and displacements (in elements of {@code ext} bytes):
     * every rank's own block is already in place; in step s rank r passes on block (r-s) and
     * receives block (r-s-1).
     */
    static void allGatherv(CollChannel ch, Buf r, int[] rcounts, int[] displs, long ext, int tag) {
        int n = ch.size(), me = ch.rank();
        int right = (me + 1) % n, left = (me - 1 + n) % n;
        for (int step = 0; step < n - 1; step++) {
            int sb = (me - step + n) % n, rb = (me - step - 1 + 2 * n) % n;
            ch.sendRecv(right, r, (long) displs[sb] * ext, (long) rcounts[sb] * ext,
                    left, r, (long) displs[rb] * ext, (long) rcounts[rb] * ext, tag);
        }
    }
}
