package io.github.mpi4j.fabric.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Arrays written to and read from a real loopback socket by their descriptor: the bytes that
 * arrive are the array's elements in this machine's order, from the right offset, a read may
 * stop inside an element and the next completes it, an empty socket reads 0, a closed one -1,
 * and ranges outside the array are refused before anything moves.
 */
class ArraySocketIoTest {
    private SocketChannel a, b;
    private int fa, fb;

    @BeforeEach
    void connect() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            a = SocketChannel.open(server.getLocalAddress());
            b = server.accept();
        }
        a.configureBlocking(false);
        b.configureBlocking(false);
        fa = ArraySocketIo.descriptorOf(a);
        fb = ArraySocketIo.descriptorOf(b);
    }

    @AfterEach
    void close() throws Exception {
        a.close();
        b.close();
    }

    @Test
    void theJdksChannelsGiveTheirDescriptor() {
        // The build ships libmpi4j_dl and CI runs JDK 17, whose SocketChannelImpl has fdVal.
        assertTrue(fa >= 0 && fb >= 0 && fa != fb, "descriptors " + fa + ", " + fb);
    }

    @Test
    void elementsArriveInNativeOrderFromTheirOffset() throws Exception {
        int[] src = new int[1000];
        for (int i = 0; i < src.length; i++) src[i] = i * 1_000_003 - 7;
        Buf from = new Buf(src, BaseKind.INT, 10, 990); // element 10 is the Buf's first
        int sent = 0;
        while (sent < 400) sent += ArraySocketIo.write(fa, from, 8 + sent, 400 - sent); // elements 12..111
        int[] dst = new int[200];
        int got = 0;
        long deadline = System.nanoTime() + 5_000_000_000L;
        // Read in pieces of 7 bytes: most reads end inside an element.
        while (got < 400 && System.nanoTime() < deadline) {
            int n = ArraySocketIo.read(fb, dst, BaseKind.INT, 4 * 50 + got, Math.min(7, 400 - got));
            got += n;
        }
        assertEquals(400, got, "bytes read");
        int[] expected = new int[200];
        System.arraycopy(src, 12, expected, 50, 100);
        assertArrayEquals(expected, dst);
    }

    @Test
    void aHeaderAndAnArrayLeaveInOneGatheringWrite() throws Exception {
        ByteBuffer head = ByteBuffer.allocateDirect(40);
        for (int i = 0; i < 40; i++) head.put(i, (byte) (100 + i));
        long[] payload = new long[64];
        for (int i = 0; i < payload.length; i++) payload[i] = 0x0102030405060708L * (i + 1);
        Buf from = new Buf(payload, BaseKind.LONG, 0, 64);
        // The first 15 header bytes are taken as already sent: the rest, then elements 2..33.
        int n = ArraySocketIo.writeWithHeader(fa, head, 15, 25, from, 16, 256);
        assertEquals(25 + 256, n, "bytes written to an empty socket");
        byte[] got = new byte[n];
        int at = 0;
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (at < n && System.nanoTime() < deadline) at += ArraySocketIo.read(fb, got, BaseKind.BYTE, at, n - at);
        ByteBuffer in = ByteBuffer.wrap(got).order(ByteOrder.nativeOrder());
        for (int i = 0; i < 25; i++) assertEquals((byte) (115 + i), in.get(i), "header byte " + (15 + i));
        for (int i = 0; i < 32; i++) assertEquals(payload[2 + i], in.getLong(25 + 8 * i), "element " + (2 + i));
        assertThrows(IndexOutOfBoundsException.class, () -> ArraySocketIo.writeWithHeader(fa, head, 30, 11, from, 0, 8));
    }

    @Test
    void anEmptySocketReadsNothingAndAClosedOneEnds() throws Exception {
        byte[] dst = new byte[16];
        assertEquals(0, ArraySocketIo.read(fb, dst, BaseKind.BYTE, 0, 16), "nothing sent yet");
        a.close();
        long deadline = System.nanoTime() + 5_000_000_000L;
        int n = 0;
        while (n == 0 && System.nanoTime() < deadline) n = ArraySocketIo.read(fb, dst, BaseKind.BYTE, 0, 16);
        assertEquals(-1, n, "end of stream");
    }

    @Test
    void rangesOutsideTheArrayAreRefused() {
        double[] d = new double[4];
        assertThrows(IndexOutOfBoundsException.class, () -> ArraySocketIo.read(fb, d, BaseKind.DOUBLE, 28, 8));
        assertThrows(IndexOutOfBoundsException.class, () -> ArraySocketIo.read(fb, d, BaseKind.DOUBLE, -1, 4));
        Buf tail = new Buf(d, BaseKind.DOUBLE, 3, 1);
        assertThrows(IndexOutOfBoundsException.class, () -> ArraySocketIo.write(fa, tail, 4, 8));
    }

    @Test
    void booleansAndObjectsAreLeftToStaging() {
        assertFalse(ArraySocketIo.applies(new Buf(new boolean[4], BaseKind.BOOLEAN, 0, 4)));
        assertTrue(ArraySocketIo.applies(new Buf(new long[4], BaseKind.LONG, 0, 4)));
    }
}
