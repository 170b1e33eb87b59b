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

    /** Runs copies until the next timed one, which it answers with {@code plainNanos} or the streaming time; returns how many untimed copies came first and of which kind. */
    private static int[] untilTimed(SharedStores s, long plainNanos) {
        int untimed = 0, kind = -1;
        for (int guard = 0; guard < 10_000; guard++) {
            int how = s.next();
            if (how == PLAIN_TIMED || how == STREAM_TIMED) {
                s.timed(how == STREAM_TIMED, BYTES, how == STREAM_TIMED ? STREAM_NS : plainNanos);
                return new int[] {untimed, kind, how};
            }
            untimed++;
            kind = how;
        }
        throw new AssertionError("no timed copy in 10,000");
    }

    @Test
    void timesStreamingThenPlainFirstAndStaysPlainWhilePlainIsCheap() {
        SharedStores s = new SharedStores(0);
        assertEquals(STREAM_TIMED, s.next(), "first large copy: the streaming baseline");
        s.timed(true, BYTES, STREAM_NS);
        assertEquals(PLAIN_TIMED, s.next(), "then a plain one, at once");
        s.timed(false, BYTES, FAST_PLAIN_NS);
        assertFalse(s.streaming());
        int streamingRefreshes = 0;
        for (int t = 0; t < 4 * SharedStores.STREAM_REFRESH_EVERY; t++) {
            int[] r = untilTimed(s, FAST_PLAIN_NS);
            assertEquals(SharedStores.PLAIN_TIMED_EVERY - 1, r[0], "untimed copies between two timed ones");
            assertEquals(PLAIN, r[1]);
            if (r[2] == STREAM_TIMED) {
                streamingRefreshes++;
                int[] next = untilTimed(s, FAST_PLAIN_NS);   // a plain one right after the refresh
                assertEquals(0, next[0]);
                assertEquals(PLAIN_TIMED, next[2]);
            }
            assertFalse(s.streaming(), "plain at 25 GB/s against 30 streaming");
        }
        assertEquals(4, streamingRefreshes, "one timed copy in " + SharedStores.STREAM_REFRESH_EVERY + " refreshes the streaming rate");
    }

    @Test
    void streamsAfterTwoSlowPlainCopiesInARowNotAfterOne() {
        SharedStores s = started();
        plainTimed(s, SLOW_PLAIN_NS);                              // one slow copy: preempted, perhaps
        assertFalse(s.streaming(), "one slow copy is not enough");
        assertEquals(PLAIN_TIMED, s.next(), "the next copy is timed to confirm");
        s.timed(false, BYTES, FAST_PLAIN_NS);
        assertFalse(s.streaming(), "not confirmed");
        plainTimed(s, SLOW_PLAIN_NS);
        assertFalse(s.streaming());
        assertEquals(PLAIN_TIMED, s.next());
        s.timed(false, BYTES, SLOW_PLAIN_NS);
        assertTrue(s.streaming(), "two slow plain copies in a row: stream");
    }

    @Test
    void whileStreamingChecksPlainAfterGapsThatDoubleWhileItStaysSlow() {
        SharedStores s = started();
        plainTimed(s, SLOW_PLAIN_NS);
        plainTimed(s, SLOW_PLAIN_NS);
        assertTrue(s.streaming());
        int gap = SharedStores.FIRST_GAP;
        for (int k = 0; k < 10; k++) {
            int[] r = untilTimed(s, SLOW_PLAIN_NS);
            assertEquals(gap - 1, r[0], "streaming copies before plain check " + k);
            assertEquals(STREAM, r[1]);
            assertEquals(PLAIN_TIMED, r[2]);
            assertTrue(s.streaming());
            gap = Math.min(2 * gap, SharedStores.MAX_GAP);
        }
        assertEquals(SharedStores.MAX_GAP, gap, "the gap reached its most");
        int[] r = untilTimed(s, FAST_PLAIN_NS);                    // the cores share a cache again
        assertEquals(SharedStores.MAX_GAP - 1, r[0]);
        assertFalse(s.streaming(), "one cheap plain copy ends streaming");
        plainTimed(s, SLOW_PLAIN_NS);
        plainTimed(s, SLOW_PLAIN_NS);
        assertTrue(s.streaming());
        assertEquals(SharedStores.FIRST_GAP - 1, untilTimed(s, SLOW_PLAIN_NS)[0], "a new streaming spell starts at the first gap");
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

    /** A chooser past its first two timed copies, plain, with the streaming rate known. */
    private static SharedStores started() {
        SharedStores s = new SharedStores(0);
        assertEquals(STREAM_TIMED, s.next());
        s.timed(true, BYTES, STREAM_NS);
        assertEquals(PLAIN_TIMED, s.next());
        s.timed(false, BYTES, FAST_PLAIN_NS);
        return s;
    }

    /** Runs copies up to the next timed plain one and answers it with {@code nanos} (streaming refreshes on the way at the streaming time). */
    private static void plainTimed(SharedStores s, long nanos) {
        while (untilTimed(s, nanos)[2] != PLAIN_TIMED) {
            // a streaming refresh: go on to the plain one
        }
    }
}
