package io.github.mpi4j.launch;

import io.github.mpi4j.fabric.bootstrap.RendezvousServer;
import io.github.mpi4j.fabric.bootstrap.Secrets;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;

/**
 * {@code mpi4jrun}: starts the ranks of a job and watches them.
 *
 * <p>By default it starts N JVMs itself (the fabric): locally, on remote hosts through ssh or a
 * configured agent, or through srun inside a SLURM allocation. It hosts the rendezvous store,
 * makes a secret for the job, relays output (tagged with the rank if asked), and ends the job
 * when a rank fails, on Ctrl-C or on timeout — killing every other rank, reporting who failed and
 * how, exiting with that rank's status, and removing the job's shared-memory files.
 *
 * <p>With {@code --mpi} it runs the job under the system {@code mpirun} (MPI backend), adding
 * mpi4j's jar to the class path.
 */
public final class Launcher {
    private Launcher() {
    }

    public static void main(String[] argv) {
        Options o;
        try {
            o = Options.parse(argv);
        } catch (Options.UsageException e) {
            System.err.println("mpi4jrun: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (o.help) {
            System.out.println(Options.USAGE);
            System.out.flush();
            System.exit(0);
            return;
        }
        int code;
        try {
            code = run(o);
        } catch (Options.UsageException e) {
            System.err.println("mpi4jrun: " + e.getMessage());
            code = 2;
        } catch (IOException e) {
            System.err.println("mpi4jrun: " + e.getMessage());
            code = 1;
        }
        System.out.flush();
        System.exit(code);
    }

    /** Runs the job described by {@code o}; returns the exit code for the launcher. */
    public static int run(Options o) throws IOException, Options.UsageException {
        String jar = o.mpi4jJar != null ? o.mpi4jJar : ownLocation();
        boolean srun = o.hosts.isEmpty() && System.getenv("SLURM_JOB_ID") != null && Jobs.onPath("srun");
        if (o.mpi) return runMpirun(o, javaCommand(o, jar, null));
        if (srun) return runSrun(o, javaCommand(o, jar, null));
        boolean allHere = o.hosts.stream().allMatch(h -> Hosts.isLocal(h.name));
        ClassDataArchive cds = ClassDataArchive.forJob(o, jar, allHere);
        List<String> java = javaCommand(o, jar, cds);
        Process writer = cds.startWriting();
        try {
            return new FabricJob(o, java).run();
        } finally {
            cds.finishWriting(writer);
        }
    }

    /** Lets the ranks load mpi4j's JNI libraries without a warning per rank (unless the user chose otherwise). */
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /**
     * The JVM command every rank runs: java [native access] [options] -cp userCp:mpi4j Program
     * [args], or with the class-data archive on, java [archive options] [native access] [options]
     * -cp mpi4j:userCp Program [args].
     */
    static List<String> javaCommand(Options o, String jar, ClassDataArchive cds) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        boolean jarFirst = cds != null && cds.enabled();
        if (jarFirst) cmd.addAll(cds.rankOptions());
        // JDK 22+ warns (a later JDK refuses) when a JNI library loads without native access,
        // once per rank; mpi4j's ranks load one (MPI, TCP and file I/O). JDK 17 takes the option too.
        if (o.javaOptions.stream().noneMatch(opt -> opt.startsWith("--enable-native-access"))) {
            cmd.add(NATIVE_ACCESS);
        }
        cmd.addAll(o.javaOptions);
        String userCp = o.classpath != null ? o.classpath : ".";
        String program = o.program;
        if (o.programIsJar) {
            // -jar ignores -cp: run the jar's main class with the jar and mpi4j on the class path.
            try (JarFile jf = new JarFile(o.program)) {
                String main = jf.getManifest() == null ? null : jf.getManifest().getMainAttributes().getValue("Main-Class");
                if (main == null) throw new IOException(o.program + " has no Main-Class in its manifest");
                userCp = o.program + (o.classpath != null ? File.pathSeparator + o.classpath : "");
                program = main;
            }
        }
        cmd.add("-cp");
        // With the archive, the jar by the path it was archived from: the JVM compares the two.
        cmd.add(jarFirst ? cds.jar() + File.pathSeparator + userCp : userCp + File.pathSeparator + jar);
        cmd.add(program);
        cmd.addAll(o.args);
        return cmd;
    }

