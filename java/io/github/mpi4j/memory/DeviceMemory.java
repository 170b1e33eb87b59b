package io.github.mpi4j.memory;

/**
 * A range of device (GPU) memory given by address, length and device number, for frameworks
 * that manage their own device pointers. Backends that cannot move device memory refuse it with
 * an {@code mpi.MPIException} that names the backend.
 */
public record DeviceMemory(long address, long byteSize, int device) implements NativeMemory {

    /** @throws IllegalArgumentException if {@code byteSize} or {@code device} is negative */
    public DeviceMemory {
        if (byteSize < 0) throw new IllegalArgumentException("bytes must be >= 0, got " + byteSize);
        if (device < 0) throw new IllegalArgumentException("device must be >= 0, got " + device);
    }

    /** Device memory of {@code bytes} bytes at {@code address} on device {@code device}. */
    public static DeviceMemory of(long address, long bytes, int device) {
        return new DeviceMemory(address, bytes, device);
    }

    /** The {@code bytes} bytes from {@code offset} of this memory, on the same device. */
    public DeviceMemory slice(long offset, long bytes) {
        Ranges.check(offset, bytes, byteSize);
        return new DeviceMemory(address + offset, bytes, device);
    }

    @Override
    public String toString() {
        return "DeviceMemory[device " + device + ", 0x" + Long.toHexString(address) + ", " + byteSize + " bytes]";
    }
}
