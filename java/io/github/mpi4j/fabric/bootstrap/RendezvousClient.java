package io.github.mpi4j.fabric.bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import mpi.MPI;
import mpi.MPIException;

/** A rank's authenticated connection to the rendezvous store. */
public final class RendezvousClient implements KeyValueStore {
    private Socket socket;
    private DataInputStream in;
    private DataOutputStream out;

    /**
     * Connects to {@code hostPort} as {@code id}, retrying until {@code deadlineNanos} (the store
     * may start a moment after the ranks, e.g. when rank 0 hosts it).
     */
    public RendezvousClient(String hostPort, byte[] secret, int id, long deadlineNanos) {
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon);
        int port = Integer.parseInt(hostPort.substring(colon + 1));
        IOException last = null;
        long pause = 2;
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
                throw MPIException.of(MPI.ERR_OTHER, "rendezvous at " + hostPort + ": " + e.getMessage());
            } catch (IOException e) {
                closeQuietly(s);
                last = e;
            }
            if (System.nanoTime() - deadlineNanos > 0) {
                throw MPIException.of(MPI.ERR_OTHER, "cannot reach the rendezvous store at " + hostPort + ": " + last);
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw MPIException.of(MPI.ERR_OTHER, "interrupted while connecting to the rendezvous store");
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
                throw MPIException.of(MPI.ERR_OTHER, "rendezvous: value of '" + key + "' is too large");
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
            throw MPIException.of(MPI.ERR_OTHER, "rendezvous store connection failed: " + e);
        }
    }

    @Override
    public void put(String key, byte[] value) {
        byte[] r = request(RendezvousServer.PUT, key, value);
        if (r[0] != RendezvousServer.OK) throw MPIException.of(MPI.ERR_OTHER, "rendezvous: put of '" + key + "' failed");
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
        if (r[0] != RendezvousServer.VALUE) {
            throw MPIException.of(MPI.ERR_OTHER, "rendezvous: '" + key + "' did not appear within "
                    + timeoutNanos / 1e9 + " s (did every rank start?)");
        }
        return java.util.Arrays.copyOfRange(r, 1, r.length);
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }
}
