package io.github.mpi4j.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The descriptor cache behind every send and receive: the same memory gives the same descriptor
 * back (no allocation per message), two buffers whose identity hashes meet in one set both stay
 * cached, a third one there evicts the older, and a different view of the same array (offset,
 * length, direction) never gets another view's descriptor.
 */
class RecentBufsTest {

    /** Three arrays whose identity hashes select the same set (found by trying arrays). */
    private static byte[][] threeInOneSet() {
        Map<Integer, List<byte[]>> bySet = new HashMap<>();
        while (true) {
            byte[] a = new byte[8];
            List<byte[]> same = bySet.computeIfAbsent(System.identityHashCode(a) & 1023, k -> new ArrayList<>());
            same.add(a);
            if (same.size() == 3) return same.toArray(new byte[0][]);
        }
    }

    @Test
    void sameMemoryGivesTheSameDescriptor() {
        byte[] a = new byte[16];
        Buf first = RecentBufs.of(a, BaseKind.BYTE, 0, 16, false);
        assertSame(first, RecentBufs.of(a, BaseKind.BYTE, 0, 16, false));
        assertEquals(16, first.length);
        // Another view of the same array is another descriptor; receives keep their own.
        Buf shifted = RecentBufs.of(a, BaseKind.BYTE, 4, 12, false);
        assertNotSame(first, shifted);
        assertEquals(4, shifted.offset);
        assertEquals(12, shifted.length);
        Buf shorter = RecentBufs.of(a, BaseKind.BYTE, 0, 8, false);
        assertEquals(8, shorter.length);
        Buf receive = RecentBufs.of(a, BaseKind.BYTE, 0, 16, true);
        assertNotSame(first, receive);
        assertSame(receive, RecentBufs.of(a, BaseKind.BYTE, 0, 16, true));
    }

    @Test
    void forgettingAllGivesNewDescriptorsForTheSameMemory() {
        byte[] a = new byte[16];
        Buf send = RecentBufs.of(a, BaseKind.BYTE, 0, 16, false);
        Buf receive = RecentBufs.of(a, BaseKind.BYTE, 0, 16, true);
        Buffers.forgetRecentBuffers();
        Buf sendAgain = RecentBufs.of(a, BaseKind.BYTE, 0, 16, false);
        assertNotSame(send, sendAgain, "sends forgotten");
        assertNotSame(receive, RecentBufs.of(a, BaseKind.BYTE, 0, 16, true), "receives forgotten");
        // And the cache works again afterwards.
        assertSame(sendAgain, RecentBufs.of(a, BaseKind.BYTE, 0, 16, false));
    }

    /** Forgetting also drops this thread's typed views of byte buffers; a new one reads the same bytes. */
    @Test
    void forgettingAllGivesNewTypedViews() {
        ByteBuffer bb = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
        bb.putLong(8, 0x0123456789abcdefL);
        TypedViews.Views views = TypedViews.of(bb);
        assertSame(views, TypedViews.of(bb), "kept while not forgotten");
        Buffers.forgetRecentBuffers();
        TypedViews.Views again = TypedViews.of(bb);
        assertNotSame(views, again, "forgotten");
        assertSame(again, TypedViews.of(bb), "kept again afterwards");
        assertEquals(0x0123456789abcdefL, again.longs().get(1));
    }

    @Test
    void twoBuffersInOneSetBothStayAndAThirdEvictsTheOlder() {
        byte[][] x = threeInOneSet();
        Buf a = RecentBufs.of(x[0], BaseKind.BYTE, 0, 8, false);
        Buf b = RecentBufs.of(x[1], BaseKind.BYTE, 0, 8, false);
        for (int round = 0; round < 3; round++) {  // alternating, as a window of two does
            assertSame(a, RecentBufs.of(x[0], BaseKind.BYTE, 0, 8, false), "round " + round);
            assertSame(b, RecentBufs.of(x[1], BaseKind.BYTE, 0, 8, false), "round " + round);
        }
        Buf c = RecentBufs.of(x[2], BaseKind.BYTE, 0, 8, false);  // evicts a (b came in after it)
        assertSame(c, RecentBufs.of(x[2], BaseKind.BYTE, 0, 8, false));
        assertSame(b, RecentBufs.of(x[1], BaseKind.BYTE, 0, 8, false));
        Buf again = RecentBufs.of(x[0], BaseKind.BYTE, 0, 8, false);
        assertNotSame(a, again);
        assertSame(x[0], again.base);
    }
}
