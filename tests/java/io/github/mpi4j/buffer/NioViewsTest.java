package io.github.mpi4j.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The typed NIO buffer classes are loaded when BufAccess initialises, before a program's copies
 * are compiled (a late load threw the compiled copy paths away, forty-first session), and the
 * early load covers the views a copy can make: of heap and direct bytes, in both orders, and
 * heap typed buffers.
 */
class NioViewsTest {
    @Test
    void bufAccessLoadsTheViewsWhenItInitialises() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Jobs.Result r = Jobs.run(List.of(java, "-Xlog:class+load=info", "-cp", Jobs.classpath(),
                NioViewsProgram.class.getName()), null, 60);
        assertEquals(0, r.exitCode, r.toString());
        int ready = r.output.indexOf("BUFACCESS READY");
        assertTrue(ready > 0, "no READY line: " + r);
        for (String view : new String[] {"java.nio.ByteBufferAsDoubleBufferL ", "java.nio.ByteBufferAsIntBufferL ",
                "java.nio.DirectDoubleBufferS "}) {
            int at = r.output.indexOf(view);
            assertTrue(at >= 0 && at < ready, view.trim() + " not loaded before BufAccess was ready");
        }
    }

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
