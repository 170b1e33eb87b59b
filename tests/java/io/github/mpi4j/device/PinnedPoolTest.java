package io.github.mpi4j.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The pool's arithmetic and its setting (no CUDA needed). */
class PinnedPoolTest {
    @Test
    void sizeClassesArePowersOfTwoFromTheMinimum() {
        assertEquals(PinnedPool.MIN_BYTES, PinnedPool.sizeClass(0));
        assertEquals(PinnedPool.MIN_BYTES, PinnedPool.sizeClass(PinnedPool.MIN_BYTES));
        assertEquals(2 * PinnedPool.MIN_BYTES, PinnedPool.sizeClass(PinnedPool.MIN_BYTES + 1));
        assertEquals(1L << 30, PinnedPool.sizeClass((1L << 29) + 3));
        assertEquals(1L << 30, PinnedPool.sizeClass(1L << 30));
    }

    @Test
    void theBoundIsReadInMiB() {
        assertEquals(256L << 20, PinnedPool.limit(null));
        assertEquals(256L << 20, PinnedPool.limit(" "));
        assertEquals(0, PinnedPool.limit("0"));
        assertEquals(1L << 30, PinnedPool.limit("1024"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PinnedPool.limit("-1"));
        assertTrue(e.getMessage().contains("MPI4J_PINNED_CACHE_MB") && e.getMessage().contains("'-1'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PinnedPool.limit("lots"));
    }
}
