package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * Large copies between a byte buffer and a Java array or direct buffer, by the C library's
 * {@code memcpy} (through {@code libmpi4j_dl}, which needs no MPI). Why: HotSpot copies direct
 * memory, and arrays to and from it, with a plain loop of 8-byte moves, which from tens of KiB
 * on takes about 1.5 times as long as a vectorised {@code memcpy} (docs/performance.md), while
 * a JNI crossing costs tens of nanoseconds: worth it from {@link #NATIVE_FROM} bytes. An array
 * is pinned ({@code GetPrimitiveArrayCritical}) only for the {@code memcpy} itself. Without the
 * library, or for other memory (booleans, objects, read-only or heap buffers), callers copy in
 * Java as before.
 */
public final class NativeCopy {
    private NativeCopy() {
    }

    /** Copies of at least this many bytes go to memcpy where the library is loaded. */
    public static final int NATIVE_FROM = 16 * 1024;

    /**
     * Copies {@code n} bytes between direct byte buffers at absolute indices (positions and
     * limits are neither used nor changed); by memcpy from {@link #NATIVE_FROM} bytes.
     */
    public static void copy(ByteBuffer dst, int dstAt, ByteBuffer src, int srcAt, int n) {
        if (n >= NATIVE_FROM && HostViews.available() && dst.isDirect() && src.isDirect() && !dst.isReadOnly()) {
            check(dstAt, n, dst.capacity(), "destination");
            check(srcAt, n, src.capacity(), "source");
            buffers0(dst, dstAt, src, srcAt, n, false);
        } else {
            dst.put(dstAt, src, srcAt, n);
        }
    }

    /**
     * Copies {@code n} bytes between {@code b}'s memory at byte {@code off} (from its first
     * element) and direct buffer {@code bytes} at index {@code at}: into {@code bytes} when
     * {@code toBytes}, out of it otherwise. Returns false, having copied nothing, where memcpy
     * does not apply; the caller then copies in Java.
     */
    static boolean tryCopy(Buf b, long off, ByteBuffer bytes, int at, int n, boolean toBytes) {
        return n >= NATIVE_FROM && tryCopyAnySize(b, off, bytes, at, n, toBytes, false);
    }

    /**
     * As {@link #tryCopy} at every size; with {@code streaming}, a copy into {@code bytes} uses
     * non-temporal stores where the CPU has them. For {@link SharedStores}, whose copies into
     * memory another process reads next gain from 4 KiB on more than the JNI crossing costs.
     */
    static boolean tryCopyAnySize(Buf b, long off, ByteBuffer bytes, int at, int n, boolean toBytes,
                                  boolean streaming) {
        if (!HostViews.available() || !bytes.isDirect() || (toBytes && bytes.isReadOnly())) {
            return false;
        }
        BaseKind k = b.kind;
        if (k == BaseKind.BOOLEAN || k == BaseKind.OBJECT) return false;
        Object base = b.base;
        long first = (long) b.offset * k.bytes + off;
        check(at, n, bytes.capacity(), "byte buffer");
        if (base instanceof Buffer) {
            Buffer other = (Buffer) base;
            if (!other.isDirect() || (!toBytes && other.isReadOnly()) || !nativeOrder(other)) return false;
            check(first, n, (long) other.capacity() * k.bytes, "buffer");
            if (toBytes) buffers0(bytes, at, other, first, n, streaming);
            else buffers0(other, first, bytes, at, n, false);
            return true;
        }
        if (base == null || !base.getClass().isArray()) return false;
        check(first, n, (long) java.lang.reflect.Array.getLength(base) * k.bytes, "array");
        array0(base, first, bytes, at, n, toBytes, toBytes && streaming);
        return true;
    }

    /**
     * Whether the buffer's bytes are its values in this machine's order: always for bytes; a
     * typed view of the other order is converted element by element in Java instead.
     */
    static boolean nativeOrder(Buffer b) {
        java.nio.ByteOrder o;
        if (b instanceof ByteBuffer) return true;
        if (b instanceof java.nio.IntBuffer) o = ((java.nio.IntBuffer) b).order();
        else if (b instanceof java.nio.DoubleBuffer) o = ((java.nio.DoubleBuffer) b).order();
        else if (b instanceof java.nio.LongBuffer) o = ((java.nio.LongBuffer) b).order();
        else if (b instanceof java.nio.FloatBuffer) o = ((java.nio.FloatBuffer) b).order();
        else if (b instanceof java.nio.ShortBuffer) o = ((java.nio.ShortBuffer) b).order();
        else if (b instanceof java.nio.CharBuffer) o = ((java.nio.CharBuffer) b).order();
        else return false;
        return o == java.nio.ByteOrder.nativeOrder();
    }

    /** Refuses a range of {@code n} bytes at {@code at} that does not lie within {@code room} bytes. */
    static void check(long at, long n, long room, String what) {
        if (at < 0 || n < 0 || at > room - n) {
            throw new IndexOutOfBoundsException("copy of " + n + " bytes at byte " + at + " of a " + what + " of "
                    + room + " bytes");
        }
    }

    /** memcpy between two direct buffers (byte offsets from each one's element 0); streaming: non-temporal stores. */
    private static native void buffers0(Buffer dst, long dstAt, Buffer src, long srcAt, long n, boolean streaming);

    /** memcpy between a primitive array (pinned for the copy) and a direct buffer; streaming: as buffers0, into the buffer. */
    private static native void array0(Object array, long arrayAt, Buffer buffer, long bufferAt, long n,
                                      boolean toBuffer, boolean streaming);
}
