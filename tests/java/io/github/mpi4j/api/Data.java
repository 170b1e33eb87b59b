package io.github.mpi4j.api;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import mpi.Datatype;
import mpi.MPI;

/**
 * Test data for one primitive kind: values computed from (rank, index) so every rank can work
 * out what any other rank holds, and conversion between arrays and direct buffers.
 */
public enum Data {
    BYTE(MPI.BYTE), CHAR(MPI.CHAR), SHORT(MPI.SHORT), BOOLEAN(MPI.BOOLEAN), INT(MPI.INT), LONG(MPI.LONG),
    FLOAT(MPI.FLOAT), DOUBLE(MPI.DOUBLE);

    public final Datatype type;

    Data(Datatype type) {
        this.type = type;
    }

    /** A value as a long (booleans 0/1, floats exact small integers or fractions as scaled). */
    public static long value(int rank, int i) {
        return (rank + 1) * 7L + i * 3L - 5;
    }

    /** An array of this kind holding {@code n} values for {@code rank}, starting at index {@code from}. */
    public Object array(int rank, int n) {
        Object a = newArray(n);
        for (int i = 0; i < n; i++) set(a, i, value(rank, i));
        return a;
    }

    public Object newArray(int n) {
        switch (this) {
            case BYTE: return new byte[n];
            case CHAR: return new char[n];
            case SHORT: return new short[n];
            case BOOLEAN: return new boolean[n];
            case INT: return new int[n];
            case LONG: return new long[n];
            case FLOAT: return new float[n];
            default: return new double[n];
        }
    }

    /** Stores {@code v} (cast to this kind) at {@code i}. */
    public void set(Object a, int i, long v) {
        switch (this) {
            case BYTE: ((byte[]) a)[i] = (byte) v; break;
            case CHAR: ((char[]) a)[i] = (char) v; break;
            case SHORT: ((short[]) a)[i] = (short) v; break;
            case BOOLEAN: ((boolean[]) a)[i] = (v & 1) != 0; break;
            case INT: ((int[]) a)[i] = (int) v; break;
            case LONG: ((long[]) a)[i] = v; break;
            case FLOAT: ((float[]) a)[i] = v; break;
            default: ((double[]) a)[i] = v;
        }
    }

    public void setDouble(Object a, int i, double v) {
        if (this == FLOAT) ((float[]) a)[i] = (float) v;
        else if (this == DOUBLE) ((double[]) a)[i] = v;
        else set(a, i, (long) v);
    }

    public double get(Object a, int i) {
        switch (this) {
            case BYTE: return ((byte[]) a)[i];
            case CHAR: return ((char[]) a)[i];
            case SHORT: return ((short[]) a)[i];
            case BOOLEAN: return ((boolean[]) a)[i] ? 1 : 0;
            case INT: return ((int[]) a)[i];
            case LONG: return ((long[]) a)[i];
            case FLOAT: return ((float[]) a)[i];
            default: return ((double[]) a)[i];
        }
    }

    /** Element {@code i} as a long (exact for every integer kind; booleans 0/1). */
    public long getLong(Object a, int i) {
        return this == LONG ? ((long[]) a)[i] : (long) get(a, i);
    }

    public int length(Object a) {
        return java.lang.reflect.Array.getLength(a);
    }

    /** A direct buffer (a typed view in native order; ByteBuffer for byte and boolean) holding {@code a}. */
    public Buffer toDirect(Object a) {
        int n = length(a);
        int size = this == CHAR || this == SHORT ? 2 : this == INT || this == FLOAT ? 4
                : this == LONG || this == DOUBLE ? 8 : 1;
        ByteBuffer bb = ByteBuffer.allocateDirect(Math.max(1, n * size)).order(ByteOrder.nativeOrder());
        switch (this) {
            case BYTE: bb.put((byte[]) a).clear(); return bb;
            case BOOLEAN: {
                boolean[] z = (boolean[]) a;
                for (int i = 0; i < n; i++) bb.put(i, z[i] ? (byte) 1 : 0);
                return bb;
            }
            case CHAR: { CharBuffer b = bb.asCharBuffer(); b.put((char[]) a).clear(); return b; }
            case SHORT: { ShortBuffer b = bb.asShortBuffer(); b.put((short[]) a).clear(); return b; }
            case INT: { IntBuffer b = bb.asIntBuffer(); b.put((int[]) a).clear(); return b; }
            case LONG: { LongBuffer b = bb.asLongBuffer(); b.put((long[]) a).clear(); return b; }
            case FLOAT: { FloatBuffer b = bb.asFloatBuffer(); b.put((float[]) a).clear(); return b; }
            default: { DoubleBuffer b = bb.asDoubleBuffer(); b.put((double[]) a).clear(); return b; }
        }
    }

    /** The contents of a direct buffer made by {@link #toDirect} as an array of {@code n} elements. */
    public Object fromDirect(Buffer buf, int n) {
        Object a = newArray(n);
        switch (this) {
            case BYTE: ((ByteBuffer) buf).duplicate().clear().get((byte[]) a, 0, n); break;
            case BOOLEAN: {
                boolean[] z = (boolean[]) a;
                for (int i = 0; i < n; i++) z[i] = ((ByteBuffer) buf).get(i) != 0;
                break;
            }
            case CHAR: ((CharBuffer) buf).duplicate().clear().get((char[]) a, 0, n); break;
            case SHORT: ((ShortBuffer) buf).duplicate().clear().get((short[]) a, 0, n); break;
            case INT: ((IntBuffer) buf).duplicate().clear().get((int[]) a, 0, n); break;
            case LONG: ((LongBuffer) buf).duplicate().clear().get((long[]) a, 0, n); break;
            case FLOAT: ((FloatBuffer) buf).duplicate().clear().get((float[]) a, 0, n); break;
            default: ((DoubleBuffer) buf).duplicate().clear().get((double[]) a, 0, n);
        }
        return a;
    }

    public boolean isFloat() {
        return this == FLOAT || this == DOUBLE;
    }
}
