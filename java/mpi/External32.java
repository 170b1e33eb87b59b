package mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.buffer.Unpacking;
import io.github.mpi4j.buffer.TypeMapCopy;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.MemoryKind;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * File views in the {@code "external32"} data representation (MPI 4.1 section 14.5.2): every
 * element on disk is big-endian, in the sizes the standard gives the types mpi4j maps Java's
 * primitives to (char as MPI_UNSIGNED_SHORT 2, boolean as MPI_C_BOOL 1, int 4, long as
 * MPI_INT64_T 8, IEEE float 4 and double 8), which are the Java sizes. So only the byte order
 * changes, and the file's layout is memory's.
 *
 * <p>The conversion is done here, in the API, for both backends: the backend gets a native view
 * and data already in file order. The bytes on disk are then the same whichever backend wrote
 * them, and no MPI library's own external32 support (uneven in Open MPI's OMPIO) is involved.
 * A write packs the user's items, reverses each element, and writes from a copy laid out as the
 * user's buffer; a read fills such a copy, and unpacks the converted elements it received into
 * the user's buffer (only those: a short read leaves the rest alone).
 *
 * <p>Types whose memory layout has padding ({@code MPI.SHORT_INT}, {@code DOUBLE_INT},
 * {@code LONG_INT}) are refused: external32 has no padding, so their file layout would differ
 * from memory's.
 */
final class External32 {
    static final String NAME = "external32";

    /** Big-endian machines store external32 as it is. */
    private static final boolean REVERSE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private External32() {
    }

    /** Refuses a type external32 cannot hold as memory lays it out (setView's etype and filetype, an access's datatype). */
    static void check(String call, String arg, TypeDesc t) {
        TypeMap m = TypeMap.of(t);
        for (int i = 0; i < m.blocks(); i++) {
            TypeDesc leaf = m.leaf(i);
            if (leaf.layout == Layout.VALUE_INT && leaf.size != leaf.extent) {
                throw MPIException.of(MPI.ERR_UNSUPPORTED_DATAREP, call + ": " + arg + " " + t.name + " holds "
                        + leaf.name + ", which has " + (leaf.extent - leaf.size) + " bytes of padding in memory and "
                        + "none in \"external32\" (use \"native\", or a struct type without padding)");
            }
        }
    }

    /** Whether any element of {@code t} has more than one byte (otherwise both representations are the same bytes). */
    static boolean changes(TypeDesc t) {
        if (!REVERSE) return false;
        TypeMap m = TypeMap.of(t);
        for (int i = 0; i < m.blocks(); i++) {
            if (unit(m.leaf(i)) > 1) return true;
        }
        return false;
    }

    /** Refuses memory Java code cannot convert (device memory). */
    static void checkMemory(String call, Buf b) {
        if (b.memory == MemoryKind.DEVICE) {
            throw MPIException.of(MPI.ERR_UNSUPPORTED_DATAREP, call + ": buf is device memory; an \"external32\" "
                    + "view converts the data in host memory (stage it in a host buffer, or use \"native\")");
        }
    }

    /** Bytes of each scalar in a leaf: the component of pairs and complex numbers, the value of value+int types. */
    private static int unit(TypeDesc leaf) {
        switch (leaf.layout) {
            case PAIR:
            case COMPLEX:
            case VALUE_INT: // FLOAT_INT only (the others are refused): a float and an int
                return leaf.valueKind.bytes;
            case PRIMITIVE:
                return (int) leaf.size;
            default:
                return 1; // PACKED, BYTE-like data: bytes stay as they are
        }
    }

    /** A copy laid out as the user's buffer, for {@code count} items of {@code t}. */
    static Buf region(String call, int count, TypeDesc t) {
        long low = Buffers.lowestByte(count, t);
        long high = Buffers.spanBytes(count, t);
        long bytes = high - low;
        if (bytes > Integer.MAX_VALUE - 8) {
            throw MPIException.of(MPI.ERR_UNSUPPORTED_DATAREP, call + ": count " + count + " of " + t.name + " spans "
                    + bytes + " bytes; an \"external32\" access converts at most 2 GiB at a time");
        }
        ByteBuffer bb = ByteBuffer.allocateDirect((int) Math.max(bytes, 1)).order(ByteOrder.nativeOrder());
        return new Buf(bb, BaseKind.BYTE, (int) -low, (int) high);
    }

    /** The data of a write, converted: a {@link #region} holding the user's items in file order. */
    static Buf forWrite(String call, Buf user, int count, TypeDesc t) {
        Buf region = region(call, count, t);
        long n = TypeMapCopy.packedBytes(count, t);
        Buf packed = packedBuffer(n);
        TypeMapCopy.pack(user, t, count, packed, 0);
        reverse((ByteBuffer) packed.base, t, count, n);
        TypeMapCopy.unpack(packed, 0, region, t, count, n);
        return region;
    }

    /** After a read of {@code bytes} packed bytes into {@code region}: the elements received, converted, into the user's buffer. */
    static void afterRead(Buf region, Buf user, int count, TypeDesc t, long bytes) {
        long all = TypeMapCopy.packedBytes(count, t);
        long n = Math.min(bytes, all);
        if (n <= 0) return;
        Buf packed = packedBuffer(all);
        TypeMapCopy.pack(region, t, count, packed, 0);
        reverse((ByteBuffer) packed.base, t, count, n);
        TypeMapCopy.unpack(packed, 0, user, t, count, n);
    }

    private static Buf packedBuffer(long bytes) {
        ByteBuffer bb = ByteBuffer.allocateDirect((int) Math.max(bytes, 1)).order(ByteOrder.nativeOrder());
        return new Buf(bb, BaseKind.BYTE, 0, (int) bytes);
    }

    /** Reverses the bytes of every whole scalar in the first {@code limit} packed bytes of {@code count} items of {@code t}. */
    private static void reverse(ByteBuffer bb, TypeDesc t, long count, long limit) {
        TypeMap m = TypeMap.of(t);
        long pos = 0;
        for (long k = 0; k < count; k++) {
            for (int b = 0; b < m.blocks(); b++) {
                TypeDesc leaf = m.leaf(b);
                int u = unit(leaf);
                for (int j = 0; j < m.count(b); j++) {
                    if (pos + leaf.size > limit) return;
                    if (u > 1) {
                        if (leaf.layout == Layout.VALUE_INT) {
                            swap(bb, (int) pos, u);
                            swap(bb, (int) (pos + leaf.valueIntIndexOffset()), 4);
                        } else {
                            for (long s = 0; s < leaf.size; s += u) swap(bb, (int) (pos + s), u);
                        }
                    }
                    pos += leaf.size;
                }
            }
        }
    }

    private static void swap(ByteBuffer bb, int at, int size) {
        switch (size) {
            case 2: bb.putShort(at, Short.reverseBytes(bb.getShort(at))); break;
            case 4: bb.putInt(at, Integer.reverseBytes(bb.getInt(at))); break;
            case 8: bb.putLong(at, Long.reverseBytes(bb.getLong(at))); break;
            default: throw new IllegalStateException("scalar of " + size + " bytes");
        }
    }

    /**
     * A non-blocking or split access through an external32 view: the request keeps the
     * converted copy alive while the backend works on it and, for a read ({@code user} not
     * null), converts into the user's buffer once done.
     */
    static BackendRequest converting(BackendRequest inner, Buf region, Buf user, int count, TypeDesc type) {
        return Unpacking.whenDone(inner, bytes -> {
            if (user != null) afterRead(region, user, count, type, bytes);
        });
    }
}
