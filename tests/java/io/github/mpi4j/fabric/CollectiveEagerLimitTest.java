package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.fabric.transport.FrameSink;
import io.github.mpi4j.fabric.transport.Header;
import io.github.mpi4j.fabric.transport.OutFrame;
import io.github.mpi4j.fabric.transport.Transport;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Over a transport that sends point-to-point messages eagerly up to 512 KiB (TCP), a collective's
 * messages above 256 KiB go by rendezvous: in a schedule they often arrive before the receive,
 * and an eager one would then be held in a heap copy (docs/performance.md, thirty-first session).
 */
class CollectiveEagerLimitTest {
    /** Records the kind of every frame the engine writes; never delivers anything. */
    private static final class Recording implements Transport {
        final List<Integer> kinds = new ArrayList<>();

        @Override
        public int maxPayload() {
            return 1 << 20;
        }

        @Override
        public int eagerLimit() {
            return 512 * 1024;
        }

        @Override
        public boolean write(OutFrame f) {
            kinds.add(f.header.kind);
            return true;
        }

        @Override
        public boolean writeWhole(int peer, Header h, Buf payload, long payloadOff) {
            kinds.add(h.kind);
            return true;
        }

        @Override
        public int poll(FrameSink sink) {
            return 0;
        }

        @Override
        public void close() {
        }

        @Override
        public String name() {
            return "recording";
        }
    }

    @Test
    void collectiveMessagesAbove256KiBGoByRendezvous() {
        Recording t = new Recording();
        Engine e = new Engine(0, new Transport[] {t, t}, 30, false, false);
        byte[] data = new byte[400 * 1024];
        Buf buf = new Buf(data, BaseKind.BYTE, 0, data.length);

        e.isend(0, 1, 7, buf, 0, data.length, false, false);
        e.isend(0, 1, 7, buf, 0, data.length, false, true);
        e.isend(0, 1, 7, buf, 0, 200 * 1024, false, true);
        e.isend(0, 1, 7, buf, 0, 256 * 1024 + 1, false, true);
        assertEquals(List.of(Engine.EAGER, Engine.RTS, Engine.EAGER, Engine.RTS), t.kinds);

        // The allocation-free path keeps to the same limits.
        assertFalse(e.sendNow(0, 1, 7, buf, data.length, true));
        assertTrue(e.sendNow(0, 1, 7, buf, data.length, false));
        assertEquals(Engine.EAGER, (int) t.kinds.get(t.kinds.size() - 1));
        assertEquals(5, t.kinds.size());
    }
}
