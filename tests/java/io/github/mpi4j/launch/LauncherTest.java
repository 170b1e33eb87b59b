package io.github.mpi4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.mpi4j.testing.Jobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mpi4jrun end to end: exit codes, failures, timeouts, program forms, --mpi. */
class LauncherTest {
    private static Jobs.Result mpi4jrun(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(Jobs.basedir(), "launch", "mpi4jrun").toString());
        cmd.addAll(List.of(args));
        return Jobs.run(cmd, null, 90);
    }

    private static String cp() {
        return Jobs.classpath();
    }

    private static List<Long> rankPids(String output) {
        List<Long> pids = new ArrayList<>();
        Matcher m = Pattern.compile("\\(pid (\\d+)\\)").matcher(output);
        while (m.find()) pids.add(Long.parseLong(m.group(1)));
        return pids;
    }

    private static void noneAlive(List<Long> pids, Jobs.Result r) {
        for (long p : pids) {
            assertFalse(ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false), "pid " + p + " survived\n" + r);
        }
    }

    private static void noSegmentsLeft() throws Exception {
        try (var files = Files.list(Path.of("/dev/shm"))) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("mpi4j-")),
                    "a /dev/shm/mpi4j-* segment was left behind");
        }
    }

    @Test
    void exitStatusOfTheFailingRankEndsTheJob() throws Exception {
        Jobs.Result r = mpi4jrun("-np", "3", "--verbose", "-cp", cp(), FaultProgram.class.getName(), "exit", "1", "3");
        assertEquals(3, r.exitCode, r.toString());
        assertTrue(r.output.contains("rank 1 on localhost"), r.toString());
        assertTrue(r.output.contains("exited with status 3"), r.toString());
        noneAlive(rankPids(r.output), r);
        noSegmentsLeft();
    }

    @Test
    void aKilledRankIsReportedWithItsSignal() throws Exception {
        Jobs.Result r = mpi4jrun("-np", "3", "--verbose", "-cp", cp(), FaultProgram.class.getName(),
                "kill-allreduce", "2");
        assertEquals(137, r.exitCode, r.toString());
        assertTrue(r.output.contains("rank 2 on localhost"), r.toString());
        assertTrue(r.output.contains("SIGKILL"), r.toString());
        noneAlive(rankPids(r.output), r);
        noSegmentsLeft();
    }

    @Test
    void timeoutKillsTheJob() throws Exception {
        long t0 = System.nanoTime();
        Jobs.Result r = mpi4jrun("-np", "2", "--timeout", "3", "--verbose", "-cp", cp(), FaultProgram.class.getName(),
                "sleep", "60");
        assertEquals(124, r.exitCode, r.toString());
        assertTrue((System.nanoTime() - t0) / 1e9 < 30, "timeout took too long");
        assertTrue(r.output.contains("exceeded --timeout"), r.toString());
        noneAlive(rankPids(r.output), r);
    }

    @Test
    void usageErrorsExitWith2() throws Exception {
        Jobs.Result r = mpi4jrun("Hello");
        assertEquals(2, r.exitCode, r.toString());
        assertTrue(r.output.contains("-np"), r.toString());
        r = mpi4jrun("-np", "0", "Hello");
        assertEquals(2, r.exitCode, r.toString());
        r = mpi4jrun("-np", "5", "--hosts", "localhost:2", "Hello");
        assertEquals(2, r.exitCode, r.toString());
        assertTrue(r.output.contains("--oversubscribe"), r.toString());
    }

    @Test
    void tagOutputPrefixesEveryLineWithTheRank() throws Exception {
        Jobs.Result r = mpi4jrun("-np", "2", "--tag-output", "-cp", cp(), "io.github.mpi4j.api.LifecycleProgram");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("[0] LIFECYCLE OK 0 2 fabric"), r.toString());
        assertTrue(r.output.contains("[1] LIFECYCLE OK 1 2 fabric"), r.toString());
    }

    @Test
    void sourceFileAndJarPrograms(@TempDir Path dir) throws Exception {
        Path src = dir.resolve("Size.java");
        Files.writeString(src, "public class Size { public static void main(String[] a) { mpi.MPI.Init(a);"
                + " System.out.println(\"size \" + mpi.MPI.COMM_WORLD.getSize() + \" arg \" + a[0]); mpi.MPI.Finalize(); } }");
        Jobs.Result r = mpi4jrun("-np", "2", src.toString(), "x");
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(2, count(r.output, "size 2 arg x"), r.toString());

        Path classes = dir.resolve("classes");
        Files.createDirectories(classes);
        Jobs.Result c = Jobs.run(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-cp",
                cp(), "-d", classes.toString(), src.toString()), null, 60);
        assertEquals(0, c.exitCode, c.toString());
        Path manifest = dir.resolve("manifest.txt");
        Files.writeString(manifest, "Main-Class: Size\n");
        Path jar = dir.resolve("app.jar");
        Jobs.Result j = Jobs.run(List.of(Path.of(System.getProperty("java.home"), "bin", "jar").toString(), "cfm",
                jar.toString(), manifest.toString(), "-C", classes.toString(), "."), null, 60);
        assertEquals(0, j.exitCode, j.toString());
        r = mpi4jrun("-np", "3", "-jar", jar.toString(), "y");
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(3, count(r.output, "size 3 arg y"), r.toString());
    }

    @Test
    void underTheSystemMpirun() throws Exception {
        assumeTrue(Jobs.mpirunAvailable(), "mpirun is not on PATH");
        Jobs.Result r = mpi4jrun("-np", "2", "--mpi", "-cp", cp(), "io.github.mpi4j.api.LifecycleProgram");
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(2, count(r.output, "LIFECYCLE OK \\d 2 mpi"), r.toString());
    }

    /** Ctrl-C (SIGINT) to the launcher ends the whole job: every rank is gone within seconds. */
    @Test
    void ctrlCEndsTheJob() throws Exception {
        List<String> cmd = List.of(Path.of(Jobs.basedir(), "launch", "mpi4jrun").toString(), "-np", "2", "-cp", cp(),
                FaultProgram.class.getName(), "sleep", "60");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("MPI4J_JAR", Path.of(Jobs.basedir(), "target", "classes").toString());
        Process launcher = pb.start();
        try {
            List<ProcessHandle> ranks = List.of();
            long until = System.nanoTime() + 30_000_000_000L;
            while (ranks.size() < 2 && System.nanoTime() < until) {
                Thread.sleep(100);
                ranks = launcher.children().collect(java.util.stream.Collectors.toList());
            }
            assertEquals(2, ranks.size(), "both ranks started");
            Thread.sleep(500);
            new ProcessBuilder("kill", "-INT", Long.toString(launcher.pid())).start().waitFor();
            assertTrue(launcher.waitFor(15, java.util.concurrent.TimeUnit.SECONDS), "the launcher ended after SIGINT");
            assertEquals(130, launcher.exitValue(), "128 + SIGINT");
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (ranks.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) Thread.sleep(50);
            for (ProcessHandle r : ranks) assertFalse(r.isAlive(), "rank pid " + r.pid() + " survived Ctrl-C");
            noSegmentsLeft();
        } finally {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
    }

    /**
     * Inside a SLURM allocation mpi4jrun starts the ranks with srun, and the ranks find each
     * other from srun's variables. Slurm is not installed here: a stand-in srun on PATH starts
     * the tasks on this node with the variables the real one sets.
     */
    @Test
    void insideASlurmAllocationRanksStartThroughSrun(@TempDir Path dir) throws Exception {
        Path srun = dir.resolve("srun");
        Files.writeString(srun, String.join("\n",
                "#!/usr/bin/env bash",
                "n=1",
                "while [ $# -gt 0 ]; do case \"$1\" in --ntasks=*) n=${1#--ntasks=}; shift;; --*) shift;; *) break;; esac; done",
                "echo \"STAND-IN SRUN ntasks=$n job=$SLURM_JOB_ID\" >&2",
                "pids=()",
                "for r in $(seq 0 $((n - 1))); do",
                "  SLURM_PROCID=$r SLURM_LOCALID=$r SLURM_NODEID=0 SLURM_NTASKS=$n SLURM_STEP_NODELIST=localhost \\",
                "    SLURM_TASKS_PER_NODE=\"$n(x1)\" SLURM_STEP_ID=0 \"$@\" &",
                "  pids+=($!)",
                "done",
                "rc=0; for p in \"${pids[@]}\"; do wait $p || { s=$?; [ $rc -eq 0 ] && rc=$s; }; done; exit $rc", ""));
        assertTrue(srun.toFile().setExecutable(true));
        List<String> cmd = List.of(Path.of(Jobs.basedir(), "launch", "mpi4jrun").toString(), "-np", "3", "-cp", cp(),
                "io.github.mpi4j.api.LifecycleProgram");
        String job = Long.toString(10_000 + ProcessHandle.current().pid() % 50_000);
        Jobs.Result r = Jobs.run(cmd, java.util.Map.of("PATH", dir + ":" + System.getenv("PATH"), "SLURM_JOB_ID", job),
                90);
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("STAND-IN SRUN ntasks=3 job=" + job), r.toString());
        assertEquals(3, count(r.output, "LIFECYCLE OK \\d 3 fabric"), r.toString());
        noSegmentsLeft();
    }

    private static Process startLauncher(Path log, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(Jobs.basedir(), "launch", "mpi4jrun").toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("MPI4J_JAR", Path.of(Jobs.basedir(), "target", "classes").toString());
        return pb.start();
    }

    private static void waitForOutput(Path log, String regex, int times, Process launcher) throws Exception {
        long until = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < until) {
            if (count(Files.readString(log), regex) >= times) return;
            assertTrue(launcher.isAlive(), "the launcher ended early:\n" + Files.readString(log));
            Thread.sleep(50);
        }
        assertEquals(times + " x " + regex, Files.readString(log));
    }

    /**
     * kill -9 of the launcher (no chance to clean up): every rank notices the lost connection to
     * it and ends within seconds instead of running on under PID 1.
     */
    @Test
    void ranksEndWhenTheLauncherIsKilled(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("job.log");
        Process launcher = startLauncher(log, "-np", "3", "-cp", cp(), FaultProgram.class.getName(), "sleep", "60");
        try {
            waitForOutput(log, "SLEEPING \\d", 3, launcher);
            List<ProcessHandle> ranks = launcher.children().collect(java.util.stream.Collectors.toList());
            assertEquals(3, ranks.size(), "three ranks started");
            new ProcessBuilder("kill", "-9", Long.toString(launcher.pid())).start().waitFor();
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (ranks.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) Thread.sleep(50);
            for (ProcessHandle r : ranks) assertFalse(r.isAlive(), "rank pid " + r.pid() + " survived kill -9 of mpi4jrun");
        } finally {
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
            launcher.destroyForcibly();
        }
    }

    /** --help is an answer, not an error: usage on standard output, status 0. */
    @Test
    void helpGoesToStandardOutputWithStatus0() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(Jobs.basedir(), "launch", "mpi4jrun").toString(), "--help")
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("MPI4J_JAR", Path.of(Jobs.basedir(), "target", "classes").toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("usage: mpi4jrun") && out.contains("-np"), out);
    }

    /**
     * A rank that returns from main without MPI.Finalize is an error under Open MPI's mpirun
     * (non-zero exit, a message naming the process); mpi4jrun does the same.
     */
    @Test
    void aRankThatNeverCallsFinalizeFailsTheJob() throws Exception {
        Jobs.Result r = mpi4jrun("-np", "3", "-cp", cp(), FaultProgram.class.getName(), "no-finalize", "1");
        assertEquals(1, r.exitCode, r.toString());
        assertTrue(r.output.contains("RETURNING WITHOUT FINALIZE 1"), r.toString());
        assertTrue(r.output.contains("rank 1 on localhost") && r.output.contains("without calling MPI.Finalize"),
                r.toString());
        if (Jobs.mpirunAvailable()) {
            Jobs.Result m = Jobs.run(Jobs.mpirun(3, List.of("-cp", cp(), FaultProgram.class.getName(), "no-finalize",
                    "1")), null, 90);
            assertTrue(m.exitCode != 0, "mpirun also fails the job\n" + m);
            assertTrue(m.output.toLowerCase().contains("finalize"), m.toString());
        }
    }

    /**
     * A host whose rank never connects is named, with the reason where it is known: an agent
     * that fails (as ssh does for a refused or unreachable host) ends the job at once; one that
     * hangs ends it at --connect-timeout. The hosts are made-up names served by a stand-in
     * agent; no packet leaves this machine.
     */
    @Test
    void aHostThatNeverConnectsIsNamed(@TempDir Path dir) throws Exception {
        Path agent = dir.resolve("agent");
        Files.writeString(agent, String.join("\n",
                "#!/bin/sh",
                "case \"$1\" in",
                "  refusing*) echo \"ssh: connect to host $1 port 22: Connection refused\" >&2; exit 255;;",
                "  *) exec sleep 60;;",
                "esac", ""));
        assertTrue(agent.toFile().setExecutable(true));
        long t0 = System.nanoTime();
        Jobs.Result r = mpi4jrun("-np", "3", "--hosts", "localhost:2,refusing-host:1", "--agent", agent + " {host}",
                "-cp", cp(), FaultProgram.class.getName(), "sleep", "1");
        double secs = (System.nanoTime() - t0) / 1e9;
        assertEquals(255, r.exitCode, r.toString());
        assertTrue(secs < 30, "took " + secs + " s\n" + r);
        assertTrue(r.output.contains("rank 2 on refusing-host") && r.output.contains("before connecting"), r.toString());
        assertTrue(r.output.contains("Connection refused"), "the agent's own message is shown\n" + r);

        t0 = System.nanoTime();
        r = mpi4jrun("-np", "3", "--hosts", "localhost:2,silent-host:1", "--agent", agent + " {host}",
                "--connect-timeout", "4", "-cp", cp(), FaultProgram.class.getName(), "sleep", "1");
        secs = (System.nanoTime() - t0) / 1e9;
        assertEquals(1, r.exitCode, r.toString());
        assertTrue(secs < 30, "took " + secs + " s\n" + r);
        assertTrue(r.output.contains("rank 2 on silent-host") && r.output.contains("never connected"), r.toString());
        assertFalse(r.output.contains("rank 0 on"), "the local ranks are not blamed\n" + r);
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) n++;
        return n;
    }
}
