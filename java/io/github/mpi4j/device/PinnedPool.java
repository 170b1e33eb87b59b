package io.github.mpi4j.device;

import io.github.mpi4j.cuda.PinnedMemory;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;

/**
 * Pinned host memory for staging, reused from call to call: {@code cudaMallocHost} costs far
 * more than a copy, so idle buffers are kept, in power-of-two sizes, up to a bound
 * ({@code MPI4J_PINNED_CACHE_MB}, default 256 MiB; 0 keeps none). A buffer in use is never in
 * the pool; one given back beyond the bound is freed at once.
 */
final class PinnedPool {
    private PinnedPool() {
    }

    /** Smallest buffer made: small messages share one size class. */
    static final long MIN_BYTES = 64 * 1024;

    /** The bound in bytes, read at the first staging (a bad value fails that call, naming it). */
    private static volatile long limit = -1;

    private static final TreeMap<Long, ArrayDeque<PinnedMemory>> IDLE = new TreeMap<>();
    private static long idleBytes;
    /** Buffers handed out so far (tests check which path a call took). */
    private static long taken;

    /** Bytes the pool may keep, from the setting in MiB. */
    static long limit(String mib) {
        if (mib == null || mib.isBlank()) return 256L << 20;
        try {
            long v = Long.parseLong(mib.trim());
            if (v >= 0 && v <= (1L << 40)) return v << 20;
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("MPI4J_PINNED_CACHE_MB must be a number of MiB >= 0, got '" + mib + "'");
    }

    /** The size class of a request: the next power of two, at least {@link #MIN_BYTES}. */
    static long sizeClass(long bytes) {
        if (bytes <= MIN_BYTES) return MIN_BYTES;
        long c = Long.highestOneBit(bytes);
        return c == bytes ? c : c << 1;
    }

    /** A buffer of at least {@code bytes} bytes, idle or new. */
    static PinnedMemory take(long bytes) {
        if (limit < 0) limit = limit(System.getProperty("mpi4j.pinnedCacheMB", System.getenv("MPI4J_PINNED_CACHE_MB")));
        long size = sizeClass(bytes);
        synchronized (IDLE) {
            taken++;
            ArrayDeque<PinnedMemory> q = IDLE.get(size);
            if (q != null && !q.isEmpty()) {
                idleBytes -= size;
                return q.pop();
            }
        }
        return PinnedMemory.allocate(size);
    }

    /** Hands a buffer back after its call: kept while the pool is under its bound, else freed. */
    static void give(PinnedMemory p) {
        long size = p.byteSize();
        synchronized (IDLE) {
            if (idleBytes + size <= limit) {
                IDLE.computeIfAbsent(size, k -> new ArrayDeque<>()).push(p);
                idleBytes += size;
                return;
            }
        }
        p.close();
    }

    /** Buffers handed out since the process started. */
    static long taken() {
        synchronized (IDLE) {
            return taken;
        }
    }

    /** Bytes kept idle now (for tests). */
    static long idleBytes() {
        synchronized (IDLE) {
            return idleBytes;
        }
    }

    /** Frees every idle buffer (tests, and a process that wants its memory back). */
    static void drain() {
        synchronized (IDLE) {
            for (Map.Entry<Long, ArrayDeque<PinnedMemory>> e : IDLE.entrySet()) {
                for (PinnedMemory p : e.getValue()) p.close();
            }
            IDLE.clear();
            idleBytes = 0;
        }
    }
}
