package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A double complex number inside a buffer or array (MPI.DOUBLE_COMPLEX items):
 * the real part, then the imaginary part. {@code get(..., index)} views item {@code index}.
 */
public final class DoubleComplex {
    private final DoubleBuffer buffer;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        this.buffer = MPI.slice(buffer, 2 * index);
    }

    public static DoubleComplex get(DoubleBuffer buffer) {
        return get(buffer, 0);
    }

    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    public static DoubleComplex get(double[] array) {
        return get(array, 0);
    }

    public static DoubleComplex get(double[] array, int index) {
        return get(DoubleBuffer.wrap(array), index);
    }

    /** A direct (or heap) ByteBuffer seen in its own byte order. */
    public static DoubleComplex get(ByteBuffer buffer) {
        return get(buffer, 0);
    }

    public static DoubleComplex get(ByteBuffer buffer, int index) {
        return get(buffer.duplicate().order(buffer.order()).asDoubleBuffer(), index);
    }

    public double getReal() {
        return buffer.get(0);
    }

    public double getImag() {
        return buffer.get(1);
    }

    public void putReal(double real) {
        buffer.put(0, real);
    }

    public void putImag(double imag) {
        buffer.put(1, imag);
    }

    /** The two doubles of the number. */
    public DoubleBuffer getBuffer() {
        return buffer;
    }
}
