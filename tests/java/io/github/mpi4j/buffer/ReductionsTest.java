package io.github.mpi4j.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import org.junit.jupiter.api.Test;

/**
 * Reductions with buffer operands go a block at a time through per-thread arrays: results must
 * be those of a plain element loop whatever the operands (arrays, direct buffers of either byte
 * order, a byte buffer holding doubles), offsets and counts (one item, several blocks and a
 * remainder), pairs included.
 */
class ReductionsTest {
    private static final OpDesc SUM = new OpDesc("MPI.SUM", OpCode.SUM, null, true);
    private static final OpDesc MAX = new OpDesc("MPI.MAX", OpCode.MAX, null, true);
    private static final OpDesc MINLOC = new OpDesc("MPI.MINLOC", OpCode.MINLOC, null, true);
    /**
     * More than three blocks of doubles and a remainder, small counts, and a run of two arrays
     * long enough for the C loop.
     */
    private static final int[] COUNTS = {1, 7, 4096, 13_001, NativeReduce.ARRAYS_NATIVE_FROM + 37};

    private static double inValue(int i) {
        return (i * 37 % 101) - 50.5;
    }

    private static double inoutValue(int i) {
        return (i * 53 % 97) - 40.25;
    }

    enum Form { ARRAY, DIRECT, DIRECT_SWAPPED, BYTES }

    /** {@code values} placed after {@code pad} elements of padding, in the given form. */
    private static Buf doubles(Form form, double[] values, int pad) {
        int n = values.length + pad;
        switch (form) {
            case ARRAY: {
                double[] a = new double[n];
                System.arraycopy(values, 0, a, pad, values.length);
                return new Buf(a, BaseKind.DOUBLE, 0, n);
            }
            case DIRECT:
            case DIRECT_SWAPPED: {
                ByteOrder order = form == Form.DIRECT ? ByteOrder.nativeOrder()
                        : ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
                DoubleBuffer d = ByteBuffer.allocateDirect(8 * n).order(order).asDoubleBuffer();
                for (int i = 0; i < values.length; i++) d.put(pad + i, values[i]);
                return new Buf(d, BaseKind.DOUBLE, 0, n);
            }
            default: {
                ByteBuffer b = ByteBuffer.allocateDirect(8 * n).order(ByteOrder.nativeOrder());
                for (int i = 0; i < values.length; i++) b.putDouble(8 * (pad + i), values[i]);
                return new Buf(b, BaseKind.BYTE, 0, 8 * n);
            }
        }
    }

    private static double[] read(Buf b, int pad, int count) {
        double[] out = new double[count];
        Buf whole = new Buf(out, BaseKind.DOUBLE, 0, count);
        BufAccess.copy(b, 8L * pad, whole, 0, 8L * count);
        return out;
    }

    @Test
    void everyOperandFormGivesTheElementLoopsResult() {
        for (int count : COUNTS) {
            double[] in = new double[count], inout = new double[count];
            for (int i = 0; i < count; i++) {
                in[i] = inValue(i);
                inout[i] = inoutValue(i);
            }
            for (OpDesc op : new OpDesc[] {SUM, MAX}) {
                double[] expected = new double[count];
                for (int i = 0; i < count; i++) {
                    expected[i] = op == SUM ? in[i] + inout[i] : (in[i] > inout[i] ? in[i] : inout[i]);
                }
                for (Form fin : Form.values()) {
                    for (Form fio : Form.values()) {
                        Buf a = doubles(fin, in, 3), b = doubles(fio, inout, 5);
                        Reductions.reduce(op, Predefined.T_DOUBLE, a, 24, b, 40, count);
                        String what = op.name + " n=" + count + " in " + fin + " inout " + fio;
                        assertArrayEquals(expected, read(b, 5, count), what);
                        assertArrayEquals(in, read(a, 3, count), what + ": in unchanged");
                    }
                }
            }
        }
    }

    @Test
    void bytesAroundTheRangeAreLeftAlone() {
        int count = 9_000;
        double[] in = new double[count + 2], inout = new double[count + 2];
        java.util.Arrays.fill(in, 1.0);
        java.util.Arrays.fill(inout, 2.0);
        Buf a = doubles(Form.DIRECT, in, 0), b = doubles(Form.DIRECT, inout, 0);
        Reductions.reduce(SUM, Predefined.T_DOUBLE, a, 8, b, 8, count);
        double[] after = read(b, 0, count + 2);
        assertEquals(2.0, after[0], "element before the range");
        assertEquals(2.0, after[count + 1], "element after the range");
        for (int i = 1; i <= count; i++) assertEquals(3.0, after[i], "element " + i);
    }

