package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reduction operations in Java: {@code inout[i] = in[i] op inout[i]} over {@code count} items.
 * Used by the fabric's collectives and by {@code Comm.reduceLocal}. Semantics are Java's:
 * integer arithmetic wraps, {@code byte} is signed, {@code char} unsigned; MAX/MIN keep the
 * inout value unless the in value is strictly greater/smaller (as C MPI libraries do, which
 * also fixes what happens to NaN); MINLOC/MAXLOC break ties by the smaller index.
 *
 * <p>Arrays are reduced in place; buffers are reduced a block at a time through two small
 * per-thread arrays.
 */
public final class Reductions {
    private Reductions() {
    }

    /**
     * Reduces {@code count} items of {@code type} from {@code in} (starting {@code inOff} bytes
     * after its first element) into {@code inout} (starting {@code inoutOff} bytes in).
     */
    public static void reduce(OpDesc op, TypeDesc type, Buf in, long inOff, Buf inout, long inoutOff, int count) {
        if (count == 0) return;
        if (op.code == OpCode.USER) {
            op.function.reduce(slice(in, inOff), slice(inout, inoutOff), count, type);
            return;
        }
        if (type.derived instanceof TypeMap) {
            reduceDerived(op, type, in, inOff, inout, inoutOff, count);
            return;
        }
        if (type.layout == Layout.VALUE_INT) {
            reduceValueInt(op.code, type, in, inOff, inout, inoutOff, count);
            return;
        }
        int per = type.arrayElementsPerItem;
        BaseKind k = type.arrayKind;
        boolean inArray = in.isArray() && in.kind == k, inoutArray = inout.isArray() && inout.kind == k;
        if (type.layout == Layout.PRIMITIVE
                && NativeReduce.tryReduce(op.code, k, in, inOff, inout, inoutOff, count * per)) {
            return; // by a C loop: direct memory, or a long run of two arrays
        }
        if (inArray && inoutArray) {
            reduceArrays(op.code, type.layout, k, in.base, in.offset + (int) (inOff / k.bytes), inout.base,
                    inout.offset + (int) (inoutOff / k.bytes), count * per);
            return;
        }
        // A buffer operand (direct or typed memory, or an array of another kind) is reduced a
        // block at a time through this thread's two block arrays: the copies stay in cache and
        // nothing is allocated per call.
        Object[] blocks = BLOCKS.get();
        Object ia = blocks[2 * k.ordinal()], ib = blocks[2 * k.ordinal() + 1];
        if (ia == null) {
            blocks[2 * k.ordinal()] = ia = BufAccess.allocate(k, BLOCK_BYTES, false).base;
            blocks[2 * k.ordinal() + 1] = ib = BufAccess.allocate(k, BLOCK_BYTES, false).base;
        }
        Buf blockIn = new Buf(ia, k, 0, BLOCK_BYTES / k.bytes), blockInout = new Buf(ib, k, 0, BLOCK_BYTES / k.bytes);
        int itemsPerBlock = Math.max(1, BLOCK_BYTES / k.bytes / per);
        long itemBytes = (long) per * k.bytes;
        for (int done = 0; done < count; ) {
            int items = Math.min(itemsPerBlock, count - done);
            long at = (long) done * itemBytes, bytes = (long) items * itemBytes;
            Object a = ia, b = ib;
            int ao = 0, bo = 0;
            if (inArray) {
                a = in.base;
                ao = in.offset + (int) ((inOff + at) / k.bytes);
            } else {
                BufAccess.copy(in, inOff + at, blockIn, 0, bytes);
            }
            if (inoutArray) {
                b = inout.base;
                bo = inout.offset + (int) ((inoutOff + at) / k.bytes);
            } else {
                BufAccess.copy(inout, inoutOff + at, blockInout, 0, bytes);
            }
            reduceArrays(op.code, type.layout, k, a, ao, b, bo, items * per);
            if (!inoutArray) BufAccess.copy(blockInout, 0, inout, inoutOff + at, bytes);
            done += items;
        }
    }

    /** Bytes of one block of a reduction with a buffer operand (two per thread and kind). */
    private static final int BLOCK_BYTES = 32 * 1024;
    private static final ThreadLocal<Object[]> BLOCKS =
            ThreadLocal.withInitial(() -> new Object[2 * BaseKind.values().length]);

