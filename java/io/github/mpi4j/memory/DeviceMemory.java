package io.github.mpi4j.memory;

/**
 * A range of device (GPU) memory given by address, length and device number, for frameworks
 * that manage their own device pointers. Backends that cannot move device memory refuse it with
 * an {@code mpi.MPIException} that names the backend.
 */
public final class DeviceMemory implements NativeMemory {
    private final long address;
    private final long bytes;
    private final int device;

    private DeviceMemory(long address, long bytes, int device) {
        this.address = address;
        this.bytes = bytes;
        this.device = device;
    }

    /**
     * Device memory of {@code bytes} bytes at {@code address} on device {@code device}.
     *
     * @throws IllegalArgumentException if {@code bytes} or {@code device} is negative
     */
    public static DeviceMemory of(long address, long bytes, int device) {
        if (bytes < 0) throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        if (device < 0) throw new IllegalArgumentException("device must be >= 0, got " + device);
        return new DeviceMemory(address, bytes, device);
    }

    /** The {@code bytes} bytes from {@code offset} of this memory, on the same device. */
    public DeviceMemory slice(long offset, long bytes) {
        Ranges.check(offset, bytes, this.bytes);
        return new DeviceMemory(address + offset, bytes, device);
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
        return device;
    }

    @Override
    public String toString() {
        return "DeviceMemory[device " + device + ", 0x" + Long.toHexString(address) + ", " + bytes + " bytes]";
    }
}
