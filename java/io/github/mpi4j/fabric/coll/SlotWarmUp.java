package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.buffer.NativeCopy;

/**
 * What the warm start ({@code mpi.WarmStart}) drives in the shared-memory allreduce
 * ({@link ShmAllReduce}): how many allreduces went through the slots, and small parts for a
 * while.
 *
 * <p>Why small parts: the methods that run once per chunk reach the JIT's C2 threshold only
 * after thousands of chunks. With 128 KiB parts a program's 16 MiB allreduces at 2 ranks (64
 * chunks each) got there in their 15th to 40th call, and each compilation took 5-15 ms of a
 * core a rank needed. Parts of {@link #SMALL_PART_BYTES} give a 1 MiB allreduce 32 chunks
 * instead of 4, so the warm start gets there in a fraction of a second. They are not smaller:
 * a copy of 16 KiB or more takes the same native path as a program's large chunks, and a
 * branch the profile never saw taken is compiled as a trap that throws the compiled code away
 * at a program's first large call.
 */
public final class SlotWarmUp {
    private SlotWarmUp() {
    }

    /** Bytes of a part while small parts are on: the smallest copy that goes native. */
    public static final long SMALL_PART_BYTES = NativeCopy.NATIVE_FROM;

    /** Allreduces this process has run through the shared-memory slots. */
    public static long allreduces() {
        return ShmAllReduce.RUNS.get();
    }

    /**
     * Small parts on or off (off: {@link ShmAllReduce#PART_BYTES}, the default). Only while no
     * collective runs: the warm start turns them on and off between its calls, inside Init.
     */
    public static void smallParts(boolean on) {
        ShmAllReduce.partBytes = on ? SMALL_PART_BYTES : ShmAllReduce.PART_BYTES;
    }
}
