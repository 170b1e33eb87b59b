package io.github.mpi4j.spi;

import io.github.mpi4j.memory.NativeMemory;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * A user buffer after validation, in one of four {@link MemoryKind}s: a Java array, a direct NIO
 * buffer, host memory given by address, or device memory; plus a start offset. The {@code mpi}
 * layer builds these after checking count and type against the capacity, so a backend may trust
 * {@code offset + needed elements <= offset + length}.
 *
 * <p>Heap NIO buffers are turned into their backing array by the {@code mpi} layer; a
 * {@code Buf} over a buffer is therefore always direct memory. The buffer's position and limit
 * are ignored, as in Open MPI's Java bindings: element 0 is the buffer's first element.
 *
 * <p>Native memory ({@link MemoryKind#HOST}, {@link MemoryKind#DEVICE}) has {@link #base} a
 * {@link NativeMemory} and kind BYTE: offset and length count bytes, the length capped at
 * {@code Integer.MAX_VALUE} (the span a call needs was checked against the full byte size).
 */
public final class Buf {
    /** Marker for MPI_IN_PLACE in the send-buffer position of a collective. */
    public static final Buf IN_PLACE = new Buf(null, BaseKind.BYTE, 0, 0);

    /** A primitive array, {@code Object[]}, a direct {@link Buffer} or a {@link NativeMemory}. Null only for IN_PLACE. */
    public final Object base;
    /** Element kind of {@link #base}: a ByteBuffer is BYTE, an IntBuffer INT, native memory BYTE, and so on. */
    public final BaseKind kind;
    /** Offset of the first element, in elements of {@link #base}. */
    public final int offset;
    /** Elements of {@link #base} available from {@link #offset}. */
    public final int length;
    /** Where the bytes live. */
    public final MemoryKind memory;

    /** Host memory seen as a direct buffer, made on first use by the code that reads it from Java. */
    private Buf directView;
    /** Address of a direct buffer's element 0, found on first use (0 until then; it never changes). */
    private long directAddress;

    public Buf(Object base, BaseKind kind, int offset, int length) {
        this.base = base;
        this.kind = kind;
        this.offset = offset;
        this.length = length;
        this.memory = base instanceof Buffer ? MemoryKind.DIRECT
                : base instanceof NativeMemory ? (((NativeMemory) base).isDevice() ? MemoryKind.DEVICE : MemoryKind.HOST)
                : MemoryKind.ARRAY;
    }

    public boolean isArray() {
        return memory == MemoryKind.ARRAY && base != null;
    }

    public boolean isDirect() {
        return memory == MemoryKind.DIRECT;
    }

    /** Whether the bytes are native memory given by address (host or device). */
    public boolean isNative() {
        return memory == MemoryKind.HOST || memory == MemoryKind.DEVICE;
    }

    /** The native memory of a {@link #isNative()} Buf. */
    public NativeMemory nativeMemory() {
        return (NativeMemory) base;
    }

    /** Address of the first byte of a {@link #isNative()} Buf. */
    public long address() {
        return ((NativeMemory) base).address() + offset;
    }

    /**
     * Address of element 0 of an {@link #isDirect()} Buf's buffer, found once by {@code addressOf}
     * (a native call) and kept: a Buf handed out again for the same buffer skips the call.
     */
    public long directAddress(ToLongFunction<Buffer> addressOf) {
        long a = directAddress;
        if (a == 0) directAddress = a = addressOf.applyAsLong((Buffer) base);
        return a;
    }

    /** Offset of the first element in bytes from the start of the array or buffer. */
    public long byteOffset() {
        return (long) offset * kind.bytes;
    }

    /** Bytes available from the first element. */
    public long byteLength() {
        return (long) length * kind.bytes;
    }

    /** The same memory, starting {@code elements} further on. */
    public Buf plus(int elements) {
        return new Buf(base, kind, offset + elements, length - elements);
    }

    /**
     * Host memory as a Buf over a direct ByteBuffer of its {@link #length} bytes, made once by
     * {@code viewer} (which knows how to view an address from Java) and then reused.
     */
    public Buf directView(Function<Buf, ByteBuffer> viewer) {
        Buf v = directView;
        if (v == null) directView = v = new Buf(viewer.apply(this), BaseKind.BYTE, 0, length);
        return v;
    }

    @Override
    public String toString() {
        if (this == IN_PLACE) return "IN_PLACE";
        String what = base instanceof Buffer ? base.getClass().getSimpleName()
                : base instanceof NativeMemory ? base.toString()
                : kind.name().toLowerCase() + "[]";
        return what + "@" + offset + "+" + length;
    }
}
