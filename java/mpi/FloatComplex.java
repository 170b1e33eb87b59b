package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A float complex number inside a buffer or array (MPI.FLOAT_COMPLEX items):
 * the real part, then the imaginary part. {@code get(..., index)} views item {@code index}.
 */
public final class FloatComplex {
    private final FloatBuffer buffer;

    private FloatComplex(FloatBuffer buffer, int index) {
        this.buffer = MPI.slice(buffer, 2 * index);
    }

    public static FloatComplex get(FloatBuffer buffer) {
        return get(buffer, 0);
    }

    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    public static FloatComplex get(float[] array) {
        return get(array, 0);
    }

    public static FloatComplex get(float[] array, int index) {
        return get(FloatBuffer.wrap(array), index);
    }

    /** A direct (or heap) ByteBuffer seen in its own byte order. */
    public static FloatComplex get(ByteBuffer buffer) {
        return get(buffer, 0);
    }

    public static FloatComplex get(ByteBuffer buffer, int index) {
        return get(buffer.duplicate().order(buffer.order()).asFloatBuffer(), index);
    }

    public float getReal() {
        return buffer.get(0);
    }

    public float getImag() {
        return buffer.get(1);
    }

    public void putReal(float real) {
        buffer.put(0, real);
    }

    public void putImag(float imag) {
        buffer.put(1, imag);
    }

    /** The two floats of the number. */
    public FloatBuffer getBuffer() {
        return buffer;
    }
}
