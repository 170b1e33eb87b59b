package io.github.mpi4j.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import org.junit.jupiter.api.Test;

/** The pool of non-blocking temporaries: what it hands out, what it keeps, and its bounds. */
class TempPoolTest {
    @Test
    void handsOutTheSmallestKeptBufferThatFitsElseANewOne() {
        TempPool pool = new TempPool();
        Buf small = pool.take(BaseKind.DOUBLE, 800, false);
        Buf large = pool.take(BaseKind.DOUBLE, 8000, false);
        assertTrue(small.byteLength() >= 800 && large.byteLength() >= 8000);
        pool.give(large);
        pool.give(small);
        assertSame(small, pool.take(BaseKind.DOUBLE, 400, false), "the smallest that fits");
        assertSame(large, pool.take(BaseKind.DOUBLE, 801, false), "the only one that fits");
        assertEquals(0, pool.kept(), "a buffer handed out is no longer kept");
        Buf fresh = pool.take(BaseKind.DOUBLE, 800, false);
        assertNotSame(small, fresh);
        assertNotSame(large, fresh);
    }

    @Test
    void matchesKindAndDirectness() {
        TempPool pool = new TempPool();
        Buf ints = pool.take(BaseKind.INT, 4096, false);
        Buf direct = pool.take(BaseKind.INT, 4096, true);
        assertTrue(direct.isDirect() && !ints.isDirect());
        pool.give(ints);
        pool.give(direct);
        assertNotSame(ints, pool.take(BaseKind.LONG, 1024, false), "another kind is not handed out");
        assertSame(direct, pool.take(BaseKind.INT, 1024, true));
        assertSame(ints, pool.take(BaseKind.INT, 1024, false));
    }

    @Test
    void keepsAtMostItsBounds() {
        TempPool pool = new TempPool();
        for (int i = 0; i < TempPool.MAX_KEPT + 3; i++) pool.give(pool.take(BaseKind.BYTE, 64 - i, false));
        assertEquals(1, pool.kept(), "one buffer served every call above");
        Buf[] many = new Buf[TempPool.MAX_KEPT + 3];
        for (int i = 0; i < many.length; i++) many[i] = pool.take(BaseKind.BYTE, 64, false);
        for (Buf b : many) pool.give(b);
        assertEquals(TempPool.MAX_KEPT, pool.kept());
        TempPool bytes = new TempPool();
        bytes.give(bytes.take(BaseKind.BYTE, (int) (TempPool.MAX_BYTES / 2) + 1, false));
        bytes.give(new Buf(new byte[(int) (TempPool.MAX_BYTES / 2) + 1], BaseKind.BYTE, 0, (int) (TempPool.MAX_BYTES / 2) + 1));
        assertEquals(1, bytes.kept(), "no more than MAX_BYTES in all");
    }
}
