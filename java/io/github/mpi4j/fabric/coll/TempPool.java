package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.util.ArrayList;

/**
 * Temporaries of a communicator's non-blocking collectives, kept between calls. Each call
 * records its own schedule with temporaries no other call in flight uses; without the pool every
 * 1 MiB iAllreduce allocated 1 MiB of fresh arrays, about 1 GB/s in a loop, and the young
 * collections and the first touch of the growing heap's pages made calls 10-20 times slower
 * for seconds at a time. A call gives its temporaries back only when its schedule ran to the end
 * (then no operation of it can still write them); a failed call drops them.
 *
 * <p>Bounded: at most {@link #MAX_KEPT} buffers and {@link #MAX_BYTES} in all are kept; the
 * rest go to the garbage collector as before. Thread-safe (a call records on its caller's thread
 * and may finish on the progress thread).
 */
final class TempPool {
    static final int MAX_KEPT = 8;
    static final long MAX_BYTES = 256L << 20;

    private final ArrayList<Buf> kept = new ArrayList<>();
    private long keptBytes;

    /** A buffer of {@code kind} with at least {@code bytes}, direct or not: the smallest kept one that fits, else a new one. */
    synchronized Buf take(BaseKind kind, long bytes, boolean direct) {
        int best = -1;
        for (int i = 0; i < kept.size(); i++) {
            Buf b = kept.get(i);
            if (b.kind == kind && b.isDirect() == direct && b.byteLength() >= bytes
                    && (best < 0 || b.byteLength() < kept.get(best).byteLength())) {
                best = i;
            }
        }
        if (best < 0) return BufAccess.allocate(kind, Math.max(bytes, 0), direct);
        Buf b = kept.remove(best);
        keptBytes -= b.byteLength();
        return b;
    }

    /** Keeps {@code b} for a later call, if there is room. */
    synchronized void give(Buf b) {
        if (kept.size() >= MAX_KEPT || keptBytes + b.byteLength() > MAX_BYTES) return;
        kept.add(b);
        keptBytes += b.byteLength();
    }

    /** Buffers kept now (tests). */
    synchronized int kept() {
        return kept.size();
    }
}
