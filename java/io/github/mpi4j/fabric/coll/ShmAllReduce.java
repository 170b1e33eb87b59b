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
 * <p>The vector is taken in chunks of c = floor(min(S, L * 128 KiB) / extent) items (the last
 * chunk may be shorter): a chunk of 128 KiB per member keeps what a member copies and reduces
 * in its caches between the steps, which measured faster than whole 4 MiB slots (16 MiB of
 * doubles on 2 cores: 1.8 ms instead of 2.6 ms at 2 ranks) with still few barriers per byte.
 * Each chunk of k items is cut into L nearly equal parts ({@link CollContext#chunks}: part i
 * has floor(k/L) or floor(k/L)+1 items, some empty when k &lt; L); member i owns part i.
 * For every chunk, at byte offset b = first item * extent of the user's buffers:
 * <ol>
 *   <li>every member copies its k items (from b) into its slot, at slot offset 0;</li>
 *   <li>barrier: all slots hold the chunk;</li>
 *   <li>member i reduces part i: it copies that byte range of the next member's slot into a
 *       heap array and combines into it the same range of every other member's slot (a bulk
 *       copy into a second heap array and the array reduction, which the JIT vectorizes, for
 *       each) and its own items (straight from its array), then writes the result back over
 *       that range of its own slot — no one else reads that range of its slot at this
 *       point;</li>
 *   <li>barrier: every part is reduced, in its owner's slot;</li>
 *   <li>every member copies part j from member j's slot into its result buffer at b + the
 *       part's offset;</li>
 *   <li>barrier: nobody reads any slot any more, so the next chunk (or the next collective of
 *       any communicator: slots are per rank) may overwrite them.</li>
 * </ol>
 * Each element is reduced by exactly one member, so all members get bit-identical results.
 * Each member writes the vector into shared memory once, reads about (L-1)/L of it from the
 * others' slots for the reduction and all of it from the slots for the result, and sends
 * only the 3 ceil(log2 L) empty barrier messages per chunk. The barriers go over the communicator's ordinary collective channel
 * with the collective's tag: consecutive barriers use the same peers in the same order, so
 * their messages cannot be confused, and the release/acquire of the shared-memory rings that
 * carry them orders the slot accesses.
 *
 * <p>Only for blocking collectives, and only when no rank runs two of them at once (not
 * under THREAD_MULTIPLE): the caller ensures both.
 */
final class ShmAllReduce {
    private ShmAllReduce() {
    }

    /** Bytes of a chunk per member (see above). */
    private static final long PART_BYTES = 128 * 1024;

    /** Allreduces this process has run through the slots (tests check that they are used). */
    static final AtomicLong RUNS = new AtomicLong();

    /** Whether the schedule handles {@code op} on {@code type} with slots of this size. */
    static boolean applies(SharedSlots slots, TypeDesc type, OpDesc op) {
        if (!op.commutative || op.code == OpCode.USER || op.code == OpCode.REPLACE || op.code == OpCode.NO_OP) {
            return false;
        }
        Layout l = type.layout;
        boolean plain = l == Layout.PRIMITIVE || l == Layout.PAIR || l == Layout.COMPLEX || l == Layout.VALUE_INT;
        return type.isPredefined() && plain && type.extent > 0 && type.extent <= slots.bytes();
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
        int perChunk = (int) (Math.min(slots.bytes(), n * PART_BYTES) / ext);
        long widest = (Math.min(perChunk, count) + n - 1) / n; // items of the largest part
        Buf acc = slots.scratch(0, CollContext.tempKind(type), widest * ext);
        Buf peer = slots.scratch(1, CollContext.tempKind(type), widest * ext);
        ByteBuffer mine = slots.of(me);
        for (long first = 0; first < count; first += perChunk) {
            int items = (int) Math.min(perChunk, count - first);
            long base = first * ext;
            long[] at = CollContext.chunks(items, n);
            int off = (int) (at[me] * ext);
            int part = (int) (at[me + 1] - at[me]);
            int len = (int) (part * ext);

            BufAccess.get(src, base, mine, 0, (int) (items * ext));
            Barrier.run(ch, tag);

            if (part > 0) {
                BufAccess.put(slots.of((me + 1) % n), off, acc, 0, len);
                for (int k = 2; k < n; k++) {
                    BufAccess.put(slots.of((me + k) % n), off, peer, 0, len);
                    Reductions.reduce(op, type, peer, 0, acc, 0, part);
                }
                if (src.isArray() && src.kind == acc.kind) {
                    Reductions.reduce(op, type, src, base + off, acc, 0, part);
                } else {
                    BufAccess.put(mine, off, peer, 0, len);
                    Reductions.reduce(op, type, peer, 0, acc, 0, part);
                }
                BufAccess.get(acc, 0, mine, off, len);
            }
            Barrier.run(ch, tag);

            for (int j = 0; j < n; j++) {
                int from = (int) (at[j] * ext), bytes = (int) ((at[j + 1] - at[j]) * ext);
                if (bytes > 0) BufAccess.put(slots.of(j), from, r, base + from, bytes);
            }
            Barrier.run(ch, tag);
        }
    }
}
