package io.github.mpi4j.fabric;

import io.github.mpi4j.fabric.bootstrap.Auth;
import io.github.mpi4j.fabric.bootstrap.JobInfo;
import io.github.mpi4j.fabric.bootstrap.KeyValueStore;
import io.github.mpi4j.fabric.bootstrap.RendezvousClient;
import io.github.mpi4j.fabric.bootstrap.RendezvousServer;
import io.github.mpi4j.fabric.transport.LocalHub;
import io.github.mpi4j.fabric.transport.ShmArena;
import io.github.mpi4j.fabric.transport.ShmTransport;
import io.github.mpi4j.fabric.transport.TcpTransport;
import io.github.mpi4j.fabric.transport.Transport;
import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.Mpi;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mpi.MPIException;

/**
 * Brings up a multi-process fabric job for this rank:
 * <ol>
 *   <li>connect to the rendezvous store (rank 0 hosts it when no launcher does);</li>
 *   <li>publish this rank's node, TCP address and pid, and read everyone's;</li>
 *   <li>ranks on the same node create their shared-memory inboxes (each with the rank's
 *       collective arena at its end), map each other's, then unlink the files (nothing is left
 *       in /dev/shm even if a rank crashes later);</li>
 *   <li>ranks on different nodes (or all, with {@code MPI4J_TRANSPORT=tcp}) connect by TCP, the
 *       higher rank dialing the lower, each connection authenticated with the job secret.</li>
 * </ol>
 */
final class FabricConnector {
    private FabricConnector() {
    }

    /** Largest collective arena, KiB: an inbox file is mapped as one buffer (under 2 GiB). */
    private static final long MAX_ARENA_KB = 256 * 1024;

    static Backend connect(JobInfo job, int required, String reason) {
        try {
            return new Connection(job).finish(required, reason);
        } catch (IOException e) {
            throw MPIException.of(Mpi.ERR_OTHER, "MPI.Init (fabric, rank " + job.rank + "): " + e);
        }
    }

    /**
     * Rank 0 hosting the store for torchrun-style starts listens where the other ranks were told
     * to connect: only on loopback when that is a loopback address, else on every interface.
     */
    static String storeBindAddress(String host) {
        try {
            if (InetAddress.getByName(host).isLoopbackAddress()) return "127.0.0.1";
        } catch (IOException e) {
            // unresolvable here: listen everywhere, the connect will say what is wrong
        }
        return "0.0.0.0";
    }

    /**
     * The connection to mpi4jrun ended: the launcher was killed (or the connection was reset),
     * so nobody watches this rank, relays its output or can end the job. End the rank now rather
     * than run on orphaned.
     */
    private static void launcherLost(JobInfo job, String why) {
        String parent = System.getenv("MPI4J_PARENT");
        if (parent != null && !parent.isBlank()) {
            // A spawned process: its store is hosted by the root that spawned it (FabricSpawn).
            System.err.println("mpi4j: spawned rank " + job.rank + ": lost the connection to the process that spawned it ("
                    + why + "); the parent is gone, ending this rank");
            System.err.flush();
            Runtime.getRuntime().halt(1);
        }
        System.err.println("mpi4j: rank " + job.rank + ": lost the connection to mpi4jrun (" + why
                + "); the launcher is gone, ending this rank");
        System.err.flush();
        Runtime.getRuntime().halt(1);
    }

    private static String setting(String name, String dflt) {
        String v = System.getProperty(name.toLowerCase().replace('_', '.'));
        if (v == null) v = System.getenv(name);
        return v == null || v.isBlank() ? dflt : v.trim();
    }

    /** The steps of one rank's connection, with what they share. */
    private static final class Connection {
        final JobInfo job;
        final long deadline;
        final KeyValueStore store;
        final RendezvousServer hosted;
        final String node;
        final boolean forceTcp;
        final int ringBytes;
        /** Collective arena wanted per rank ({@code MPI4J_SHM_COLL_KB}; 0: none). */
        final long arenaBytes;
        /** World rank -> its collective arena, when every rank of this node has one; else null. */
        ByteBuffer[] arenas;

