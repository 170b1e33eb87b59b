package io.github.mpi4j.fabric.coll;

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
}