    /**
     * A predefined op on a derived type of one leaf (issue 10): element-wise over the leaf items
     * the type selects, packed into arrays, reduced, and unpacked into the gaps' surroundings.
     */
    private static void reduceDerived(OpDesc op, TypeDesc type, Buf in, long inOff, Buf inout, long inoutOff,
                                      int count) {
        TypeMap m = (TypeMap) type.derived;
        TypeDesc leaf = m.uniformLeaf;
        long bytes = count * m.size;
        Buf a = BufAccess.allocate(leaf.arrayKind, bytes, false);
        Buf b = BufAccess.allocate(leaf.arrayKind, bytes, false);
        TypeMapCopy.packFrom(in, inOff, type, count, a, 0);
        TypeMapCopy.packFrom(inout, inoutOff, type, count, b, 0);
        reduce(op, leaf, a, 0, b, 0, (int) (count * m.leafItems));
        TypeMapCopy.unpackTo(b, 0, inout, inoutOff, type, count, bytes);
    }

    private static Buf slice(Buf b, long byteOff) {
        return byteOff == 0 ? b : b.plus((int) (byteOff / b.kind.bytes));
    }

    private static void reduceArrays(OpCode op, Layout layout, BaseKind k, Object in, int i0, Object io, int o0,
                                     int n) {
        if (layout == Layout.PAIR) {
            reducePairs(op, k, in, i0, io, o0, n);
            return;
        }
        if (layout == Layout.COMPLEX) {
            reduceComplex(op, k, in, i0, io, o0, n);
            return;
        }
        switch (k) {
            case BYTE: bytes(op, (byte[]) in, i0, (byte[]) io, o0, n); break;
            case SHORT: shorts(op, (short[]) in, i0, (short[]) io, o0, n); break;
            case CHAR: chars(op, (char[]) in, i0, (char[]) io, o0, n); break;
            case INT: ints(op, (int[]) in, i0, (int[]) io, o0, n); break;
            case LONG: longs(op, (long[]) in, i0, (long[]) io, o0, n); break;
            case FLOAT: floats(op, (float[]) in, i0, (float[]) io, o0, n); break;
            case DOUBLE: doubles(op, (double[]) in, i0, (double[]) io, o0, n); break;
            case BOOLEAN: booleans(op, (boolean[]) in, i0, (boolean[]) io, o0, n); break;
            default: throw new IllegalArgumentException("cannot reduce " + k);
        }
    }

    private static void ints(OpCode op, int[] a, int i, int[] b, int j, int n) {
        switch (op) {
            case SUM: for (int x = 0; x < n; x++) b[j + x] += a[i + x]; break;
            case PROD: for (int x = 0; x < n; x++) b[j + x] *= a[i + x]; break;
            case MAX: for (int x = 0; x < n; x++) if (a[i + x] > b[j + x]) b[j + x] = a[i + x]; break;
            case MIN: for (int x = 0; x < n; x++) if (a[i + x] < b[j + x]) b[j + x] = a[i + x]; break;
            case BAND: for (int x = 0; x < n; x++) b[j + x] &= a[i + x]; break;
            case BOR: for (int x = 0; x < n; x++) b[j + x] |= a[i + x]; break;
            case BXOR: for (int x = 0; x < n; x++) b[j + x] ^= a[i + x]; break;
            case LAND: for (int x = 0; x < n; x++) b[j + x] = (a[i + x] != 0 && b[j + x] != 0) ? 1 : 0; break;
            case LOR: for (int x = 0; x < n; x++) b[j + x] = (a[i + x] != 0 || b[j + x] != 0) ? 1 : 0; break;
            case LXOR: for (int x = 0; x < n; x++) b[j + x] = ((a[i + x] != 0) != (b[j + x] != 0)) ? 1 : 0; break;
            default: throw unsupported(op, "int");
        }
    }

