package io.github.mpi4j.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What the call that starts a non-blocking collective runs itself: small copies and reductions,
 * not large ones (those are left to progress), and the completion hook runs once, when the
 * last step has run.
 */
class ScheduleStartTest {
    private static final TypeDesc INT = Predefined.T_INT;

    private static int[] ints(int n, int base) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = base + i;
        return a;
    }

    @Test
    void startRunsSmallStepsAndStopsBeforeALargeCopy() {
        int small = 16, large = (int) (Schedule.START_WORK_BYTES / 4) + 1;
        int[] a = ints(small, 1), b = new int[small], c = ints(large, 100), d = new int[large];
        Schedule s = new Schedule(null);
        s.copy(new Buf(a, BaseKind.INT, 0, small), 0, new Buf(b, BaseKind.INT, 0, small), 0, 4L * small);
        s.copy(new Buf(c, BaseKind.INT, 0, large), 0, new Buf(d, BaseKind.INT, 0, large), 0, 4L * large);
        AtomicInteger completions = new AtomicInteger();
        s.whenComplete(completions::incrementAndGet);
        assertFalse(s.advanceAtStart(), "a copy of " + 4L * large + " bytes is left to progress");
        assertEquals(1, s.position());
        assertArrayEquals(a, b, "the small copy ran at the start");
        assertEquals(0, d[0], "the large one did not");
        assertEquals(0, completions.get());
        assertTrue(s.advance(false));
        assertArrayEquals(c, d);
        assertEquals(1, completions.get(), "the hook runs when the last step has run");
        assertTrue(s.advance(true), "a complete schedule stays complete");
        assertEquals(1, completions.get(), "and the hook runs once");
    }

    @Test
    void largeReductionsAreLeftToProgressToo() {
        int n = (int) (Schedule.START_WORK_BYTES / 4) * 2;
        int[] in = ints(n, 1), inout = ints(n, 10);
        Schedule s = new Schedule(null);
        OpDesc sum = new OpDesc("MPI.SUM", io.github.mpi4j.spi.OpCode.SUM, null, true);
        s.reduce(sum, INT, new Buf(in, BaseKind.INT, 0, n), 0, new Buf(inout, BaseKind.INT, 0, n), 0, n);
        assertFalse(s.advanceAtStart());
        assertEquals(10, inout[0]);
        assertTrue(s.advance(false));
        assertEquals(11, inout[0]);
        assertEquals(10 + n - 1 + n, inout[n - 1]);
    }

    @Test
    void aScheduleOfSmallStepsCompletesAtTheStart() {
        int[] a = ints(8, 5), b = new int[8];
        Schedule s = new Schedule(null);
        s.copy(new Buf(a, BaseKind.INT, 0, 8), 0, new Buf(b, BaseKind.INT, 0, 8), 0, 32);
        AtomicInteger completions = new AtomicInteger();
        s.whenComplete(completions::incrementAndGet);
        assertTrue(s.advanceAtStart());
        assertArrayEquals(a, b);
        assertEquals(1, completions.get());
    }
}
