package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.Mpi;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ConcurrentLinkedQueue;
import mpi.MPIException;

/**
 * Native memory for Java arrays that cannot be pinned during an MPI call (non-blocking and
 * persistent operations, THREAD_MULTIPLE, user reductions). Buffers come in power-of-two size
 * classes and are reused, so staging costs one copy and no allocation in steady state.
 *
 * <p>The smallest class (a small message's) is also kept per thread, without atomics: a window
 * of 64 small non-blocking messages took and gave back 64 buffers through the shared queues,
 * each a compare-and-set, a counter update and a queue node.
 */
final class StagingPool {
    private StagingPool() {
    }

    /** Malloc'ed staging memory: a native-order direct buffer over it and its address. */
    static final class Slab {
        final ByteBuffer buf;
        final long address;

        private Slab(ByteBuffer buf) {
            this.buf = buf.order(ByteOrder.nativeOrder());
            this.address = MpiNative.address0(buf);
        }

        private static Slab allocate(long bytes) {
            return new Slab(MpiNative.allocateStaging0(bytes));
        }

        private void free() {
            MpiNative.freeStaging0(buf);
        }
    }

    private static final int MIN_SHIFT = 12;          // 4 KiB
    private static final int MAX_POOLED_SHIFT = 27;   // 128 MiB; larger ones are not kept
    /**
     * Buffers kept per size class: up to 256 MiB of each class (at least 16 buffers), so a window
     * of 64 non-blocking 4 MiB messages reuses its staging. The pool only ever holds what was
     * once in flight at the same time; what it does not keep is freed at once (malloc/free, not
     * the GC: dropped direct buffers pile up until a GC, and allocateDirect then stalls).
     */
    private static int keep(int sizeClass) {
        return Math.max(16, (256 << 20) >> sizeClass);
    }

    /** Slabs of the smallest class a thread keeps for itself (512 KiB): two windows of 64. */
    static final int LOCAL_KEEP = 128;

    /** One thread's slabs of the smallest class; freed when the thread ends ({@link #CLEANER}). */
    private static final class Local {
        final Slab[] slabs = new Slab[LOCAL_KEEP];
        int count;
    }

    private static final Cleaner CLEANER = Cleaner.create();

    private static final ThreadLocal<Local> LOCAL = ThreadLocal.withInitial(() -> {
        Local l = new Local();
        Slab[] slabs = l.slabs;  // the action must not hold the Local, or it would never run
        CLEANER.register(l, () -> {
            for (Slab s : slabs) if (s != null) s.free();
        });
        return l;
    });

    /** Staging of requests freed while active: MPI may still use it, so it is never freed. */
    private static final ConcurrentLinkedQueue<Slab> ORPHANS = new ConcurrentLinkedQueue<>();

    @SuppressWarnings("unchecked")
    private static final ConcurrentLinkedQueue<Slab>[] FREE = new ConcurrentLinkedQueue[MAX_POOLED_SHIFT + 1];

    private static final java.util.concurrent.atomic.AtomicIntegerArray KEPT =
            new java.util.concurrent.atomic.AtomicIntegerArray(MAX_POOLED_SHIFT + 1);

    static {
        for (int i = 0; i < FREE.length; i++) FREE[i] = new ConcurrentLinkedQueue<>();
    }

    private static int sizeClass(long bytes) {
        int shift = 64 - Long.numberOfLeadingZeros(Math.max(1, bytes - 1));
        return Math.max(MIN_SHIFT, shift);
    }

    /** Staging of at least {@code bytes} bytes. */
    static Slab take(long bytes) {
        if (bytes > Integer.MAX_VALUE) {
            throw MPIException.of(Mpi.ERR_COUNT, "staging an array of " + bytes + " bytes exceeds 2 GiB");
        }
        int c = sizeClass(bytes);
        if (c == MIN_SHIFT) {
            Local l = LOCAL.get();
            if (l.count > 0) {
                Slab s = l.slabs[--l.count];
                l.slabs[l.count] = null;
                return s;
            }
        }
        if (c <= MAX_POOLED_SHIFT) {
            Slab s = FREE[c].poll();
            if (s != null) {
                KEPT.decrementAndGet(c);
                return s;
            }
            return Slab.allocate(1L << c);
        }
        return Slab.allocate(bytes);
    }

    static void give(Slab s) {
        int capacity = s.buf.capacity();
        if (capacity == 1 << MIN_SHIFT) {
            Local l = LOCAL.get();
            if (l.count < LOCAL_KEEP) {
                l.slabs[l.count++] = s;
                return;
            }
        }
        int c = sizeClass(capacity);
        if (c <= MAX_POOLED_SHIFT && capacity == 1 << c) {
            if (KEPT.incrementAndGet(c) <= keep(c)) {
                FREE[c].offer(s);
                return;
            }
            KEPT.decrementAndGet(c);
        }
        s.free();
    }

    /** Memory of a request freed while MPI may still use it: kept (leaked) rather than freed. */
    static void orphan(Slab s) {
        ORPHANS.add(s);
    }
}
