package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * CallDepth gives every thread its own counter, the same one on every call, whichever thread
 * holds the fast slot: the first caller, and after it ends, the next thread to call.
 */
class CallDepthTest {

    @Test
    void everyThreadKeepsItsOwnCounterWhoeverHoldsTheSlot() throws Exception {
        CallDepth depth = new CallDepth();
        AtomicReference<int[]> first = new AtomicReference<>();
        inThread(() -> {
            int[] c = depth.counter();  // takes the free slot
            c[0] = 7;
            first.set(c);
            assertSame(c, depth.counter(), "the slot's thread finds its own counter");
            assertTrue(depth.heldByThisThread(), "the first caller holds the slot");
        });

        int[] mine = depth.counter();  // the owner ended: this thread takes the slot
        assertNotSame(first.get(), mine, "a new thread's counter");
        assertEquals(0, mine[0], "a new thread starts with no call open");
        mine[0] = 3;
        assertSame(mine, depth.counter(), "the same counter on the next call");
        assertTrue(depth.heldByThisThread(), "the slot passed on when its thread ended");

        AtomicReference<int[]> other = new AtomicReference<>();
        inThread(() -> {
            int[] c = depth.counter();  // the slot is held by a live thread: a lookup
            other.set(c);
            c[0]++;
            assertSame(c, depth.counter(), "a thread without the slot finds its own counter too");
            assertTrue(!depth.heldByThisThread(), "a live thread keeps the slot");
        });
        assertNotSame(mine, other.get(), "each thread its own counter");
        assertEquals(1, other.get()[0], "the other thread's count");
        assertEquals(3, depth.counter()[0], "this thread's count, untouched by the other thread");
    }

    /** Runs {@code body} in a new thread to its end, and rethrows what it threw. */
    private static void inThread(Runnable body) throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        t.join(30_000);
        assertEquals(false, t.isAlive(), "the thread ended");
        if (thrown.get() instanceof Error) throw (Error) thrown.get();
        if (thrown.get() != null) throw new AssertionError(thrown.get());
    }
}
