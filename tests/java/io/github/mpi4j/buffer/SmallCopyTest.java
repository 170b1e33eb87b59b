package io.github.mpi4j.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * Byte payloads up to {@link BufAccess#SMALL_COPY} bytes move 8 bytes at a time between a user's
 * memory and a transport's buffer. Every length around the 8-byte steps and the limit, at odd
 * offsets on both sides, from and to byte arrays and direct byte buffers of either byte order,
 * into transport buffers of either order: each byte lands where a byte-by-byte copy puts it, and
 * nothing around the copied range changes.
 */
class SmallCopyTest {
    private static final int ROOM = BufAccess.SMALL_COPY + 40;

    private static byte pattern(int seed, int i) {
        return (byte) (seed * 31 + i * 7 + 1);
    }

    private static ByteBuffer filled(int seed, ByteOrder order) {
        ByteBuffer b = ByteBuffer.allocateDirect(ROOM).order(order);
        for (int i = 0; i < ROOM; i++) b.put(i, pattern(seed, i));
        return b;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.capacity()];
        for (int i = 0; i < out.length; i++) out[i] = b.get(i);
        return out;
    }

    /** What a byte-by-byte copy of {@code n} bytes of {@code src} from {@code from} to {@code at} makes of {@code dst}. */
    private static byte[] expected(byte[] src, int from, byte[] dst, int at, int n) {
        byte[] out = dst.clone();
        for (int i = 0; i < n; i++) out[at + i] = src[from + i];
        return out;
    }

    private static void assertBytes(byte[] want, byte[] got, String what) {
        for (int i = 0; i < want.length; i++) assertEquals(want[i], got[i], what + ": byte " + i);
    }

    @Test
    void everySmallLengthAtOddOffsetsBothWays() {
        ByteOrder[] orders = {ByteOrder.nativeOrder(), ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN};
        for (int n = 1; n <= BufAccess.SMALL_COPY + 9; n++) {
            for (int userOff : new int[] {0, 3}) {
                for (int ringAt : new int[] {0, 5, 16}) {
                    for (ByteOrder ringOrder : orders) {
                        for (ByteOrder userOrder : orders) {
                            String what = "n=" + n + " user offset " + userOff + " ring index " + ringAt + " ring "
                                    + ringOrder + " user " + userOrder;
                            check(n, userOff, ringAt, ringOrder, userOrder, what);
                        }
                    }
                }
            }
        }
    }

    @Test
    void readOnlySourceBuffersAreRead() {
        // A send may come from a read-only direct buffer: the copy only reads it.
        for (int n = 1; n <= BufAccess.SMALL_COPY; n++) {
            ByteBuffer direct = filled(8, ByteOrder.BIG_ENDIAN);
            ByteBuffer ring = filled(9, ByteOrder.nativeOrder());
            byte[] before = bytes(ring);
            BufAccess.get(new Buf(direct.asReadOnlyBuffer(), BaseKind.BYTE, 3, ROOM - 3), 0, ring, 7, n);
            assertBytes(expected(bytes(direct), 3, before, 7, n), bytes(ring), "read-only buffer -> ring, n=" + n);
        }
    }

    private static void check(int n, int userOff, int ringAt, ByteOrder ringOrder, ByteOrder userOrder, String what) {
        // User memory into the ring (a send): from an array, then from a direct buffer.
        byte[] array = bytes(filled(1, userOrder));
        ByteBuffer ring = filled(2, ringOrder);
        byte[] before = bytes(ring);
        BufAccess.get(new Buf(array, BaseKind.BYTE, userOff, ROOM - userOff), 0, ring, ringAt, n);
        assertBytes(expected(array, userOff, before, ringAt, n), bytes(ring), "array -> ring, " + what);

        ByteBuffer direct = filled(3, userOrder);
        ring = filled(4, ringOrder);
        before = bytes(ring);
        BufAccess.get(new Buf(direct, BaseKind.BYTE, userOff, ROOM - userOff), 0, ring, ringAt, n);
        assertBytes(expected(bytes(direct), userOff, before, ringAt, n), bytes(ring), "buffer -> ring, " + what);

        // The ring into user memory (a receive).
        ring = filled(5, ringOrder);
        array = bytes(filled(6, userOrder));
        byte[] arrayBefore = array.clone();
        BufAccess.put(ring, ringAt, new Buf(array, BaseKind.BYTE, userOff, ROOM - userOff), 0, n);
        assertBytes(expected(bytes(ring), ringAt, arrayBefore, userOff, n), array, "ring -> array, " + what);

        direct = filled(7, userOrder);
        before = bytes(direct);
        BufAccess.put(ring, ringAt, new Buf(direct, BaseKind.BYTE, userOff, ROOM - userOff), 0, n);
        assertBytes(expected(bytes(ring), ringAt, before, userOff, n), bytes(direct), "ring -> buffer, " + what);
    }
}
