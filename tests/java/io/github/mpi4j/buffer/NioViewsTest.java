package io.github.mpi4j.buffer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The early load covers the views a copy can make: of heap and direct bytes, in both orders, and heap typed buffers. */
class NioViewsTest {
    @Test
    void loadsTheViewsOfEveryKindOrderAndMemory() {
        Set<String> names = NioViews.loadAll().stream().map(Class::getSimpleName).collect(Collectors.toSet());
        for (String expected : new String[] {
                "ByteBufferAsDoubleBufferL", "ByteBufferAsDoubleBufferB", "ByteBufferAsDoubleBufferRL",
                "ByteBufferAsIntBufferL", "ByteBufferAsCharBufferB",
                "DirectDoubleBufferU", "DirectDoubleBufferS", "DirectDoubleBufferRU", "DirectIntBufferS",
                "HeapDoubleBuffer", "HeapDoubleBufferR", "HeapLongBuffer", "DirectByteBufferR", "HeapByteBufferR"}) {
            assertTrue(names.contains(expected), expected + " not among " + names);
        }
        assertTrue(names.size() >= 50, names.size() + " classes: " + names);
    }
}
