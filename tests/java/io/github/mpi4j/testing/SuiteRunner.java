package io.github.mpi4j.testing;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
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
        if (launcher == Jobs.Launcher.MPIRUN) {
            Assumptions.assumeTrue(Jobs.mpirunAvailable(),
                    "mpirun is not on PATH: install Open MPI (openmpi-bin, libopenmpi-dev) to run the MPI tests");
        }
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
