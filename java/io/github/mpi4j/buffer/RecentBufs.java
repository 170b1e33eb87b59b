package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.lang.ref.WeakReference;

/**
 * The {@link Buf}s made lately for sends and for receives, handed out again when a call names the
 * same memory: a loop that sends from one array, or rotates through a window of them (OSU's
 * {@code osu_bw} and {@code osu_mbw_mr}, a halo exchange's buffers), allocates no descriptor per
 * message. A small direct-mapped cache per direction, indexed by the memory's identity hash: a
 * miss replaces that one slot (a weak reference and a descriptor), a hit allocates nothing.
 *
 * <p>A {@code Buf} never changes (final fields), so threads may share it, and a slot read racily
 * gives either a whole descriptor or a miss. The references are weak, so the cache keeps no user
 * array alive (after a collection the next call makes a new descriptor).
 */
final class RecentBufs {
    private RecentBufs() {
    }

    /** Slots per direction: more than a typical window of outstanding messages (64). */
    private static final int SLOTS = 256;

    @SuppressWarnings("unchecked")
    private static final WeakReference<Buf>[] SENDS = new WeakReference[SLOTS], RECEIVES = new WeakReference[SLOTS];

    static Buf of(Object base, BaseKind kind, int offset, int length, boolean writable) {
        WeakReference<Buf>[] slots = writable ? RECEIVES : SENDS;
        int slot = (System.identityHashCode(base) ^ offset) & (SLOTS - 1);
        WeakReference<Buf> ref = slots[slot];
        Buf b = ref == null ? null : ref.get();
        if (b != null && b.base == base && b.offset == offset && b.length == length && b.kind == kind) return b;
        b = new Buf(base, kind, offset, length);
        slots[slot] = new WeakReference<>(b);
        return b;
    }
}
