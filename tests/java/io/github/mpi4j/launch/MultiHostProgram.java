package io.github.mpi4j.launch;

import io.github.mpi4j.testing.Check;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import mpi.MPI;

/**
 * The rank program of {@link MultiHostTest}. Its argument is the job's host list as given to
 * the launcher ("10.250.9.2:2,10.250.9.3:2"); from it and the rank alone it works out where every
 * rank should be, and checks that it is so:
 * <ul>
 *   <li>this rank runs on its host: the host's address is on one of its network interfaces, its
 *       processor name is the host, and ranks share a network namespace exactly when they share a
 *       host;</li>
 *   <li>transports follow the hosts: this rank maps the shared-memory inboxes of exactly the other
 *       ranks of its host, and holds one TCP connection to each rank of another host (coming from
 *       or going to that host's address), none to ranks of its own host;</li>
 *   <li>results: a ring exchange, allreduce of 1 and 1&lt;&lt;20 doubles, bcast from every root,
 *       allgather, all against values computed from rank and size.</li>
 * </ul>
 * Options after the host list: "tcp" (the job runs with --tcp: no shared memory, TCP between all
 * ranks), "localhost=ADDR" (ranks on "localhost" run in the launcher's namespace, where ADDR is
 * its address on the hosts' network).
 * Prints "MULTIHOST OK rank size host job JOB rendezvous ADDR:PORT" when every check passed.
 */
