package io.github.mpi4j.buffer;

import static io.github.mpi4j.buffer.SharedStores.PLAIN;
import static io.github.mpi4j.buffer.SharedStores.PLAIN_TIMED;
import static io.github.mpi4j.buffer.SharedStores.STREAM;
import static io.github.mpi4j.buffer.SharedStores.STREAM_TIMED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The choice between plain and streaming stores, fed with made-up timings: 64 KiB copies at
 * 30 GB/s streaming, 25 GB/s plain where the cores share a cache and 3 GB/s where they do not
 * (the development guest's figures).
 */
class SharedStoresTest {
    private static final int BYTES = 64 * 1024;
    private static final long STREAM_NS = BYTES / 30, FAST_PLAIN_NS = BYTES / 25, SLOW_PLAIN_NS = BYTES / 3;

    /** Kinds of the next {@code copies} copies, timed ones answered with these times. */
    private static int[] run(SharedStores s, int copies, long plainNanos, long streamNanos) {
        int[] kinds = new int[4];
        for (int i = 0; i < copies; i++) {
            int how = s.next();
            kinds[how]++;
            if (how == PLAIN_TIMED) s.timed(false, BYTES, plainNanos);
            if (how == STREAM_TIMED) s.timed(true, BYTES, streamNanos);
        }
        return kinds;
    }

    /** Copies until the next timed plain one (answered with {@code plainNanos}); returns how many came before it. */
    private static int untilPlainTimed(SharedStores s, long plainNanos) {
        for (int before = 0; before < 100_000; before++) {
            int how = s.next();
            if (how == PLAIN_TIMED) {
                s.timed(false, BYTES, plainNanos);
                return before;
            }
            if (how == STREAM_TIMED) s.timed(true, BYTES, STREAM_NS);
        }
        throw new AssertionError("no timed plain copy in 100,000");
    }

    /** A chooser past its first two timed copies, plain, with the streaming rate known. */
    private static SharedStores started() {
        SharedStores s = new SharedStores(0);
        assertEquals(STREAM_TIMED, s.next(), "first large copy: the streaming baseline");
        s.timed(true, BYTES, STREAM_NS);
        assertEquals(PLAIN_TIMED, s.next(), "then a plain one, at once");
        s.timed(false, BYTES, FAST_PLAIN_NS);
        return s;
    }

    @Test
    void staysPlainWhilePlainIsCheapTimingOneCopyInEight() {
        SharedStores s = started();
        int copies = 64 * SharedStores.TIMED_EVERY * SharedStores.STREAM_REFRESH_EVERY;
        int[] kinds = run(s, copies, FAST_PLAIN_NS, STREAM_NS);
        assertFalse(s.streaming(), "plain at 25 GB/s against 30 streaming");
        assertEquals(0, kinds[STREAM], "no untimed streaming copy");
        assertEquals(copies / SharedStores.TIMED_EVERY, kinds[PLAIN_TIMED] + kinds[STREAM_TIMED], "one copy in 8 timed");
        assertEquals(64, kinds[STREAM_TIMED], "one timed copy in 8 refreshes the streaming rate");
    }

    @Test
    void streamsAfterTwoSlowPlainCopiesInARowNotAfterOne() {
        SharedStores s = started();
        untilPlainTimed(s, SLOW_PLAIN_NS);                        // one slow copy: preempted, perhaps
        assertFalse(s.streaming(), "one slow copy is not enough");
        assertEquals(PLAIN_TIMED, s.next(), "the next copy is timed to confirm");
        s.timed(false, BYTES, FAST_PLAIN_NS);
        assertFalse(s.streaming(), "not confirmed");
        untilPlainTimed(s, SLOW_PLAIN_NS);
        assertFalse(s.streaming());
        assertEquals(PLAIN_TIMED, s.next());
        s.timed(false, BYTES, SLOW_PLAIN_NS);
        assertTrue(s.streaming(), "two slow plain copies in a row: stream");
    }

    @Test
    void whileStreamingChecksPlainAfterGapsThatDoubleWhileItStaysSlow() {
        SharedStores s = started();
        untilPlainTimed(s, SLOW_PLAIN_NS);
        untilPlainTimed(s, SLOW_PLAIN_NS);
        assertTrue(s.streaming());
        int gap = SharedStores.FIRST_GAP;
        for (int k = 0; k < 10; k++) {
            assertEquals(gap - 1, untilPlainTimed(s, SLOW_PLAIN_NS), "streaming copies before plain check " + k);
            assertTrue(s.streaming());
            gap = Math.min(2 * gap, SharedStores.MAX_GAP);
        }
        assertEquals(SharedStores.MAX_GAP, gap, "the gap reached its most");
        assertEquals(SharedStores.MAX_GAP - 1, untilPlainTimed(s, FAST_PLAIN_NS), "the cores share a cache again");
        assertFalse(s.streaming(), "one cheap plain copy ends streaming");
        untilPlainTimed(s, SLOW_PLAIN_NS);
        untilPlainTimed(s, SLOW_PLAIN_NS);
        assertTrue(s.streaming());
        assertEquals(SharedStores.FIRST_GAP - 1, untilPlainTimed(s, SLOW_PLAIN_NS), "a new streaming spell starts at the first gap");
    }

    @Test
    void whileStreamingTimesStreamingCopiesOnlyNoUntimedPlainOnes() {
        SharedStores s = started();
        untilPlainTimed(s, SLOW_PLAIN_NS);
        untilPlainTimed(s, SLOW_PLAIN_NS);
        int[] kinds = run(s, 4096, SLOW_PLAIN_NS, STREAM_NS);
        assertTrue(s.streaming());
        assertEquals(0, kinds[PLAIN], "no untimed plain copy while streaming");
        assertTrue(kinds[STREAM_TIMED] >= 4096 / SharedStores.TIMED_EVERY - 16, "the streaming rate stays current: "
                + kinds[STREAM_TIMED] + " timed");
        // Checks after 16, 32, ... 1,024 copies (2,032 in all), then every 1,024: 9 in 4,096.
        assertEquals(9, kinds[PLAIN_TIMED], "plain checks");
    }

    /**
     * One streaming copy timed far faster than the others (90 GB/s against 30) moves the bar
     * only part of the way: plain copies at 25 GB/s stay cheap enough, where the bar at 40 %
     * of 90 would have turned them slow and locked the writer into streaming.
     */
    @Test
    void oneFastStreamingTimingDoesNotTurnCheapPlainCopiesSlow() {
        SharedStores s = started();
        s.timed(true, BYTES, BYTES / 90);
        double bar = SharedStores.STREAM_BELOW * s.rates()[1];
        assertTrue(bar < 25, "plain copies at 25 GB/s stay over the bar: " + bar + " GB/s");
        run(s, 4096, FAST_PLAIN_NS, STREAM_NS);
        assertFalse(s.streaming());
    }

    @Test
    void settingsAlwaysPlainAlwaysStreamingOrChosen() {
        assertEquals(-1, SharedStores.policy("0"));
        assertEquals(-1, SharedStores.policy(" off"));
        assertEquals(1, SharedStores.policy("1"));
        assertEquals(1, SharedStores.policy("TRUE"));
        assertEquals(0, SharedStores.policy("auto"));
        assertEquals(0, SharedStores.policy(""));
        assertTrue(new SharedStores(1).streaming());
        assertFalse(new SharedStores(-1).streaming());
        assertFalse(new SharedStores(0).streaming(), "chosen: plain until timed");
    }

    /** The warm start's rehearsal goes through both cases, each way, every spell. */
    @Test
    void rehearsalSwitchesBothWaysInEverySpell() {
        assertEquals(8, SharedStores.rehearse(), "four spells apart, four together: eight changes");
    }
}
