package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.fabric.transport.FrameSink;
import io.github.mpi4j.fabric.transport.Header;
import io.github.mpi4j.fabric.transport.LocalHub;
import io.github.mpi4j.fabric.transport.Transport;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.util.Arrays;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/**
 * Frames from a peer that holds the job secret but breaks the protocol: every header field is
 * checked against the receive it targets before a byte is written. The test plays the peer by
 * handing frames to rank 0's engine exactly as a transport does (onHeader, then the payload
 * lands where it says, then onFrame), into a receive window inside a larger array whose other
 * bytes are guards.
 */
class ForgedFrameTest {
    private static final int WINDOW_AT = 512 * 1024;
    private static final int WINDOW = 64 * 1024;
    private static final byte GUARD = 0x55;
    private static final byte EVIL = (byte) 0xAA;

    /** Rank 0 of a 3-rank world whose peers are played by the test. */
    private static Engine engine() {
        LocalHub hub = new LocalHub(3);
        Transport[] t = {hub.endpoint(0), hub.endpoint(0), hub.endpoint(0)};
        return new Engine(0, t, 30, false, false);
    }

    /** Delivers one frame as a transport would: the payload goes where onHeader says. */
    private static void deliver(Engine e, int peer, Header h, byte[] payload) {
        FrameSink.Target t = e.onHeader(peer, h);
        if (t != null && t.direct()) {
            if (payload.length > 0) {
                io.github.mpi4j.buffer.BufAccess.copy(new Buf(payload, BaseKind.BYTE, 0, payload.length), 0, t.buf,
                        t.off, payload.length);
            }
            e.onFrame(peer, h, null, t);
        } else {
            e.onFrame(peer, h, payload, t);
        }
    }

