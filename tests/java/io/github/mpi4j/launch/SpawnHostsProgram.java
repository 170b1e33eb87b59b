package io.github.mpi4j.launch;

import io.github.mpi4j.testing.Check;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Path;
import mpi.Info;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;

/**
 * The program of {@link MultiHostTest#spawnOnOtherHosts}: one parent spawns a child on each of
 * the hosts named by its arguments ({@code spawnMultiple}, info {@code host}), through the job's
 * remote agent. Each child checks that it runs on the host it was asked for (that address is on
 * one of its network interfaces), then parent and children exchange values computed from ranks
 * over the intercommunicator and over its merge. The parent prints "SPAWN HOSTS OK" when all
 * passed; a child prints "SPAWNED CHILD rank on host".
 */
public final class SpawnHostsProgram {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intercomm parent = Intercomm.getParent();
        if (parent.isNull()) parentSide(args); else childSide(parent, args);
        MPI.Finalize();
    }

    private static void parentSide(String[] hosts) throws Exception {
        int n = hosts.length;
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String[] commands = new String[n];
        String[][] argv = new String[n][];
        int[] counts = new int[n];
        Info[] infos = new Info[n];
        for (int i = 0; i < n; i++) {
            commands[i] = javaBin;
            argv[i] = new String[] {"-cp", System.getProperty("java.class.path"), SpawnHostsProgram.class.getName(),
                    hosts[i]};
            counts[i] = 1;
            infos[i] = new Info();
            infos[i].set("host", hosts[i]);
        }
        int[] codes = new int[n];
        Intercomm ic = MPI.COMM_WORLD.spawnMultiple(commands, argv, counts, infos, 0, codes);
        Check.equal(n, ic.getRemoteSize(), "children");
        for (int c = 0; c < n; c++) {
            Check.equal(MPI.SUCCESS, codes[c], "errcode of child " + c);
            ic.send(new int[] {1000 + 7 * c}, 1, MPI.INT, c, 5);
        }
        for (int c = 0; c < n; c++) {
            int[] back = new int[1];
            ic.recv(back, 1, MPI.INT, c, 6);
            Check.equal(2 * (1000 + 7 * c) + c, back[0], "answer of child " + c);
        }
        Intracomm all = ic.merge(false);
        long[] sum = new long[1];
        all.allReduce(new long[] {all.getRank() + 1}, sum, 1, MPI.LONG, MPI.SUM);
        Check.equal((long) (n + 1) * (n + 2) / 2, sum[0], "allReduce over parent and children");
        all.free();
        ic.disconnect();
        System.out.println("SPAWN HOSTS OK " + n);
    }

    private static void childSide(Intercomm parent, String[] args) throws Exception {
        String host = args[0];
        int rank = MPI.COMM_WORLD.getRank();
        Check.isTrue(NetworkInterface.getByInetAddress(InetAddress.getByName(host)) != null,
                "child " + rank + " runs where " + host + " is a local address");
        int[] v = new int[1];
        parent.recv(v, 1, MPI.INT, 0, 5);
        parent.send(new int[] {2 * v[0] + rank}, 1, MPI.INT, 0, 6);
        Intracomm all = parent.merge(true);
        long[] sum = new long[1];
        all.allReduce(new long[] {all.getRank() + 1}, sum, 1, MPI.LONG, MPI.SUM);
        int n = parent.getRemoteSize() + MPI.COMM_WORLD.getSize();
        Check.equal((long) n * (n + 1) / 2, sum[0], "allReduce over parent and children");
        all.free();
        parent.disconnect();
        System.out.println("SPAWNED CHILD " + rank + " on " + host);
    }
}
