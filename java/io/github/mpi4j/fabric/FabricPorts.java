package io.github.mpi4j.fabric;

import io.github.mpi4j.fabric.bootstrap.Auth;
import io.github.mpi4j.fabric.bootstrap.JobInfo;
import io.github.mpi4j.fabric.bootstrap.RendezvousClient;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Mpi;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import mpi.MPIException;

/**
 * Ports and names of the fabric (the client/server half of dynamic processes).
 *
 * <p>A port is a TCP listener of the accepting process, named {@code host:port}. Only the
 * handshake crosses it: the connecting root proves it knows the job's secret and the acceptor
 * proves it back ({@link Auth}), then they swap their groups (world ranks) and context-id
 * proposals; the intercommunicator's traffic then goes over the job's fabric like any other.
 * So both sides must belong to the same job (a process of another job fails authentication:
 * starting and joining other jobs is the spawning issue's business).
 *
 * <p>The name service is the launcher's rendezvous store (keys {@code mpi4j.name.<service>});
 * ranks running as threads of one JVM share a map in the JVM. Without either, publishing and
 * looking up throw, saying so.
 */
final class FabricPorts {
    private static final Map<FabricBackend, FabricPorts> ALL = new WeakHashMap<>();
    /** The name service of worlds whose ranks are threads of this JVM. */
    private static final Map<String, String> IN_JVM_NAMES = new ConcurrentHashMap<>();
    /** The secret of ports opened by ranks running as threads (they have no job secret). */
    private static final byte[] IN_JVM_SECRET = new byte[32];

    static {
        new SecureRandom().nextBytes(IN_JVM_SECRET);
    }

    private final FabricBackend backend;
    private final Map<String, ServerSocket> open = new HashMap<>();
    private RendezvousClient names;

    private FabricPorts(FabricBackend backend) {
        this.backend = backend;
    }

    static FabricPorts of(FabricBackend backend) {
        synchronized (ALL) {
            return ALL.computeIfAbsent(backend, FabricPorts::new);
        }
    }

    private byte[] secret() {
        byte[] s = backend.job().secret;
        return s != null ? s : IN_JVM_SECRET;
    }

