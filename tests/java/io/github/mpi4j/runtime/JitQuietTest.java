package io.github.mpi4j.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/** "The compiler has gone quiet" counts from the watch's creation at the earliest. */
class JitQuietTest {
    @Test
    void aFreshWatchIsNotQuietForLongerThanItHasExisted() {
        JitQuiet jit = new JitQuiet();
        assumeTrue(jit.known(), "this JVM does not report its compilation time");
        assertFalse(jit.quietFor(60_000_000_000L), "quiet for a minute right after creation");
        assertTrue(jit.quietFor(0), "quiet for no time at all");
    }
}