    /**
     * Two ranges of {@code count} elements of {@code size} bytes in one direct buffer, in native
     * order: the first page-aligned, the second {@code gap} bytes past it modulo 4 KiB.
     */
    private static ByteBuffer[] operandsApart(int size, int count, int gap) {
        ByteBuffer memory = ByteBuffer.allocateDirect(2 * size * count + 3 * 4096);
        int inAt = 4096, inoutAt = inAt + ((size * count + 4095) / 4096) * 4096 + gap;
        return new ByteBuffer[] {memory.position(inAt).slice().order(ByteOrder.nativeOrder()),
                memory.position(inoutAt).slice().order(ByteOrder.nativeOrder())};
    }

    /**
     * An inout range 1-63 bytes past the in range modulo 4 KiB goes through the C loop's blocked
     * form (a copy of in a block at a time, against 4K aliasing): the results must be the plain
     * loop's at every gap in and around that window, over several blocks and a remainder.
     */
    @Test
    void operandsJustPastEachOtherModulo4KiBGiveTheLoopsResult() {
        int count = 5_001;
        for (int gap : new int[] {0, 8, 16, 24, 32, 56, 64, 72, 1024, 4088}) {
            ByteBuffer[] operands = operandsApart(8, count, gap);
            DoubleBuffer in = operands[0].asDoubleBuffer(), inout = operands[1].asDoubleBuffer();
            double[] expected = new double[count];
            for (int i = 0; i < count; i++) {
                in.put(i, inValue(i));
                inout.put(i, inoutValue(i));
                expected[i] = inValue(i) + inoutValue(i);
            }
            Buf a = new Buf(in, BaseKind.DOUBLE, 0, count), b = new Buf(inout, BaseKind.DOUBLE, 0, count);
            Reductions.reduce(SUM, Predefined.T_DOUBLE, a, 0, b, 0, count);
            assertArrayEquals(expected, read(b, 0, count), "doubles, inout " + gap + " bytes past in modulo 4 KiB");
            for (int i = 0; i < count; i++) assertEquals(inValue(i), in.get(i), "in element " + i + " unchanged");
        }
        for (int gap : new int[] {4, 12, 60, 68}) {
            ByteBuffer[] operands = operandsApart(4, count, gap);
            IntBuffer in = operands[0].asIntBuffer(), inout = operands[1].asIntBuffer();
            int[] expected = new int[count];
            for (int i = 0; i < count; i++) {
                in.put(i, i * 37 % 101 - 50);
                inout.put(i, i * 53 % 97 - 40);
                expected[i] = Math.max(in.get(i), inout.get(i));
            }
            Reductions.reduce(MAX, Predefined.T_INT, new Buf(in, BaseKind.INT, 0, count), 0,
                    new Buf(inout, BaseKind.INT, 0, count), 0, count);
            int[] got = new int[count];
            inout.get(0, got);
            assertArrayEquals(expected, got, "ints, inout " + gap + " bytes past in modulo 4 KiB");
        }
    }

    private static final OpDesc MIN = new OpDesc("MPI.MIN", OpCode.MIN, null, true);
    private static final OpDesc PROD = new OpDesc("MPI.PROD", OpCode.PROD, null, true);

