package io.github.mpi4j.fabric.bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The job's rendezvous store: a small key-value map that ranks write their addresses to and
 * read each other's from. Hosted by the launcher (or by rank 0 without one). Every connection
 * authenticates with the job secret first ({@link Auth}); requests are length-prefixed frames
 * of at most {@link #MAX_FRAME} bytes — a larger claimed length is rejected before anything is
 * allocated.
 */
public final class RendezvousServer implements AutoCloseable {
    public static final int MAX_FRAME = 1 << 20;
    static final byte PUT = 1, GET = 2, OK = 3, VALUE = 4, MISSING = 5;

    private final ServerSocket server;
    private final byte[] secret;
    private final Map<String, byte[]> values = new HashMap<>();
    private final Consumer<String> log;
    private volatile boolean closed;

    /** Listens on {@code bindAddress:port} (port 0: any free port). */
    public RendezvousServer(String bindAddress, int port, byte[] secret, Consumer<String> log) throws IOException {
        this.secret = secret;
        this.log = log;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(bindAddress, port), 128);
        Thread t = new Thread(this::acceptLoop, "mpi4j-rendezvous");
        t.setDaemon(true);
        t.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                Thread t = new Thread(() -> serve(s), "mpi4j-rendezvous-client");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                if (!closed) log.accept("rendezvous: accept failed: " + e);
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            int id;
            try {
                id = Auth.accept(in, out, secret);
            } catch (IOException e) {
                log.accept("rendezvous: refused a connection from " + s.getRemoteSocketAddress() + ": " + e.getMessage());
                return;
            }
            s.setSoTimeout(0);
            while (!closed) {
                int len;
                try {
                    len = in.readInt();
                } catch (EOFException e) {
                    return;
                }
                if (len < 1 || len > MAX_FRAME) {
                    log.accept("rendezvous: rank " + id + " sent a frame of " + len + " bytes (limit " + MAX_FRAME
                            + "); closing its connection");
                    return;
                }
                byte[] frame = new byte[len];
                in.readFully(frame);
                handle(frame, out, id);
                out.flush();
            }
        } catch (SocketTimeoutException e) {
            log.accept("rendezvous: a client took too long to authenticate");
        } catch (IOException e) {
            if (!closed) log.accept("rendezvous: connection ended: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void handle(byte[] frame, DataOutputStream out, int id) throws IOException, InterruptedException {
        DataInputStream f = new DataInputStream(new java.io.ByteArrayInputStream(frame));
        byte op = f.readByte();
        String key = readKey(f);
        if (op == PUT) {
            byte[] value = f.readAllBytes();
            synchronized (values) {
                values.put(key, value);
                values.notifyAll();
            }
            out.writeInt(1);
            out.writeByte(OK);
        } else if (op == GET) {
            long timeoutMs = f.readLong();
            long deadline = System.currentTimeMillis() + timeoutMs;
            byte[] v;
            synchronized (values) {
                while ((v = values.get(key)) == null) {
                    long left = deadline - System.currentTimeMillis();
                    if (left <= 0 || closed) break;
                    values.wait(Math.min(left, 1000));
                }
            }
            if (v == null) {
                out.writeInt(1);
                out.writeByte(MISSING);
            } else {
                out.writeInt(1 + v.length);
                out.writeByte(VALUE);
                out.write(v);
            }
        } else {
            throw new IOException("rank " + id + " sent unknown request " + op);
        }
    }

    static String readKey(DataInputStream f) throws IOException {
        int n = f.readUnsignedShort();
        byte[] k = new byte[n];
        f.readFully(k);
        return new String(k, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        synchronized (values) {
            values.notifyAll();
        }
    }
}
