package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.Mpi;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ConcurrentLinkedQueue;
import mpi.MPIException;

/**
 * Native memory for Java arrays that cannot be pinned during an MPI call (non-blocking and
 * persistent operations, THREAD_MULTIPLE, user reductions). Buffers come in power-of-two size
 * classes and are reused, so staging costs one copy and no allocation in steady state.
 */
final class StagingPool {
    private StagingPool() {
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

    /** Staging of requests freed while active: MPI may still use it, so it is never freed. */
    private static final ConcurrentLinkedQueue<ByteBuffer> ORPHANS = new ConcurrentLinkedQueue<>();

    @SuppressWarnings("unchecked")
    private static final ConcurrentLinkedQueue<ByteBuffer>[] FREE = new ConcurrentLinkedQueue[MAX_POOLED_SHIFT + 1];

    private static final java.util.concurrent.atomic.AtomicIntegerArray KEPT =
            new java.util.concurrent.atomic.AtomicIntegerArray(MAX_POOLED_SHIFT + 1);

    static {
        for (int i = 0; i < FREE.length; i++) FREE[i] = new ConcurrentLinkedQueue<>();
    }

    private static int sizeClass(long bytes) {
        int shift = 64 - Long.numberOfLeadingZeros(Math.max(1, bytes - 1));
        return Math.max(MIN_SHIFT, shift);
    }

    /** A direct, native-order buffer of at least {@code bytes} bytes. */
    static ByteBuffer take(long bytes) {
        if (bytes > Integer.MAX_VALUE) {
            throw MPIException.of(Mpi.ERR_COUNT, "staging an array of " + bytes + " bytes exceeds 2 GiB");
        }
        int c = sizeClass(bytes);
        if (c <= MAX_POOLED_SHIFT) {
            ByteBuffer b = FREE[c].poll();
            if (b != null) {
                KEPT.decrementAndGet(c);
                return b;
            }
            return MpiNative.allocateStaging0(1L << c).order(ByteOrder.nativeOrder());
        }
        return MpiNative.allocateStaging0(bytes).order(ByteOrder.nativeOrder());
    }

    static void give(ByteBuffer b) {
        int c = sizeClass(b.capacity());
        if (c <= MAX_POOLED_SHIFT && b.capacity() == 1 << c) {
            if (KEPT.incrementAndGet(c) <= keep(c)) {
                FREE[c].offer(b);
                return;
            }
            KEPT.decrementAndGet(c);
        }
        MpiNative.freeStaging0(b);
    }

    /** Memory of a request freed while MPI may still use it: kept (leaked) rather than freed. */
    static void orphan(ByteBuffer b) {
        ORPHANS.add(b);
    }
}
