package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.MemoryKind;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * Byte-level copies between {@link Buf}s (arrays or direct buffers of any primitive kind) and
 * native-order {@link ByteBuffer}s, for the pure-Java parts of mpi4j (the fabric's transports,
 * staging of non-blocking array operations, reductions). Offsets and lengths are in bytes
 * from the Buf's first element and must be whole elements of the Buf's kind. Copies are bulk
 * operations (intrinsics), except byte payloads up to {@link #SMALL_COPY} bytes (a few 8-byte
 * steps cost less than a bulk copy's checks) and {@code boolean[]}.
 *
 * <p>Memory kinds, for everything that moves data in Java: arrays and direct buffers as they
 * are; host memory given by address through a direct-buffer view ({@link HostViews}); device
 * memory refused (Java code cannot address it). {@link #forJava} is the one place that decides.
 */
public final class BufAccess {
    private BufAccess() {
    }

    /** The name refusals give to Java code that moves data: today, the fabric. */
    static final String JAVA_MOVERS = "the fabric backend";

    /**
     * {@code b} as Java code can read and write it: itself for an array or direct buffer, a Buf
     * over a direct view for host memory; device memory is refused. Backends that move data in
     * Java call it where a buffer enters, so a refusal comes before anything moves. In a running
     * job device memory never gets here: the device layer ({@code io.github.mpi4j.device}) stages
     * it in pinned host memory first; this refusal guards code that bypasses that layer.
     */
    public static Buf forJava(Buf b) {
        if (!b.isNative()) return b;
        if (b.memory == MemoryKind.DEVICE) {
            throw MemoryRules.refuse(b, JAVA_MOVERS, "it moves data with Java code, which cannot address device memory"
                    + " (mpi calls stage it in pinned host memory first: io.github.mpi4j.device)");
        }
        return b.directView(HostViews::view);
    }

    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    static {
        NioViews.loadAll();  // before anything that copies is compiled (see NioViews)
    }

    /**
     * Byte payloads up to this size move 8 bytes at a time with plain gets and puts (the last
     * 2-7 bytes as one overlapping step): for a small message the JDK's bulk copy costs more in
     * its checks and stub call than the copy itself (the 8-byte message rate and latency, issue
     * 12 item 1). Not beyond 32: from 33 bytes the loop's eight or more bounds-checked steps per
     * side cost more than the bulk copy (64-byte latency 0.248 µs with a limit of 64, 0.214 with
     * 32; docs/performance.md, twenty-fourth session).
     */
    static final int SMALL_COPY = 32;

    /*
     * The small copies reach byte buffers through view handles, not ByteBuffer.getLong and
     * putLong: those are virtual calls, which C2 inlines only where the call site's profile is
     * ripe, and the site that reads or writes the transport's buffer for a user's direct buffer
     * runs for no other message. Its profile was still unripe when the warm start's compiles
     * of get and put ran, so the compiled copy called the JDK's methods out of line, and they
     * were compiled (and trapped once on a null base) in a program's first round of 8-byte
     * messages from direct buffers: 1.2-2.2 µs a message there, 0.5 with the handles
     * (thirty-third and thirty-fourth sessions). A handle is inlined whatever the profile.
     */
    private static final VarHandle BUFFER_LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, NATIVE);
    private static final VarHandle BUFFER_INTS = MethodHandles.byteBufferViewVarHandle(int[].class, NATIVE);
    private static final VarHandle BUFFER_SHORTS = MethodHandles.byteBufferViewVarHandle(short[].class, NATIVE);

    /**
     * {@code n} bytes of {@code src} from byte {@code from} into {@code dst} at byte {@code at},
     * each a byte array or byte buffer, in native-order steps of 8, 4 or 2 bytes (so the
     * buffers' own byte orders do not matter), the last step overlapping the one before where
     * {@code n} is not a multiple of it; a single byte alone.
     */
    private static void smallCopy(Object src, int from, Object dst, int at, int n) {
        if (n >= 8) {
            int last = n - 8;
            for (int i = 0; i < last; i += 8) putLong(dst, at + i, getLong(src, from + i));
            putLong(dst, at + last, getLong(src, from + last));
        } else if (n >= 4) {
            int head = getInt(src, from);
            int tail = getInt(src, from + n - 4);
            putInt(dst, at, head);
            putInt(dst, at + n - 4, tail);
        } else if (n >= 2) {
            short head = getShort(src, from);
            short tail = getShort(src, from + n - 2);
            putShort(dst, at, head);
            putShort(dst, at + n - 2, tail);
        } else if (n == 1) {
            // No view handle reads single bytes of a buffer: the virtual call is left for them.
            byte v = src instanceof byte[] ? ((byte[]) src)[from] : ((ByteBuffer) src).get(from);
            if (dst instanceof byte[]) ((byte[]) dst)[at] = v;
            else ((ByteBuffer) dst).put(at, v);
        }
    }

    private static long getLong(Object b, int i) {
        return b instanceof byte[] ? (long) LONGS.get((byte[]) b, i) : (long) BUFFER_LONGS.get((ByteBuffer) b, i);
    }

    private static void putLong(Object b, int i, long v) {
        if (b instanceof byte[]) LONGS.set((byte[]) b, i, v);
        else BUFFER_LONGS.set((ByteBuffer) b, i, v);
    }

    private static int getInt(Object b, int i) {
        return b instanceof byte[] ? (int) INTS.get((byte[]) b, i) : (int) BUFFER_INTS.get((ByteBuffer) b, i);
    }

    private static void putInt(Object b, int i, int v) {
        if (b instanceof byte[]) INTS.set((byte[]) b, i, v);
        else BUFFER_INTS.set((ByteBuffer) b, i, v);
    }

    private static short getShort(Object b, int i) {
        return b instanceof byte[] ? (short) SHORTS.get((byte[]) b, i) : (short) BUFFER_SHORTS.get((ByteBuffer) b, i);
    }

    private static void putShort(Object b, int i, short v) {
        if (b instanceof byte[]) SHORTS.set((byte[]) b, i, v);
        else BUFFER_SHORTS.set((ByteBuffer) b, i, v);
    }

    /** Copies {@code len} bytes of {@code src} from byte {@code srcOff} into {@code dst} at absolute index {@code dstIndex}. */
    public static void get(Buf src, long srcOff, ByteBuffer dst, int dstIndex, int len) {
        if (len == 0) return;
        if (src.isNative()) src = forJava(src);
        // Small byte payloads first, before the element arithmetic below: its divisions by the
        // element size cost more than such a copy (the receiver's share of the 8-byte message rate).
        if (len <= SMALL_COPY && src.kind == BaseKind.BYTE) {
            smallCopy(src.base, src.offset + (int) srcOff, dst, dstIndex, len);
            return;
        }
        if (NativeCopy.tryCopy(src, srcOff, dst, dstIndex, len, true)) return; // large: memcpy
        int k = src.kind.bytes;
        if (k > 1 && (srcOff % k != 0 || len % k != 0)) {
            getUnaligned(src, srcOff, dst, dstIndex, len);
            return;
        }
        int first = src.offset + (int) (srcOff / k);
        int n = len / k;
        Object base = src.base;
        if (base instanceof Buffer) {
            if (src.kind == BaseKind.BYTE) {
                dst.put(dstIndex, (ByteBuffer) base, first, n);
                return;
            }
            if (dstIndex % k == 0) {
                TypedViews.Views v = TypedViews.of(dst);
                int at = dstIndex / k;
                switch (src.kind) {
                    case INT: v.ints().put(at, (IntBuffer) base, first, n); return;
                    case DOUBLE: v.doubles().put(at, (DoubleBuffer) base, first, n); return;
                    case LONG: v.longs().put(at, (LongBuffer) base, first, n); return;
                    case FLOAT: v.floats().put(at, (FloatBuffer) base, first, n); return;
                    case SHORT: v.shorts().put(at, (ShortBuffer) base, first, n); return;
                    case CHAR: v.chars().put(at, (CharBuffer) base, first, n); return;
                    default: throw new IllegalArgumentException("buffer kind " + src.kind);
                }
            }
            ByteBuffer view = dst.duplicate().order(NATIVE);
            view.position(dstIndex);
            switch (src.kind) {
                case INT: view.asIntBuffer().put(0, (IntBuffer) base, first, n); break;
                case DOUBLE: view.asDoubleBuffer().put(0, (DoubleBuffer) base, first, n); break;
                case LONG: view.asLongBuffer().put(0, (LongBuffer) base, first, n); break;
                case FLOAT: view.asFloatBuffer().put(0, (FloatBuffer) base, first, n); break;
                case SHORT: view.asShortBuffer().put(0, (ShortBuffer) base, first, n); break;
                case CHAR: view.asCharBuffer().put(0, (CharBuffer) base, first, n); break;
                default: throw new IllegalArgumentException("buffer kind " + src.kind);
            }
            return;
        }
        switch (src.kind) {
            case BYTE: dst.put(dstIndex, (byte[]) base, first, n); return;
            case BOOLEAN: {
                boolean[] a = (boolean[]) base;
                for (int i = 0; i < n; i++) dst.put(dstIndex + i, a[first + i] ? (byte) 1 : (byte) 0);
                return;
            }
            default:
        }
        if (dstIndex % k == 0) {  // through the thread's cached views: no allocation per copy
            TypedViews.Views v = TypedViews.of(dst);
            int at = dstIndex / k;
            switch (src.kind) {
                case INT: v.ints().put(at, (int[]) base, first, n); return;
                case DOUBLE: v.doubles().put(at, (double[]) base, first, n); return;
                case LONG: v.longs().put(at, (long[]) base, first, n); return;
                case FLOAT: v.floats().put(at, (float[]) base, first, n); return;
                case SHORT: v.shorts().put(at, (short[]) base, first, n); return;
                case CHAR: v.chars().put(at, (char[]) base, first, n); return;
                default: throw new IllegalArgumentException("array kind " + src.kind);
            }
        }
        ByteBuffer view = dst.duplicate().order(NATIVE);
        view.position(dstIndex);
        switch (src.kind) {
            case INT: view.asIntBuffer().put((int[]) base, first, n); break;
            case DOUBLE: view.asDoubleBuffer().put((double[]) base, first, n); break;
            case LONG: view.asLongBuffer().put((long[]) base, first, n); break;
            case FLOAT: view.asFloatBuffer().put((float[]) base, first, n); break;
            case SHORT: view.asShortBuffer().put((short[]) base, first, n); break;
            case CHAR: view.asCharBuffer().put((char[]) base, first, n); break;
            default: throw new IllegalArgumentException("array kind " + src.kind);
        }
    }

    /** Copies {@code len} bytes from {@code src} at absolute index {@code srcIndex} into {@code dst} at byte {@code dstOff}. */
    public static void put(ByteBuffer src, int srcIndex, Buf dst, long dstOff, int len) {
        if (len == 0) return;
        if (dst.isNative()) dst = forJava(dst);
        if (len <= SMALL_COPY && dst.kind == BaseKind.BYTE) {
            smallCopy(src, srcIndex, dst.base, dst.offset + (int) dstOff, len);  // (see get)
            return;
        }
        if (NativeCopy.tryCopy(dst, dstOff, src, srcIndex, len, false)) return; // large: memcpy
        int k = dst.kind.bytes;
        if (k > 1 && (dstOff % k != 0 || len % k != 0)) {
            putUnaligned(src, srcIndex, dst, dstOff, len);
            return;
        }
        int first = dst.offset + (int) (dstOff / k);
        int n = len / k;
        Object base = dst.base;
        if (base instanceof Buffer) {
            if (dst.kind == BaseKind.BYTE) {
                ((ByteBuffer) base).put(first, src, srcIndex, n);
                return;
            }
            if (srcIndex % k == 0) {
                TypedViews.Views v = TypedViews.of(src);
                int at = srcIndex / k;
                switch (dst.kind) {
                    case INT: ((IntBuffer) base).put(first, v.ints(), at, n); return;
                    case DOUBLE: ((DoubleBuffer) base).put(first, v.doubles(), at, n); return;
                    case LONG: ((LongBuffer) base).put(first, v.longs(), at, n); return;
                    case FLOAT: ((FloatBuffer) base).put(first, v.floats(), at, n); return;
                    case SHORT: ((ShortBuffer) base).put(first, v.shorts(), at, n); return;
                    case CHAR: ((CharBuffer) base).put(first, v.chars(), at, n); return;
                    default: throw new IllegalArgumentException("buffer kind " + dst.kind);
                }
            }
            ByteBuffer view = src.duplicate().order(NATIVE);
            view.position(srcIndex);
            switch (dst.kind) {
                case INT: ((IntBuffer) base).put(first, view.asIntBuffer(), 0, n); break;
                case DOUBLE: ((DoubleBuffer) base).put(first, view.asDoubleBuffer(), 0, n); break;
                case LONG: ((LongBuffer) base).put(first, view.asLongBuffer(), 0, n); break;
                case FLOAT: ((FloatBuffer) base).put(first, view.asFloatBuffer(), 0, n); break;
                case SHORT: ((ShortBuffer) base).put(first, view.asShortBuffer(), 0, n); break;
                case CHAR: ((CharBuffer) base).put(first, view.asCharBuffer(), 0, n); break;
                default: throw new IllegalArgumentException("buffer kind " + dst.kind);
            }
            return;
        }
        switch (dst.kind) {
            case BYTE: src.get(srcIndex, (byte[]) base, first, n); return;
            case BOOLEAN: {
                boolean[] a = (boolean[]) base;
                for (int i = 0; i < n; i++) a[first + i] = src.get(srcIndex + i) != 0;
                return;
            }
            default:
        }
        if (srcIndex % k == 0) {
            TypedViews.Views v = TypedViews.of(src);
            int at = srcIndex / k;
            switch (dst.kind) {
                case INT: v.ints().get(at, (int[]) base, first, n); return;
                case DOUBLE: v.doubles().get(at, (double[]) base, first, n); return;
                case LONG: v.longs().get(at, (long[]) base, first, n); return;
                case FLOAT: v.floats().get(at, (float[]) base, first, n); return;
                case SHORT: v.shorts().get(at, (short[]) base, first, n); return;
                case CHAR: v.chars().get(at, (char[]) base, first, n); return;
                default: throw new IllegalArgumentException("array kind " + dst.kind);
            }
        }
        ByteBuffer view = src.duplicate().order(NATIVE);
        view.position(srcIndex);
        switch (dst.kind) {
            case INT: view.asIntBuffer().get((int[]) base, first, n); break;
            case DOUBLE: view.asDoubleBuffer().get((double[]) base, first, n); break;
            case LONG: view.asLongBuffer().get((long[]) base, first, n); break;
            case FLOAT: view.asFloatBuffer().get((float[]) base, first, n); break;
            case SHORT: view.asShortBuffer().get((short[]) base, first, n); break;
            case CHAR: view.asCharBuffer().get((char[]) base, first, n); break;
            default: throw new IllegalArgumentException("array kind " + dst.kind);
        }
    }

    /**
     * Bytes that start or end inside an element of a typed array or buffer (MPI.BYTE or MPI.CHAR
     * over an int[], a socket read that ends mid-element): the partial elements at either end go
     * through a copy of that one element, the whole ones in between in bulk. The elements exist,
     * since the buffer checks count a partial element as a whole one.
     */
    private static void getUnaligned(Buf src, long srcOff, ByteBuffer dst, int dstIndex, int len) {
        int k = src.kind.bytes;
        int head = (int) Math.min(len, (k - srcOff % k) % k);
        if (head > 0) {
            ByteBuffer one = ByteBuffer.allocate(k).order(NATIVE);
            long from = srcOff - srcOff % k;
            get(src, from, one, 0, k);
            dst.put(dstIndex, one, (int) (srcOff - from), head);
        }
        int middle = (len - head) / k * k;
        if (middle > 0) get(src, srcOff + head, dst, dstIndex + head, middle);
        int tail = len - head - middle;
        if (tail > 0) {
            ByteBuffer one = ByteBuffer.allocate(k).order(NATIVE);
            get(src, srcOff + head + middle, one, 0, k);
            dst.put(dstIndex + head + middle, one, 0, tail);
        }
    }

    /** Writes bytes that start or end inside an element: those elements are read, changed and written back. */
    private static void putUnaligned(ByteBuffer src, int srcIndex, Buf dst, long dstOff, int len) {
        int k = dst.kind.bytes;
        int head = (int) Math.min(len, (k - dstOff % k) % k);
        if (head > 0) {
            ByteBuffer one = ByteBuffer.allocate(k).order(NATIVE);
            long from = dstOff - dstOff % k;
            get(dst, from, one, 0, k);
            one.put((int) (dstOff - from), src, srcIndex, head);
            put(one, 0, dst, from, k);
        }
        int middle = (len - head) / k * k;
        if (middle > 0) put(src, srcIndex + head, dst, dstOff + head, middle);
        int tail = len - head - middle;
        if (tail > 0) {
            ByteBuffer one = ByteBuffer.allocate(k).order(NATIVE);
            long at = dstOff + head + middle;
            get(dst, at, one, 0, k);
            one.put(0, src, srcIndex + head + middle, tail);
            put(one, 0, dst, at, k);
        }
    }

    /**
     * Copies the first {@code len} bytes of {@code src} to {@code dst} at byte {@code dstOff}:
     * straight into a byte array or a direct ByteBuffer (no descriptor made for {@code src}), else
     * as {@link #copy}.
     */
    public static void copyFromBytes(byte[] src, Buf dst, long dstOff, int len) {
        if (len == 0) return;
        if (dst.isArray() && dst.kind == BaseKind.BYTE) {
            System.arraycopy(src, 0, dst.base, dst.offset + (int) dstOff, len);
        } else if (dst.isDirect() && dst.kind == BaseKind.BYTE) {
            ((ByteBuffer) dst.base).put(dst.offset + (int) dstOff, src, 0, len);
        } else if (!bytesIntoArray(src, dst, dstOff, len)) {
            copy(new Buf(src, BaseKind.BYTE, 0, src.length), 0, dst, dstOff, len);
        }
    }

    /** Up to this many bytes, {@link #bytesIntoArray} decodes element by element. */
    private static final int DECODE_MAX = 16 * 1024;
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, NATIVE);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, NATIVE);
    private static final VarHandle DOUBLES = MethodHandles.byteArrayViewVarHandle(double[].class, NATIVE);
    private static final VarHandle FLOATS = MethodHandles.byteArrayViewVarHandle(float[].class, NATIVE);
    private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, NATIVE);
    private static final VarHandle CHARS = MethodHandles.byteArrayViewVarHandle(char[].class, NATIVE);

    /**
     * A small message held as bytes (an unexpected eager message) into a typed array of whole
     * elements, decoded in place: the general path wraps the bytes and bounces them through a
     * temporary buffer and its typed view, several objects per message. False when it does not
     * apply (the caller copies the general way).
     */
    private static boolean bytesIntoArray(byte[] src, Buf dst, long dstOff, int len) {
        if (!dst.isArray() || len > DECODE_MAX) return false;
        int k = dst.kind.bytes;  // (bytes, booleans and objects fall through: k < 2)
        if (k < 2 || dstOff % k != 0 || len % k != 0) return false;
        int at = dst.offset + (int) (dstOff / k), n = len / k;
        switch (dst.kind) {
            case INT: {
                int[] a = (int[]) dst.base;
                for (int i = 0; i < n; i++) a[at + i] = (int) INTS.get(src, i * 4);
                return true;
            }
            case LONG: {
                long[] a = (long[]) dst.base;
                for (int i = 0; i < n; i++) a[at + i] = (long) LONGS.get(src, i * 8);
                return true;
            }
            case DOUBLE: {
                double[] a = (double[]) dst.base;
                for (int i = 0; i < n; i++) a[at + i] = (double) DOUBLES.get(src, i * 8);
                return true;
            }
            case FLOAT: {
                float[] a = (float[]) dst.base;
                for (int i = 0; i < n; i++) a[at + i] = (float) FLOATS.get(src, i * 4);
                return true;
            }
            case SHORT: {
                short[] a = (short[]) dst.base;
                for (int i = 0; i < n; i++) a[at + i] = (short) SHORTS.get(src, i * 2);
                return true;
            }
            case CHAR: {
                char[] a = (char[]) dst.base;
                for (int i = 0; i < n; i++) a[at + i] = (char) CHARS.get(src, i * 2);
                return true;
            }
            default: return false;
        }
    }

    /**
     * The memory of direct buffer {@code b} as bytes, for transports that read and write byte
     * buffers (TCP): a ByteBuffer whose index 0 is the first byte of {@code b}'s base buffer,
     * so {@code b}'s byte {@code off} is at index {@code b.offset * b.kind.bytes + off}. The base
     * itself for a direct ByteBuffer; a view for a typed direct buffer in this machine's byte
     * order (through {@code libmpi4j_dl}). Null where there is none (not direct, read-only when
     * {@code writable}, the other byte order, or the library not loaded): the caller then copies
     * through a staging buffer.
     */
    public static ByteBuffer directBytes(Buf b, boolean writable) {
        if (!(b.base instanceof Buffer)) return null;
        Buffer base = (Buffer) b.base;
        if (!base.isDirect() || (writable && base.isReadOnly())) return null;
        if (base instanceof ByteBuffer) return (ByteBuffer) base;
        if (b.kind == BaseKind.BOOLEAN || b.kind == BaseKind.OBJECT) return null;
        if (!HostViews.available() || !NativeCopy.nativeOrder(base)) return null;
        if ((long) base.capacity() * b.kind.bytes > Integer.MAX_VALUE) return null; // beyond a ByteBuffer's reach
        return HostViews.bytesOf(base, b.kind.bytes);
    }

    /**
     * Copies {@code len} bytes from {@code src} (byte {@code srcOff}) to {@code dst} (byte
     * {@code dstOff}). Same-kind arrays use {@link System#arraycopy}; anything else goes through
     * a byte view.
     */
    public static void copy(Buf src, long srcOff, Buf dst, long dstOff, long len) {
        if (len == 0) return;
        if (src.isNative()) src = forJava(src);
        if (dst.isNative()) dst = forJava(dst);
        int unit = Math.max(src.kind.bytes, dst.kind.bytes);
        if (unit > 1 && (srcOff % unit != 0 || dstOff % unit != 0 || len % unit != 0)) {
            // Part of an element at either end (untyped bytes of a typed array): get/put handle it.
            ByteBuffer tmp = ByteBuffer.allocate((int) len).order(NATIVE);
            get(src, srcOff, tmp, 0, (int) len);
            put(tmp, 0, dst, dstOff, (int) len);
            return;
        }
        if (src.isArray() && dst.isArray() && src.kind == dst.kind) {
            int k = src.kind.bytes;
            System.arraycopy(src.base, src.offset + (int) (srcOff / k), dst.base, dst.offset + (int) (dstOff / k),
                    (int) (len / k));
            return;
        }
        if (src.isDirect() && src.kind == BaseKind.BYTE) {
            put((ByteBuffer) src.base, src.offset + (int) srcOff, dst, dstOff, (int) len);
            return;
        }
        if (dst.isDirect() && dst.kind == BaseKind.BYTE) {
            get(src, srcOff, (ByteBuffer) dst.base, dst.offset + (int) dstOff, (int) len);
            return;
        }
        if (src.kind == dst.kind && src.isDirect() != dst.isDirect()) {
            // A typed direct buffer and an array of its kind: one bulk copy (no bounce).
            int k = src.kind.bytes;
            int si = src.offset + (int) (srcOff / k), di = dst.offset + (int) (dstOff / k), n = (int) (len / k);
            if (src.isDirect()) bufferToArray((Buffer) src.base, si, dst.base, di, n);
            else arrayToBuffer(src.base, si, (Buffer) dst.base, di, n);
            return;
        }
        if (src.kind == dst.kind && src.isDirect() && dst.isDirect()) {
            // Two typed direct buffers of one kind: one bulk copy (memcpy where both views exist).
            int k = src.kind.bytes;
            int si = src.offset + (int) (srcOff / k), di = dst.offset + (int) (dstOff / k), n = (int) (len / k);
            ByteBuffer from = directBytes(src, false), to = directBytes(dst, true);
            if (from != null && to != null && (long) si * k + len <= Integer.MAX_VALUE
                    && (long) di * k + len <= Integer.MAX_VALUE) {
                NativeCopy.copy(to, di * k, from, si * k, (int) len);
            } else {
                bufferToBuffer((Buffer) src.base, si, (Buffer) dst.base, di, n);
            }
            return;
        }
        // Typed views of different kinds: bounce through a temporary native-order buffer.
        ByteBuffer tmp = ByteBuffer.allocate((int) len).order(NATIVE);
        get(src, srcOff, tmp, 0, (int) len);
        put(tmp, 0, dst, dstOff, (int) len);
    }

    /** Absolute bulk copy between typed buffers of one kind (converting between byte orders). */
    private static void bufferToBuffer(Buffer src, int from, Buffer dst, int to, int n) {
        if (src instanceof DoubleBuffer) ((DoubleBuffer) dst).put(to, (DoubleBuffer) src, from, n);
        else if (src instanceof IntBuffer) ((IntBuffer) dst).put(to, (IntBuffer) src, from, n);
        else if (src instanceof LongBuffer) ((LongBuffer) dst).put(to, (LongBuffer) src, from, n);
        else if (src instanceof FloatBuffer) ((FloatBuffer) dst).put(to, (FloatBuffer) src, from, n);
        else if (src instanceof ShortBuffer) ((ShortBuffer) dst).put(to, (ShortBuffer) src, from, n);
        else if (src instanceof CharBuffer) ((CharBuffer) dst).put(to, (CharBuffer) src, from, n);
        else throw new IllegalArgumentException("cannot copy " + src.getClass().getName());
    }

    private static void bufferToArray(Buffer b, int from, Object array, int to, int n) {
        if (b instanceof DoubleBuffer) ((DoubleBuffer) b).get(from, (double[]) array, to, n);
        else if (b instanceof IntBuffer) ((IntBuffer) b).get(from, (int[]) array, to, n);
        else if (b instanceof LongBuffer) ((LongBuffer) b).get(from, (long[]) array, to, n);
        else if (b instanceof FloatBuffer) ((FloatBuffer) b).get(from, (float[]) array, to, n);
        else if (b instanceof ShortBuffer) ((ShortBuffer) b).get(from, (short[]) array, to, n);
        else if (b instanceof CharBuffer) ((CharBuffer) b).get(from, (char[]) array, to, n);
        else throw new IllegalArgumentException("buffer " + b.getClass().getName());
    }

    private static void arrayToBuffer(Object array, int from, Buffer b, int to, int n) {
        if (b instanceof DoubleBuffer) ((DoubleBuffer) b).put(to, (double[]) array, from, n);
        else if (b instanceof IntBuffer) ((IntBuffer) b).put(to, (int[]) array, from, n);
        else if (b instanceof LongBuffer) ((LongBuffer) b).put(to, (long[]) array, from, n);
        else if (b instanceof FloatBuffer) ((FloatBuffer) b).put(to, (float[]) array, from, n);
        else if (b instanceof ShortBuffer) ((ShortBuffer) b).put(to, (short[]) array, from, n);
        else if (b instanceof CharBuffer) ((CharBuffer) b).put(to, (char[]) array, from, n);
        else throw new IllegalArgumentException("buffer " + b.getClass().getName());
    }

    /** A fresh buffer of {@code bytes} bytes holding elements of {@code kind}: an array, or a direct buffer. */
    public static Buf allocate(BaseKind kind, long bytes, boolean direct) {
        int n = (int) (bytes / kind.bytes);
        if (direct) {
            ByteBuffer bb = ByteBuffer.allocateDirect((int) bytes).order(NATIVE);
            Buffer typed;
            switch (kind) {
                case BYTE: case BOOLEAN: return new Buf(bb, BaseKind.BYTE, 0, (int) bytes);
                case INT: typed = bb.asIntBuffer(); break;
                case DOUBLE: typed = bb.asDoubleBuffer(); break;
                case LONG: typed = bb.asLongBuffer(); break;
                case FLOAT: typed = bb.asFloatBuffer(); break;
                case SHORT: typed = bb.asShortBuffer(); break;
                case CHAR: typed = bb.asCharBuffer(); break;
                default: throw new IllegalArgumentException("kind " + kind);
            }
            return new Buf(typed, kind, 0, n);
        }
        Object a;
        switch (kind) {
            case BYTE: a = new byte[n]; break;
            case BOOLEAN: a = new boolean[n]; break;
            case INT: a = new int[n]; break;
            case DOUBLE: a = new double[n]; break;
            case LONG: a = new long[n]; break;
            case FLOAT: a = new float[n]; break;
            case SHORT: a = new short[n]; break;
            case CHAR: a = new char[n]; break;
            default: throw new IllegalArgumentException("kind " + kind);
        }
        return new Buf(a, kind, 0, n);
    }
}
