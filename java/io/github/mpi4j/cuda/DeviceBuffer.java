package io.github.mpi4j.cuda;

import io.github.mpi4j.memory.NativeMemory;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Memory on a CUDA device, allocated by mpi4j ({@code cudaMalloc}) and freed by {@link #close()}.
 * Every {@code mpi} call that takes a buffer takes a {@code DeviceBuffer} too (it is
 * {@link NativeMemory}).
 *
 * <p>Copies: {@code copyFrom(x)} copies {@code x} into the start of this buffer and
 * {@code copyTo(x)} copies the start of this buffer into {@code x}; they are complete on return,
 * like {@code cudaMemcpy}. {@code x} is a primitive array, an NIO buffer (offsets and lengths in
 * its elements; its position is ignored, as everywhere in mpi4j) or native memory (another
 * {@code DeviceBuffer}, {@code HostMemory}, {@code DeviceMemory}; offsets and lengths in bytes).
 * To copy to or from elsewhere in this buffer, copy through a {@link #slice}. The
 * {@code Async} forms are queued on a {@link CudaStream} and ordered there; they take direct
 * buffers and native memory only (the GC moves arrays), and keep the host buffer reachable until
 * the stream is next synchronized.
 *
 * <p>A slice shares its parent's memory; closing the slice does not free it, and once the parent
 * is closed every use of the slice throws. Every use after {@link #close()} throws
 * {@link IllegalStateException}; arguments out of range throw before anything is queued.
 *
 * <p>Open allocations are registered by address: {@link #hold(long)} finds the one that holds a
 * raw device address (so {@code NcclComm}'s raw-address operations can check extents) and, like
 * {@link #hold()}, keeps its memory from being freed until the hold is released, even if the
 * buffer is closed meanwhile. A buffer never closed stays registered (its memory is never freed
 * either).
 */
public final class DeviceBuffer implements NativeMemory, AutoCloseable {
    private final Lifetime memory;      // the allocation, shared by the root and its slices
    private final long base;            // the allocation's address
    private final long offset;          // this view's first byte in the allocation
    private final long bytes;
    private final int device;
    private final DeviceBuffer parent;  // null for the allocation itself
    private volatile boolean sliceClosed;

    /**
     * The open allocations (not slices) by address, so that a raw device address handed to mpi4j
     * can be traced to the allocation that holds it ({@link #hold(long)}).
     */
    private static final ConcurrentSkipListMap<Long, DeviceBuffer> LIVE = new ConcurrentSkipListMap<>();
    /**
     * The allocations {@link #hold(long)} found last: frameworks pass the same few buffers call
     * after call, and a look here costs a few nanoseconds where the map costs a hundred. Racy on
     * purpose: a stale or lost entry only sends the lookup to the map (a closed buffer cannot be
     * entered, so it is never returned).
     */
    private static final DeviceBuffer[] RECENT = new DeviceBuffer[4];
    private static int recentNext;

    private DeviceBuffer(Lifetime memory, long base, long offset, long bytes, int device, DeviceBuffer parent) {
        this.memory = memory;
        this.base = base;
        this.offset = offset;
        this.bytes = bytes;
        this.device = device;
        this.parent = parent;
    }

    /** {@code bytes} bytes on the default device ({@link Cuda#defaultDevice()}). */
    public static DeviceBuffer allocate(long bytes) {
        checkBytes(bytes);
        CudaNative.ensure("DeviceBuffer.allocate");
        return allocate(bytes, Cuda.defaultDevice());
    }

    /**
     * {@code bytes} bytes on {@code device}.
     *
     * @throws IllegalArgumentException for negative bytes, a negative device or one beyond those present
     * @throws CudaException with CUDA's own error when the allocation fails
     */
    public static DeviceBuffer allocate(long bytes, int device) {
        checkBytes(bytes);
        Cuda.checkDevice("DeviceBuffer.allocate", device);
        long ptr = CudaNative.malloc0(bytes, device);
        Lifetime life = new Lifetime(() -> CudaNative.free0(ptr, device));
        DeviceBuffer b = new DeviceBuffer(life, ptr, 0, bytes, device, null);
        if (ptr != 0 && bytes > 0) LIVE.put(ptr, b);
        return b;
    }

    private static void checkBytes(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("DeviceBuffer.allocate: bytes must be >= 0, got " + bytes);
    }

    /** The first byte's device address. */
    @Override
    public long address() {
        checkOpen("address");
        return base + offset;
    }

    /** Bytes in this buffer (or slice). */
    public long size() {
        return bytes;
    }

    @Override
    public long byteSize() {
        return bytes;
    }

    @Override
    public int device() {
        return device;
    }

    /** Whether this buffer, or the buffer it is a slice of, is closed. */
    public boolean isClosed() {
        return sliceClosed || memory.isClosed();
    }

    /**
     * The {@code bytes} bytes from {@code offset} of this buffer, sharing its memory.
     *
     * @throws IndexOutOfBoundsException if the range does not fit
     */
    public DeviceBuffer slice(long offset, long bytes) {
        checkOpen("slice");
        checkRange("slice", "offset", offset, bytes, this.bytes);
        return new DeviceBuffer(memory, base, this.offset + offset, bytes, device, this);
    }

    /**
     * Frees the memory (a slice only becomes unusable; its parent's memory stays). Calls in
     * flight on other threads finish first. Idempotent.
     */
    @Override
    public void close() {
        if (parent != null) {
            sliceClosed = true;
        } else {
            LIVE.remove(base, this);
            memory.close();
        }
    }

    // ---- holds: keeping memory alive while queued work uses it ----

    /**
     * A hold on an allocation's memory: until {@link #close()}, closing the buffer does not free
     * the memory (the free runs at the last release), so work queued on a stream never runs on
     * freed memory. {@link #base()}, {@link #size()} and {@link #device()} describe the whole
     * allocation.
     */
    public static final class Hold implements AutoCloseable {
        private final DeviceBuffer allocation;
        private final AtomicBoolean released = new AtomicBoolean();

        private Hold(DeviceBuffer allocation) {
            this.allocation = allocation;
        }

        /** The allocation's first address. */
        public long base() {
            return allocation.base;
        }

        /** The allocation's bytes. */
        public long size() {
            return allocation.bytes;
        }

        public int device() {
            return allocation.device;
        }

        /** Releases the hold (once; later calls do nothing). */
        @Override
        public void close() {
            if (released.compareAndSet(false, true)) allocation.memory.exit();
        }
    }

    /**
     * A hold on this buffer's allocation (of its root, for a slice).
     *
     * @throws IllegalStateException if this buffer is closed
     */
    public Hold hold() {
        enter("hold");
        return new Hold(parent == null ? this : root());
    }

    private DeviceBuffer root() {
        DeviceBuffer b = this;
        while (b.parent != null) b = b.parent;
        return b;
    }

    /**
     * A hold on the open allocation of mpi4j that contains {@code address} (a slice's address
     * resolves to its allocation), or null when no open {@code DeviceBuffer} contains it: memory
     * another library allocated, or memory already freed; mpi4j cannot know the extent of those.
     */
    public static Hold hold(long address) {
        for (DeviceBuffer b : RECENT) {
            if (b != null && address - b.base >= 0 && address - b.base < b.bytes && b.memory.enter()) return new Hold(b);
        }
        while (true) {
            Map.Entry<Long, DeviceBuffer> e = LIVE.floorEntry(address);
            if (e == null) return null;
            DeviceBuffer b = e.getValue();
            if (address - b.base >= b.bytes) return null;
            if (b.memory.enter()) {
                RECENT[recentNext++ & (RECENT.length - 1)] = b;
                return new Hold(b);
            }
            LIVE.remove(e.getKey(), b); // closed meanwhile: look again
        }
    }

    @Override
    public String toString() {
        return "DeviceBuffer[device " + device + ", 0x" + Long.toHexString(base + offset) + ", " + bytes + " bytes"
                + (parent != null ? ", slice at " + offset : "") + (isClosed() ? ", closed" : "") + "]";
    }

    // ---- Java arrays (synchronous; staged through pinned memory) ----

    public void copyFrom(byte[] src) { fromArray("copyFrom", src, CudaNative.ELEM_BYTE, 1, len(src), 0, len(src)); }
    public void copyFrom(byte[] src, int srcOffset, int length) { fromArray("copyFrom", src, CudaNative.ELEM_BYTE, 1, len(src), srcOffset, length); }
    public void copyTo(byte[] dst) { toArray("copyTo", dst, CudaNative.ELEM_BYTE, 1, len(dst), 0, len(dst)); }
    public void copyTo(byte[] dst, int dstOffset, int length) { toArray("copyTo", dst, CudaNative.ELEM_BYTE, 1, len(dst), dstOffset, length); }

    public void copyFrom(short[] src) { fromArray("copyFrom", src, CudaNative.ELEM_SHORT, 2, len(src), 0, len(src)); }
    public void copyFrom(short[] src, int srcOffset, int length) { fromArray("copyFrom", src, CudaNative.ELEM_SHORT, 2, len(src), srcOffset, length); }
    public void copyTo(short[] dst) { toArray("copyTo", dst, CudaNative.ELEM_SHORT, 2, len(dst), 0, len(dst)); }
    public void copyTo(short[] dst, int dstOffset, int length) { toArray("copyTo", dst, CudaNative.ELEM_SHORT, 2, len(dst), dstOffset, length); }

    public void copyFrom(char[] src) { fromArray("copyFrom", src, CudaNative.ELEM_CHAR, 2, len(src), 0, len(src)); }
    public void copyFrom(char[] src, int srcOffset, int length) { fromArray("copyFrom", src, CudaNative.ELEM_CHAR, 2, len(src), srcOffset, length); }
    public void copyTo(char[] dst) { toArray("copyTo", dst, CudaNative.ELEM_CHAR, 2, len(dst), 0, len(dst)); }
    public void copyTo(char[] dst, int dstOffset, int length) { toArray("copyTo", dst, CudaNative.ELEM_CHAR, 2, len(dst), dstOffset, length); }

    public void copyFrom(int[] src) { fromArray("copyFrom", src, CudaNative.ELEM_INT, 4, len(src), 0, len(src)); }
    public void copyFrom(int[] src, int srcOffset, int length) { fromArray("copyFrom", src, CudaNative.ELEM_INT, 4, len(src), srcOffset, length); }
    public void copyTo(int[] dst) { toArray("copyTo", dst, CudaNative.ELEM_INT, 4, len(dst), 0, len(dst)); }
    public void copyTo(int[] dst, int dstOffset, int length) { toArray("copyTo", dst, CudaNative.ELEM_INT, 4, len(dst), dstOffset, length); }

    public void copyFrom(long[] src) { fromArray("copyFrom", src, CudaNative.ELEM_LONG, 8, len(src), 0, len(src)); }
    public void copyFrom(long[] src, int srcOffset, int length) { fromArray("copyFrom", src, CudaNative.ELEM_LONG, 8, len(src), srcOffset, length); }
    public void copyTo(long[] dst) { toArray("copyTo", dst, CudaNative.ELEM_LONG, 8, len(dst), 0, len(dst)); }
    public void copyTo(long[] dst, int dstOffset, int length) { toArray("copyTo", dst, CudaNative.ELEM_LONG, 8, len(dst), dstOffset, length); }

    public void copyFrom(float[] src) { fromArray("copyFrom", src, CudaNative.ELEM_FLOAT, 4, len(src), 0, len(src)); }
    public void copyFrom(float[] src, int srcOffset, int length) { fromArray("copyFrom", src, CudaNative.ELEM_FLOAT, 4, len(src), srcOffset, length); }
    public void copyTo(float[] dst) { toArray("copyTo", dst, CudaNative.ELEM_FLOAT, 4, len(dst), 0, len(dst)); }
    public void copyTo(float[] dst, int dstOffset, int length) { toArray("copyTo", dst, CudaNative.ELEM_FLOAT, 4, len(dst), dstOffset, length); }

    public void copyFrom(double[] src) { fromArray("copyFrom", src, CudaNative.ELEM_DOUBLE, 8, len(src), 0, len(src)); }
    public void copyFrom(double[] src, int srcOffset, int length) { fromArray("copyFrom", src, CudaNative.ELEM_DOUBLE, 8, len(src), srcOffset, length); }
    public void copyTo(double[] dst) { toArray("copyTo", dst, CudaNative.ELEM_DOUBLE, 8, len(dst), 0, len(dst)); }
    public void copyTo(double[] dst, int dstOffset, int length) { toArray("copyTo", dst, CudaNative.ELEM_DOUBLE, 8, len(dst), dstOffset, length); }

    /** Booleans travel as one byte each, 0 or 1. */
    public void copyFrom(boolean[] src) { fromArray("copyFrom", src, CudaNative.ELEM_BOOLEAN, 1, len(src), 0, len(src)); }
    public void copyFrom(boolean[] src, int srcOffset, int length) { fromArray("copyFrom", src, CudaNative.ELEM_BOOLEAN, 1, len(src), srcOffset, length); }
    public void copyTo(boolean[] dst) { toArray("copyTo", dst, CudaNative.ELEM_BOOLEAN, 1, len(dst), 0, len(dst)); }
    public void copyTo(boolean[] dst, int dstOffset, int length) { toArray("copyTo", dst, CudaNative.ELEM_BOOLEAN, 1, len(dst), dstOffset, length); }

    /** Array length, or -1 for null (refused by the checks). */
    private static int len(Object array) {
        return array == null ? -1 : java.lang.reflect.Array.getLength(array);
    }

    private void fromArray(String what, Object src, int kind, int size, int arrayLength, int from, int count) {
        array(what, "src", src, kind, size, arrayLength, from, count, true);
    }

    private void toArray(String what, Object dst, int kind, int size, int arrayLength, int from, int count) {
        array(what, "dst", dst, kind, size, arrayLength, from, count, false);
    }

    private void array(String what, String arg, Object array, int kind, int size, int arrayLength, int from, int count,
                       boolean toDevice) {
        if (array == null) throw new IllegalArgumentException(name(what) + ": " + arg + " is null");
        checkRange(what, arg + "Offset", from, count, arrayLength);
        checkFits(what, (long) count * size);
        long dev = enter(what);
        try {
            CudaNative.copyArray0(dev, array, kind, from, count, toDevice, device);
        } finally {
            memory.exit();
        }
    }

    // ---- NIO buffers ----

    /** All of {@code src} (capacity, from index 0) into the start of this buffer. */
    public void copyFrom(Buffer src) {
        buffer("copyFrom", "src", src, 0, src == null ? 0 : src.capacity(), true, null);
    }

    /** {@code length} elements of {@code src} from element {@code srcOffset}. */
    public void copyFrom(Buffer src, int srcOffset, int length) {
        buffer("copyFrom", "src", src, srcOffset, length, true, null);
    }

    /** The start of this buffer into all of {@code dst} (capacity, from index 0). */
    public void copyTo(Buffer dst) {
        buffer("copyTo", "dst", dst, 0, dst == null ? 0 : dst.capacity(), false, null);
    }

    public void copyTo(Buffer dst, int dstOffset, int length) {
        buffer("copyTo", "dst", dst, dstOffset, length, false, null);
    }

    /** Queued on {@code stream}: all of the direct buffer {@code src}. */
    public void copyFromAsync(Buffer src, CudaStream stream) {
        buffer("copyFromAsync", "src", src, 0, src == null ? 0 : src.capacity(), true, checkStream("copyFromAsync", stream));
    }

    public void copyFromAsync(Buffer src, int srcOffset, int length, CudaStream stream) {
        buffer("copyFromAsync", "src", src, srcOffset, length, true, checkStream("copyFromAsync", stream));
    }

    public void copyToAsync(Buffer dst, CudaStream stream) {
        buffer("copyToAsync", "dst", dst, 0, dst == null ? 0 : dst.capacity(), false, checkStream("copyToAsync", stream));
    }

    public void copyToAsync(Buffer dst, int dstOffset, int length, CudaStream stream) {
        buffer("copyToAsync", "dst", dst, dstOffset, length, false, checkStream("copyToAsync", stream));
    }

    private void buffer(String what, String arg, Buffer buf, int from, int count, boolean toDevice, CudaStream stream) {
        if (buf == null) throw new IllegalArgumentException(name(what) + ": " + arg + " is null");
        if (!toDevice && buf.isReadOnly()) {
            throw new IllegalArgumentException(name(what) + ": " + arg + " is read-only");
        }
        int size = elementSize(buf);
        if (size > 1 && order(buf) != ByteOrder.nativeOrder()) {
            throw new IllegalArgumentException(name(what) + ": " + arg + " is a " + buf.getClass().getSimpleName()
                    + " in " + order(buf) + " order but the device holds values in the native order (" + ByteOrder.nativeOrder()
                    + "): use a view of a ByteBuffer set to ByteOrder.nativeOrder()");
        }
        checkRange(what, arg + "Offset", from, count, buf.capacity());
        if (!buf.isDirect()) {
            if (stream != null) {
                throw new IllegalArgumentException(name(what) + ": " + arg + " is a heap buffer: asynchronous copies take "
                        + "direct buffers or native memory (the GC moves Java arrays); use " + what.replace("Async", ""));
            }
            if (!buf.hasArray()) {
                throw new IllegalArgumentException(name(what) + ": " + arg + " is a heap buffer without an accessible array "
                        + "(a view or read-only): use a direct buffer");
            }
            array(what, arg, buf.array(), elementKind(buf), size, buf.capacity() + buf.arrayOffset(),
                    buf.arrayOffset() + from, count, toDevice);
            return;
        }
        long n = (long) count * size;
        checkFits(what, n);
        long dev = enter(what);
        try {
            long s = stream == null ? 0 : stream.enter(what);
            try {
                if (stream != null) stream.keep(buf);
                CudaNative.copyBuffer0(dev, buf, (long) from * size, n, toDevice, s, stream != null, device);
            } finally {
                if (stream != null) stream.exit();
            }
        } finally {
            memory.exit();
        }
    }

    private static int elementSize(Buffer b) {
        if (b instanceof ByteBuffer) return 1;
        if (b instanceof ShortBuffer || b instanceof CharBuffer) return 2;
        if (b instanceof IntBuffer || b instanceof FloatBuffer) return 4;
        if (b instanceof LongBuffer || b instanceof DoubleBuffer) return 8;
        throw new IllegalArgumentException("unsupported buffer type " + b.getClass().getName());
    }

    private static int elementKind(Buffer b) {
        if (b instanceof ByteBuffer) return CudaNative.ELEM_BYTE;
        if (b instanceof ShortBuffer) return CudaNative.ELEM_SHORT;
        if (b instanceof CharBuffer) return CudaNative.ELEM_CHAR;
        if (b instanceof IntBuffer) return CudaNative.ELEM_INT;
        if (b instanceof FloatBuffer) return CudaNative.ELEM_FLOAT;
        if (b instanceof LongBuffer) return CudaNative.ELEM_LONG;
        return CudaNative.ELEM_DOUBLE;
    }

    private static ByteOrder order(Buffer b) {
        if (b instanceof ShortBuffer) return ((ShortBuffer) b).order();
        if (b instanceof CharBuffer) return ((CharBuffer) b).order();
        if (b instanceof IntBuffer) return ((IntBuffer) b).order();
        if (b instanceof FloatBuffer) return ((FloatBuffer) b).order();
        if (b instanceof LongBuffer) return ((LongBuffer) b).order();
        if (b instanceof DoubleBuffer) return ((DoubleBuffer) b).order();
        return ByteOrder.nativeOrder(); // bytes have no order
    }

    // ---- native memory: other device buffers, HostMemory, DeviceMemory ----

    /** All of {@code src} (its byteSize) into the start of this buffer. */
    public void copyFrom(NativeMemory src) {
        memoryCopy("copyFrom", "src", src, 0, src == null ? 0 : src.byteSize(), true, null);
    }

    /** {@code bytes} bytes of {@code src} from its byte {@code srcOffset} into the start of this buffer. */
    public void copyFrom(NativeMemory src, long srcOffset, long bytes) {
        memoryCopy("copyFrom", "src", src, srcOffset, bytes, true, null);
    }

    /** The start of this buffer into all of {@code dst}. */
    public void copyTo(NativeMemory dst) {
        memoryCopy("copyTo", "dst", dst, 0, dst == null ? 0 : dst.byteSize(), false, null);
    }

    /** {@code bytes} bytes from the start of this buffer into {@code dst} at its byte {@code dstOffset}. */
    public void copyTo(NativeMemory dst, long dstOffset, long bytes) {
        memoryCopy("copyTo", "dst", dst, dstOffset, bytes, false, null);
    }

    public void copyFromAsync(NativeMemory src, CudaStream stream) {
        memoryCopy("copyFromAsync", "src", src, 0, src == null ? 0 : src.byteSize(), true, checkStream("copyFromAsync", stream));
    }

    public void copyFromAsync(NativeMemory src, long srcOffset, long bytes, CudaStream stream) {
        memoryCopy("copyFromAsync", "src", src, srcOffset, bytes, true, checkStream("copyFromAsync", stream));
    }

    public void copyToAsync(NativeMemory dst, CudaStream stream) {
        memoryCopy("copyToAsync", "dst", dst, 0, dst == null ? 0 : dst.byteSize(), false, checkStream("copyToAsync", stream));
    }

    public void copyToAsync(NativeMemory dst, long dstOffset, long bytes, CudaStream stream) {
        memoryCopy("copyToAsync", "dst", dst, dstOffset, bytes, false, checkStream("copyToAsync", stream));
    }

    private void memoryCopy(String what, String arg, NativeMemory other, long from, long n, boolean toThis,
                            CudaStream stream) {
        if (other == null) throw new IllegalArgumentException(name(what) + ": " + arg + " is null");
        checkRange(what, arg + "Offset", from, n, other.byteSize());
        checkFits(what, n);
        DeviceBuffer peer = other instanceof DeviceBuffer ? (DeviceBuffer) other : null;
        if (peer == null && other.address() == 0 && n > 0) {
            throw new IllegalArgumentException(name(what) + ": " + arg + " has address 0 (" + other + ")");
        }
        long dev = enter(what);
        try {
            long o = peer != null ? peer.enter(what) : other.address();
            try {
                long s = stream == null ? 0 : stream.enter(what);
                try {
                    if (stream != null && peer == null) stream.keep(other);
                    long otherAddress = o + from;
                    int kind;
                    if (!other.isDevice()) {
                        kind = toThis ? CudaNative.HOST_TO_DEVICE : CudaNative.DEVICE_TO_HOST;
                    } else {
                        // Between devices CUDA infers the direction from the unified address space.
                        kind = other.device() == device ? CudaNative.DEVICE_TO_DEVICE : CudaNative.DEFAULT;
                    }
                    long dst = toThis ? dev : otherAddress;
                    long src = toThis ? otherAddress : dev;
                    CudaNative.copy0(dst, src, n, kind, s, stream != null, device);
                } finally {
                    if (stream != null) stream.exit();
                }
            } finally {
                if (peer != null) peer.memory.exit();
            }
        } finally {
            memory.exit();
        }
    }

    // ---- memset ----

    /** Sets every byte of this buffer to {@code value} (a byte: -128..255). */
    public void memset(int value) {
        memset(value, 0, bytes);
    }

    /** Sets {@code bytes} bytes from {@code offset} to {@code value}; complete on return. */
    public void memset(int value, long offset, long bytes) {
        fill("memset", value, offset, bytes, null);
    }

    /** Queues setting {@code bytes} bytes from {@code offset} to {@code value} on {@code stream}. */
    public void memsetAsync(int value, long offset, long bytes, CudaStream stream) {
        fill("memsetAsync", value, offset, bytes, checkStream("memsetAsync", stream));
    }

    private void fill(String what, int value, long from, long n, CudaStream stream) {
        if (value < -128 || value > 255) {
            throw new IllegalArgumentException(name(what) + ": value must be a byte (-128..255), got " + value);
        }
        checkRange(what, "offset", from, n, bytes);
        long dev = enter(what);
        try {
            long s = stream == null ? 0 : stream.enter(what);
            try {
                CudaNative.memset0(dev + from, value & 0xff, n, s, stream != null, device);
            } finally {
                if (stream != null) stream.exit();
            }
        } finally {
            memory.exit();
        }
    }

    // ---- checks ----

    private static String name(String what) {
        return "DeviceBuffer." + what;
    }

    private CudaStream checkStream(String what, CudaStream stream) {
        if (stream == null) throw new IllegalArgumentException(name(what) + ": stream is null");
        if (stream.device() != device) {
            throw new IllegalArgumentException(name(what) + ": the stream is on device " + stream.device()
                    + ", this buffer on device " + device);
        }
        return stream;
    }

    /** offset and length within [0, limit]. */
    private static void checkRange(String what, String arg, long from, long count, long limit) {
        if (from < 0) throw new IndexOutOfBoundsException(name(what) + ": " + arg + " must be >= 0, got " + from);
        if (count < 0) throw new IndexOutOfBoundsException(name(what) + ": length must be >= 0, got " + count);
        if (from > limit - count) {
            throw new IndexOutOfBoundsException(name(what) + ": " + arg + " " + from + " + length " + count
                    + " exceeds the " + limit + " available");
        }
    }

    private void checkFits(String what, long n) {
        if (n > bytes) {
            throw new IndexOutOfBoundsException(name(what) + ": " + n + " bytes do not fit in " + this);
        }
    }

    private void checkOpen(String what) {
        if (isClosed()) throw closed(what);
    }

    private IllegalStateException closed(String what) {
        if (parent != null && !sliceClosed) {
            return new IllegalStateException(name(what) + ": " + this + " is a slice of a closed buffer");
        }
        return new IllegalStateException(name(what) + ": " + this + " is closed");
    }

    /** Enters the memory for a call (the caller must exit it); returns this view's address. */
    private long enter(String what) {
        if (sliceClosed || !memory.enter()) throw closed(what);
        return base + offset;
    }
}