    private static byte[] evil(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, EVIL);
        return b;
    }

    /** A 1 MiB array of guard bytes with a receive posted on [512 KiB, 576 KiB) from rank 1. */
    private static final class Window {
        final byte[] big = new byte[1 << 20];
        final Engine.RecvOp op;

        Window(Engine e, long announced) {
            Arrays.fill(big, GUARD);
            op = e.irecv(0, 1, 7, new Buf(big, BaseKind.BYTE, 0, big.length), WINDOW_AT, WINDOW);
            // Rank 1 announces a rendezvous message; the engine matches it and answers CTS.
            deliver(e, 1, new Header(Engine.RTS, 0, 1, 7, 0, 0, 99, announced), new byte[0]);
            assertTrue(op.id != 0, "the receive is matched and waits for DATA");
        }

        void assertGuardsIntact() {
            for (int i = 0; i < big.length; i++) {
                if (i >= WINDOW_AT && i < WINDOW_AT + WINDOW) continue;
                if (big[i] != GUARD) throw new AssertionError("byte " + i + " outside the receive window was written");
            }
        }
    }

    private static void assertRefused(Engine e, Window w, String... words) {
        w.assertGuardsIntact();
        assertTrue(w.op.done, "the receive must fail, not wait");
        assertNotNull(w.op.error, "the receive must not report success");
        for (String word : words) {
            assertTrue(w.op.error.getMessage().contains(word), "'" + word + "' in: " + w.op.error.getMessage());
        }
        // The peer broke the protocol: later operations fail too, naming it.
        MPIException later = assertThrows(MPIException.class, () -> e.irecv(0, 1, 8, null, 0, 0));
        assertTrue(later.getMessage().contains("rank 1"), later.getMessage());
    }

    @Test
    void dataWithNegativeOffsetIsRefused() {
        Engine e = engine();
        Window w = new Window(e, WINDOW);
        deliver(e, 1, new Header(Engine.DATA, 0, 1, 0, 4096, 0, w.op.id, -4096), evil(4096));
        assertRefused(e, w, "rank 1", "offset", "-4096");
    }

    @Test
    void dataBeyondTheAnnouncedLengthIsRefused() {
        Engine e = engine();
        Window w = new Window(e, 1024);
        // Inside the receive buffer's capacity, but past the 1024 bytes the RTS announced.
        deliver(e, 1, new Header(Engine.DATA, 0, 1, 0, 4096, 0, w.op.id, 512), evil(4096));
        assertRefused(e, w, "rank 1", "offset", "1024");
        for (int i = WINDOW_AT + 1024; i < WINDOW_AT + WINDOW; i++) assertEquals(GUARD, w.big[i], "byte " + i);
    }

    @Test
    void dataPastTheWindowIsRefused() {
        Engine e = engine();
        Window w = new Window(e, 1L << 40);
        deliver(e, 1, new Header(Engine.DATA, 0, 1, 0, 4096, 0, w.op.id, Long.MAX_VALUE - 100), evil(4096));
        assertRefused(e, w, "rank 1", "offset");
    }

    @Test
    void dataFromAnotherPeerIsRefused() {
        Engine e = engine();
        Window w = new Window(e, WINDOW);
        // Rank 2 writes into the receive that rank 1's message matched.
        deliver(e, 2, new Header(Engine.DATA, 0, 2, 0, 4096, 0, w.op.id, 0), evil(4096));
        w.assertGuardsIntact();
        for (int i = WINDOW_AT; i < WINDOW_AT + 4096; i++) assertEquals(GUARD, w.big[i], "byte " + i);
        assertTrue(w.op.done && w.op.error != null, "the receive must fail");
        assertTrue(w.op.error.getMessage().contains("rank 2"), w.op.error.getMessage());
    }

    @Test
    void headerClaimingAnotherSourceIsRefused() {
        Engine e = engine();
        Window w = new Window(e, WINDOW);
        // Arrives on rank 2's connection but says it comes from rank 1.
        deliver(e, 2, new Header(Engine.EAGER, 0, 1, 7, 16, 0, 0, 16), evil(16));
        MPIException later = assertThrows(MPIException.class, () -> e.irecv(0, 2, 8, null, 0, 0));
        assertTrue(later.getMessage().contains("rank 2") && later.getMessage().contains("source"),
                later.getMessage());
        w.assertGuardsIntact();
    }

    @Test
    void negativeLengthsAreRefused() {
        Engine e = engine();
        deliver(e, 1, new Header(Engine.RTS, 0, 1, 7, 0, 0, 5, -1), new byte[0]);
        MPIException later = assertThrows(MPIException.class, () -> e.irecv(0, 1, 7, null, 0, 0));
        assertTrue(later.getMessage().contains("rank 1") && later.getMessage().contains("length"),
                later.getMessage());
    }

    @Test
    void singleCopyRequestWithoutItsAddressIsRefused() {
        Engine e = engine();
        deliver(e, 1, new Header(Engine.RTS, 0, 1, 7, 3, Engine.FLAG_SINGLE_COPY, 5, 1 << 20), evil(3));
        MPIException later = assertThrows(MPIException.class, () -> e.irecv(0, 1, 7, null, 0, 0));
        assertTrue(later.getMessage().contains("rank 1") && later.getMessage().contains("3 payload bytes"),
                later.getMessage());
    }

    /**
     * A request to read the message out of the sender's memory, from a peer whose link names no
     * process of this node (here the in-process hub; TCP alike): nothing is read, the receive
     * answers CTS and waits for DATA as for any rendezvous message.
     */
    @Test
    void singleCopyOnlyFromAProcessOfThisNode() {
        Engine e = engine();
        byte[] big = new byte[1 << 20];
        Arrays.fill(big, GUARD);
        Engine.RecvOp op = e.irecv(0, 1, 7, new Buf(big, BaseKind.BYTE, 0, big.length), WINDOW_AT, WINDOW);
        byte[] address = java.nio.ByteBuffer.allocate(8).putLong(4096).array();
        deliver(e, 1, new Header(Engine.RTS, 0, 1, 7, 8, Engine.FLAG_SINGLE_COPY, 99, WINDOW), address);
        assertTrue(op.id != 0 && !op.done, "the receive is matched and waits for DATA");
        for (int i = 0; i < big.length; i++) assertEquals(GUARD, big[i], "byte " + i);
    }

    @Test
    void unknownKindIsRefused() {
        Engine e = engine();
        deliver(e, 1, new Header(77, 0, 1, 7, 0, 0, 0, 0), new byte[0]);
        MPIException later = assertThrows(MPIException.class, () -> e.irecv(0, 1, 7, null, 0, 0));
        assertTrue(later.getMessage().contains("rank 1") && later.getMessage().contains("kind 77"),
                later.getMessage());
    }

    @Test
    void aHonestMessageStillLandsInItsWindow() {
        Engine e = engine();
        Window w = new Window(e, WINDOW);
        byte[] data = new byte[WINDOW];
        for (int i = 0; i < data.length; i++) data[i] = (byte) (i * 31 + 7);
        deliver(e, 1, new Header(Engine.DATA, 0, 1, 0, WINDOW / 2, 0, w.op.id, 0), Arrays.copyOf(data, WINDOW / 2));
        deliver(e, 1, new Header(Engine.DATA, 0, 1, 0, WINDOW / 2, 0, w.op.id, WINDOW / 2),
                Arrays.copyOfRange(data, WINDOW / 2, WINDOW));
        assertTrue(w.op.done, "complete after the announced bytes");
        assertEquals(null, w.op.error);
        assertEquals(WINDOW, w.op.bytes);
        w.assertGuardsIntact();
        assertTrue(Arrays.equals(data, Arrays.copyOfRange(w.big, WINDOW_AT, WINDOW_AT + WINDOW)));
    }

    /**
     * A sender that floods a rank with eager messages nobody receives yet: the receiver holds at
     * most its budget (the sender is told to go rendezvous), and every message still arrives,
     * in order, with its own contents.
     */
    @Test
    void unexpectedEagerDataStaysWithinTheBudget() {
        String[] keys = {"mpi4j.unexpected.mb", "mpi4j.unexpected.peer.mb"};
        System.setProperty(keys[0], "4");
        System.setProperty(keys[1], "2");
        try {
            LocalHub hub = new LocalHub(2);
            Engine r0 = new Engine(0, new Transport[] {hub.endpoint(0), hub.endpoint(0)}, 30, false, false);
            Engine r1 = new Engine(1, new Transport[] {hub.endpoint(1), hub.endpoint(1)}, 30, false, false);
            int n = 256;
            int len = 64 * 1024;  // the in-process transport's eager limit: 16 MiB in all
            Engine.SendOp[] sends = new Engine.SendOp[n];
            long most = 0;
            for (int i = 0; i < n; i++) {
                byte[] m = new byte[len];
                Arrays.fill(m, (byte) (i * 7 + 1));
                sends[i] = r1.isend(0, 0, i, new Buf(m, BaseKind.BYTE, 0, len), 0, len, false);
                r1.poke();
                r0.poke();
                most = Math.max(most, r0.unexpectedBytesFrom(1));
            }
            assertTrue(most <= (2 << 20) + 2 * (len + UnexpectedBudget.ENTRY_COST),
                    "rank 0 held " + most + " bytes of unexpected data (budget 2 MiB)");
            for (int i = 0; i < n; i++) {
                byte[] into = new byte[len];
                Engine.RecvOp op = r0.irecv(0, 1, i, new Buf(into, BaseKind.BYTE, 0, len), 0, len);
                for (int spins = 0; !op.done && spins < 1_000_000; spins++) {
                    r0.poke();
                    r1.poke();
                }
                assertTrue(op.done, "message " + i + " arrives");
                assertEquals(null, op.error);
                for (byte b : into) assertEquals((byte) (i * 7 + 1), b, "contents of message " + i);
            }
            for (int spins = 0; spins < 1000; spins++) {
                r0.poke();
                r1.poke();
            }
            for (int i = 0; i < n; i++) assertTrue(sends[i].done, "send " + i + " completes");
            assertEquals(0, r0.unexpectedBytesFrom(1));
        } finally {
            for (String k : keys) System.clearProperty(k);
        }
    }
}
