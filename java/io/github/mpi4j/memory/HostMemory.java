package io.github.mpi4j.memory;

/**
 * A range of host memory given by address and length, for memory that Java did not allocate
 * (another library's allocation, a memory-mapped region, an off-heap arena). Buffer offsets in
 * {@code mpi} calls count bytes from {@link #address()}.
 */
public final class HostMemory implements NativeMemory {
    private final long address;
    private final long bytes;

    private HostMemory(long address, long bytes) {
        this.address = address;
        this.bytes = bytes;
    }

    /**
     * Host memory of {@code bytes} bytes at {@code address}. The address is checked when a call
     * uses it (an address 0 is refused there unless nothing moves).
     *
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public static HostMemory of(long address, long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        return new HostMemory(address, bytes);
    }

    /** The {@code bytes} bytes from {@code offset} of this memory. */
    public HostMemory slice(long offset, long bytes) {
        Ranges.check(offset, bytes, this.bytes);
        return new HostMemory(address + offset, bytes);
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public long byteSize() {
        return bytes;
    }

    @Override
    public int device() {
        return HOST;
    }

    @Override
    public String toString() {
        return "HostMemory[0x" + Long.toHexString(address) + ", " + bytes + " bytes]";
    }
}