    private int timeoutMillis() {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1000, backend.job().timeoutSeconds * 1000));
    }

    // ---- ports -----------------------------------------------------------------------------------

    synchronized String open() {
        try {
            ServerSocket s = new ServerSocket();
            s.bind(new InetSocketAddress(0), 16);
            String host;
            try {
                host = InetAddress.getLocalHost().getHostAddress();
            } catch (IOException e) {
                host = InetAddress.getLoopbackAddress().getHostAddress();
            }
            String name = host + ":" + s.getLocalPort();
            open.put(name, s);
            return name;
        } catch (IOException e) {
            throw MPIException.of(Mpi.ERR_PORT, "openPort: cannot listen: " + e.getMessage());
        }
    }

    synchronized void close(String port) {
        ServerSocket s = open.remove(port);
        if (s == null) {
            throw MPIException.of(Mpi.ERR_PORT, "closePort: port '" + port + "' is not open in this process");
        }
        try {
            s.close();
        } catch (IOException ignored) {
            // closing a listener cannot fail in a way that matters here
        }
    }

    private synchronized ServerSocket listener(String call, String port) {
        ServerSocket s = open.get(port);
        if (s == null) {
            throw MPIException.of(Mpi.ERR_PORT, call + ": port '" + port
                    + "' was not opened by this process (openPort) or has been closed");
        }
        return s;
    }

    /** host and port of a port name, or an exception naming it. */
    static InetSocketAddress address(String call, String port) {
        int colon = port == null ? -1 : port.lastIndexOf(':');
        if (colon <= 0 || colon == port.length() - 1) {
            throw MPIException.of(Mpi.ERR_PORT, call + ": port name '" + port + "' is not of the form host:port");
        }
        int p;
        try {
            p = Integer.parseInt(port.substring(colon + 1));
        } catch (NumberFormatException e) {
            p = -1;
        }
        if (p < 1 || p > 65535) {
            throw MPIException.of(Mpi.ERR_PORT, call + ": port name '" + port + "' has no port number in [1, 65535]");
        }
        return new InetSocketAddress(port.substring(0, colon), p);
    }

    // ---- accept / connect -----------------------------------------------------------------------

    BackendComm accept(FabricComm comm, String port, int root) {
        return handshake("accept", comm, port, root, true);
    }

    BackendComm connect(FabricComm comm, String port, int root) {
        return handshake("connect", comm, port, root, false);
    }

    /**
     * Collective over {@code comm} (the API's bracket is open): the group agrees on a context-id
     * proposal, the root does the handshake, and hands the outcome ({ok, id, remote group...} or
     * a failure flag) to its group, so that a failure at the root fails every rank at once.
     */
    private BackendComm handshake(String call, FabricComm comm, String port, int root, boolean accepting) {
        int[] proposal = new int[1];
        comm.collectives().allReduce(new io.github.mpi4j.spi.Buf(new int[] {backend.nextContextId()},
                io.github.mpi4j.spi.BaseKind.INT, 0, 1), new io.github.mpi4j.spi.Buf(proposal,
                io.github.mpi4j.spi.BaseKind.INT, 0, 1), 1, io.github.mpi4j.spi.Predefined.T_INT, FabricBackend.MAX);
        int[] mine = comm.worldRanks();
        int[] outcome = null;
        RuntimeException failure = null;
        if (comm.rank() == root) {
            try {
                int[] r = accepting ? serve(call, port, proposal[0], mine) : dial(call, port, proposal[0], mine);
                outcome = FabricInterOps.prepend(0, r);
            } catch (RuntimeException e) {
                failure = e;
                outcome = new int[] {1};
            }
        }
        int[] got = FabricInterOps.bcastInts(comm, root, outcome);
        if (failure != null) throw failure;
        if (got[0] != 0) {
            throw MPIException.of(Mpi.ERR_PORT, call + ": failed at the root (rank " + root
                    + "); its exception says why");
        }
        int id = got[1];
        backend.contextIdUsed(id);
        return new FabricIntercomm(backend, mine, Arrays.copyOfRange(got, 2, got.length), id);
    }

    /** The accepting root: waits for one connection on the port; returns {id, remote group...}. */
    private int[] serve(String call, String port, int proposal, int[] mine) {
        ServerSocket server = listener(call, port);
        JobInfo job = backend.job();
        long deadline = System.nanoTime() + timeoutMillis() * 1_000_000L;
        while (true) {
            int left = (int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
            Socket s;
            try {
                server.setSoTimeout(left);
                s = server.accept();
            } catch (SocketTimeoutException e) {
                throw MPIException.of(Mpi.ERR_PORT, call + ": no process connected to port '" + port + "' within "
                        + left / 1000.0 + " s (the fabric's deadline; MPI4J_TIMEOUT changes it)");
            } catch (IOException e) {
                throw MPIException.of(Mpi.ERR_PORT, call + ": port '" + port + "' failed: " + e.getMessage());
            }
            try (Socket c = s) {
                c.setSoTimeout(timeoutMillis());
                DataInputStream in = new DataInputStream(new BufferedInputStream(c.getInputStream()));
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(c.getOutputStream()));
                try {
                    Auth.accept(in, out, secret());
                } catch (IOException e) {
                    continue; // a stranger (or another job): not our peer; wait for the next one
                }
                int size = in.readInt();
                int theirProposal = in.readInt();
                int[] remote = readInts(in, job.size);
                String refusal = null;
                if (size != job.size) {
                    refusal = "the connecting job has " + size + " ranks, this one " + job.size
                            + " (both sides must be ranks of one job)";
                } else {
                    for (int w : remote) {
                        if (w < 0 || w >= job.size || indexOf(mine, w) >= 0) {
                            refusal = "the connecting group contains world rank " + w
                                    + ", which is not a rank outside the accepting group";
                            break;
                        }
                    }
                }
                int id = Math.max(proposal, theirProposal);
                out.writeUTF(refusal == null ? "" : refusal);
                out.writeInt(id);
                writeInts(out, mine);
                out.flush();
                if (refusal != null) throw MPIException.of(Mpi.ERR_PORT, call + ": " + refusal);
                return FabricInterOps.prepend(id, remote);
            } catch (IOException e) {
                throw MPIException.of(Mpi.ERR_PORT, call + ": the connection on port '" + port + "' failed: " + e);
            }
        }
    }

    /** The connecting root: one handshake with the port's owner; returns {id, remote group...}. */
    private int[] dial(String call, String port, int proposal, int[] mine) {
        InetSocketAddress at = address(call, port);
        JobInfo job = backend.job();
        try (Socket s = new Socket()) {
            s.connect(at, timeoutMillis());
            s.setSoTimeout(timeoutMillis());
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            try {
                Auth.connect(in, out, secret(), job.rank);
            } catch (Auth.Rejected e) {
                throw MPIException.of(Mpi.ERR_PORT, call + ": port '" + port + "' does not belong to this job: "
                        + e.getMessage());
            }
            out.writeInt(job.size);
            out.writeInt(proposal);
            writeInts(out, mine);
            out.flush();
            String refusal = in.readUTF();
            int id = in.readInt();
            int[] remote = readInts(in, job.size);
            if (!refusal.isEmpty()) throw MPIException.of(Mpi.ERR_PORT, call + ": refused by the port's owner: " + refusal);
            return FabricInterOps.prepend(id, remote);
        } catch (IOException e) {
            throw MPIException.of(Mpi.ERR_PORT, call + ": cannot connect to port '" + port + "': " + e);
        }
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) if (a[i] == v) return i;
        return -1;
    }

    private static void writeInts(DataOutputStream out, int[] a) throws IOException {
        out.writeInt(a.length);
        for (int v : a) out.writeInt(v);
    }

    private static int[] readInts(DataInputStream in, int max) throws IOException {
        int n = in.readInt();
        if (n < 1 || n > max) throw new IOException("a group of " + n + " ranks in a job of " + max);
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = in.readInt();
        return a;
    }

    // ---- the name service ------------------------------------------------------------------------

    private static final String PREFIX = "mpi4j.name.";

    /** The launcher's store, or null when ranks are threads of this JVM; throws when there is none. */
    private synchronized RendezvousClient store(String call) {
        JobInfo job = backend.job();
        if ("threads".equals(job.jobId) && job.rendezvous == null) return null;
        if (job.rendezvous == null) {
            throw MPIException.of(Mpi.ERR_NAME, call + ": no name service is reachable: the fabric keeps names "
                    + "in the launcher's rendezvous store, and this process (" + job.source
                    + ") was not started with one (start the job with mpi4jrun)");
        }
        if (names == null) {
            long deadline = System.nanoTime() + 5_000_000_000L;
            try {
                names = new RendezvousClient(job.rendezvous, job.secret, -1, deadline);
            } catch (MPIException e) {
                throw MPIException.of(Mpi.ERR_NAME, call + ": the name service (rendezvous store at "
                        + job.rendezvous + ") is not reachable: " + e.getMessage());
            }
        }
        return names;
    }

    private String read(String call, String service) {
        RendezvousClient s = store(call);
        if (s == null) return IN_JVM_NAMES.get(service);
        try {
            byte[] v = s.get(PREFIX + service, 1_000_000);
            return v.length == 0 ? null : new String(v, StandardCharsets.UTF_8);
        } catch (MPIException e) {
            if (e.getMessage().contains("did not appear")) return null;
            throw e;
        }
    }

    void publish(String service, String port) {
        RendezvousClient s = store("publishName");
        String old = read("publishName", service);
        if (old != null) {
            throw MPIException.of(Mpi.ERR_SERVICE, "publishName: service '" + service + "' is already published (as '"
                    + old + "')");
        }
        if (s == null) {
            if (IN_JVM_NAMES.putIfAbsent(service, port) != null) {
                throw MPIException.of(Mpi.ERR_SERVICE, "publishName: service '" + service + "' is already published");
            }
        } else {
            s.put(PREFIX + service, port.getBytes(StandardCharsets.UTF_8));
        }
    }

    void unpublish(String service, String port) {
        RendezvousClient s = store("unpublishName");
        String old = read("unpublishName", service);
        if (old == null || !old.equals(port)) {
            throw MPIException.of(Mpi.ERR_SERVICE, "unpublishName: service '" + service + "' is not published"
                    + (old == null ? "" : " with port '" + port + "' (it has '" + old + "')"));
        }
        // The store has no delete: an empty value means "not published".
        if (s == null) IN_JVM_NAMES.remove(service, port);
        else s.put(PREFIX + service, new byte[0]);
    }

    String lookup(String service) {
        String port = read("lookupName", service);
        if (port == null) {
            throw MPIException.of(Mpi.ERR_NAME, "lookupName: no port is published under service '" + service + "'");
        }
        return port;
    }
}
