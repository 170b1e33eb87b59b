package io.github.mpi4j.fabric.bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The job's rendezvous store: a small key-value map that ranks write their addresses to and
 * read each other's from. Hosted by the launcher (or by rank 0 without one). Every connection
 * authenticates with the job secret first ({@link Auth}); requests are length-prefixed frames
 * of at most {@link #MAX_FRAME} bytes — a larger claimed length is rejected before anything is
 * allocated.
 *
 * <p>Bounded against strangers: at most {@link #HANDSHAKE_THREADS} connections authenticate at
 * once (more are closed at once; ranks retry), each within {@link #AUTH_TIMEOUT_MS}; only an
 * authenticated rank gets a thread of its own. Refused connections are logged at most
 * {@link RefusalLog#LINES_PER_WINDOW} times per window, with a count of the rest.
 *
 * <p>Fails fast: when a connection claiming a rank that has not joined yet fails authentication
 * (a rank started with the wrong {@code MPI4J_SECRET}), or the launcher calls {@link #abort},
 * every waiting and later request is answered with the reason, so no rank waits for its deadline.
 *
 * <p>Watches ranks: a rank started by {@code mpi4jrun} keeps its connection as a lifeline after
 * {@code MPI.Init} and says when it has called {@code MPI.Finalize}; the launcher asks
 * {@link #connected}, {@link #finalized} and {@link #awaitGone}.
 */
public final class RendezvousServer implements AutoCloseable {
    public static final int MAX_FRAME = 1 << 20;
    static final byte PUT = 1, GET = 2, OK = 3, VALUE = 4, MISSING = 5, ABORTED = 6, LIFELINE = 7, FINALIZED = 8;
    /** Connections authenticating at the same time; a legitimate handshake takes milliseconds. */
    static final int HANDSHAKE_THREADS = 16;
    static final int AUTH_TIMEOUT_MS = 5000;

    private final ServerSocket server;
    private final byte[] secret;
    private final Map<String, byte[]> values = new HashMap<>();
    private final Set<Integer> joined = new HashSet<>();
    private final Set<Integer> present = new HashSet<>();
    private final Set<Integer> done = new HashSet<>();
    private final RefusalLog refusals;
    private final Consumer<String> log;
    private final ThreadPoolExecutor handshakes;
    private volatile String abortReason;
    private volatile boolean closed;

    /** Listens on {@code bindAddress:port} (port 0: any free port). */
    public RendezvousServer(String bindAddress, int port, byte[] secret, Consumer<String> log) throws IOException {
        this.secret = secret;
        this.log = log;
        this.refusals = new RefusalLog(log);
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(bindAddress, port), 128);
        this.handshakes = new ThreadPoolExecutor(HANDSHAKE_THREADS, HANDSHAKE_THREADS, 2, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> daemon(r, "mpi4j-rendezvous-auth"));
        handshakes.allowCoreThreadTimeOut(true);
        daemon(this::acceptLoop, "mpi4j-rendezvous").start();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    public int port() {
        return server.getLocalPort();
    }

    /** The address the store listens on (the wildcard address when it listens on all). */
    public InetAddress boundAddress() {
        return server.getInetAddress();
    }

    /** Whether rank {@code id} has authenticated (it called MPI.Init). */
    public boolean connected(int id) {
        synchronized (values) {
            return joined.contains(id);
        }
    }

    /** Whether rank {@code id} said it called MPI.Finalize. */
    public boolean finalized(int id) {
        synchronized (values) {
            return done.contains(id);
        }
    }

    /** Waits up to {@code millis} until rank {@code id}'s connection has ended; true if it has. */
    public boolean awaitGone(int id, long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        synchronized (values) {
            while (present.contains(id)) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) return false;
                values.wait(left);
            }
            return true;
        }
    }

    /** Ends the start-up: every waiting and later request fails with {@code reason}. */
    public void abort(String reason) {
        synchronized (values) {
            if (abortReason == null) abortReason = reason;
            values.notifyAll();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (!closed) log.accept("rendezvous: accept failed: " + describe(e));
                continue;
            }
            try {
                handshakes.execute(() -> authenticate(s));
            } catch (RejectedExecutionException e) {
                refusals.refused(s.getRemoteSocketAddress(), HANDSHAKE_THREADS
                        + " other connections are authenticating (a rank retries)");
                closeQuietly(s);
            }
        }
    }

    private void authenticate(Socket s) {
        int id;
        DataInputStream in;
        DataOutputStream out;
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout(AUTH_TIMEOUT_MS);
            in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            id = Auth.accept(in, out, secret);
            s.setSoTimeout(0);
        } catch (SocketTimeoutException e) {
            refusals.refused(s.getRemoteSocketAddress(), "did not authenticate within " + AUTH_TIMEOUT_MS / 1000 + " s");
            closeQuietly(s);
            return;
        } catch (IOException e) {
            if (e instanceof Auth.Rejected) failedRank(((Auth.Rejected) e).claimedId, s);
            refusals.refused(s.getRemoteSocketAddress(), describe(e));
            closeQuietly(s);
            return;
        }
        synchronized (values) {
            joined.add(id);
            present.add(id);
        }
        daemon(() -> serve(s, in, out, id), "mpi4j-rendezvous-rank-" + id).start();
    }

    /** A connection claiming a rank that has not joined failed authentication: that rank cannot join. */
    private void failedRank(int id, Socket s) {
        if (id < 0) return;
        synchronized (values) {
            if (joined.contains(id)) return;
        }
        abort("rank " + id + " (connecting from " + s.getInetAddress().getHostAddress()
                + ") failed authentication: it has a different job secret (MPI4J_SECRET)");
    }

    private void serve(Socket s, DataInputStream in, DataOutputStream out, int id) {
        try (s) {
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
        } catch (IOException e) {
            // A rank's connection ends when the rank does; the launcher reports ranks that fail.
            if (!closed && !finalized(id)) log.accept("rendezvous: connection of rank " + id + " ended: " + describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (values) {
                present.remove(id);
                values.notifyAll();
            }
        }
    }

    private void handle(byte[] frame, DataOutputStream out, int id) throws IOException, InterruptedException {
        DataInputStream f = new DataInputStream(new java.io.ByteArrayInputStream(frame));
        byte op = f.readByte();
        String key = readKey(f);
        if (op == FINALIZED) {
            synchronized (values) {
                done.add(id);
            }
            return; // no reply: the rank's lifeline only listens for the end of the connection
        }
        if (op == LIFELINE) {
            reply(out, OK, new byte[0]);
            return;
        }
        String aborted = abortReason;
        if (aborted != null) {
            reply(out, ABORTED, aborted.getBytes(StandardCharsets.UTF_8));
        } else if (op == PUT) {
            byte[] value = f.readAllBytes();
            synchronized (values) {
                values.put(key, value);
                values.notifyAll();
            }
            reply(out, OK, new byte[0]);
        } else if (op == GET) {
            long timeoutMs = f.readLong();
            long deadline = System.currentTimeMillis() + timeoutMs;
            byte[] v;
            synchronized (values) {
                while ((v = values.get(key)) == null && abortReason == null) {
                    long left = deadline - System.currentTimeMillis();
                    if (left <= 0 || closed) break;
                    values.wait(Math.min(left, 1000));
                }
                aborted = abortReason;
            }
            if (v == null && aborted != null) {
                reply(out, ABORTED, aborted.getBytes(StandardCharsets.UTF_8));
            } else if (v == null) {
                reply(out, MISSING, new byte[0]);
            } else {
                reply(out, VALUE, v);
            }
        } else {
            throw new IOException("rank " + id + " sent unknown request " + op);
        }
    }

    private static void reply(DataOutputStream out, byte kind, byte[] body) throws IOException {
        out.writeInt(1 + body.length);
        out.writeByte(kind);
        out.write(body);
    }

    static String readKey(DataInputStream f) throws IOException {
        int n = f.readUnsignedShort();
        byte[] k = new byte[n];
        f.readFully(k);
        return new String(k, StandardCharsets.UTF_8);
    }

    /** An exception's message, or what it is when it has none (never "null"). */
    static String describe(Throwable e) {
        String m = e.getMessage();
        if (e instanceof EOFException) return m != null ? m : "the peer closed the connection mid-message";
        return m != null ? m : e.getClass().getSimpleName();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        handshakes.shutdownNow();
        refusals.flush();
        synchronized (values) {
            values.notifyAll();
        }
    }
}
