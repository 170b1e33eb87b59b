package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.SharedStores;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.nio.ByteBuffer;

/**
 * One shared-memory slot per member of a communicator, all of the same size: each member's
 * collective arena, mapped by every member (see {@code transport.ShmArena}). Slot i is written
 * only by member i's schedules; the others read it. Use absolute indices only (the buffers are
 * shared by every communicator of the rank).
 */
public final class SharedSlots {
    private final ByteBuffer[] slots;

    /** @param slotOfMember member rank -> its slot (native byte order, all the same capacity) */
    public SharedSlots(ByteBuffer[] slotOfMember) {
        for (ByteBuffer b : slotOfMember) {
            if (b.capacity() != slotOfMember[0].capacity()) throw new IllegalArgumentException("slots differ in size");
        }
        this.slots = slotOfMember;
    }

    /** Bytes in each slot. */
    public int bytes() {
        return slots[0].capacity();
    }

    /** The slot of {@code member}. */
    public ByteBuffer of(int member) {
        return slots[member];
    }

    /** How this member writes its own slot, which the others read next (see {@link SharedStores}). */
    private final SharedStores stores = new SharedStores();

    /** Copies {@code len} bytes of {@code src} from byte {@code srcOff} into this member's slot {@code mine} at {@code at}. */
    void write(ByteBuffer mine, int at, Buf src, long srcOff, int len) {
        stores.copy(src, srcOff, mine, at, len);
    }

    /** Heap arrays the slot schedules reduce in, kept from call to call. */
    private final Buf[] scratch = new Buf[2];

    /**
     * Scratch array {@code which} (0 or 1) of at least {@code bytes} bytes of {@code kind}, made
     * once and kept: a 16 MiB allreduce allocated 256 KiB of them per call. The schedules using
     * the slots run one at a time per rank (blocking collectives, not under THREAD_MULTIPLE), so
     * one pair serves every call.
     */
    Buf scratch(int which, BaseKind kind, long bytes) {
        Buf b = scratch[which];
        if (b == null || b.kind != kind || b.byteLength() < bytes) {
            scratch[which] = b = BufAccess.allocate(kind, Math.max(bytes, 0), false);
        }
        return b;
    }
}
