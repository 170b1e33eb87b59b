package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.lang.ref.WeakReference;
import java.util.List;

/**
 * The {@link Buf}s made lately for sends and for receives, handed out again when a call names the
 * same memory: a loop that sends from one array, or rotates through a window of them (OSU's
 * {@code osu_bw} and {@code osu_mbw_mr}, a halo exchange's buffers), allocates no descriptor per
 * message. A small two-way set-associative cache per direction, indexed by the memory's identity
 * hash: two buffers whose hashes meet in one set both stay (a direct-mapped cache of 256 slots
 * lost about 7 of a 64-buffer window to such meetings, each a new descriptor and weak reference
 * per message). A miss puts the new descriptor first in its set and moves the first one second;
 * a hit allocates nothing and writes nothing.
 *
 * <p>A {@code Buf} never changes (final fields), so threads may share it, and a slot read racily
 * gives either a whole descriptor or a miss. The references are weak, so the cache keeps no user
 * array alive (after a collection the next call makes a new descriptor).
 */
final class RecentBufs {
    private RecentBufs() {
    }

    /** Sets per direction, of two slots each: far more than a typical window of outstanding messages (64). */
    private static final int SETS = 1024;

    @SuppressWarnings("unchecked")
    private static final WeakReference<Buf>[] SENDS = new WeakReference[2 * SETS], RECEIVES = new WeakReference[2 * SETS];

    /**
     * The descriptor kept for {@code base} from {@code offset} in this direction, or null. An array's
     * or a buffer's kind and size never change, and one is kept only after every check of its
     * direction passed, so a hit is what {@link #of} would hand out again for the same memory.
     */
    static Buf find(Object base, int offset, boolean writable) {
        WeakReference<Buf>[] slots = writable ? RECEIVES : SENDS;
        int first = firstSlot(base, offset);
        Buf b = held(slots[first]);
        if (sameStart(b, base, offset)) return b;
        b = held(slots[first + 1]);
        return sameStart(b, base, offset) ? b : null;
    }

    static Buf of(Object base, BaseKind kind, int offset, int length, boolean writable) {
        WeakReference<Buf>[] slots = writable ? RECEIVES : SENDS;
        int first = firstSlot(base, offset);
        WeakReference<Buf> a = slots[first];
        Buf b = held(a);
        if (matches(b, base, kind, offset, length)) return b;
        b = held(slots[first + 1]);
        if (matches(b, base, kind, offset, length)) return b;
        b = new Buf(base, kind, offset, length);
        slots[first + 1] = a;
        slots[first] = new WeakReference<>(b);
        return b;
    }

    /**
     * Drops every cached descriptor the way a collection that freed their buffers would (the
     * weak references cleared, the slots kept). The warm start takes this path so that the JIT
     * has seen it before a program's first collection does.
     */
    static void forgetAll() {
        for (WeakReference<Buf>[] slots : List.of(SENDS, RECEIVES)) {
            for (WeakReference<Buf> r : slots) {
                if (r != null) r.clear();
            }
        }
    }

    private static int firstSlot(Object base, int offset) {
        return ((System.identityHashCode(base) ^ offset) & (SETS - 1)) << 1;
    }

    private static Buf held(WeakReference<Buf> slot) {
        return slot == null ? null : slot.get();
    }

    private static boolean matches(Buf b, Object base, BaseKind kind, int offset, int length) {
        return sameStart(b, base, offset) && b.length == length && b.kind == kind;
    }

    private static boolean sameStart(Buf b, Object base, int offset) {
        return b != null && b.base == base && b.offset == offset;
    }
}
