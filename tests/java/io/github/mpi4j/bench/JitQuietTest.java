package io.github.mpi4j.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The warm-up's "compiler gone quiet" test counts from its creation at the earliest. */
class JitQuietTest {
    @Test
    void aFreshWatchIsNotQuietForLongerThanItHasExisted() {
        JitQuiet jit = new JitQuiet();
        assertFalse(jit.quietFor(60_000_000_000L), "quiet for a minute right after creation");
        assertTrue(jit.quietFor(0), "quiet for no time at all");
    }
}
