package io.github.mpi4j.testing;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts real multi-process jobs from tests: under the system {@code mpirun} (MPI backend) or
 * under mpi4j's own launcher (fabric), with a wall-clock timeout that kills the whole process
 * tree, and returns everything the ranks printed.
 */
public final class Jobs {
    private Jobs() {
    }

    /** How ranks are started. */
    public enum Launcher {
        /** Open MPI's mpirun. */
        MPIRUN,
        /** MPICH's Hydra (mpiexec.hydra / mpirun.mpich): the MPICH-ABI bridge. */
        MPICH,
        MPI4JRUN
    }

    /** The outcome of a job. */
    public static final class Result {
        public final int exitCode;
        public final boolean timedOut;
        public final String output;
        public final List<String> command;

        public Result(int exitCode, boolean timedOut, String output, List<String> command) {
            this.exitCode = exitCode;
            this.timedOut = timedOut;
            this.output = output;
            this.command = command;
        }

        @Override
        public String toString() {
            return "command: " + String.join(" ", command) + "\nexit " + exitCode + (timedOut ? " (timed out)" : "")
                    + "\n" + output;
        }
    }

    public static String classpath() {
        String cp = System.getProperty("mpi4j.test.classpath");
        return cp != null ? cp : "target/classes" + File.pathSeparator + "target/test-classes";
    }

    public static String basedir() {
        return System.getProperty("mpi4j.basedir", System.getProperty("user.dir"));
    }

    /** JVM options for ranks: -Xcheck:jni as in the test JVMs, small heaps, quick start. */
    public static List<String> jvmOptions() {
        List<String> o = new ArrayList<>();
        String extra = System.getProperty("mpi4j.test.jvmArgs", "-Xcheck:jni");
        for (String s : extra.trim().split("\\s+")) if (!s.isEmpty()) o.add(s);
        o.addAll(Arrays.asList("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"));
        return o;
    }

    public static boolean mpirunAvailable() {
        return onPath("mpirun") != null;
    }

    /** MPICH's launcher, or null: mpiexec.hydra (also Debian's mpirun.mpich). */
    public static Path mpichLauncher() {
        Path p = onPath("mpiexec.hydra");
        return p != null ? p : onPath("mpirun.mpich");
    }

    /** The MPICH (Hydra) command line for {@code np} ranks running {@code javaArgs}. */
    public static List<String> mpich(int np, List<String> javaArgs) {
        Path launcher = mpichLauncher();
        List<String> cmd = new ArrayList<>(Arrays.asList(launcher == null ? "mpiexec.hydra" : launcher.toString(),
                "-n", Integer.toString(np)));
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions());
        cmd.addAll(javaArgs);
        return cmd;
    }

    public static Path onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir, program);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /** The mpirun command line for {@code np} ranks running {@code javaArgs}. */
    public static List<String> mpirun(int np, List<String> javaArgs) {
        return mpirun(np, javaArgs, true);
    }

    /** Like {@link #mpirun(int, List)}; {@code tagOutput} prefixes each line with its rank. */
    public static List<String> mpirun(int np, List<String> javaArgs, boolean tagOutput) {
        // Open MPI's by name where MPICH is installed too (Debian's mpirun is an alternative).
        String mpirun = onPath("mpirun.openmpi") != null ? "mpirun.openmpi" : "mpirun";
        List<String> cmd = new ArrayList<>(Arrays.asList(mpirun, "-np", Integer.toString(np), "--oversubscribe",
                "--bind-to", "none"));
        if (tagOutput) cmd.add("--tag-output");
        if (isRoot()) cmd.add("--allow-run-as-root");
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions());
        cmd.addAll(javaArgs);
        return cmd;
    }

    /** The mpi4jrun command line for {@code np} ranks running {@code javaArgs}. */
    public static List<String> mpi4jrun(int np, List<String> launcherArgs, List<String> javaArgs) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(basedir(), "launch", "mpi4jrun").toString());
        cmd.addAll(Arrays.asList("-np", Integer.toString(np), "--tag-output"));
        cmd.addAll(launcherArgs);
        cmd.addAll(jvmOptions());
        cmd.addAll(javaArgs);
        return cmd;
    }

    /** Runs {@code command}, killing its whole process tree after {@code timeoutSeconds}. */
    public static Result run(List<String> command, Map<String, String> env, double timeoutSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.directory(new File(basedir()));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        // mpi4jrun takes mpi4j from the build's classes (the jar is made after the tests).
        pb.environment().put("MPI4J_JAR", Path.of(basedir(), "target", "classes").toString());
        if (env != null) {
            // An empty value removes the variable: a test that wants a default back (the build
            // sets MPI4J_WARMUP=0 for every test's jobs, see pom.xml).
            env.forEach((k, v) -> {
                if (v.isEmpty()) pb.environment().remove(k);
                else pb.environment().put(k, v);
            });
        }
        Path log = Files.createTempFile("mpi4j-job", ".log");
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        boolean finished = p.waitFor((long) (timeoutSeconds * 1000), TimeUnit.MILLISECONDS);
        if (!finished) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        String out = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        return new Result(finished ? p.exitValue() : -1, !finished, out, command);
    }
}
