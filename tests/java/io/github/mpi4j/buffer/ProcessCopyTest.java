package io.github.mpi4j.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The native read of another process's memory, tried on this process itself (the kernel treats
 * it like any other): the bytes land at the place asked and nowhere else, and a bad address or
 * process comes back as a negative errno, with no crash. Which memory qualifies on either side.
 */
class ProcessCopyTest {
    private static final long PID = ProcessHandle.current().pid();

    @BeforeEach
    void library() {
        Assumptions.assumeTrue(HostViews.available(), "libmpi4j_dl is not loaded here");
    }

    private static ByteBuffer source(int n) {
        ByteBuffer b = ByteBuffer.allocateDirect(n).order(ByteOrder.nativeOrder());
        for (int i = 0; i < n; i++) b.put(i, (byte) (i * 13 + 5));
        return b;
    }

    @Test
    void readsIntoAnArrayAtAnOffsetAndNowhereElse() {
        ByteBuffer src = source(100_000);
        long remote = HostViews.addressOf(src) + 1000;
        int[] dst = new int[30_000];
        Arrays.fill(dst, -1);
        // Elements 10.. of a Buf that starts at element 5: bytes from element 15 on.
        Buf b = new Buf(dst, BaseKind.INT, 5, 20_000);
        assertEquals(40_000, ProcessCopy.read(PID, remote, b, 40, 40_000));
        ByteBuffer got = ByteBuffer.allocate(4 * dst.length).order(ByteOrder.nativeOrder());
        got.asIntBuffer().put(dst);
        for (int i = 0; i < 4 * dst.length; i++) {
            int k = i - 60;
            byte want = k >= 0 && k < 40_000 ? (byte) ((k + 1000) * 13 + 5) : (byte) -1;
            assertEquals(want, got.get(i), "byte " + i);
        }
    }

    @Test
    void readsIntoADirectBuffer() {
        ByteBuffer src = source(70_000);
        ByteBuffer dst = ByteBuffer.allocateDirect(70_000);
        assertEquals(70_000, ProcessCopy.read(PID, HostViews.addressOf(src), new Buf(dst, BaseKind.BYTE, 0, 70_000),
                0, 70_000));
        assertEquals(src, dst);
    }

    @Test
    void badAddressesAndProcessesAreErrorsNotCrashes() {
        byte[] dst = new byte[4096];
        Buf b = new Buf(dst, BaseKind.BYTE, 0, dst.length);
        long efault = ProcessCopy.read(PID, 8, b, 0, 4096);
        assertTrue(efault < 0, "an unmapped address: " + efault);
        long esrch = ProcessCopy.read(Integer.MAX_VALUE - 1, HostViews.addressOf(source(4096)), b, 0, 4096);
        assertTrue(esrch < 0, "no such process: " + esrch);
        // The local range is checked in Java before any native call.
        assertThrows(IndexOutOfBoundsException.class, () -> ProcessCopy.read(PID, 8, b, 1, 4096));
    }

    @Test
    void whichMemoryQualifies() {
        ByteBuffer direct = ByteBuffer.allocateDirect(64);
        // Arrays move: never readable by a peer, but fine to receive into (pinned for the read).
        assertEquals(0, ProcessCopy.readableAddress(new Buf(new byte[64], BaseKind.BYTE, 0, 64), 0));
        assertFalse(ProcessCopy.canReceive(new Buf(direct.asReadOnlyBuffer(), BaseKind.BYTE, 0, 64)));
        assertFalse(ProcessCopy.canReceive(new Buf(new Object[4], BaseKind.OBJECT, 0, 4)));
        assertFalse(ProcessCopy.canReceive(new Buf(ByteBuffer.allocate(64), BaseKind.BYTE, 0, 64)));
        // Typed views of the other byte order would arrive as the wrong values.
        ByteOrder other = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        assertFalse(ProcessCopy.canReceive(new Buf(direct.order(other).asIntBuffer(), BaseKind.INT, 0, 16)));
        if (ProcessCopy.ENABLED) {
            assertTrue(ProcessCopy.canReceive(new Buf(new double[8], BaseKind.DOUBLE, 0, 8)));
            assertEquals(HostViews.addressOf(direct) + 24, ProcessCopy.readableAddress(new Buf(direct, BaseKind.BYTE, 0, 64), 24));
        } else {
            assertEquals(0, ProcessCopy.readableAddress(new Buf(direct, BaseKind.BYTE, 0, 64), 0), "off unless asked for");
        }
    }
}
