package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.Reductions;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Allreduce by direct reduction in shared memory, for the members of a communicator that all
 * live on one node and each own a slot of S bytes that every member has mapped
 * ({@link SharedSlots}).
 *
 * <p>Each slot is used as two halves of H = floor(S/2) bytes (rounded down to a cache line),
 * chunk i going to half i mod 2. The vector is taken in chunks of
 * c = floor(min(H, L * 128 KiB) / extent) items (the last chunk may be shorter): a chunk of
 * 128 KiB per member keeps what a member copies and reduces in its caches between the steps,
 * which measured faster than whole 4 MiB slots (16 MiB of doubles on 2 cores: 1.8 ms instead
 * of 2.6 ms at 2 ranks) with still few barriers per byte. Each chunk of k items is cut into L
 * nearly equal parts ({@link CollContext#chunks}: part i has floor(k/L) or floor(k/L)+1 items,
 * some empty when k &lt; L); member i owns part i. For every chunk, at byte offset
 * b = first item * extent of the user's buffers, in the chunk's half of every slot:
 * <ol>
 *   <li>every member copies the parts it does not own from its send buffer into its slot
 *       (its own part it reduces straight from the send buffer, so it never writes it there);</li>
 *   <li>barrier: all slots hold the chunk;</li>
 *   <li>member i reduces part i, in its result buffer where that is an array or direct buffer
 *       of the reduction's kind ({@link #reduceInResult}): the next member's range is copied
 *       over the result's part, every other member's range (a bulk copy into a heap array
 *       first) and its own items (straight from its send buffer) are combined into it, and the
 *       part is copied over that range of its own slot — no one else reads that range of its
 *       slot at this point. Other result buffers get the same through a heap array, then a
 *       copy to both;</li>
 *   <li>barrier: every part is reduced, in its owner's slot;</li>
 *   <li>every member copies part j from member j's slot into its result buffer, for every
 *       j other than itself.</li>
 * </ol>
 * A member may start the next chunk while others still copy this one out (step 5): the next
 * chunk writes the other half. It can only come back to this half after the next chunk's
 * first barrier, which every member passes only once it has finished step 5 here. One barrier
 * after the last chunk keeps the slots until everyone has read them (slots are per rank: the
 * next collective of any communicator writes them).
 *
 * <p>Each element is reduced by exactly one member, so all members get bit-identical results.
 * Each member writes (L-1)/L of the vector into shared memory and its own part's result, reads
 * (L-1)/L of its part's inputs and (L-1)/L of the results from the others' slots, and sends only
 * the 2 ceil(log2 L) empty barrier messages per chunk (3 before the halves: each chunk ended
 * with a barrier). The barriers go over the communicator's ordinary collective channel with the
 * collective's tag: consecutive barriers use the same peers in the same order, so their
 * messages cannot be confused, and the release/acquire of the shared-memory rings that carry
 * them orders the slot accesses.
 *
 * <p>Writes into the slots go through {@link SharedSlots#write}, which streams them past the
 * cache while plain stores are slow: on 2 cores a 16 MiB allreduce took 3.3 ms with plain stores
 * where the two cores shared a cache and 10-11 ms where they did not, 3.5-4.4 ms with
 * streaming in either.
 *
 * <p>Only for blocking collectives, and only when no rank runs two of them at once (not
 * under THREAD_MULTIPLE): the caller ensures both.
 */
final class ShmAllReduce {
    private ShmAllReduce() {
    }

    /** Bytes of a chunk per member (see above). */
    static final long PART_BYTES = 128 * 1024;

    /**
     * The part size in use: {@link #PART_BYTES}, except while the warm start runs its
     * many-chunk allreduces ({@link SlotWarmUp}). Read once a call.
     */
    static volatile long partBytes = PART_BYTES;

    /** Allreduces this process has run through the slots (tests check that they are used). */
    static final AtomicLong RUNS = new AtomicLong();

    /** Bytes of each of a slot's two halves: half of it, down to a whole cache line where the slot allows. */
    static int halfBytes(SharedSlots slots) {
        int half = slots.bytes() / 2;
        return half >= 64 ? half & ~63 : half;
    }

    /** Whether the schedule handles {@code op} on {@code type} with slots of this size. */
    static boolean applies(SharedSlots slots, TypeDesc type, OpDesc op) {
        if (!op.commutative || op.code == OpCode.USER || op.code == OpCode.REPLACE || op.code == OpCode.NO_OP) {
            return false;
        }
        Layout l = type.layout;
        boolean plain = l == Layout.PRIMITIVE || l == Layout.PAIR || l == Layout.COMPLEX || l == Layout.VALUE_INT;
        return type.isPredefined() && plain && type.extent > 0 && type.extent <= halfBytes(slots);
    }

    /**
     * Reduces {@code count} items of {@code src} over all members into {@code r}
     * ({@code src} may be {@code r}: in place).
     */
    static void run(CollChannel ch, SharedSlots slots, Buf src, Buf r, int count, TypeDesc type, OpDesc op,
                    int tag) {
        RUNS.incrementAndGet();
        int n = ch.size(), me = ch.rank();
        long ext = type.extent;
        int half = halfBytes(slots);
        int perChunk = (int) (Math.min(half, n * partBytes) / ext);
        long widest = (Math.min(perChunk, count) + n - 1) / n; // items of the largest part
        Buf acc = slots.scratch(0, CollContext.tempKind(type), widest * ext);
        Buf peer = slots.scratch(1, CollContext.tempKind(type), widest * ext);
        ByteBuffer mine = slots.of(me);
        boolean srcReducible = src.isArray() && src.kind == acc.kind;
        boolean inResult = reducibleIn(r, acc) && (src == r || reducibleIn(src, acc));
        int chunk = 0;
        for (long first = 0; first < count; first += perChunk, chunk++) {
            int items = (int) Math.min(perChunk, count - first);
            long base = first * ext;
            int region = (chunk & 1) * half;
            long[] at = CollContext.chunks(items, n);
            int off = (int) (at[me] * ext);
            int part = (int) (at[me + 1] - at[me]);
            int len = (int) (part * ext);

            if (off > 0) slots.write(mine, region, src, base, off);
            int after = (int) (items * ext) - off - len;
            if (after > 0) slots.write(mine, region + off + len, src, base + off + len, after);
            Barrier.run(ch, tag);

            if (part > 0 && inResult) {
                reduceInResult(slots, src, r, base + off, region + off, len, part, type, op, peer, n, me);
            } else if (part > 0) {
                BufAccess.put(slots.of((me + 1) % n), region + off, acc, 0, len);
                for (int k = 2; k < n; k++) {
                    BufAccess.put(slots.of((me + k) % n), region + off, peer, 0, len);
                    Reductions.reduce(op, type, peer, 0, acc, 0, part);
                }
                if (srcReducible) {
                    Reductions.reduce(op, type, src, base + off, acc, 0, part);
                } else {
                    BufAccess.copy(src, base + off, peer, 0, len);
                    Reductions.reduce(op, type, peer, 0, acc, 0, part);
                }
                slots.write(mine, region + off, acc, 0, len);
                BufAccess.copy(acc, 0, r, base + off, len);
            }
            Barrier.run(ch, tag);

            for (int j = 0; j < n; j++) {
                int from = (int) (at[j] * ext), bytes = (int) ((at[j + 1] - at[j]) * ext);
                if (j != me && bytes > 0) BufAccess.put(slots.of(j), region + from, r, base + from, bytes);
            }
        }
        Barrier.run(ch, tag);
    }

    /**
     * Whether {@code b} holds items of the reduction's kind (that of the scratch {@code like}) in
     * an array or a direct buffer: {@link Reductions} combines such operands in place, arrays in
     * Java, direct memory in C.
     */
    private static boolean reducibleIn(Buf b, Buf like) {
        return b.kind == like.kind && (b.isArray() || b.isDirect());
    }

    /**
     * Step 3 where the result buffer is an array or direct buffer the reduction works on: the
     * part is combined in the result itself, then written to this member's slot. Three passes
     * over the part, not the four of combining in a scratch array and copying it to both. Not
     * in place, the next member's items are copied over the result's part first and this
     * member's own are combined last (the op is commutative); in place, the result's part
     * holds its own already.
     */
    private static void reduceInResult(SharedSlots slots, Buf src, Buf r, long at, int slotAt, int len, int part,
                                       TypeDesc type, OpDesc op, Buf peer, int n, int me) {
        int first = 1;
        if (src != r) {
            BufAccess.put(slots.of((me + 1) % n), slotAt, r, at, len);
            first = 2;
        }
        for (int k = first; k < n; k++) {
            BufAccess.put(slots.of((me + k) % n), slotAt, peer, 0, len);
            Reductions.reduce(op, type, peer, 0, r, at, part);
        }
        if (src != r) Reductions.reduce(op, type, src, at, r, at, part);
        slots.write(slots.of(me), slotAt, r, at, len);
    }
}
