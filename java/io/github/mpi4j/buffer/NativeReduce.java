package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpCode;
import java.nio.Buffer;

/**
 * Reductions with direct memory by a C loop (through {@code libmpi4j_dl}, which needs no MPI):
 * SUM, PROD, MAX and MIN of ints, longs, floats and doubles where an operand is a direct buffer
 * of this machine's byte order. Why: Java reads direct memory an element at a time (or copies
 * it into arrays block by block), while a collective over TCP keeps its data in direct memory
 * so that the socket reads and writes it without copies; and long runs of two arrays, whose
 * Java loop C2 does not vectorize. An operand that is an array is pinned for the loop alone.
 * Where this does not apply (other kinds or ops, short runs of two arrays, overlapping
 * operands, no library), {@link Reductions} reduces in Java.
 */
final class NativeReduce {
    private NativeReduce() {
    }

    /** Fewer elements than this are not worth a JNI crossing. */
    static final int NATIVE_FROM = 1024;

    /**
     * Two arrays are reduced by the C loop from this many elements. C2 does not vectorize
     * Java's loop when the two arrays' offsets differ (they could be one array), and on
     * 16,384 doubles it took 5.0 µs against C's 4.0 (65,536: 24 against 17); on a few
     * thousand the two were even (docs/performance.md, "Eighteenth session").
     */
    static final int ARRAYS_NATIVE_FROM = 16384;

    /**
     * Elements per C call: a pinned array holds off the garbage collector while the loop runs,
     * so a long reduction goes in pieces of at most 8 MiB of doubles (about a millisecond).
     */
    static final int PIECE = 1 << 20;

    /**
     * Reduces {@code n} elements of kind {@code k} of {@code in} (from byte {@code inOff}) into
     * {@code inout} (from byte {@code inoutOff}); false, having done nothing, where it does not
     * apply.
     */
    static boolean tryReduce(OpCode op, BaseKind k, Buf in, long inOff, Buf inout, long inoutOff, int n) {
        if (n < NATIVE_FROM || !HostViews.available()) return false;
        int opCode = opCode(op), kind = kindCode(k);
        if (opCode < 0 || kind < 0 || in.kind != k || inout.kind != k) return false;
        boolean inArray = in.isArray(), inoutArray = inout.isArray();
        if (inArray && inoutArray && n < ARRAYS_NATIVE_FROM) return false;
        if (!inArray && !direct(in, false) || !inoutArray && !direct(inout, true)) return false;
        if (in.base == inout.base) return false; // overlapping operands: element order matters
        long inAt = (long) in.offset * k.bytes + inOff, inoutAt = (long) inout.offset * k.bytes + inoutOff;
        long bytes = (long) n * k.bytes;
        NativeCopy.check(inAt, bytes, room(in), "reduction operand");
        NativeCopy.check(inoutAt, bytes, room(inout), "reduction operand");
        for (int done = 0; done < n; done += PIECE) {
            int m = Math.min(PIECE, n - done);
            long skip = (long) done * k.bytes;
            reduce0(opCode, kind, in.base, inArray, inAt + skip, inout.base, inoutArray, inoutAt + skip, m);
        }
        return true;
    }

    private static int opCode(OpCode op) {
        switch (op) {
            case SUM: return 0;
            case PROD: return 1;
            case MAX: return 2;
            case MIN: return 3;
            default: return -1;
        }
    }

    private static int kindCode(BaseKind k) {
        switch (k) {
            case INT: return 0;
            case LONG: return 1;
            case FLOAT: return 2;
            case DOUBLE: return 3;
            default: return -1;
        }
    }

    private static boolean direct(Buf b, boolean written) {
        if (!(b.base instanceof Buffer)) return false;
        Buffer buffer = (Buffer) b.base;
        return buffer.isDirect() && !(written && buffer.isReadOnly()) && NativeCopy.nativeOrder(buffer);
    }

    /** Bytes of {@code b}'s base array or buffer. */
    private static long room(Buf b) {
        return b.base instanceof Buffer ? (long) ((Buffer) b.base).capacity() * b.kind.bytes
                : (long) java.lang.reflect.Array.getLength(b.base) * b.kind.bytes;
    }

    private static native void reduce0(int op, int kind, Object in, boolean inArray, long inAt, Object inout,
                                       boolean inoutArray, long inoutAt, int n);
}
