package io.github.mpi4j.device;

import io.github.mpi4j.cuda.DeviceBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Device memory for the host buffers of NCCL-mode calls ({@link NcclPath}), reused from call to
 * call as {@link PinnedPool} reuses pinned memory: {@code cudaMalloc} costs far more than a
 * small copy. Power-of-two size classes (64 KiB and up) per device; idle buffers are kept up to
 * 256 MiB in all, beyond that a buffer given back is freed at once. A buffer in use is never in
 * the pool.
 */
final class DevicePool {
    private DevicePool() {
    }

    /** Bytes kept idle at most, over all devices. */
    static final long LIMIT = 256L << 20;

    /** Idle buffers by device, then by size class. */
    private static final Map<Integer, Map<Long, ArrayDeque<DeviceBuffer>>> IDLE = new HashMap<>();
    private static long idleBytes;

    /** A buffer of at least {@code bytes} bytes on {@code device}, idle or new. */
    static DeviceBuffer take(long bytes, int device) {
        long size = PinnedPool.sizeClass(bytes);
        synchronized (IDLE) {
            ArrayDeque<DeviceBuffer> q = IDLE.computeIfAbsent(device, d -> new HashMap<>()).get(size);
            if (q != null && !q.isEmpty()) {
                idleBytes -= size;
                return q.pop();
            }
        }
        return DeviceBuffer.allocate(size, device);
    }

    /** Hands a buffer back after its call: kept while the pool is under its bound, else freed. */
    static void give(DeviceBuffer b) {
        long size = b.size();
        synchronized (IDLE) {
            if (idleBytes + size <= LIMIT) {
                IDLE.computeIfAbsent(b.device(), d -> new HashMap<>()).computeIfAbsent(size, k -> new ArrayDeque<>())
                        .push(b);
                idleBytes += size;
                return;
            }
        }
        b.close();
    }

    /** Frees every idle buffer (at finalize: the CUDA context may go away after it). */
    static void drain() {
        synchronized (IDLE) {
            for (Map<Long, ArrayDeque<DeviceBuffer>> m : IDLE.values()) {
                for (ArrayDeque<DeviceBuffer> q : m.values()) for (DeviceBuffer b : q) b.close();
            }
            IDLE.clear();
            idleBytes = 0;
        }
    }
}
