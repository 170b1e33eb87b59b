package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 11 item 3: spawning processes, on the fabric (parents started by mpi4jrun; children
 * started by the spawning root) and on the MPI backend (Open MPI's mpirun, MPI_Comm_spawn), plus
 * the fabric's failures (children that never join) and its refusal under srun- and
 * torchrun-style starts. Spawning starts real JVMs, so every job here is kept small.
 */
class SpawnTest {
    @TestFactory
    Stream<DynamicNode> fabricProcesses() {
        return SuiteRunner.run(SpawnSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 2);
    }

    @TestFactory
    Stream<DynamicNode> fabricFailures() {
        return SuiteRunner.run(SpawnFailureSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 2);
    }

    @TestFactory
    Stream<DynamicNode> fabricRefusedUnderSrunAndTorchrun() {
        return Stream.concat(SuiteRunner.runWithoutLauncher(SpawnRefusalSuite.class, "slurm", 2),
                SuiteRunner.runWithoutLauncher(SpawnRefusalSuite.class, "torchrun", 2));
    }

    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(DynamicContainer.dynamicContainer("Open MPI",
                SuiteRunner.run(SpawnSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 2)));
    }

    /** MPICH as packaged here (ucx netmod) cannot spawn: a clear ERR_SPAWN at every rank, or a working spawn. */
    @TestFactory
    Stream<DynamicNode> mpich() {
        return Stream.of(DynamicContainer.dynamicContainer("MPICH",
                SuiteRunner.run(SpawnMpichSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }

    private static List<String> plainJava(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(Jobs.jvmOptions());
        cmd.addAll(Arrays.asList("-cp", Jobs.classpath()));
        cmd.addAll(Arrays.asList(args));
        return cmd;
    }

    /** A singleton parent (plain java, no launcher) spawns on the fabric too. */
    @TestFactory
    Stream<DynamicNode> fabricSingletonParent() {
        return Stream.of(DynamicTest.dynamicTest("singleton spawnTwoChildren + childrenSpawnAgain", () -> {
            for (String t : new String[] {"spawnTwoChildren", "childrenSpawnAgain"}) {
                Jobs.Result r = Jobs.run(plainJava(io.github.mpi4j.testing.RankRunner.class.getName(),
                        SpawnSuite.class.getName(), t), Map.of("MPI4J_BACKEND", "fabric"), 180);
                Assertions.assertTrue(r.exitCode == 0 && r.output.contains("RESULT 0 " + t + " world PASS"),
                        r.toString());
            }
        }));
    }

    /**
     * Spawned children do not warm up under mpi4jrun's auto (their world cannot count the
     * parents on their node). The singleton parent skips it (one process) and says so, which
     * shows the setting was read; two children, whose own world has a processor per rank on a
     * machine of 2 or more, would report a warm start if they inherited auto.
     */
    @TestFactory
    Stream<DynamicNode> fabricChildrenDoNotWarmUpUnderAuto() {
        return Stream.of(DynamicTest.dynamicTest("singleton parent, MPI4J_WARMUP=auto", () -> {
            Jobs.Result r = Jobs.run(plainJava(io.github.mpi4j.testing.RankRunner.class.getName(),
                    SpawnSuite.class.getName(), "spawnTwoChildren"),
                    Map.of("MPI4J_BACKEND", "fabric", "MPI4J_WARMUP", "auto", "MPI4J_VERBOSE", "1"), 180);
            Assertions.assertTrue(r.exitCode == 0 && r.output.contains("RESULT 0 spawnTwoChildren world PASS"),
                    r.toString());
            Assertions.assertTrue(r.output.contains("mpi4j: warm start: auto, skipped (one process"), r.toString());
            long reports = r.output.lines().filter(l -> l.contains("mpi4j: warm start: ") && !l.contains("skipped"))
                    .count();
            Assertions.assertEquals(0, reports, "the children did not warm up\n" + r);
        }));
    }

    /**
     * No orphans: a parent that aborts, exits without MPI.Finalize or dies outright takes its
     * spawned children with it (abort kills them, a shutdown hook kills them, and a crash ends
     * their lifeline to the parent's rendezvous store), within seconds.
     */
    @TestFactory
    Stream<DynamicNode> fabricChildrenDieWithTheirParent() {
        List<DynamicNode> tests = new ArrayList<>();
        for (String how : new String[] {"abort", "exit", "halt"}) {
            tests.add(DynamicTest.dynamicTest("parent ends by " + how, () -> {
                Jobs.Result r = Jobs.run(plainJava(SpawnEndProgram.class.getName(), how),
                        Map.of("MPI4J_BACKEND", "fabric"), 120);
                Assertions.assertFalse(r.timedOut, r.toString());
                Assertions.assertNotEquals(0, r.exitCode, r.toString());
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("CHILDREN((?: \\d+)+)").matcher(r.output);
                Assertions.assertTrue(m.find(), "no CHILDREN line\n" + r);
                long[] pids = Arrays.stream(m.group(1).trim().split(" ")).mapToLong(Long::parseLong).toArray();
                Assertions.assertEquals(2, pids.length, r.toString());
                long deadline = System.nanoTime() + 20_000_000_000L;
                for (long pid : pids) {
                    while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                            && System.nanoTime() < deadline) {
                        Thread.sleep(50);
                    }
                    Assertions.assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                            "spawned process " + pid + " outlived its parent by 20 s\n" + r);
                }
            }));
        }
        return tests.stream();
    }
}
