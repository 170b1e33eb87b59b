package io.github.mpi4j.fabric.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.nio.MappedByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One shared-memory ring between two transports of this JVM (ranks 0 and 1 of one node): frames
 * of every size, over many laps, so that headers, eager payloads and large payloads cross the end
 * of the data area at every alignment; each frame read back equals the one written, whether the
 * payload lands in a buffer or comes as bytes, a fully read ring offers nothing more (each frame's
 * mark, which the reader polls, reads 0 until the frame is published: the writer zeroes ahead of
 * its tail), a full ring refuses a frame instead of overwriting unread ones, the zeroing never
 * reaches frames a lagging reader has not read, and a malformed frame loses its peer.
 */
class ShmRingTest {
    /** A ring whose largest frames (a quarter ring, 64 KiB) just fit the slack. */
    private static final int LARGE = 256 * 1024;
    /** The default ring (1 MiB): frames up to 256 KiB, most of them wrapping where they cross the end. */
    private static final int HUGE = 1024 * 1024;
    /** A ring whose largest frames fit the slack: nothing wraps. */
    private static final int SMALL = 64 * 1024;

    @TempDir
    Path dir;

    private ShmTransport[] pair(int capacity) throws Exception {
        MappedByteBuffer in0 = ShmTransport.createInbox(dir.resolve("r0-" + capacity), 2, capacity, 0);
        MappedByteBuffer in1 = ShmTransport.createInbox(dir.resolve("r1-" + capacity), 2, capacity, 0);
        int[] local = {0, 1};
        long[] pids = {0, 0};
        ShmTransport t0 = new ShmTransport(0, 2, local, pids, capacity, in0, new MappedByteBuffer[] {in0, in1});
        ShmTransport t1 = new ShmTransport(1, 2, local, pids, capacity, in1, new MappedByteBuffer[] {in0, in1});
        return new ShmTransport[] {t0, t1};
    }

