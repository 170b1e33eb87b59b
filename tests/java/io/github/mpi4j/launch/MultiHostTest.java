package io.github.mpi4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.mpi4j.testing.Jobs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Jobs across several hosts, made of Linux network namespaces on this machine: three namespaces
 * ("hosts"), each with its own address on a private test subnet, joined to the root namespace
 * (where the launcher and its rendezvous store run) by veth pairs on a bridge. mpi4jrun starts
 * the ranks of each host through its remote agent — a small script mapping a host's address to
 * its namespace and running {@code ip netns exec} — as it would through ssh.
 *
 * <p>The hosts share this machine's kernel, /dev/shm and host name, so this also checks that the
 * fabric takes "same node" from the launcher's host assignment (ranks of different hosts must
 * talk TCP over the veths, ranks of one host shared memory), that every rank advertises an
 * address the other hosts can reach, and that the launcher offers its store on an address the
 * namespaces can reach (not 127.0.0.1). The rank program ({@link MultiHostProgram}) verifies all
 * that from inside, plus real results of point-to-point and collectives.
 *
 * <p>Needs root (or CAP_NET_ADMIN + CAP_SYS_ADMIN) and iproute2; skipped with the reason
 * otherwise. Only addresses created here, inside 10.250.N.0/24 on the test bridge, are used.
 */
class MultiHostTest {
    private static final long PID = ProcessHandle.current().pid();
    private static final String BRIDGE = "m4br" + PID;
    private static final int HOSTS = 3;
    private static final double JOB_TIMEOUT = 50;

    private static final List<String> namespaces = new ArrayList<>();
    private static final List<String> veths = new ArrayList<>();
    private static final List<String> addresses = new ArrayList<>();
    private static boolean bridgeMade;
    private static String rootAddress;
    private static Path dir;
    private static String agent;