    private static void longs(OpCode op, long[] a, int i, long[] b, int j, int n) {
        switch (op) {
            case SUM: for (int x = 0; x < n; x++) b[j + x] += a[i + x]; break;
            case PROD: for (int x = 0; x < n; x++) b[j + x] *= a[i + x]; break;
            case MAX: for (int x = 0; x < n; x++) if (a[i + x] > b[j + x]) b[j + x] = a[i + x]; break;
            case MIN: for (int x = 0; x < n; x++) if (a[i + x] < b[j + x]) b[j + x] = a[i + x]; break;
            case BAND: for (int x = 0; x < n; x++) b[j + x] &= a[i + x]; break;
            case BOR: for (int x = 0; x < n; x++) b[j + x] |= a[i + x]; break;
            case BXOR: for (int x = 0; x < n; x++) b[j + x] ^= a[i + x]; break;
            case LAND: for (int x = 0; x < n; x++) b[j + x] = (a[i + x] != 0 && b[j + x] != 0) ? 1 : 0; break;
            case LOR: for (int x = 0; x < n; x++) b[j + x] = (a[i + x] != 0 || b[j + x] != 0) ? 1 : 0; break;
            case LXOR: for (int x = 0; x < n; x++) b[j + x] = ((a[i + x] != 0) != (b[j + x] != 0)) ? 1 : 0; break;
            default: throw unsupported(op, "long");
        }
    }

    private static void shorts(OpCode op, short[] a, int i, short[] b, int j, int n) {
        switch (op) {
            case SUM: for (int x = 0; x < n; x++) b[j + x] += a[i + x]; break;
            case PROD: for (int x = 0; x < n; x++) b[j + x] *= a[i + x]; break;
            case MAX: for (int x = 0; x < n; x++) if (a[i + x] > b[j + x]) b[j + x] = a[i + x]; break;
            case MIN: for (int x = 0; x < n; x++) if (a[i + x] < b[j + x]) b[j + x] = a[i + x]; break;
            case BAND: for (int x = 0; x < n; x++) b[j + x] &= a[i + x]; break;
            case BOR: for (int x = 0; x < n; x++) b[j + x] |= a[i + x]; break;
            case BXOR: for (int x = 0; x < n; x++) b[j + x] ^= a[i + x]; break;
            case LAND: for (int x = 0; x < n; x++) b[j + x] = (short) ((a[i + x] != 0 && b[j + x] != 0) ? 1 : 0); break;
            case LOR: for (int x = 0; x < n; x++) b[j + x] = (short) ((a[i + x] != 0 || b[j + x] != 0) ? 1 : 0); break;
            case LXOR: for (int x = 0; x < n; x++) b[j + x] = (short) (((a[i + x] != 0) != (b[j + x] != 0)) ? 1 : 0); break;
            default: throw unsupported(op, "short");
        }
    }

    private static void chars(OpCode op, char[] a, int i, char[] b, int j, int n) {
        switch (op) {
            case SUM: for (int x = 0; x < n; x++) b[j + x] += a[i + x]; break;
            case PROD: for (int x = 0; x < n; x++) b[j + x] *= a[i + x]; break;
            case MAX: for (int x = 0; x < n; x++) if (a[i + x] > b[j + x]) b[j + x] = a[i + x]; break;
            case MIN: for (int x = 0; x < n; x++) if (a[i + x] < b[j + x]) b[j + x] = a[i + x]; break;
            case BAND: for (int x = 0; x < n; x++) b[j + x] &= a[i + x]; break;
            case BOR: for (int x = 0; x < n; x++) b[j + x] |= a[i + x]; break;
            case BXOR: for (int x = 0; x < n; x++) b[j + x] ^= a[i + x]; break;
            case LAND: for (int x = 0; x < n; x++) b[j + x] = (char) ((a[i + x] != 0 && b[j + x] != 0) ? 1 : 0); break;
            case LOR: for (int x = 0; x < n; x++) b[j + x] = (char) ((a[i + x] != 0 || b[j + x] != 0) ? 1 : 0); break;
            case LXOR: for (int x = 0; x < n; x++) b[j + x] = (char) (((a[i + x] != 0) != (b[j + x] != 0)) ? 1 : 0); break;
            default: throw unsupported(op, "char");
        }
    }