    private static byte[] payload(int seq, int len) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) b[i] = (byte) (seq * 31 + i * 7);
        return b;
    }

    /** Collects frames; every other frame's payload goes into a buffer of its own, the rest as bytes. */
    private static class Sink implements FrameSink {
        final ArrayDeque<Object[]> got = new ArrayDeque<>();

        @Override
        public Target onHeader(int peer, Header h) {
            if ((h.tag & 1) == 0) return null;
            byte[] into = new byte[h.payloadLen + 3];
            return new Target(new Buf(into, BaseKind.BYTE, 0, into.length), 3, into);
        }

        @Override
        public void onFrame(int peer, Header h, byte[] payload, Target target) {
            byte[] bytes = payload;
            if (target != null && target.direct()) {
                byte[] into = (byte[]) target.cookie;
                bytes = java.util.Arrays.copyOfRange(into, 3, into.length);
            }
            got.add(new Object[] {peer, h.copy(), bytes});
        }

        @Override
        public void onPeerLost(int peer, String why) {
            throw new AssertionError("peer " + peer + " lost: " + why);
        }
    }

    @Test
    void framesOfEverySizeCrossTheEndIntact() throws Exception {
        assertTrue(HUGE / 4 + Header.BYTES > ShmTransport.SLACK, "the default ring's largest frames must wrap");
        crossTheEnd(HUGE);
        crossTheEnd(LARGE);
        crossTheEnd(SMALL);
    }

    private void crossTheEnd(int capacity) throws Exception {
        ShmTransport[] t = pair(capacity);
        Sink sink = new Sink();
        int max = t[0].maxPayload();
        int[] sizes = {0, 1, 7, 8, 9, 24, 33, 40, 63, 100, 1000, 4093, 16384, 16385, 65536, 65537, 100_000, max - 1,
            max};
        int seq = 0;
        for (int lap = 0; seq < 4000; lap++) {
            for (int size : sizes) {
                if (size > max) continue; // 16385 is more than a small ring's quarter, 65537 a large one's
                // Uneven steps move where frames start relative to the ring's end on every lap.
                int len = size == 0 ? 0 : Math.max(1, size - (lap % 9));
                byte[] p = payload(seq, len);
                // Every other frame has the short header (a plain eager message: a = 0, b = length).
                boolean brief = seq % 2 == 0;
                long a = brief ? 0 : seq * 3L, b = brief ? len : -seq;
                Header h = new Header(1 + seq % 3, 5 + seq, 0, seq, len, seq % 4, a, b);
                Buf buf = new Buf(p, BaseKind.BYTE, 0, len);
                // Every fourth frame (short header, no flags) as the engine's small sends write it.
                boolean eager = seq % 4 == 0 && len <= t[0].eagerLimit();
                assertTrue(eager ? t[0].writeEager(1, h.kind, 0, h.ctx, h.tag, buf, len, new Header())
                        : t[0].writeWhole(1, h, buf, 0), "frame " + seq + " fits (ring " + capacity + ")");
                assertEquals(1, t[1].poll(sink), "frame " + seq + " read");
                assertEquals(0, t[1].poll(sink), "after frame " + seq + " nothing more (ring " + capacity + ")");
                assertFalse(t[1].hasInput(), "no input after frame " + seq);
                Object[] f = sink.got.poll();
                Header r = (Header) f[1];
                assertEquals(0, f[0]);
                assertEquals(1 + seq % 3, r.kind, "kind of frame " + seq);
                assertEquals(5 + seq, r.ctx, "context of frame " + seq);
                assertEquals(0, r.src, "source of frame " + seq);
                assertEquals(seq, r.tag);
                assertEquals(seq % 4, r.flags, "flags of frame " + seq);
                assertEquals(len, r.payloadLen);
                assertEquals(a, r.a);
                assertEquals(b, r.b);
                assertArrayEquals(p, (byte[]) f[2], "payload of frame " + seq + " (" + len + " bytes)");
                seq++;
            }
        }
    }

    /** A plain eager frame takes a 16-byte header: three 8-byte messages in 72 bytes of ring, not 144. */
    @Test
    void plainEagerFramesTakeTheShortHeader() throws Exception {
        ShmTransport[] t = pair(SMALL);
        int written = 0;
        while (t[0].writeWhole(1, new Header(1, 5, 0, written, 8, 0, 0, 8), new Buf(new byte[8], BaseKind.BYTE, 0, 8), 0)) {
            written++;
        }
        assertEquals(SMALL / (ShmTransport.SHORT_HEADER + 8), written, "8-byte frames with the short header in a full ring");
    }

    /**
     * A frame whose length is impossible (a broken or hostile writer) loses that peer once: the
     * reader cannot know where the next frame starts, so it reads nothing more from that ring.
     */
    @Test
    void aMalformedFrameLosesThePeerOnce() throws Exception {
        MappedByteBuffer in0 = ShmTransport.createInbox(dir.resolve("m0"), 2, SMALL, 0);
        MappedByteBuffer in1 = ShmTransport.createInbox(dir.resolve("m1"), 2, SMALL, 0);
        int[] local = {0, 1};
        ShmTransport reader = new ShmTransport(1, 2, local, new long[] {0, 0}, SMALL, in1,
                new MappedByteBuffer[] {in0, in1});
        // Rank 0's ring in rank 1's inbox starts the inbox: a short-form header claiming -8 bytes.
        int at = ShmTransport.RING_HEADER;
        in1.putInt(at + 4, -8);
        in1.putInt(at + 8, 5);
        in1.putInt(at + 12, 0);
        in1.putInt(at, 0x8000_0000 | 1);  // the mark last, as a writer publishes
        java.util.List<String> lost = new java.util.ArrayList<>();
        FrameSink sink = new Sink() {
            @Override
            public void onPeerLost(int peer, String why) {
                lost.add(peer + ": " + why);
            }
        };
        assertTrue(reader.hasInput());
        assertEquals(0, reader.poll(sink), "a malformed frame is not delivered");
        assertEquals(1, lost.size(), "the peer is lost once: " + lost);
        assertTrue(lost.get(0).startsWith("0: ") && lost.get(0).contains("-8 bytes"), lost.get(0));
        assertEquals(0, reader.poll(sink));
        assertFalse(reader.hasInput(), "nothing more is read from that ring");
        assertEquals(1, lost.size());
    }

    /**
     * Small and mid-size frames, with payloads of bytes that are never 0 (so stale ones would read
     * as marks), while the reader lags by a varying number of frames and the ring often fills: it
     * reads every frame intact and in order, and nothing after the last. The writer's zeroing
     * ahead of its tail must stop short of unread frames, and a frame whose next mark lies past
     * the zeroed bytes must clear it itself.
     */
    @Test
    void aLaggingReaderGetsEveryFrameWhileTheWriterZeroesAhead() throws Exception {
        ShmTransport[] t = pair(SMALL);
        java.util.Random random = new java.util.Random(42);
        int[] budget = {0};  // frames the reader takes in this poll; the rest stay in the ring
        Sink sink = new Sink() {
            @Override
            public Target onHeader(int peer, Header h) {
                if (budget[0] == 0) return FrameSink.LATER;
                budget[0]--;
                return super.onHeader(peer, h);
            }
        };
        int written = 0, read = 0;
        while (written < 60_000) {
            int burst = 1 + random.nextInt(400);
            for (int i = 0; i < burst; i++) {
                int len = random.nextInt(8) == 0 ? 200 + random.nextInt(3000) : random.nextInt(130);
                byte[] p = new byte[len];
                for (int k = 0; k < len; k++) p[k] = (byte) (0x80 | (written + k));
                Buf buf = new Buf(p, BaseKind.BYTE, 0, len);
                boolean ok = written % 2 == 0 ? t[0].writeEager(1, 1, 0, 5, written, buf, len, new Header())
                        : t[0].writeWhole(1, new Header(2, 5, 0, written, len, 0, written, -len), buf, 0);
                if (!ok) break;  // full: the reader has to catch up
                written++;
            }
            budget[0] = random.nextInt(2) == 0 ? written - read : random.nextInt(written - read + 1);
            int want = budget[0];
            assertEquals(want, t[1].poll(sink), "frames read after " + written + " written");
            for (int i = 0; i < want; i++, read++) {
                Object[] f = sink.got.poll();
                Header h = (Header) f[1];
                assertEquals(read, h.tag, "frame order");
                byte[] bytes = (byte[]) f[2];
                assertEquals(h.payloadLen, bytes.length);
                for (int k = 0; k < bytes.length; k++) {
                    assertEquals((byte) (0x80 | (read + k)), bytes[k], "byte " + k + " of frame " + read);
                }
            }
        }
        budget[0] = written - read;
        assertEquals(written - read, t[1].poll(sink), "the rest");
        budget[0] = 1;
        assertEquals(0, t[1].poll(sink), "nothing after the last frame written");
        assertFalse(t[1].hasInput());
    }

    @Test
    void aFullRingRefusesAndThenTakesFramesAgain() throws Exception {
        ShmTransport[] t = pair(SMALL);
        Sink sink = new Sink();
        int len = 1000, written = 0;
        // Fill without reading: frames go in until the ring is full, never over unread ones.
        while (t[0].writeWhole(1, new Header(1, 5, 0, written, len, 0, 0, 0),
                new Buf(payload(written, len), BaseKind.BYTE, 0, len), 0)) {
            written++;
            assertTrue(written * 1040L <= SMALL, "more frames than the ring holds: " + written);
        }
        assertEquals(SMALL / 1040, written, "frames of 1040 bytes that fit a ring of " + SMALL);
        assertFalse(t[0].writeWhole(1, new Header(1, 5, 0, 0, 8, 0, 0, 0), new Buf(new byte[8], BaseKind.BYTE, 0, 8), 0),
                "a full ring takes nothing");
        assertEquals(written, t[1].poll(sink));
        for (int i = 0; i < written; i++) assertArrayEquals(payload(i, len), (byte[]) sink.got.poll()[2], "frame " + i);
        assertTrue(t[0].writeWhole(1, new Header(1, 5, 0, 1, len, 0, 0, 0),
                new Buf(payload(1, len), BaseKind.BYTE, 0, len), 0), "room again once read");
        assertEquals(1, t[1].poll(sink));
        assertArrayEquals(payload(1, len), (byte[]) sink.got.poll()[2]);
    }
}
