package io.github.mpi4j.buffer;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.Buffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a direct buffer made by {@code MPI.slice} starts inside the buffer it was cut from. With
 * Open MPI's bindings a slice is just an address, so a datatype with a negative lower bound
 * reaches the bytes before it (ompi-java-test's Bakstr packs a vector of stride -2 from
 * {@code slice(buf, 48)}); Java's slice forgets its parent, so mpi4j remembers it here, weakly.
 *
 * <p>Where {@code libmpi4j_dl} is loaded (it tells a direct buffer's address), only the buffers
 * that slices are cut from are remembered, once each, and a slice is found inside them by
 * address when a type needs bytes before it: cutting a slice then costs one comparison instead
 * of a weak reference of its own (about 1.5 µs a slice, which loops that cut a slice per call
 * paid on every call). So any direct buffer lying inside a buffer that {@code MPI.slice} cut from
 * reaches into it, as an address does with Open MPI. Without the library every slice is
 * remembered by itself, as before.
 */
public final class SliceOrigins {

    /** The buffer a slice was cut from and the slice's first element in it. */
    public static final class Origin {
        public final Buffer parent;
        public final int offset;

        Origin(Buffer parent, int offset) {
            this.parent = parent;
            this.offset = offset;
        }
    }

    private static final class Entry extends WeakReference<Buffer> {
        final int key;
        final Origin origin;

        Entry(Buffer slice, int key, Origin origin, ReferenceQueue<Buffer> q) {
            super(slice, q);
            this.key = key;
            this.origin = origin;
        }
    }

    private static final Map<Integer, List<Entry>> ENTRIES = new HashMap<>();
    private static final ReferenceQueue<Buffer> QUEUE = new ReferenceQueue<>();

    private SliceOrigins() {
    }

    /** Records that direct {@code slice} starts at element {@code offset} of {@code parent}; returns the slice. */
    public static <T extends Buffer> T note(Buffer parent, int offset, T slice) {
        if (!slice.isDirect() || offset <= 0) return slice;
        if (HostViews.available()) {
            Parents.remember(parent);
            return slice;
        }
        Origin up = of(parent);
        Origin o = up == null ? new Origin(parent, offset) : new Origin(up.parent, up.offset + offset);
        int key = System.identityHashCode(slice);
        synchronized (ENTRIES) {
            expunge();
            ENTRIES.computeIfAbsent(key, k -> new ArrayList<>(1)).add(new Entry(slice, key, o, QUEUE));
        }
        return slice;
    }

    /** Where {@code b} was cut from by {@code MPI.slice}, or null. */
    public static Origin of(Buffer b) {
        if (b == null || !b.isDirect()) return null;
        if (HostViews.available()) return Parents.containing(b);
        synchronized (ENTRIES) {
            List<Entry> l = ENTRIES.get(System.identityHashCode(b));
            if (l == null) return null;
            for (Entry e : l) if (e.get() == b) return e.origin;
            return null;
        }
    }

    private static void expunge() {
        for (Reference<? extends Buffer> r; (r = QUEUE.poll()) != null; ) {
            Entry e = (Entry) r;
            List<Entry> l = ENTRIES.get(e.key);
            if (l != null) {
                l.remove(e);
                if (l.isEmpty()) ENTRIES.remove(e.key);
            }
        }
    }

    /** The buffers slices were cut from (with the library): weakly, each once. */
    private static final class Parents {
        private static final List<WeakReference<Buffer>> ALL = new ArrayList<>();
        /** The one remembered last: slicing loops cut from the same buffer again and again. */
        private static volatile WeakReference<Buffer> last;

        static void remember(Buffer parent) {
            WeakReference<Buffer> l = last;
            if (l != null && l.get() == parent) return;
            synchronized (ALL) {
                ALL.removeIf(r -> r.get() == null);
                for (WeakReference<Buffer> r : ALL) {
                    if (r.get() == parent) {
                        last = r;
                        return;
                    }
                }
                WeakReference<Buffer> r = new WeakReference<>(parent);
                ALL.add(r);
                last = r;
            }
        }

        /**
         * The remembered buffer of {@code b}'s kind whose memory holds {@code b}'s start at a
         * whole element from its own, the lowest such (the root of a chain of slices); or null.
         */
        static Origin containing(Buffer b) {
            io.github.mpi4j.spi.BaseKind kind = Buffers.kindOf(b);
            if (kind == null) return null;
            long at = HostViews.addressOf(b), unit = kind.bytes;
            Origin best = null;
            long bestStart = Long.MAX_VALUE;
            synchronized (ALL) {
                for (WeakReference<Buffer> r : ALL) {
                    Buffer p = r.get();
                    if (p == null || p == b || Buffers.kindOf(p) != kind) continue;
                    long start = HostViews.addressOf(p);
                    long end = start + p.capacity() * unit;
                    if (start < at && at <= end && (at - start) % unit == 0 && start < bestStart) {
                        best = new Origin(p, (int) ((at - start) / unit));
                        bestStart = start;
                    }
                }
            }
            return best;
        }
    }
}