    private static void bytes(OpCode op, byte[] a, int i, byte[] b, int j, int n) {
        switch (op) {
            case SUM: for (int x = 0; x < n; x++) b[j + x] += a[i + x]; break;
            case PROD: for (int x = 0; x < n; x++) b[j + x] *= a[i + x]; break;
            case MAX: for (int x = 0; x < n; x++) if (a[i + x] > b[j + x]) b[j + x] = a[i + x]; break;
            case MIN: for (int x = 0; x < n; x++) if (a[i + x] < b[j + x]) b[j + x] = a[i + x]; break;
            case BAND: for (int x = 0; x < n; x++) b[j + x] &= a[i + x]; break;
            case BOR: for (int x = 0; x < n; x++) b[j + x] |= a[i + x]; break;
            case BXOR: for (int x = 0; x < n; x++) b[j + x] ^= a[i + x]; break;
            case LAND: for (int x = 0; x < n; x++) b[j + x] = (byte) ((a[i + x] != 0 && b[j + x] != 0) ? 1 : 0); break;
            case LOR: for (int x = 0; x < n; x++) b[j + x] = (byte) ((a[i + x] != 0 || b[j + x] != 0) ? 1 : 0); break;
            case LXOR: for (int x = 0; x < n; x++) b[j + x] = (byte) (((a[i + x] != 0) != (b[j + x] != 0)) ? 1 : 0); break;
            default: throw unsupported(op, "byte");
        }
    }

    private static void floats(OpCode op, float[] a, int i, float[] b, int j, int n) {
        switch (op) {
            case SUM: for (int x = 0; x < n; x++) b[j + x] += a[i + x]; break;
            case PROD: for (int x = 0; x < n; x++) b[j + x] *= a[i + x]; break;
            case MAX: for (int x = 0; x < n; x++) if (a[i + x] > b[j + x]) b[j + x] = a[i + x]; break;
            case MIN: for (int x = 0; x < n; x++) if (a[i + x] < b[j + x]) b[j + x] = a[i + x]; break;
            default: throw unsupported(op, "float");
        }
    }

    private static void doubles(OpCode op, double[] a, int i, double[] b, int j, int n) {
        switch (op) {
            case SUM: for (int x = 0; x < n; x++) b[j + x] += a[i + x]; break;
            case PROD: for (int x = 0; x < n; x++) b[j + x] *= a[i + x]; break;
            case MAX: for (int x = 0; x < n; x++) if (a[i + x] > b[j + x]) b[j + x] = a[i + x]; break;
            case MIN: for (int x = 0; x < n; x++) if (a[i + x] < b[j + x]) b[j + x] = a[i + x]; break;
            default: throw unsupported(op, "double");
        }
    }

    private static void booleans(OpCode op, boolean[] a, int i, boolean[] b, int j, int n) {
        switch (op) {
            case LAND: for (int x = 0; x < n; x++) b[j + x] = a[i + x] && b[j + x]; break;
            case LOR: for (int x = 0; x < n; x++) b[j + x] = a[i + x] || b[j + x]; break;
            case LXOR: for (int x = 0; x < n; x++) b[j + x] = a[i + x] != b[j + x]; break;
            default: throw unsupported(op, "boolean");
        }
    }

    /** MINLOC/MAXLOC over (value, index) pairs stored as consecutive elements. */
    private static void reducePairs(OpCode op, BaseKind k, Object in, int i0, Object io, int o0, int n) {
        boolean min = op == OpCode.MINLOC;
        if (!op.isLocOp()) throw unsupported(op, "pair type");
        for (int p = 0; p < n; p += 2) {
            double va = get(k, in, i0 + p), vb = get(k, io, o0 + p);
            double ia = get(k, in, i0 + p + 1), ib = get(k, io, o0 + p + 1);
            if (k == BaseKind.LONG) {
                long la = ((long[]) in)[i0 + p], lb = ((long[]) io)[o0 + p];
                if (min ? la < lb : la > lb) {
                    ((long[]) io)[o0 + p] = la;
                    ((long[]) io)[o0 + p + 1] = ((long[]) in)[i0 + p + 1];
                } else if (la == lb && ((long[]) in)[i0 + p + 1] < ((long[]) io)[o0 + p + 1]) {
                    ((long[]) io)[o0 + p + 1] = ((long[]) in)[i0 + p + 1];
                }
                continue;
            }
            if (min ? va < vb : va > vb) {
                set(k, io, o0 + p, va);
                set(k, io, o0 + p + 1, ia);
            } else if (va == vb && ia < ib) {
                set(k, io, o0 + p + 1, ia);
            }
        }
    }

