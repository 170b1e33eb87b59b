package io.github.mpi4j.spi;

import java.nio.Buffer;

/**
 * A user buffer after validation: a Java array, or a direct NIO buffer, plus a start offset.
 * The {@code mpi} layer builds these after checking count and type against the capacity, so
 * a backend may trust {@code offset + needed elements <= offset + length}.
 *
 * <p>Heap NIO buffers are turned into their backing array by the {@code mpi} layer; a
 * {@code Buf} over a buffer is therefore always direct memory. The buffer's position and limit
 * are ignored, as in Open MPI's Java bindings: element 0 is the buffer's first element.
 */
public final class Buf {
    /** Marker for MPI_IN_PLACE in the send-buffer position of a collective. */
    public static final Buf IN_PLACE = new Buf(null, BaseKind.BYTE, 0, 0);

    /** A primitive array, {@code Object[]}, or a direct {@link Buffer}. Null only for IN_PLACE. */
    public final Object base;
    /** Element kind of {@link #base}: a ByteBuffer is BYTE, an IntBuffer INT, and so on. */
    public final BaseKind kind;
    /** Offset of the first element, in elements of {@link #base}. */
    public final int offset;
    /** Elements of {@link #base} available from {@link #offset}. */
    public final int length;

    public Buf(Object base, BaseKind kind, int offset, int length) {
        this.base = base;
        this.kind = kind;
        this.offset = offset;
        this.length = length;
    }

    public boolean isArray() {
        return base != null && !(base instanceof Buffer);
    }

    public boolean isDirect() {
        return base instanceof Buffer;
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

    @Override
    public String toString() {
        if (this == IN_PLACE) return "IN_PLACE";
        String what = base instanceof Buffer ? base.getClass().getSimpleName()
                : kind.name().toLowerCase() + "[]";
        return what + "@" + offset + "+" + length;
    }
}
