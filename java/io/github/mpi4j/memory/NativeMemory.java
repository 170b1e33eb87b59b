package io.github.mpi4j.memory;

/**
 * Memory that Java does not own: a range of bytes at a native address, on the host or on a
 * device (GPU). Frameworks that hold raw pointers pass such memory to any {@code mpi} call that
 * takes a buffer; {@link HostMemory} and {@link DeviceMemory} wrap an address and a length, and
 * device-buffer classes of mpi4j (e.g. {@code io.github.mpi4j.cuda.DeviceBuffer}) implement this
 * interface too.
 *
 * <p>mpi4j never frees this memory and does not keep it alive: it must stay valid until the call
 * that uses it returns, or until the request of a non-blocking call completes.
 */
public interface NativeMemory {
    /** The {@link #device()} of host memory. */
    int HOST = -1;

    /** Address of the first byte. */
    long address();

    /** Bytes from {@link #address()} that may be read or written. */
    long byteSize();

    /** The device that holds the memory (0, 1, ...), or {@link #HOST} for host memory. */
    int device();

    /** Whether the memory is on a device rather than the host. */
    default boolean isDevice() {
        return device() != HOST;
    }
}
