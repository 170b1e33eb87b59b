package io.github.mpi4j.fabric.bootstrap;

import io.github.mpi4j.spi.Mpi;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import mpi.MPIException;

/** A rank's authenticated connection to the rendezvous store. */
public final class RendezvousClient implements KeyValueStore {
    private Socket socket;
    private DataInputStream in;
    private DataOutputStream out;
    private volatile boolean lifeline;
    /** Once the store is known to be up, how long "connection refused" is retried (it means it is gone). */
    private static final long REFUSED_GRACE_NANOS = 5_000_000_000L;

    /**
     * Connects to {@code hostPort} as {@code id}, retrying until {@code deadlineNanos} (the store
     * may start a moment after the ranks, e.g. when rank 0 hosts it).
     */
    public RendezvousClient(String hostPort, byte[] secret, int id, long deadlineNanos) {
        this(hostPort, secret, id, deadlineNanos, false);
    }

    /**
     * Like {@link #RendezvousClient(String, byte[], int, long)}; {@code storeIsUp}: the store
     * listened before this process started (mpi4jrun), so a refused connection means its host
     * (the launcher) is gone, and is given up after a few seconds instead of at the deadline.
     */
    public RendezvousClient(String hostPort, byte[] secret, int id, long deadlineNanos, boolean storeIsUp) {
        long refusedSince = 0;
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon);
        int port = Integer.parseInt(hostPort.substring(colon + 1));
        IOException last = null;
        long pause = 2;
        Auth.warmUp();
        while (true) {
            Socket s = new Socket();
            try {
                s.setTcpNoDelay(true);
                s.connect(new InetSocketAddress(host, port), 2000);
                s.setSoTimeout(15_000);
                DataInputStream i = new DataInputStream(new BufferedInputStream(s.getInputStream()));
                DataOutputStream o = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
                Auth.connect(i, o, secret, id);
                s.setSoTimeout(0);
                this.socket = s;
                this.in = i;
                this.out = o;
                return;
            } catch (Auth.Rejected e) {
                closeQuietly(s);
                throw MPIException.of(Mpi.ERR_OTHER, "rendezvous at " + hostPort + ": " + e.getMessage());
            } catch (IOException e) {
                closeQuietly(s);
                last = e;
                if (!(e instanceof java.net.ConnectException)) {
                    refusedSince = 0;
                } else if (refusedSince == 0) {
                    refusedSince = System.nanoTime();
                } else if (storeIsUp && System.nanoTime() - refusedSince > REFUSED_GRACE_NANOS) {
                    throw MPIException.of(Mpi.ERR_OTHER, "the rendezvous store at " + hostPort
                            + " refuses connections: mpi4jrun, which hosts it, is gone (" + e.getMessage() + ")");
                }
            }
            if (System.nanoTime() - deadlineNanos > 0) {
                throw MPIException.of(Mpi.ERR_OTHER, "cannot reach the rendezvous store at " + hostPort + ": " + last);
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw MPIException.of(Mpi.ERR_OTHER, "interrupted while connecting to the rendezvous store");
            }
            pause = Math.min(100, pause * 2);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // best effort
        }
    }

    private synchronized byte[] request(byte op, String key, byte[] extra) {
        try {
            ByteArrayOutputStream frame = new ByteArrayOutputStream();
            DataOutputStream f = new DataOutputStream(frame);
            f.writeByte(op);
            byte[] k = key.getBytes(StandardCharsets.UTF_8);
            f.writeShort(k.length);
            f.write(k);
            f.write(extra);
            if (frame.size() > RendezvousServer.MAX_FRAME) {
                throw MPIException.of(Mpi.ERR_OTHER, "rendezvous: value of '" + key + "' is too large");
            }
            out.writeInt(frame.size());
            frame.writeTo(out);
            out.flush();
            int len = in.readInt();
            if (len < 1 || len > RendezvousServer.MAX_FRAME) throw new IOException("bad reply length " + len);
            byte[] reply = new byte[len];
            in.readFully(reply);
            return reply;
        } catch (IOException e) {
            throw MPIException.of(Mpi.ERR_OTHER, "rendezvous store connection failed: " + e);
        }
    }

    private static void checkAborted(byte[] reply) {
        if (reply[0] == RendezvousServer.ABORTED) {
            throw MPIException.of(Mpi.ERR_OTHER, "the job's start-up was aborted: "
                    + new String(reply, 1, reply.length - 1, StandardCharsets.UTF_8));
        }
    }

    @Override
    public void put(String key, byte[] value) {
        byte[] r = request(RendezvousServer.PUT, key, value);
        checkAborted(r);
        if (r[0] != RendezvousServer.OK) throw MPIException.of(Mpi.ERR_OTHER, "rendezvous: put of '" + key + "' failed");
    }

    @Override
    public byte[] get(String key, long timeoutNanos) {
        ByteArrayOutputStream t = new ByteArrayOutputStream();
        try {
            new DataOutputStream(t).writeLong(Math.max(1, timeoutNanos / 1_000_000));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        byte[] r = request(RendezvousServer.GET, key, t.toByteArray());
        checkAborted(r);
        if (r[0] != RendezvousServer.VALUE) {
            throw MPIException.of(Mpi.ERR_OTHER, "rendezvous: '" + key + "' did not appear within "
                    + timeoutNanos / 1e9 + " s (did every rank start?)");
        }
        return java.util.Arrays.copyOfRange(r, 1, r.length);
    }

    /**
     * Keeps this connection open for the rest of the process as a lifeline to the launcher that
     * hosts the store: when it ends (the launcher was killed, or its host is unreachable and the
     * connection reset), {@code onLost} runs with a description. After this, {@link #close} tells
     * the launcher that MPI.Finalize was called and leaves the connection open.
     */
    public void holdAsLifeline(Consumer<String> onLost) {
        byte[] r = request(RendezvousServer.LIFELINE, "", new byte[0]);
        if (r[0] != RendezvousServer.OK) throw MPIException.of(Mpi.ERR_OTHER, "rendezvous: lifeline refused");
        lifeline = true;
        try {
            socket.setKeepAlive(true);
        } catch (IOException ignored) {
            // the end of the connection is still seen when the launcher's host closes it
        }
        Thread t = new Thread(() -> {
            String why;
            try {
                why = in.read() < 0 ? "the connection was closed" : "unexpected data on the connection";
            } catch (IOException e) {
                why = String.valueOf(e.getMessage());
            }
            onLost.accept(why);
        }, "mpi4j-launcher-lifeline");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() {
        if (lifeline) {
            // Tell the launcher this rank finalized; the connection stays as the lifeline.
            synchronized (this) {
                try {
                    out.writeInt(3);
                    out.writeByte(RendezvousServer.FINALIZED);
                    out.writeShort(0);
                    out.flush();
                } catch (IOException ignored) {
                    // the launcher is gone; the lifeline thread reports it
                }
            }
            return;
        }
        closeQuietly(socket);
    }
}
