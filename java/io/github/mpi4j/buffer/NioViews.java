package io.github.mpi4j.buffer;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Loads, once and early, every class of typed NIO buffer the copy paths can meet: the views of
 * heap and direct byte buffers in both byte orders, read-only or not, and heap typed buffers.
 *
 * <p>Why: compiled code may rely on which subclasses of {@code DoubleBuffer} (and the others)
 * are loaded so far. Loading one more later throws that code away. In a fresh 2-rank job, the
 * first unexpected large message of doubles loaded {@code ByteBufferAsDoubleBufferL} in the
 * warm start's last second: the compiled copy and reduction paths of one rank were dropped, and
 * the program's first four 16 MiB allreduces took 12-15 ms instead of 4 while they compiled
 * again (docs/performance.md, forty-first session). Loaded before anything is compiled, the
 * classes cost nothing later.
 */
final class NioViews {
    private NioViews() {
    }

    /** Makes one buffer of every such class; returns their classes (for tests). */
    static Set<Class<?>> loadAll() {
        Set<Class<?>> seen = new LinkedHashSet<>();
        for (ByteBuffer bytes : new ByteBuffer[] {ByteBuffer.allocate(16), ByteBuffer.allocateDirect(16)}) {
            for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
                for (ByteBuffer b : new ByteBuffer[] {bytes.duplicate().order(order),
                        bytes.asReadOnlyBuffer().order(order)}) {
                    seen.add(b.getClass());
                    add(seen, b.asCharBuffer(), b.asShortBuffer(), b.asIntBuffer(), b.asLongBuffer(),
                            b.asFloatBuffer(), b.asDoubleBuffer());
                }
            }
        }
        Buffer[] heap = {CharBuffer.allocate(1), ShortBuffer.allocate(1), IntBuffer.allocate(1),
                LongBuffer.allocate(1), FloatBuffer.allocate(1), DoubleBuffer.allocate(1)};
        add(seen, heap);
        add(seen, CharBuffer.allocate(1).asReadOnlyBuffer(), ShortBuffer.allocate(1).asReadOnlyBuffer(),
                IntBuffer.allocate(1).asReadOnlyBuffer(), LongBuffer.allocate(1).asReadOnlyBuffer(),
                FloatBuffer.allocate(1).asReadOnlyBuffer(), DoubleBuffer.allocate(1).asReadOnlyBuffer());
        return seen;
    }

    private static void add(Set<Class<?>> seen, Buffer... buffers) {
        for (Buffer b : buffers) seen.add(b.getClass());
    }
}