        Connection(JobInfo job) throws IOException {
            this.job = job;
            if (job.secret == null) throw new IOException("no job secret (set MPI4J_SECRET or use mpi4jrun)");
            // Starting JVMs on a loaded node can take seconds, so a short MPI4J_TIMEOUT (chosen to
            // catch a stuck operation fast) must not fail Init: the start-up wait is 60-120 s. A rank
            // that dies while starting is reported sooner by its launcher, which ends the job.
            this.deadline = System.nanoTime() + (long) (startupSeconds(job.timeoutSeconds) * 1e9);
            this.node = setting("MPI4J_NODE", hostName());
            this.forceTcp = "tcp".equalsIgnoreCase(setting("MPI4J_TRANSPORT", "auto"));
            int ringKb = Integer.parseInt(setting("MPI4J_SHM_RING_KB", "1024"));
            this.ringBytes = Integer.highestOneBit(Math.max(64, ringKb)) * 1024;
            long arenaKb = Long.parseLong(setting("MPI4J_SHM_COLL_KB", "1024"));
            this.arenaBytes = Math.min(Math.max(0, arenaKb), MAX_ARENA_KB) * 1024;
            // The store of a spawn's link job is hosted by the spawning root (FabricSpawn).
            boolean rankZeroHosts = job.rank == 0 && !"mpi4jrun".equals(job.source) && !job.source.startsWith("spawn");
            if (rankZeroHosts) {
                int port = Integer.parseInt(job.rendezvous.substring(job.rendezvous.lastIndexOf(':') + 1));
                String host = job.rendezvous.substring(0, job.rendezvous.lastIndexOf(':'));
                try {
                    hosted = new RendezvousServer(storeBindAddress(host), port, job.secret,
                            msg -> System.err.println("mpi4j: " + msg));
                } catch (java.net.BindException e) {
                    throw new IOException("cannot host the rendezvous store on port " + port + " (" + e.getMessage()
                            + "); started by " + job.source + ". Set MASTER_PORT to a free port, the same in every rank", e);
                }
            } else {
                hosted = null;
            }
            this.store = new RendezvousClient(job.rendezvous, job.secret, job.rank, deadline, "mpi4jrun".equals(job.source));
        }

        private boolean launchedByMpi4jrun() {
            return "mpi4jrun".equals(job.source) && store instanceof RendezvousClient;
        }

        private long left() {
            return Math.max(1, deadline - System.nanoTime());
        }

        private String get(String key) {
            return new String(store.get(key, left()), StandardCharsets.UTF_8);
        }

        private void put(String key, String value) {
            store.put(key, value.getBytes(StandardCharsets.UTF_8));
        }

        Backend finish(int required, String reason) throws IOException {
            int n = job.size, me = job.rank;
            ServerSocketChannel listener = ServerSocketChannel.open();
            listener.bind(new InetSocketAddress(setting("MPI4J_BIND", "0.0.0.0"), 0), n);
            String host = setting("MPI4J_ADDR", hostAddress());
            long pid = ProcessHandle.current().pid();
            put("addr/" + me, node + "|" + host + "|" + ((InetSocketAddress) listener.getLocalAddress()).getPort()
                    + "|" + pid);

            String[] nodes = new String[n];
            String[] hosts = new String[n];
            int[] ports = new int[n];
            long[] pids = new long[n];
            for (int r = 0; r < n; r++) {
                String[] f = get("addr/" + r).split("\\|");
                nodes[r] = f[0];
                hosts[r] = f[1];
                ports[r] = Integer.parseInt(f[2]);
                pids[r] = Long.parseLong(f[3]);
            }
            Map<String, Integer> nodeIds = new HashMap<>();
            int[] nodeOf = new int[n];
            for (int r = 0; r < n; r++) nodeOf[r] = nodeIds.computeIfAbsent(nodes[r], k -> nodeIds.size());

            List<Integer> local = new ArrayList<>();
            for (int r = 0; r < n; r++) if (nodeOf[r] == nodeOf[me]) local.add(r);
            boolean useShm = !forceTcp && local.size() > 1;

            Transport[] transports = new Transport[n];
            transports[me] = new LocalHub(n).endpoint(me);
            if (useShm) {
                ShmTransport shm = sharedMemory(local, pids, required);
                for (int r : local) if (r != me) transports[r] = shm;
            }
            List<TcpTransport.Connection> conns = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                if (r == me || transports[r] != null) continue;
                conns.add(r < me ? dial(r, hosts[r], ports[r]) : null);
            }
            // Accept the higher ranks that dial us.
            int expected = 0;
            for (int r = me + 1; r < n; r++) if (transports[r] == null) expected++;
            conns.removeIf(c -> c == null);
            conns.addAll(acceptFrom(listener, expected));
            listener.close();
            if (!conns.isEmpty()) {
                TcpTransport tcp = new TcpTransport(n, conns.toArray(new TcpTransport.Connection[0]));
                for (TcpTransport.Connection c : conns) transports[peerOf(c)] = tcp;
            }
            KeyValueStore s = store;
            RendezvousServer h = hosted;
            if (launchedByMpi4jrun()) {
                ((RendezvousClient) store).holdAsLifeline(why -> launcherLost(job, why));
            }
            return new FabricBackend(job, transports, nodeOf, arenas, required, reason, () -> {
                s.close();
                if (h != null) h.close();
            });
        }

