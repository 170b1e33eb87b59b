package io.github.mpi4j.memory;

/**
 * A range of host memory given by address and length, for memory that Java did not allocate
 * (another library's allocation, a memory-mapped region, an off-heap arena). Buffer offsets in
 * {@code mpi} calls count bytes from {@link #address()}. The address is checked when a call uses
 * it (an address 0 is refused there unless nothing moves).
 */
public record HostMemory(long address, long byteSize) implements NativeMemory {

    /** @throws IllegalArgumentException if {@code byteSize} is negative */
    public HostMemory {
        if (byteSize < 0) throw new IllegalArgumentException("bytes must be >= 0, got " + byteSize);
    }

    /** Host memory of {@code bytes} bytes at {@code address}. */
    public static HostMemory of(long address, long bytes) {
        return new HostMemory(address, bytes);
    }

    /** The {@code bytes} bytes from {@code offset} of this memory. */
    public HostMemory slice(long offset, long bytes) {
        Ranges.check(offset, bytes, byteSize);
        return new HostMemory(address + offset, bytes);
    }

    @Override
    public int device() {
        return HOST;
    }

    @Override
    public String toString() {
        return "HostMemory[0x" + Long.toHexString(address) + ", " + byteSize + " bytes]";
    }
}
