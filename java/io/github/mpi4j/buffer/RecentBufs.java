package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.lang.ref.WeakReference;

/**
 * The last {@link Buf} made for a send and for a receive, handed out again when the next call
 * names the same memory (a loop sending from one array allocates no descriptor per message).
 * A {@code Buf} never changes, so threads may share it; the references are weak, so a cached
 * entry keeps no user array alive (after a collection the next call makes a new one).
 */
final class RecentBufs {
    private RecentBufs() {
    }

    private static volatile WeakReference<Buf> lastSend, lastRecv;

    static Buf of(Object base, BaseKind kind, int offset, int length, boolean writable) {
        WeakReference<Buf> ref = writable ? lastRecv : lastSend;
        Buf b = ref == null ? null : ref.get();
        if (b != null && b.base == base && b.offset == offset && b.length == length && b.kind == kind) return b;
        b = new Buf(base, kind, offset, length);
        if (writable) lastRecv = new WeakReference<>(b);
        else lastSend = new WeakReference<>(b);
        return b;
    }
}