        /**
         * Creates our inbox (with our collective arena), maps the local peers' inboxes, then
         * unlinks our file once all mapped it. Each rank publishes the arena it could make; the
         * arenas are used only if every local rank made one, all cut to the smallest.
         */
        private ShmTransport sharedMemory(List<Integer> local, long[] pids, int required) throws IOException {
            int me = job.rank;
            int[] worldOfLocal = local.stream().mapToInt(Integer::intValue).toArray();
            int l = worldOfLocal.length;
            long ringsBytes = ShmTransport.inboxBytes(l, ringBytes);
            Path mine = segment(me);
            ShmTransport.unlink(mine);
            // Under THREAD_MULTIPLE a rank may run several collectives at once: no arena (and so
            // none for the node: all local ranks must agree on using them).
            long wanted = required == Mpi.THREAD_MULTIPLE ? 0 : arenaWanted(mine, ringsBytes, l);
            MappedByteBuffer inbox = ShmTransport.createInbox(mine, l, ringBytes, wanted);
            put("shm/" + me, (inbox.capacity() - ringsBytes) + "|" + mine);
            MappedByteBuffer[] outboxes = new MappedByteBuffer[l];
            long smallest = Long.MAX_VALUE;
            for (int i = 0; i < l; i++) {
                int r = worldOfLocal[i];
                String[] f = get("shm/" + r).split("\\|", 2);
                long arena = Long.parseLong(f[0]);
                smallest = Math.min(smallest, arena);
                outboxes[i] = r == me ? inbox : ShmTransport.mapInbox(Path.of(f[1]), l, ringBytes, arena);
            }
            put("mapped/" + me, "1");
            for (int r : worldOfLocal) get("mapped/" + r);
            ShmTransport.unlink(mine);
            if (smallest > 0) {
                arenas = new ByteBuffer[job.size];
                for (int i = 0; i < l; i++) {
                    arenas[worldOfLocal[i]] = ShmArena.slot(outboxes[i], ringsBytes, (int) smallest);
                }
            }
            return new ShmTransport(me, job.size, worldOfLocal, pids, ringBytes, inbox, outboxes);
        }

        /**
         * The arena to ask for: none when the shared-memory file system could not also hold
         * every local rank's rings once they are filled (tmpfs allocates ring pages as they are
         * first touched, and a page it cannot allocate then would crash the JVM).
         */
        private long arenaWanted(Path file, long ringsBytes, int localRanks) {
            if (arenaBytes == 0) return 0;
            try {
                long free = Files.getFileStore(file.getParent()).getUsableSpace();
                return free >= localRanks * (ringsBytes + arenaBytes) ? arenaBytes : 0;
            } catch (IOException e) {
                return 0;
            }
        }

        private Path segment(int rank) {
            return io.github.mpi4j.fabric.transport.ShmDir.get().resolve("mpi4j-" + job.jobId + "-" + rank);
        }

        private TcpTransport.Connection dial(int peer, String host, int port) throws IOException {
            IOException last = null;
            Auth.warmUp();
            while (System.nanoTime() - deadline < 0) {
                SocketChannel ch = SocketChannel.open();
                try {
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    tune(ch);
                    ch.connect(new InetSocketAddress(host, port));
                    ch.socket().setSoTimeout(10_000);
                    Auth.connect(new DataInputStream(ch.socket().getInputStream()),
                            new DataOutputStream(ch.socket().getOutputStream()), job.secret, job.rank);
                    return new TcpTransport.Connection(peer, ch);
                } catch (Auth.Rejected e) {
                    ch.close();
                    throw e;
                } catch (IOException e) {
                    ch.close();
                    last = e;
                    sleep(5);
                }
            }
            throw new IOException("cannot connect to rank " + peer + " at " + host + ":" + port + ": " + last);
        }

        private List<TcpTransport.Connection> acceptFrom(ServerSocketChannel listener, int expected) throws IOException {
            List<TcpTransport.Connection> out = new ArrayList<>();
            listener.configureBlocking(false);
            while (out.size() < expected) {
                SocketChannel ch = listener.accept();
                if (ch == null) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new IOException("only " + out.size() + " of " + expected + " higher ranks connected");
                    }
                    sleep(1);
                    continue;
                }
                ch.configureBlocking(true);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                tune(ch);
                try {
                    ch.socket().setSoTimeout(10_000);
                    int peer = Auth.accept(new DataInputStream(ch.socket().getInputStream()),
                            new DataOutputStream(ch.socket().getOutputStream()), job.secret);
                    if (peer <= job.rank || peer >= job.size) throw new Auth.Rejected("unexpected rank " + peer);
                    out.add(new TcpTransport.Connection(peer, ch));
                } catch (Auth.Rejected e) {
                    System.err.println("mpi4j: rank " + job.rank + " refused a connection from "
                            + ch.getRemoteAddress() + ": " + e.getMessage());
                    ch.close();
                }
            }
            return out;
        }

        private static void tune(SocketChannel ch) throws IOException {
            ch.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
            ch.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
        }

        private static void sleep(long ms) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static int peerOf(TcpTransport.Connection c) {
        return c.peer();
    }

    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    static String hostAddress() {
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (IOException e) {
            return "127.0.0.1";
        }
    }

    /** How long Init waits for every rank to publish its address: MPI4J_TIMEOUT clamped to 60-120 s. */
    static double startupSeconds(double timeoutSeconds) {
        return Math.max(60, Math.min(timeoutSeconds, 120));
    }
}
