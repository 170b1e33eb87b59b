package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.spi.Buf;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Broadcast through the root's shared-memory slot, for the members of a communicator that all
 * live on one node and each own a slot that every member has mapped ({@link SharedSlots}).
 *
 * <p>The message goes in chunks of at most {@link #CHUNK_BYTES} and at most a quarter slot;
 * the root's slot of S bytes holds d = S / chunk of them at once, used in turn. For chunk k, in place k mod d of the root's slot:
 * <ol>
 *   <li>the root waits until every other member has said it is done with the chunk that was in
 *       that place before (chunk k - d), copies chunk k in and sends each member an empty
 *       "ready" message;</li>
 *   <li>a member receives "ready", copies the chunk out of the root's slot into its buffer and
 *       sends the root an empty "done" message;</li>
 *   <li>the root returns once every member is done with every chunk: the slot is the root's for
 *       all its collectives on every communicator, and the next one may overwrite it.</li>
 * </ol>
 * Each byte is copied twice (into the slot once, out of it once per member), against a tree's
 * copy into and out of a ring per edge and, above the eager limit, a three-step rendezvous per
 * edge; and there are two message steps per chunk, each of one empty message per member, where
 * a binomial tree has log2 L steps in a row. With more ranks than cores each step waits for a
 * peer to be scheduled, so fewer steps matter most there. The messages travel over the
 * shared-memory rings, whose release and acquire order the slot's writes before its reads.
 * Messages of one kind between two members keep their order, so "ready" and "done" of
 * successive chunks cannot be confused.
 *
 * <p>The root writes its slot through {@link SharedSlots#write}, as {@link ShmAllReduce} does:
 * with the two cores of the development guest in different core complexes a 16 MiB bcast took
 * 2.1 ms with non-temporal stores against 5.0 with plain ones, and the same 1.6 ms either way
 * where they shared a cache.
 *
 * <p>Only for blocking collectives, and only when no rank runs two of them at once (not under
 * THREAD_MULTIPLE): the caller ensures both, as for {@link ShmAllReduce}.
 */
final class ShmBcast {
    private ShmBcast() {
    }

    /** Bytes a chunk holds at most: small enough that readers start while the root still copies. */
    static final int CHUNK_BYTES = 128 * 1024;

    /** Whether the slots are large enough to carry a chunk (a few cache lines). */
    static boolean applies(SharedSlots slots) {
        return slots.bytes() >= 4 * 64;
    }

    /** Broadcasts this process has run through the slots (tests check that they are used). */
    static final AtomicLong RUNS = new AtomicLong();

    /** Broadcasts {@code len} bytes of {@code buf} from member {@code root}. */
    static void run(CollChannel ch, SharedSlots slots, Buf buf, long len, int root, int tag) {
        RUNS.incrementAndGet();
        int n = ch.size(), me = ch.rank();
        // At least four places in the slot, so the root can fill the next while members read.
        int chunk = Math.min(CHUNK_BYTES, slots.bytes() / 4 & ~63);
        int places = slots.bytes() / chunk;
        ByteBuffer slot = slots.of(root);
        if (me == root) {
            CollChannel.CollOp[][] done = new CollChannel.CollOp[places][];
            CollChannel.CollOp[] ready = new CollChannel.CollOp[n - 1];
            int k = 0;
            for (long at = 0; at < len; at += chunk, k++) {
                int place = k % places;
                if (done[place] != null) ch.waitAll(done[place]);
                int bytes = (int) Math.min(chunk, len - at);
                slots.write(slot, place * chunk, buf, at, bytes);
                CollChannel.CollOp[] waits = new CollChannel.CollOp[n - 1];
                for (int i = 1; i < n; i++) {
                    int peer = (root + i) % n;
                    waits[i - 1] = ch.irecv(peer, tag, CollContext.NONE, 0, 0);
                    ready[i - 1] = ch.isend(peer, tag, CollContext.NONE, 0, 0);
                }
                done[place] = waits;
                ch.waitAll(ready);
            }
            for (CollChannel.CollOp[] waits : done) {
                if (waits != null) ch.waitAll(waits);
            }
        } else {
            int k = 0;
            for (long at = 0; at < len; at += chunk, k++) {
                int place = k % places;
                int bytes = (int) Math.min(chunk, len - at);
                ch.recv(root, tag, CollContext.NONE, 0, 0);
                BufAccess.put(slot, place * chunk, buf, at, bytes);
                ch.send(root, tag, CollContext.NONE, 0, 0);
            }
        }
    }
}
