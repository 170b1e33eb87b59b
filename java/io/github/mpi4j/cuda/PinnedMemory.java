package io.github.mpi4j.cuda;

import io.github.mpi4j.memory.NativeMemory;

/**
 * Page-locked ("pinned") host memory from {@code cudaMallocHost}, freed by {@link #close()}.
 * It is host memory ({@link #device()} is {@link NativeMemory#HOST}): any {@code mpi} call and
 * any backend can use it, and the GPU copies to and from it directly (with unified addressing,
 * every CUDA context sees it as pinned). mpi4j stages device buffers through it when a backend
 * cannot move device memory itself (docs/gpu.md, "Device buffers in mpi calls").
 *
 * <p>{@link #copyFromDevice} / {@link #copyToDevice} are complete on return ({@code cudaMemcpy}:
 * with pinned memory both directions are synchronous for the host). Device memory written by
 * work queued on other streams must be synchronized first, as for any {@code cudaMemcpy}.
 * Not for concurrent use while it is being closed: its owner closes it once no call uses it.
 */
public final class PinnedMemory implements NativeMemory, AutoCloseable {
    private final long address;
    private final long bytes;
    private volatile boolean closed;

    private PinnedMemory(long address, long bytes) {
        this.address = address;
        this.bytes = bytes;
    }

    /**
     * {@code bytes} bytes of pinned host memory.
     *
     * @throws IllegalArgumentException for {@code bytes <= 0}
     * @throws CudaException when CUDA is unavailable (the message says why) or the allocation fails
     */
    public static PinnedMemory allocate(long bytes) {
        if (bytes <= 0) throw new IllegalArgumentException("PinnedMemory.allocate: bytes must be > 0, got " + bytes);
        CudaNative.ensure("PinnedMemory.allocate");
        return new PinnedMemory(CudaNative.mallocHost0(bytes), bytes);
    }

    @Override
    public long address() {
        if (closed) throw new IllegalStateException("PinnedMemory.address: " + this + " is closed");
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

    /** Copies {@code n} bytes of device memory {@code src} from its byte {@code srcOffset} to this memory at {@code at}. */
    public void copyFromDevice(long at, NativeMemory src, long srcOffset, long n) {
        check("copyFromDevice", at, src, srcOffset, n);
        if (n == 0) return;
        if (src instanceof DeviceBuffer) {
            // Through the buffer's own copy: it holds the allocation open while copying.
            ((DeviceBuffer) src).slice(srcOffset, n).copyTo(this, at, n);
        } else {
            CudaNative.ensure("PinnedMemory.copyFromDevice");
            CudaNative.copy0(address + at, src.address() + srcOffset, n, CudaNative.DEVICE_TO_HOST, 0, false,
                    src.device());
        }
    }

    /** Copies {@code n} bytes of this memory from {@code at} to device memory {@code dst} at its byte {@code dstOffset}. */
    public void copyToDevice(long at, NativeMemory dst, long dstOffset, long n) {
        check("copyToDevice", at, dst, dstOffset, n);
        if (n == 0) return;
        if (dst instanceof DeviceBuffer) {
            ((DeviceBuffer) dst).slice(dstOffset, n).copyFrom(this, at, n);
        } else {
            CudaNative.ensure("PinnedMemory.copyToDevice");
            CudaNative.copy0(dst.address() + dstOffset, address + at, n, CudaNative.HOST_TO_DEVICE, 0, false,
                    dst.device());
        }
    }

    private void check(String what, long at, NativeMemory dev, long devOffset, long n) {
        String name = "PinnedMemory." + what;
        if (closed) throw new IllegalStateException(name + ": " + this + " is closed");
        if (dev == null) throw new IllegalArgumentException(name + ": the device memory is null");
        if (!dev.isDevice()) throw new IllegalArgumentException(name + ": " + dev + " is not device memory");
        if (n < 0) throw new IndexOutOfBoundsException(name + ": bytes must be >= 0, got " + n);
        if (at < 0 || at > bytes - n) {
            throw new IndexOutOfBoundsException(name + ": offset " + at + " + " + n + " bytes exceeds the " + bytes
                    + " bytes of " + this);
        }
        if (devOffset < 0 || devOffset > dev.byteSize() - n) {
            throw new IndexOutOfBoundsException(name + ": device offset " + devOffset + " + " + n
                    + " bytes exceeds the " + dev.byteSize() + " bytes of " + dev);
        }
    }

    /** Frees the memory ({@code cudaFreeHost}). Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        CudaNative.freeHost0(address);
    }

    @Override
    public String toString() {
        return "PinnedMemory[0x" + Long.toHexString(address) + ", " + bytes + " bytes" + (closed ? ", closed" : "") + "]";
    }
}
