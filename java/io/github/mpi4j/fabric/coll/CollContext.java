package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.TypeDesc;
import java.util.ArrayList;

/**
 * What an algorithm runs with: the channel it talks on, the cost model's constants it needs
 * (segment size), reusable temporaries, and the parts of the node layout. Algorithms are static
 * methods over a context; {@link Collectives} picks them.
 *
 * <p>One context serves the blocking collectives of a communicator (one at a time on the
 * caller's thread, so temporaries can be reused); every non-blocking call gets a fresh one over
 * its {@link Recorder}, so nothing is shared between calls in flight (its temporaries come from
 * the communicator's {@link TempPool} and go back there when its schedule has run to the end).
 */
final class CollContext {
    final CollChannel ch;
    final CostModel model;
    /** Node layout of the channel, worked out at the first node-aware schedule. */
    private NodeLayout layout;
    /** Contexts over the parts of the node layout, made once (their temporaries are reused). */
    private CollContext localPart, leadersPart, peersPart;
    /** The node-aware schedule's two levels over those parts, made once. */
    private FabricTwoLevel twoLevel;

    /**
     * Reusable temporaries of the allreduce schedules: slot 0 holds the heap copy of a direct
     * buffer, slot 1 the schedule's receive area. Zeroing and collecting a fresh 16 MiB array
     * per call cost as much as moving the data. Every schedule writes a region of its
     * temporary before reading it.
     */
    private final Buf[] scratch = new Buf[2];
    /**
     * A non-blocking call's context takes its temporaries from its communicator's pool and
     * lists them here (with those of its parts), to give them back when its schedule has run
     * to the end; null for the blocking context, which keeps its own.
     */
    private final TempPool pool;
    private final ArrayList<Buf> taken;

    CollContext(CollChannel ch, CostModel model) {
        this(ch, model, null, null);
    }

    private CollContext(CollChannel ch, CostModel model, TempPool pool, ArrayList<Buf> taken) {
        this.ch = ch;
        this.model = model;
        this.pool = pool;
        this.taken = taken;
    }

    /** The context of one non-blocking call, with temporaries from {@code pool} (see {@link #giveBack}). */
    static CollContext pooled(CollChannel ch, CostModel model, TempPool pool) {
        return new CollContext(ch, model, pool, new ArrayList<>(2));
    }

    /** Gives the temporaries of this call (and its parts) back to the pool: only once nothing can use them. */
    void giveBack() {
        if (pool == null) return;
        for (Buf b : taken) pool.give(b);
        taken.clear();
    }

    int tag() {
        return ch.tag();
    }

    Buf scratch(int slot, TypeDesc t, long bytes) {
        Buf b = scratch[slot];
        // Over TCP a direct temporary is read and written without a staging copy (and reduced
        // by NativeReduce's C loop); otherwise arrays, which the JIT vectorizes.
        BaseKind kind = tempKind(t);
        boolean direct = ch.directTemporaries() && t.layout == Layout.PRIMITIVE && kind != BaseKind.BOOLEAN;
        if (b == null || b.kind != kind || b.byteLength() < bytes || b.isDirect() != direct) {
            if (pool == null) {
                b = BufAccess.allocate(kind, Math.max(bytes, 0), direct);
            } else {
                // Recorded steps may still name the buffer this one replaces: both go back at the end.
                b = pool.take(kind, bytes, direct);
                taken.add(b);
            }
            scratch[slot] = b;
        }
        return b;
    }

    NodeLayout layout() {
        NodeLayout l = layout;
        if (l == null) layout = l = NodeLayout.of(ch);
        return l;
    }

    /** The context over a part of this channel's node layout (same cost model; tags given by the caller). */
    CollContext over(CollChannel part) {
        NodeLayout l = layout();
        if (part == l.local) return localPart != null ? localPart : (localPart = sub(part, model));
        // The leaders and the peers talk across nodes: network costs pick their algorithms.
        if (part == l.leaders) {
            return leadersPart != null ? leadersPart : (leadersPart = sub(part, model.acrossNodes()));
        }
        if (part == l.peers) {
            return peersPart != null ? peersPart : (peersPart = sub(part, model.acrossNodes()));
        }
        return sub(part, model);
    }

    /** A context over {@code part} that takes its temporaries as this one does. */
    private CollContext sub(CollChannel part, CostModel m) {
        return new CollContext(part, m, pool, taken);
    }

    /** The two levels of the node layout for the call with {@code tag}. */
    TwoLevel twoLevel(int tag) {
        if (twoLevel == null) twoLevel = new FabricTwoLevel(this);
        return twoLevel.forTag(tag);
    }

    // ---- helpers shared by the algorithms -------------------------------------------------

    static long bytes(int count, TypeDesc t) {
        return t == null ? 0 : (long) count * t.extent;
    }

    /** Element kind of the temporaries for {@code t}: its array kind (bytes for objects). */
    static BaseKind tempKind(TypeDesc t) {
        return t.arrayKind == BaseKind.OBJECT ? BaseKind.BYTE : t.arrayKind;
    }

    /** A temporary heap array for {@code bytes} of {@code t} (arrays reduce fastest: the JIT vectorizes them). */
    static Buf temp(TypeDesc t, long bytes) {
        return BufAccess.allocate(tempKind(t), Math.max(bytes, 0), false);
    }

    /** Splits {@code count} items into {@code parts} nearly equal chunks; returns item offsets (parts + 1 entries). */
    static long[] chunks(int count, int parts) {
        long[] at = new long[parts + 1];
        long base = count / parts, extra = count % parts;
        for (int i = 0; i < parts; i++) at[i + 1] = at[i] + base + (i < extra ? 1 : 0);
        return at;
    }

    /** An empty buffer, for messages that only signal. */
    static final Buf NONE = new Buf(new byte[0], BaseKind.BYTE, 0, 0);
}