    @BeforeAll
    static void makeHosts() throws Exception {
        assumeTrue(System.getProperty("os.name", "").toLowerCase().contains("linux"), "network namespaces need Linux");
        assumeTrue(Jobs.onPath("ip") != null, "'ip' (iproute2) is not on PATH");
        int subnet = freeSubnet();
        assumeTrue(subnet > 0, "no free 10.250.N.0/24 test subnet on this machine");
        String prefix = "10.250." + subnet + ".";
        rootAddress = prefix + "1";
        try {
            ip("link", "add", BRIDGE, "type", "bridge");
            bridgeMade = true;
            ip("addr", "add", rootAddress + "/24", "dev", BRIDGE);
            ip("link", "set", BRIDGE, "up");
            for (int h = 1; h <= HOSTS; h++) {
                String ns = "mpi4j-h" + h + "-" + PID;
                String veth = "m4v" + h + "-" + PID;
                String addr = prefix + (h + 1);
                ip("netns", "add", ns);
                namespaces.add(ns);
                ip("link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns);
                veths.add(veth);
                ip("link", "set", veth, "master", BRIDGE);
                ip("link", "set", veth, "up");
                ip("-n", ns, "addr", "add", addr + "/24", "dev", "eth0");
                ip("-n", ns, "link", "set", "eth0", "up");
                ip("-n", ns, "link", "set", "lo", "up");
                addresses.add(addr);
            }
        } catch (IOException e) {
            removeHosts();
            assumeTrue(false, "cannot create network namespaces here (needs root): " + e.getMessage());
        }
        // The remote agent: "agent HOST cmd..." runs cmd in the namespace of HOST.
        dir = Files.createTempDirectory("mpi4j-netns");
        StringBuilder script = new StringBuilder("#!/bin/sh\ncase \"$1\" in\n");
        for (int h = 0; h < HOSTS; h++) {
            script.append("  ").append(addresses.get(h)).append(") ns=").append(namespaces.get(h)).append(" ;;\n");
        }
        script.append("  *) echo \"agent: no test host $1\" >&2; exit 97 ;;\nesac\nshift\n")
                .append("exec ip netns exec \"$ns\" \"$@\"\n");
        Path a = dir.resolve("agent");
        Files.writeString(a, script.toString());
        Files.setPosixFilePermissions(a, PosixFilePermissions.fromString("rwx------"));
        agent = a + " {host}";
    }

    @AfterAll
    static void removeHosts() throws Exception {
        // Safety net: nothing of a job should still run in a namespace (the tests check it too).
        for (String ns : namespaces) {
            for (long pid : pidsIn(ns)) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        // Deleting the root end of a veth removes both ends at once (a namespace's removal does it
        // only later, asynchronously).
        for (String veth : veths) quietly("link", "del", veth);
        veths.clear();
        for (String ns : namespaces) quietly("netns", "del", ns);
        namespaces.clear();
        if (bridgeMade) quietly("link", "del", BRIDGE);
        bridgeMade = false;
        addresses.clear();
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) Files.deleteIfExists(p);
            }
            dir = null;
        }
    }

    @Test
    void twoHostsOfTwoRanks() throws Exception {
        String hosts = addresses.get(0) + ":2," + addresses.get(1) + ":2";
        Jobs.Result r = job(4, hosts, List.of(MultiHostProgram.class.getName(), hosts));
        expectSuccess(r, 4, hosts);
    }

    @Test
    void threeHostsOddWorld() throws Exception {
        String hosts = addresses.get(0) + ":1," + addresses.get(1) + ":2," + addresses.get(2) + ":2";
        Jobs.Result r = job(5, hosts, List.of(MultiHostProgram.class.getName(), hosts));
        expectSuccess(r, 5, hosts);
    }

    @Test
    void launcherHostWithRemoteHosts() throws Exception {
        // Ranks of the launcher's own host start without the agent and must advertise an address
        // the namespaces can reach.
        String hosts = "localhost:2," + addresses.get(0) + ":1," + addresses.get(2) + ":1";
        Jobs.Result r = job(4, hosts, List.of(MultiHostProgram.class.getName(), hosts, "localhost=" + rootAddress));
        expectSuccess(r, 4, hosts);
    }

    @Test
    void tcpOnlyAcrossHosts() throws Exception {
        String hosts = addresses.get(1) + ":2," + addresses.get(2) + ":1";
        Jobs.Result r = job(3, hosts, List.of("--tcp"), List.of(MultiHostProgram.class.getName(), hosts, "tcp"));
        expectSuccess(r, 3, hosts);
    }

    @Test
    void aFailingRankOnAnotherHostEndsTheJob() throws Exception {
        String hosts = addresses.get(0) + ":1," + addresses.get(1) + ":2";
        Jobs.Result r = job(3, hosts, List.of(FaultProgram.class.getName(), "exit", "2", "3"));
        assertEquals(3, r.exitCode, r.toString());
        assertTrue(r.output.contains("rank 2 on " + addresses.get(1)), r.toString());
        assertTrue(r.output.contains("exited with status 3"), r.toString());
        nothingLeft(r, null);
    }

    /**
     * Spawning onto other hosts (info 'host'): the root starts each child through the job's
     * remote agent (the launcher hands it to the ranks), the children join the root's stores on
     * the hosts' network and run where they were asked to ({@link SpawnHostsProgram} checks the
     * address and the results).
     */
    @Test
    void spawnOnOtherHosts() throws Exception {
        String hosts = addresses.get(0) + ":1";
        Jobs.Result r = job(1, hosts, List.of(SpawnHostsProgram.class.getName(), addresses.get(1), addresses.get(2)));
        assertFalse(r.timedOut, r.toString());
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("SPAWN HOSTS OK 2"), r.toString());
        assertTrue(r.output.contains("SPAWNED CHILD 0 on " + addresses.get(1)), r.toString());
        assertTrue(r.output.contains("SPAWNED CHILD 1 on " + addresses.get(2)), r.toString());
        nothingLeft(r, null);
    }

    /**
     * kill -9 of the launcher also ends the ranks on other hosts: each notices that its
     * connection to the launcher ended and exits within seconds, in every namespace.
     */
    @Test
    void ranksOnOtherHostsEndWhenTheLauncherIsKilled() throws Exception {
        String hosts = addresses.get(0) + ":1," + addresses.get(1) + ":2";
        List<String> javaArgs = List.of("-cp", Jobs.classpath(), FaultProgram.class.getName(), "sleep", "60");
        List<String> cmd = Jobs.mpi4jrun(3, List.of("--hosts", hosts, "--agent", agent, "--timeout", "60"), javaArgs);
        Path log = Files.createTempFile("mpi4j-kill", ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("MPI4J_JAR", Path.of(Jobs.basedir(), "target", "classes").toString());
        Process launcher = pb.start();
        try {
            long until = System.nanoTime() + 40_000_000_000L;
            while (countMatches(Files.readString(log), "SLEEPING \\d") < 3 && System.nanoTime() < until) {
                assertTrue(launcher.isAlive(), Files.readString(log));
                Thread.sleep(50);
            }
            assertEquals(3, countMatches(Files.readString(log), "SLEEPING \\d"), Files.readString(log));
            int inNamespaces = pidsIn(namespaces.get(0)).size() + pidsIn(namespaces.get(1)).size();
            assertEquals(3, inNamespaces, "the three ranks run in the namespaces");
            new ProcessBuilder("kill", "-9", Long.toString(launcher.pid())).start().waitFor();
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (System.nanoTime() < deadline
                    && pidsIn(namespaces.get(0)).size() + pidsIn(namespaces.get(1)).size() > 0) {
                Thread.sleep(100);
            }
            assertEquals(List.of(), pidsIn(namespaces.get(0)), "ranks left on host 1 after kill -9 of mpi4jrun");
            assertEquals(List.of(), pidsIn(namespaces.get(1)), "ranks left on host 2 after kill -9 of mpi4jrun");
        } finally {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    private static int countMatches(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    private static Jobs.Result job(int np, String hosts, List<String> program) throws Exception {
        return job(np, hosts, List.of(), program);
    }

    /** Runs {@code program} on {@code np} ranks over {@code hosts} (a wall-clock limit on each job). */
    private static Jobs.Result job(int np, String hosts, List<String> launcherArgs, List<String> program)
            throws Exception {
        List<String> javaArgs = new ArrayList<>(List.of("-cp", Jobs.classpath()));
        javaArgs.addAll(program);
        List<String> args = new ArrayList<>(List.of("--hosts", hosts, "--agent", agent, "--verbose",
                "--timeout", Double.toString(JOB_TIMEOUT - 10)));
        args.addAll(launcherArgs);
        List<String> cmd = Jobs.mpi4jrun(np, args, javaArgs);
        return Jobs.run(cmd, null, JOB_TIMEOUT);
    }

    private static void expectSuccess(Jobs.Result r, int np, String hosts) throws Exception {
        assertFalse(r.timedOut, r.toString());
        assertEquals(0, r.exitCode, r.toString());
        String[] hostOf = MultiHostProgram.hostsOfRanks(hosts, np);
        Set<String> jobs = new TreeSet<>();
        for (int rank = 0; rank < np; rank++) {
            assertTrue(r.output.contains("mpi4jrun: rank " + rank + " on " + hostOf[rank] + " (pid "), r.toString());
            Matcher m = Pattern.compile("\\[" + rank + "\\] MULTIHOST OK " + rank + " " + np + " "
                    + Pattern.quote(hostOf[rank]) + " job (\\S+) rendezvous (\\S+)").matcher(r.output);
            assertTrue(m.find(), "no success line from rank " + rank + "\n" + r);
            jobs.add(m.group(1));
            // The store is offered on the root namespace's address on the hosts' network.
            assertTrue(m.group(2).startsWith(rootAddress + ":"), "rendezvous " + m.group(2) + "\n" + r);
        }
        assertEquals(1, jobs.size(), "one job id: " + jobs);
        nothingLeft(r, jobs.iterator().next());
    }

    /**
     * No rank process survives, in or out of the namespaces, and (given the job's id) none of
     * the job's shared-memory files stays.
     */
    private static void nothingLeft(Jobs.Result r, String jobId) throws Exception {
        Matcher m = Pattern.compile("\\(pid (\\d+)\\)").matcher(r.output);
        int ranks = 0;
        while (m.find()) {
            ranks++;
            long pid = Long.parseLong(m.group(1));
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " survived\n" + r);
        }
        assertTrue(ranks > 0, "the launcher named no rank pids\n" + r);
        for (String ns : namespaces) assertEquals(List.of(), pidsIn(ns), "processes left in " + ns + "\n" + r);
        if (jobId == null) return; // other tests' jobs may hold segments now: check only our own job's
        try (Stream<Path> files = Files.list(Path.of("/dev/shm"))) {
            List<String> left = files.map(f -> f.getFileName().toString())
                    .filter(n -> n.startsWith("mpi4j-" + jobId + "-")).toList();
            assertEquals(List.of(), left, "shared-memory files left behind\n" + r);
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /** A third octet N such that nothing on this machine uses 10.250.N.0/24 yet. */
    private static int freeSubnet() throws Exception {
        String routes;
        try {
            routes = run(List.of("ip", "-4", "addr", "show")) + run(List.of("ip", "-4", "route", "show"));
        } catch (IOException e) {
            return -1;
        }
        for (int i = 0; i < 200; i++) {
            int n = 20 + (int) ((PID + i) % 200);
            if (!routes.contains("10.250." + n + ".")) return n;
        }
        return -1;
    }

    private static List<Long> pidsIn(String ns) {
        List<Long> out = new ArrayList<>();
        try {
            for (String line : run(List.of("ip", "netns", "pids", ns)).split("\\s+")) {
                if (!line.isBlank()) out.add(Long.parseLong(line.trim()));
            }
        } catch (Exception e) {
            // the namespace is gone
        }
        return out;
    }

    private static void ip(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        run(cmd);
    }

    private static void quietly(String... args) {
        try {
            ip(args);
        } catch (Exception ignored) {
            // already gone
        }
    }

    /** Runs a short command; its output, or an IOException naming it and what it said. */
    private static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + ": timed out");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) throw new IOException(String.join(" ", cmd) + ": " + out.trim());
        return out;
    }
}
