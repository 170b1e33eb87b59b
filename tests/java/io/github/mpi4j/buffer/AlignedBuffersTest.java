package io.github.mpi4j.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.function.IntFunction;
import mpi.MPI;
import org.junit.jupiter.api.Test;

/**
 * MPI.newXxxBuffer: every buffer starts on a cache line (64 bytes), holds exactly the capacity
 * asked for in native order, and no two overlap. Addresses come from the JNI library
 * (GetDirectBufferAddress), independent of how the buffers were made.
 */
class AlignedBuffersTest {
    private static final int[] CAPACITIES = {1, 3, 7, 63, 64, 65, 100, 4095, 4097, 32768, 100_003};

    private static void check(String what, IntFunction<Buffer> make) {
        assertTrue(HostViews.available(), "libmpi4j_dl must load here: " + HostViews.unavailableReason());
        for (int n : CAPACITIES) {
            // Several in a row, so that malloc's placement varies between them.
            for (int k = 0; k < 8; k++) {
                Buffer b = make.apply(n);
                assertTrue(b.isDirect(), what + "(" + n + ") is direct");
                assertEquals(n, b.capacity(), what + "(" + n + ") capacity");
                assertEquals(n, b.limit(), what + "(" + n + ") limit");
                assertEquals(0, b.position(), what + "(" + n + ") position");
                long address = HostViews.addressOf(b);
                assertEquals(0, address % 64, what + "(" + n + ") starts at " + Long.toHexString(address));
            }
        }
    }

    @Test
    void everyKindStartsOnACacheLineWithTheCapacityAskedFor() {
        check("newByteBuffer", MPI::newByteBuffer);
        check("newCharBuffer", MPI::newCharBuffer);
        check("newShortBuffer", MPI::newShortBuffer);
        check("newIntBuffer", MPI::newIntBuffer);
        check("newLongBuffer", MPI::newLongBuffer);
        check("newFloatBuffer", MPI::newFloatBuffer);
        check("newDoubleBuffer", MPI::newDoubleBuffer);
    }

    @Test
    void buffersAreNativeOrderAndDoNotOverlap() {
        ByteBuffer a = MPI.newByteBuffer(1000), b = MPI.newByteBuffer(1000);
        assertEquals(ByteOrder.nativeOrder(), a.order());
        for (int i = 0; i < 1000; i++) {
            a.put(i, (byte) i);
            b.put(i, (byte) (255 - i));
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals((byte) i, a.get(i), "a[" + i + "] after writing b");
            assertEquals((byte) (255 - i), b.get(i), "b[" + i + "]");
        }
        DoubleBuffer d = MPI.newDoubleBuffer(5);
        IntBuffer ints = MPI.newIntBuffer(5);
        assertEquals(ByteOrder.nativeOrder(), d.order());
        assertEquals(ByteOrder.nativeOrder(), ints.order());
        d.put(4, 2.5);
        ints.put(4, -7);
        assertEquals(2.5, d.get(4));
        assertEquals(-7, ints.get(4));
    }

    @Test
    void anEmptyBufferIsFine() {
        assertEquals(0, MPI.newByteBuffer(0).capacity());
        assertEquals(0, MPI.newDoubleBuffer(0).capacity());
    }
}
