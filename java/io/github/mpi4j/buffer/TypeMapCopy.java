package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;

/**
 * Packs items of a derived datatype from a user buffer into contiguous bytes, and unpacks them
 * back, following the type map's blocks in order: one bulk copy per block
 * ({@link BufAccess#copy}), never a call per element. Types that are not derived are one run
 * of {@code count * extent} bytes. Offsets are bytes from the Buf's first element.
 */
public final class TypeMapCopy {
    private TypeMapCopy() {
    }

    /** Bytes {@code count} items of {@code t} take once packed. */
    public static long packedBytes(long count, TypeDesc t) {
        return t.derived instanceof TypeMap ? count * t.size : count * t.extent;
    }

    /**
     * Copies {@code count} items of {@code t} from {@code user} to {@code packed} at byte
     * {@code at}; returns the bytes written.
     */
    public static long pack(Buf user, TypeDesc t, long count, Buf packed, long at) {
        if (!(t.derived instanceof TypeMap)) {
            long n = count * t.extent;
            BufAccess.copy(user, 0, packed, at, n);
            return n;
        }
        return packFrom(user, 0, t, count, packed, at);
    }

    /** As {@link #pack}, the first item starting {@code from} bytes into {@code user}. */
    public static long packFrom(Buf user, long from, TypeDesc t, long count, Buf packed, long at) {
        TypeMap m = (TypeMap) t.derived;
        long pos = at;
        int blocks = m.blocks();
        for (long i = 0; i < count; i++) {
            long base = from + i * t.extent;
            for (int b = 0; b < blocks; b++) {
                long n = m.bytes(b);
                BufAccess.copy(user, base + m.disp(b), packed, pos, n);
                pos += n;
            }
        }
        return pos - at;
    }

    /**
     * Copies packed data from {@code packed} at byte {@code at} into {@code count} items of
     * {@code t} in {@code user}, stopping after {@code limit} packed bytes (a shorter message
     * fills its first items and leaves the rest as they were); returns the bytes read.
     */
    public static long unpack(Buf packed, long at, Buf user, TypeDesc t, long count, long limit) {
        return unpackTo(packed, at, user, 0, t, count, limit);
    }

    /** As {@link #unpack}, the first item starting {@code to} bytes into {@code user}. */
    public static long unpackTo(Buf packed, long at, Buf user, long to, TypeDesc t, long count, long limit) {
        if (!(t.derived instanceof TypeMap)) {
            long n = Math.min(limit, count * t.extent);
            BufAccess.copy(packed, at, user, to, n);
            return n;
        }
        TypeMap m = (TypeMap) t.derived;
        long pos = at, end = at + limit;
        int blocks = m.blocks();
        for (long i = 0; i < count && pos < end; i++) {
            long base = to + i * t.extent;
            for (int b = 0; b < blocks && pos < end; b++) {
                long n = Math.min(m.bytes(b), end - pos);
                n -= n % m.leaf(b).size; // whole leaf elements only
                if (n == 0) return pos - at;
                BufAccess.copy(packed, pos, user, base + m.disp(b), n);
                pos += n;
            }
        }
        return pos - at;
    }

    /**
     * Copies the data of {@code count} items of {@code t} from {@code src} to {@code dst}, each
     * block to the same place (both laid out as the type describes); gaps are left alone.
     */
    public static void copyItems(Buf src, Buf dst, TypeDesc t, long count) {
        if (!(t.derived instanceof TypeMap)) {
            BufAccess.copy(src, 0, dst, 0, count * t.extent);
            return;
        }
        TypeMap m = (TypeMap) t.derived;
        int blocks = m.blocks();
        for (long i = 0; i < count; i++) {
            long base = i * t.extent;
            for (int b = 0; b < blocks; b++) BufAccess.copy(src, base + m.disp(b), dst, base + m.disp(b), m.bytes(b));
        }
    }
}