    private static void reduceComplex(OpCode op, BaseKind k, Object in, int i0, Object io, int o0, int n) {
        for (int p = 0; p < n; p += 2) {
            double ar = get(k, in, i0 + p), ai = get(k, in, i0 + p + 1);
            double br = get(k, io, o0 + p), bi = get(k, io, o0 + p + 1);
            if (op == OpCode.SUM) {
                set(k, io, o0 + p, br + ar);
                set(k, io, o0 + p + 1, bi + ai);
            } else if (op == OpCode.PROD) {
                set(k, io, o0 + p, ar * br - ai * bi);
                set(k, io, o0 + p + 1, ar * bi + ai * br);
            } else {
                throw unsupported(op, "complex type");
            }
        }
    }

    private static double get(BaseKind k, Object a, int i) {
        switch (k) {
            case SHORT: return ((short[]) a)[i];
            case INT: return ((int[]) a)[i];
            case LONG: return ((long[]) a)[i];
            case FLOAT: return ((float[]) a)[i];
            case DOUBLE: return ((double[]) a)[i];
            default: throw new IllegalArgumentException("kind " + k);
        }
    }

    private static void set(BaseKind k, Object a, int i, double v) {
        switch (k) {
            case SHORT: ((short[]) a)[i] = (short) v; break;
            case INT: ((int[]) a)[i] = (int) v; break;
            case LONG: ((long[]) a)[i] = (long) v; break;
            case FLOAT: ((float[]) a)[i] = (float) v; break;
            case DOUBLE: ((double[]) a)[i] = v; break;
            default: throw new IllegalArgumentException("kind " + k);
        }
    }

    /** MINLOC/MAXLOC over C structs {value; int} in raw bytes. */
    private static void reduceValueInt(OpCode op, TypeDesc type, Buf in, long inOff, Buf inout, long inoutOff,
                                       int count) {
        if (!op.isLocOp()) throw unsupported(op, type.name);
        long bytes = (long) count * type.extent;
        ByteBuffer a = bytesOf(in, inOff, bytes);
        ByteBuffer b = ByteBuffer.allocate((int) bytes).order(ByteOrder.nativeOrder());
        BufAccess.get(inout, inoutOff, b, 0, (int) bytes);
        boolean min = op == OpCode.MINLOC;
        int ext = (int) type.extent;
        int idx = (int) type.valueIntIndexOffset();
        for (int p = 0; p < count; p++) {
            int at = p * ext;
            double va = value(type.valueKind, a, at), vb = value(type.valueKind, b, at);
            int ia = a.getInt(at + idx), ib = b.getInt(at + idx);
            if (min ? va < vb : va > vb) {
                copyValue(type.valueKind, a, b, at);
                b.putInt(at + idx, ia);
            } else if (va == vb && ia < ib) {
                b.putInt(at + idx, ia);
            }
        }
        BufAccess.put(b, 0, inout, inoutOff, (int) bytes);
    }

    private static ByteBuffer bytesOf(Buf b, long off, long bytes) {
        ByteBuffer out = ByteBuffer.allocate((int) bytes).order(ByteOrder.nativeOrder());
        BufAccess.get(b, off, out, 0, (int) bytes);
        return out;
    }

    private static double value(BaseKind k, ByteBuffer b, int at) {
        switch (k) {
            case SHORT: return b.getShort(at);
            case LONG: return b.getLong(at);
            case FLOAT: return b.getFloat(at);
            case DOUBLE: return b.getDouble(at);
            default: return b.getInt(at);
        }
    }

    private static void copyValue(BaseKind k, ByteBuffer from, ByteBuffer to, int at) {
        for (int x = 0; x < k.bytes; x++) to.put(at + x, from.get(at + x));
    }

    private static IllegalArgumentException unsupported(OpCode op, String what) {
        return new IllegalArgumentException(op + " is not defined for " + what);
    }
}