public final class MultiHostProgram {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        String[] hostOf = hostsOfRanks(args[0], size);
        boolean forcedTcp = false;
        String localhostAddress = null; // the launcher's address on the hosts' network
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("tcp")) forcedTcp = true;
            if (args[i].startsWith("localhost=")) localhostAddress = args[i].substring(10);
        }
        String me = hostOf[rank];
        String[] addressOf = new String[size];
        for (int p = 0; p < size; p++) addressOf[p] = hostOf[p].equals("localhost") ? localhostAddress : hostOf[p];

        // Where this rank runs.
        Check.isTrue(localAddresses().contains(addressOf[rank]), "rank " + rank + " should run on host " + me
                + " but its interfaces have " + localAddresses());
        if (!me.equals("localhost")) Check.equal(me, MPI.getProcessorName(), "processor name of rank " + rank);
        long[] netns = {netnsInode()};
        long[] allNetns = new long[size];
        MPI.COMM_WORLD.allGather(netns, 1, MPI.LONG, allNetns, 1, MPI.LONG);
        for (int p = 0; p < size; p++) {
            Check.isTrue((allNetns[p] == netns[0]) == hostOf[p].equals(me), "rank " + rank + " on " + me
                    + " and rank " + p + " on " + hostOf[p] + ": network namespaces " + netns[0] + " and "
                    + allNetns[p]);
        }

        // Which transports: shared-memory inboxes mapped, TCP connections held.
        Set<Integer> sameHost = new HashSet<>(), otherHosts = new HashSet<>();
        for (int p = 0; p < size; p++) {
            if (p != rank) (hostOf[p].equals(me) && !forcedTcp ? sameHost : otherHosts).add(p);
        }
        Set<Integer> mapped = mappedInboxes(System.getenv("MPI4J_JOB_ID"));
        mapped.remove(rank);
        Check.equal(sameHost, mapped, "rank " + rank + " on " + me + " maps the shared-memory inboxes of ranks");
        List<String> peerAddrs = tcpPeers(System.getenv("MPI4J_RENDEZVOUS"));
        List<String> expectedAddrs = new ArrayList<>();
        for (int p : otherHosts) expectedAddrs.add(addressOf[p]);
        Collections.sort(peerAddrs);
        Collections.sort(expectedAddrs);
        Check.equal(expectedAddrs, peerAddrs, "rank " + rank + " on " + me + ": TCP connections to ranks (by address)");

        // Point to point: a ring, both directions.
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        int[] out = {rank * 1000 + size}, in = new int[1];
        MPI.COMM_WORLD.sendRecv(out, 1, MPI.INT, right, 7, in, 1, MPI.INT, left, 7);
        Check.equal(left * 1000 + size, in[0], "ring from the left at rank " + rank);
        MPI.COMM_WORLD.sendRecv(out, 1, MPI.INT, left, 8, in, 1, MPI.INT, right, 8);
        Check.equal(right * 1000 + size, in[0], "ring from the right at rank " + rank);
        // A larger message (rendezvous protocol) to the right.
        double[] big = new double[300_000], bigIn = new double[big.length];
        for (int i = 0; i < big.length; i++) big[i] = rank + i * 0.5;
        MPI.COMM_WORLD.sendRecv(big, big.length, MPI.DOUBLE, right, 9, bigIn, bigIn.length, MPI.DOUBLE, left, 9);
        for (int i = 0; i < bigIn.length; i++) Check.near(left + i * 0.5, bigIn[i], 0, "large ring message [" + i + "]");

        // Allreduce, small and large (different algorithms).
        for (int n : new int[] {1, 1 << 20}) {
            double[] a = new double[n], b = new double[n];
            for (int i = 0; i < n; i++) a[i] = (rank + 1) * (i % 17 + 1);
            MPI.COMM_WORLD.allReduce(a, b, n, MPI.DOUBLE, MPI.SUM);
            double ranks = size * (size + 1) / 2.0;
            for (int i = 0; i < n; i++) {
                if (b[i] != ranks * (i % 17 + 1)) Check.near(ranks * (i % 17 + 1), b[i], 0, "allreduce(" + n + ")[" + i + "]");
            }
            long[] m = {rank * 3L + 1};
            MPI.COMM_WORLD.allReduce(m, 1, MPI.LONG, MPI.MAX);
            Check.equal((size - 1) * 3L + 1, m[0], "allreduce MAX");
        }

        // Bcast from every root, small and large.
        for (int root = 0; root < size; root++) {
            for (int n : new int[] {3, 200_000}) {
                int[] v = new int[n];
                if (rank == root) for (int i = 0; i < n; i++) v[i] = root * 7919 + i;
                MPI.COMM_WORLD.bcast(v, n, MPI.INT, root);
                for (int i = 0; i < n; i++) Check.equal(root * 7919 + i, v[i], "bcast from " + root + " [" + i + "]");
            }
        }

        // Allgather, small and large blocks.
        for (int n : new int[] {2, 50_000}) {
            int[] mine = new int[n], all = new int[n * size];
            for (int i = 0; i < n; i++) mine[i] = rank * 100_003 + i;
            MPI.COMM_WORLD.allGather(mine, n, MPI.INT, all, n, MPI.INT);
            for (int p = 0; p < size; p++) {
                for (int i = 0; i < n; i++) Check.equal(p * 100_003 + i, all[p * n + i], "allgather(" + n + ") from " + p);
            }
        }

        MPI.COMM_WORLD.barrier();
        System.out.println("MULTIHOST OK " + rank + " " + size + " " + me + " job " + System.getenv("MPI4J_JOB_ID")
                + " rendezvous " + System.getenv("MPI4J_RENDEZVOUS"));
        MPI.Finalize();
    }

    /** Hosts filled in order, as the launcher does. */
    static String[] hostsOfRanks(String list, int size) {
        String[] out = new String[size];
        int r = 0;
        for (String item : list.split(",")) {
            int colon = item.lastIndexOf(':');
            for (int s = 0; s < Integer.parseInt(item.substring(colon + 1)) && r < size; s++) {
                out[r++] = item.substring(0, colon);
            }
        }
        Check.equal(size, r, "slots in " + list);
        return out;
    }

    private static Set<String> localAddresses() throws IOException {
        Set<String> out = new HashSet<>();
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(nif.getInetAddresses())) out.add(a.getHostAddress());
        }
        return out;
    }

    /** The inode of this process's network namespace ("net:[4026531840]"). */
    private static long netnsInode() throws IOException {
        String link = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
        return Long.parseLong(link.replaceAll("\\D", ""));
    }

    /** Ranks whose shared-memory inbox (/dev/shm/mpi4j-JOB-RANK, unlinked by now) this process maps. */
    private static Set<Integer> mappedInboxes(String jobId) throws IOException {
        Set<Integer> out = new HashSet<>();
        String prefix = "/mpi4j-" + jobId + "-";
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            int at = line.indexOf(prefix);
            if (at < 0) continue;
            String rest = line.substring(at + prefix.length()).replace(" (deleted)", "").trim();
            out.add(Integer.parseInt(rest));
        }
        return out;
    }

    /**
     * The remote addresses of this process's established TCP connections, except those to the
     * rendezvous store: /proc/self/fd gives the socket inodes, /proc/net/tcp{,6} (of this
     * process's network namespace) their endpoints.
     */
    private static List<String> tcpPeers(String rendezvous) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String t = Files.readSymbolicLink(fd).toString();
                    if (t.startsWith("socket:[")) inodes.add(t.substring(8, t.length() - 1));
                } catch (IOException gone) {
                    // closed meanwhile
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            Path p = Path.of(table);
            if (!Files.exists(p)) continue;
            List<String> lines = Files.readAllLines(p);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                // sl local rem st tx:rx tr:when retrnsmt uid timeout inode
                if (!f[3].equals("01") || !inodes.contains(f[9])) continue;
                String[] remote = f[2].split(":");
                String address = ipv4(remote[0]);
                if (rendezvous.equals(address + ":" + Integer.parseInt(remote[1], 16))) continue;
                out.add(address);
            }
        }
        return out;
    }

    /** An IPv4 address from /proc/net/tcp (8 hex digits) or a v4-mapped one from tcp6 (32). */
    private static String ipv4(String hex) {
        String word = hex.substring(hex.length() - 8);
        long v = Long.parseLong(word, 16); // little-endian bytes
        return (v & 0xff) + "." + ((v >> 8) & 0xff) + "." + ((v >> 16) & 0xff) + "." + ((v >> 24) & 0xff);
    }
}