    /**
     * Direct memory and long runs of two arrays go through libmpi4j_dl's C loops: integers must
     * wrap as in Java, and MAX/MIN must keep the inout value unless the in value is strictly
     * greater/smaller (NaN and signed zeros included), whichever side is direct.
     */
    @Test
    void theCLoopsKeepJavasArithmetic() {
        int n = NativeReduce.ARRAYS_NATIVE_FROM + 5;
        int[] ia = new int[n], ib = new int[n];
        for (int i = 0; i < n; i++) {
            ia[i] = Integer.MAX_VALUE - i;
            ib[i] = i * 3 + 1;
        }
        for (OpDesc op : new OpDesc[] {SUM, PROD}) {
            int[] expected = new int[n];
            for (int i = 0; i < n; i++) expected[i] = op == SUM ? ia[i] + ib[i] : ia[i] * ib[i];
            for (boolean inDirect : new boolean[] {false, true}) {
                for (boolean outDirect : new boolean[] {false, true}) {
                    Buf in = inDirect ? directInts(ia) : new Buf(ia.clone(), BaseKind.INT, 0, n);
                    Buf out = outDirect ? directInts(ib) : new Buf(ib.clone(), BaseKind.INT, 0, n);
                    Reductions.reduce(op, Predefined.T_INT, in, 0, out, 0, n);
                    int[] got = new int[n];
                    if (outDirect) ((IntBuffer) out.base).get(0, got);
                    else got = (int[]) out.base;
                    assertArrayEquals(expected, got, op.name + " int, in " + (inDirect ? "direct" : "array")
                            + ", inout " + (outDirect ? "direct" : "array"));
                }
            }
        }
        double[] specials = {Double.NaN, 1.0, -0.0, 0.0, Double.NEGATIVE_INFINITY, 2.5};
        double[] da = new double[n], db = new double[n];
        for (int i = 0; i < n; i++) {
            da[i] = specials[i % specials.length];
            db[i] = specials[(i / specials.length) % specials.length];
        }
        for (OpDesc op : new OpDesc[] {MAX, MIN}) {
            double[] expected = db.clone();
            for (int i = 0; i < n; i++) {
                if (op == MAX ? da[i] > db[i] : da[i] < db[i]) expected[i] = da[i];
            }
            for (Form fin : new Form[] {Form.ARRAY, Form.DIRECT}) {
                for (Form fio : new Form[] {Form.ARRAY, Form.DIRECT}) {
                    Buf a = doubles(fin, da, 0), b = doubles(fio, db, 0);
                    Reductions.reduce(op, Predefined.T_DOUBLE, a, 0, b, 0, n);
                    double[] got = read(b, 0, n);
                    for (int i = 0; i < n; i++) {
                        assertEquals(Double.doubleToRawLongBits(expected[i]), Double.doubleToRawLongBits(got[i]),
                                op.name + " of " + da[i] + " into " + db[i] + " (in " + fin + ", inout " + fio + ")");
                    }
                }
            }
        }
    }

    /** A reduction longer than one C call's piece goes in pieces that meet without gap or overlap. */
    @Test
    void longReductionsGoToCInPieces() {
        int n = 2 * NativeReduce.PIECE + 5, pad = 3;
        int[] a = new int[n + pad], b = new int[n + pad];
        for (int i = 0; i < a.length; i++) {
            a[i] = i * 7 + 1;
            b[i] = -i;
        }
        int[] expected = b.clone();
        for (int i = 0; i < n; i++) expected[pad + i] += a[i];
        for (boolean inoutDirect : new boolean[] {false, true}) {
            Buf out = inoutDirect ? directInts(b) : new Buf(b.clone(), BaseKind.INT, 0, b.length);
            Reductions.reduce(SUM, Predefined.T_INT, new Buf(a, BaseKind.INT, 0, a.length), 0, out, 4L * pad, n);
            int[] got = new int[b.length];
            if (inoutDirect) ((IntBuffer) out.base).get(0, got);
            else got = (int[]) out.base;
            assertArrayEquals(expected, got, "inout " + (inoutDirect ? "direct" : "array"));
        }
    }

    private static Buf directInts(int[] values) {
        IntBuffer b = ByteBuffer.allocateDirect(4 * values.length).order(ByteOrder.nativeOrder()).asIntBuffer();
        return new Buf(b.put(0, values), BaseKind.INT, 0, values.length);
    }

    /** MINLOC over (value, index) pairs in direct buffers, over several blocks and a remainder. */
    @Test
    void pairsReduceThroughBlocks() {
        int pairs = 10_001;
        int[] in = new int[2 * pairs], inout = new int[2 * pairs];
        for (int p = 0; p < pairs; p++) {
            in[2 * p] = p % 5;
            in[2 * p + 1] = 3;
            inout[2 * p] = p % 7;
            inout[2 * p + 1] = 1;
        }
        int[] expected = new int[2 * pairs];
        for (int p = 0; p < pairs; p++) {
            int va = in[2 * p], vb = inout[2 * p];
            expected[2 * p] = Math.min(va, vb);
            expected[2 * p + 1] = va < vb ? 3 : va > vb ? 1 : 1; // ties keep the smaller index
        }
        IntBuffer a = ByteBuffer.allocateDirect(8 * pairs).order(ByteOrder.nativeOrder()).asIntBuffer().put(in);
        IntBuffer b = ByteBuffer.allocateDirect(8 * pairs).order(ByteOrder.nativeOrder()).asIntBuffer().put(inout);
        Reductions.reduce(MINLOC, Predefined.T_INT2, new Buf(a, BaseKind.INT, 0, 2 * pairs), 0,
                new Buf(b, BaseKind.INT, 0, 2 * pairs), 0, pairs);
        int[] got = new int[2 * pairs];
        b.get(0, got);
        assertArrayEquals(expected, got);
    }
}
