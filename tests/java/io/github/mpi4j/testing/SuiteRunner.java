package io.github.mpi4j.testing;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;

/**
 * JUnit side of a rank suite: one real job per world size, each test method x communicator
 * variant reported as its own dynamic test, with the failing ranks' output in the message.
 */
public final class SuiteRunner {
    private SuiteRunner() {
    }

    private static final Pattern RESULT = Pattern.compile(
            Pattern.quote(RankRunner.RESULT) + " (\\d+) (\\S+) (\\S+) (PASS|FAIL|SKIP)(.*)");

    /** Dynamic tests for {@code suite} run under {@code launcher} at each of {@code sizes}. */
    public static Stream<DynamicNode> run(Class<?> suite, Jobs.Launcher launcher, List<String> launcherArgs,
                                          Map<String, String> env, int... sizes) {
        DynamicNode skipped = Requirements.skippedOrNull(launcher, suite.getSimpleName() + " under " + launcher);
        if (skipped != null) return Stream.of(skipped);
        List<DynamicNode> nodes = new ArrayList<>();
        for (int np : sizes) {
            nodes.add(DynamicContainer.dynamicContainer("np=" + np, runJob(suite, launcher, launcherArgs, env, np)));
        }
        return nodes.stream();
    }

    private static Stream<DynamicNode> runJob(Class<?> suite, Jobs.Launcher launcher, List<String> launcherArgs,
                                              Map<String, String> env, int np) {
        List<String> javaArgs = Arrays.asList("-cp", Jobs.classpath(), RankRunner.class.getName(), suite.getName());
        List<String> cmd = launcher == Jobs.Launcher.MPIRUN ? Jobs.mpirun(np, javaArgs)
                : launcher == Jobs.Launcher.MPICH ? Jobs.mpich(np, javaArgs)
                : Jobs.mpi4jrun(np, launcherArgs, javaArgs);
        Jobs.Result result;
        try {
            result = Jobs.run(cmd, env, 240);
        } catch (Exception e) {
            return Stream.of(DynamicTest.dynamicTest("launch", () -> {
                throw new AssertionError("could not start " + cmd, e);
            }));
        }
        return toTests(suite, result, np);
    }

    /**
     * Dynamic tests for {@code suite} in {@code np} JVMs started without any launcher, the way
     * {@code torchrun --no-python java ...} ({@code style} "torchrun": RANK, WORLD_SIZE,
     * LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT; no secret given, so the derived one)
     * or {@code srun java ...} ("slurm": SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID,
     * SLURM_STEP_NODELIST, SLURM_TASKS_PER_NODE, job and step ids; MPI4J_SECRET set) start them.
     */
    public static Stream<DynamicNode> runWithoutLauncher(Class<?> suite, String style, int np) {
        List<String> rankCommand = new ArrayList<>();
        rankCommand.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        rankCommand.addAll(Jobs.jvmOptions());
        rankCommand.addAll(Arrays.asList("-cp", Jobs.classpath(), RankRunner.class.getName(), suite.getName()));
        String perRank;
        if (style.equals("torchrun")) {
            perRank = "RANK=$r LOCAL_RANK=$r WORLD_SIZE=" + np + " LOCAL_WORLD_SIZE=" + np
                    + " MASTER_ADDR=127.0.0.1 MASTER_PORT=" + Ports.freeStorePort();
        } else {
            perRank = "SLURM_PROCID=$r SLURM_LOCALID=$r SLURM_NODEID=0 SLURM_NTASKS=" + np
                    + " SLURM_STEP_NODELIST=localhost SLURM_TASKS_PER_NODE='" + np + "(x1)' SLURM_JOB_ID=" + Ports.slurmJobWithFreePort()
                    + " SLURM_STEP_ID=0 MPI4J_SECRET=" + io.github.mpi4j.fabric.bootstrap.Secrets.hex(
                            io.github.mpi4j.fabric.bootstrap.Secrets.generate());
        }
        // Start every rank in the background with its variables, then wait for all: the exit
        // status is the first failing rank's.
        String script = "pids=(); for r in $(seq 0 " + (np - 1) + "); do env " + perRank + " \"$@\" & pids+=($!); done; "
                + "rc=0; for p in \"${pids[@]}\"; do wait $p || { s=$?; [ $rc -eq 0 ] && rc=$s; }; done; exit $rc";
        List<String> cmd = new ArrayList<>(Arrays.asList("bash", "-c", script, "bash"));
        cmd.addAll(rankCommand);
        Jobs.Result result;
        try {
            result = Jobs.run(cmd, null, 180);
        } catch (Exception e) {
            throw new AssertionError("could not start " + cmd, e);
        }
        return Stream.of(DynamicContainer.dynamicContainer(style + " np=" + np, toTests(suite, result, np)));
    }

