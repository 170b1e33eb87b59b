package io.github.mpi4j.backend.mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ConcurrentLinkedQueue;

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
    /** Buffers kept per size class: enough for a window of many small requests, a few big ones. */
    private static int keep(int sizeClass) {
        return Math.max(8, (64 << 20) >> sizeClass);
    }

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
            throw new mpi.MPIException(mpi.MPI.ERR_COUNT, mpi.MPI.ERR_COUNT,
                    "staging an array of " + bytes + " bytes exceeds 2 GiB");
        }
        int c = sizeClass(bytes);
        if (c <= MAX_POOLED_SHIFT) {
            ByteBuffer b = FREE[c].poll();
            if (b != null) {
                KEPT.decrementAndGet(c);
                return b;
            }
            if (c < 31) return ByteBuffer.allocateDirect(1 << c).order(ByteOrder.nativeOrder());
        }
        return ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
    }

    static void give(ByteBuffer b) {
        int c = sizeClass(b.capacity());
        if (c <= MAX_POOLED_SHIFT && b.capacity() == 1 << c && KEPT.incrementAndGet(c) <= keep(c)) {
            FREE[c].offer(b);
        } else if (c <= MAX_POOLED_SHIFT && b.capacity() == 1 << c) {
            KEPT.decrementAndGet(c);
        }
    }
}
