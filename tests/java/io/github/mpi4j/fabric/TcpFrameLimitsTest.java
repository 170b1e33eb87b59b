package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.fabric.transport.FrameSink;
import io.github.mpi4j.fabric.transport.Header;
import io.github.mpi4j.fabric.transport.TcpTransport;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.junit.jupiter.api.Test;

/** A peer that sends a frame claiming an absurd size is dropped before anything is allocated. */
class TcpFrameLimitsTest {
    @Test
    void oversizedOrNegativeFrameDropsTheConnection() throws Exception {
        for (int claimed : new int[] {Integer.MAX_VALUE, -5}) {
            try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
                 SocketChannel evil = SocketChannel.open(server.getLocalAddress());
                 SocketChannel mine = server.accept()) {
                TcpTransport t = new TcpTransport(2, new TcpTransport.Connection[] {new TcpTransport.Connection(1, mine)});
                ByteBuffer frame = ByteBuffer.allocate(Header.BYTES);
                new Header(Engine.EAGER, 0, 1, 0, claimed, 0, 0, 0).write(frame, 0);
                evil.write(frame);
                String[] lost = new String[1];
                FrameSink sink = new FrameSink() {
                    @Override
                    public Target onHeader(int peer, Header h) {
                        throw new AssertionError("a bad frame must not reach the engine");
                    }

                    @Override
                    public void onFrame(int peer, Header h, byte[] payload, Target target) {
                        throw new AssertionError("a bad frame must not reach the engine");
                    }

                    @Override
                    public void onPeerLost(int peer, String why) {
                        lost[0] = why;
                    }
                };
                long end = System.nanoTime() + 5_000_000_000L;
                while (lost[0] == null && System.nanoTime() < end) t.poll(sink);
                assertNotNull(lost[0], "the connection was not dropped");
                assertTrue(lost[0].contains(Integer.toString(claimed)), lost[0]);
                assertEquals(0, t.poll(sink), "nothing more is read from a dropped connection");
            }
        }
    }
}
