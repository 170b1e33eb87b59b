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
}
