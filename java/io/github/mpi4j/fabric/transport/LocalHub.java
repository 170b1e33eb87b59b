package io.github.mpi4j.fabric.transport;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * In-process transport: ranks are threads of one JVM (tier-1 tests), or a process talking to
 * itself. Each rank has an inbox queue; a write copies the payload into a byte array.
 */
public final class LocalHub {
    private final ConcurrentLinkedQueue<Object[]>[] inboxes;

    @SuppressWarnings("unchecked")
    public LocalHub(int size) {
        inboxes = new ConcurrentLinkedQueue[size];
        for (int i = 0; i < size; i++) inboxes[i] = new ConcurrentLinkedQueue<>();
    }

    /** The transport of rank {@code me}. */
    public Transport endpoint(int me) {
        return new Endpoint(me);
    }

    private final class Endpoint implements Transport {
        private final int me;

        Endpoint(int me) {
            this.me = me;
        }

        @Override
        public int maxPayload() {
            return 1 << 20;
        }

        @Override
        public int eagerLimit() {
            return 1 << 16;
        }

        @Override
        public boolean write(OutFrame f) {
            int n = f.header.payloadLen;
            byte[] copy = new byte[n];
            if (n > 0) BufAccess.copy(f.payload, f.payloadOff, new Buf(copy, BaseKind.BYTE, 0, n), 0, n);
            inboxes[f.peer].add(new Object[] {me, f.header, copy});
            return true;
        }

        @Override
        public boolean hasInput() {
            return !inboxes[me].isEmpty();
        }

        @Override
        public int poll(FrameSink sink) {
            int handled = 0;
            Object[] m;
            while ((m = inboxes[me].poll()) != null) {
                int from = (Integer) m[0];
                Header h = (Header) m[1];
                byte[] payload = (byte[]) m[2];
                FrameSink.Target t = sink.onHeader(from, h);
                if (t != null && t.direct()) {
                    if (payload.length > 0) {
                        BufAccess.copy(new Buf(payload, BaseKind.BYTE, 0, payload.length), 0, t.buf, t.off,
                                payload.length);
                    }
                    sink.onFrame(from, h, null, t);
                } else {
                    sink.onFrame(from, h, payload, t);
                }
                handled++;
            }
            return handled;
        }

        @Override
        public String name() {
            return "local";
        }

        @Override
        public void close() {
        }
    }
}