    /** Dynamic tests for {@code suite} with ranks as threads of this JVM (fabric tier 1). */
    public static Stream<DynamicNode> threads(Class<?> suite, int... sizes) {
        List<DynamicNode> nodes = new ArrayList<>();
        for (int n : sizes) {
            Jobs.Result result;
            try {
                result = ThreadWorld.run(suite, n, 120);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            nodes.add(DynamicContainer.dynamicContainer("threads=" + n, toTests(suite, result, n)));
        }
        return nodes.stream();
    }

    /**
     * Dynamic tests for {@code suite} with ranks as threads placed on pretended nodes: each
     * layout gives the node of every rank, so the fabric's node-aware schedules run.
     */
    public static Stream<DynamicNode> threadsOnNodes(Class<?> suite, int[]... layouts) {
        List<DynamicNode> nodes = new ArrayList<>();
        for (int[] layout : layouts) {
            Jobs.Result result;
            try {
                result = ThreadWorld.run(suite, layout, 120);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            nodes.add(DynamicContainer.dynamicContainer("nodes=" + Arrays.toString(layout),
                    toTests(suite, result, layout.length)));
        }
        return nodes.stream();
    }

    /** Turns the result lines of all ranks into one dynamic test per (method, variant). */
    static Stream<DynamicNode> toTests(Class<?> suite, Jobs.Result result, int np) {
        Map<String, List<String>> outcomes = new LinkedHashMap<>();
        Matcher m = RESULT.matcher(result.output);
        while (m.find()) {
            String id = m.group(2) + " [" + m.group(3) + "]";
            outcomes.computeIfAbsent(id, k -> new ArrayList<>())
                    .add("rank " + m.group(1) + " " + m.group(4) + m.group(5));
        }
        List<DynamicNode> tests = new ArrayList<>();
        boolean anyFailure = false;
        for (Method method : RankRunner.testMethods(suite)) {
            for (String variant : new String[] {"world", "dup", "reversed"}) {
                String id = method.getName() + " [" + variant + "]";
                List<String> lines = outcomes.get(id);
                if (lines == null) {
                    if (np == 1 && !variant.equals("world")) continue;
                    boolean earlierFailed = anyFailure;
                    tests.add(DynamicTest.dynamicTest(id, () -> {
                        throw new AssertionError((earlierFailed ? "not run: an earlier test failed and ended the job"
                                : "no result: the job ended before this test") + "\n" + result);
                    }));
                    anyFailure = true;
                    continue;
                }
                List<String> failed = lines.stream().filter(l -> l.contains(" FAIL")).collect(Collectors.toList());
                boolean complete = lines.size() == np || lines.stream().anyMatch(l -> l.contains(" SKIP"));
                if (!failed.isEmpty()) anyFailure = true;
                tests.add(DynamicTest.dynamicTest(id, () -> {
                    if (!failed.isEmpty()) throw new AssertionError(String.join("\n", failed) + "\n" + result);
                    if (!complete) {
                        throw new AssertionError("only " + lines.size() + " of " + np + " ranks reported\n" + result);
                    }
                }));
            }
        }
        boolean fine = !anyFailure;
        tests.add(DynamicTest.dynamicTest("job exit", () -> {
            if (fine && (result.timedOut || result.exitCode != 0)) {
                throw new AssertionError("the job did not end cleanly\n" + result);
            }
        }));
        return tests.stream();
    }
}
