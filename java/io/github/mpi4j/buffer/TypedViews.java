package io.github.mpi4j.buffer;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * Typed native-order views of whole byte buffers, kept per thread for the few buffers a thread
 * copies into and out of again and again (a transport's rings, a staging buffer), so copying an
 * {@code int[]} into a ring allocates no view per message. View element {@code i} is byte
 * {@code i * size} of the buffer. A thread keeps {@link #SLOTS} buffers, replacing in turn,
 * through weak references: a cached view keeps no buffer (and its native memory) alive; after a
 * collection the next copy makes the view again.
 */
final class TypedViews {
    private static final int SLOTS = 4;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    @SuppressWarnings("unchecked")
    private final WeakReference<Views>[] views = new WeakReference[SLOTS];
    private int next;

    private static final ThreadLocal<TypedViews> PER_THREAD = ThreadLocal.withInitial(TypedViews::new);

    /** The views of all of {@code bb} (made on first use on this thread). */
    static Views of(ByteBuffer bb) {
        TypedViews t = PER_THREAD.get();
        for (int i = 0; i < SLOTS; i++) {
            WeakReference<Views> r = t.views[i];
            Views v = r == null ? null : r.get();
            if (v != null && v.source == bb) return v;
        }
        int slot = t.next;
        t.next = (slot + 1) % SLOTS;
        Views v = new Views(bb);
        t.views[slot] = new WeakReference<>(v);
        return v;
    }

    /**
     * Drops this thread's views the way a collection would (the weak references cleared, the
     * slots kept), so that the JIT has seen a cleared slot before a program's first collection
     * does: compiled without that path, the copy methods that inline {@link #of} were thrown
     * away at the first message after one and compiled again (73 ms of C2 measured, in a warm
     * start's first round of messages).
     */
    static void forgetAll() {
        for (WeakReference<Views> r : PER_THREAD.get().views) {
            if (r != null) r.clear();
        }
    }

    /** Lazily made typed views of one buffer, from its byte 0 to its capacity. */
    static final class Views {
        private final ByteBuffer source;
        private final ByteBuffer whole;
        private IntBuffer ints;
        private LongBuffer longs;
        private DoubleBuffer doubles;
        private FloatBuffer floats;
        private ShortBuffer shorts;
        private CharBuffer chars;

        Views(ByteBuffer bb) {
            this.source = bb;
            ByteBuffer d = bb.duplicate().order(NATIVE);
            d.clear();
            this.whole = d;
        }

        IntBuffer ints() {
            return ints != null ? ints : (ints = whole.asIntBuffer());
        }

        LongBuffer longs() {
            return longs != null ? longs : (longs = whole.asLongBuffer());
        }

        DoubleBuffer doubles() {
            return doubles != null ? doubles : (doubles = whole.asDoubleBuffer());
        }

        FloatBuffer floats() {
            return floats != null ? floats : (floats = whole.asFloatBuffer());
        }

        ShortBuffer shorts() {
            return shorts != null ? shorts : (shorts = whole.asShortBuffer());
        }

        CharBuffer chars() {
            return chars != null ? chars : (chars = whole.asCharBuffer());
        }
    }
}