    static String ownLocation() {
        try {
            return Path.of(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (Exception e) {
            return "mpi4j.jar";
        }
    }

    // ---- under the system mpirun ----------------------------------------------------------------

    private static int runMpirun(Options o, List<String> java) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("mpirun", "-np", Integer.toString(o.np)));
        if ("root".equals(System.getProperty("user.name"))) cmd.add("--allow-run-as-root");
        if (o.oversubscribe || o.np > Runtime.getRuntime().availableProcessors()) cmd.add("--oversubscribe");
        if (o.tagOutput) cmd.add("--tag-output");
        if (!o.hosts.isEmpty()) {
            StringBuilder h = new StringBuilder();
            for (Hosts.Host host : o.hosts) h.append(h.length() == 0 ? "" : ",").append(host);
            cmd.add("--host");
            cmd.add(h.toString());
        }
        for (Map.Entry<String, String> e : o.exports.entrySet()) {
            cmd.add("-x");
            cmd.add(e.getKey() + "=" + e.getValue());
        }
        cmd.addAll(java);
        if (o.verbose) System.err.println("mpi4jrun: " + String.join(" ", cmd));
        return runToEnd(cmd, Map.of(), o.timeoutSeconds);
    }

    // ---- inside a SLURM allocation ----------------------------------------------------------------

    private static int runSrun(Options o, List<String> java) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("srun", "--ntasks=" + o.np, "--kill-on-bad-exit=1"));
        if (o.tagOutput) cmd.add("--label");
        cmd.addAll(java);
        Map<String, String> env = new LinkedHashMap<>(o.exports);
        env.put("MPI4J_SECRET", Secrets.hex(Secrets.generate()));
        if (o.forceTcp) env.put("MPI4J_TRANSPORT", "tcp");
        if (o.verbose) System.err.println("mpi4jrun: inside SLURM job " + System.getenv("SLURM_JOB_ID") + ": "
                + String.join(" ", cmd));
        return runToEnd(cmd, env, o.timeoutSeconds);
    }

    /** Runs a command with inherited I/O; kills it after {@code timeout} seconds (0: never). */
    private static int runToEnd(List<String> cmd, Map<String, String> env, double timeout) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
        pb.environment().putAll(env);
        Process p = pb.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
        }));
        try {
            if (timeout > 0) {
                if (!p.waitFor((long) (timeout * 1000), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    System.err.println("mpi4jrun: the job exceeded --timeout " + timeout + " s; killing it");
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    return 124;
                }
            }
            return p.waitFor();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            return 130;
        }
    }

    // ---- helpers shared with FabricJob ------------------------------------------------------------

    /** Finds programs on PATH. */
    static final class Jobs {
        private Jobs() {
        }

        static boolean onPath(String program) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (Files.isExecutable(Path.of(dir, program))) return true;
            }
            return false;
        }
    }

    /** Removes this job's shared-memory files (after a crash a rank may not have removed its own). */
    static void removeSegments(String jobId) {
        Path dir = io.github.mpi4j.fabric.transport.ShmDir.get();
        if (!Files.isDirectory(dir)) return;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "mpi4j-" + jobId + "-*")) {
            for (Path f : files) Files.deleteIfExists(f);
        } catch (IOException ignored) {
            // best effort
        }
    }

    /**
     * The address remote ranks use to reach the launcher's rendezvous store (and local ranks
     * advertise to remote ones): {@code --rendezvous-host} if given; 127.0.0.1 when every rank is
     * local; otherwise this machine's source address on the route towards the first remote host
     * (the name of this host may resolve to a loopback address, or to an interface the remote
     * hosts cannot reach), falling back to the address this host's name resolves to.
     */
    static String launcherAddress(Options o, String firstRemote) {
        if (o.rendezvousHost != null) return o.rendezvousHost;
        if (firstRemote == null) return "127.0.0.1";
        String routed = sourceAddressTowards(firstRemote);
        if (routed != null) return routed;
        try {
            return InetAddress.getLocalHost().getHostAddress();
        } catch (IOException e) {
            return "127.0.0.1";
        }
    }

    /**
     * The local address the kernel would send from to reach {@code host}, or null. Connecting
     * a UDP socket only looks up the route; it sends nothing.
     */
    static String sourceAddressTowards(String host) {
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(new InetSocketAddress(InetAddress.getByName(host), 9));
            InetAddress local = probe.getLocalAddress();
            if (local == null || local.isAnyLocalAddress() || local.isLoopbackAddress()) return null;
            return local.getHostAddress();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The job's rendezvous store, listening only where the ranks reach it: on {@code address}
     * (loopback for a job on this host alone) when that is an address of this machine, else on
     * every interface (e.g. a --rendezvous-host name that is translated on the way).
     */
    static RendezvousServer startStore(byte[] secret, String address) throws IOException {
        String bind = "0.0.0.0";
        try {
            InetAddress a = InetAddress.getByName(address);
            if (a.isLoopbackAddress() || java.net.NetworkInterface.getByInetAddress(a) != null) bind = a.getHostAddress();
        } catch (IOException e) {
            // not resolvable here: listen everywhere
        }
        return new RendezvousServer(bind, 0, secret, msg -> System.err.println("mpi4jrun: " + msg));
    }
}
