package io.github.mpi4j.cuda;

import io.github.mpi4j.testing.FakeGpu;
import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs {@link CudaSyncCopySuite} in a fresh JVM against the test-only fake CUDA runtime, with two
 * fake devices and no progress thread ({@code FAKE_GPU_LAG_MS=-1}): the fake then runs a deferred
 * {@code cudaMemcpy} only when the legacy stream is synchronized, so every test fails if mpi4j's
 * synchronous copies return before their bytes have landed. Skipped, saying why, without the fake.
 */
class CudaSyncCopyTest {
    private static final Pattern LINE = Pattern.compile(Pattern.quote(CudaSyncCopySuite.RESULT)
            + " (\\S+) (PASS|FAIL|SKIP) ?(.*)");

    @TestFactory
    Stream<DynamicNode> underTheFakeRuntime() throws Exception {
        String why = FakeGpu.missing();
        if (why != null) {
            return Stream.of(DynamicTest.dynamicTest("CudaSyncCopySuite under the fake (skipped)",
                    () -> Requirements.skip("CudaSyncCopySuite under the fake CUDA runtime", why)));
        }
        Map<String, String> env = FakeGpu.env(2);
        env.put("FAKE_GPU_LAG_MS", "-1");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(Jobs.jvmOptions());
        // The suite asserts with JUnit: the test JVM's class path carries it.
        cmd.addAll(List.of("-cp", Jobs.classpath() + java.io.File.pathSeparator + System.getProperty("java.class.path"),
                CudaSyncCopySuite.class.getName()));
        Jobs.Result r = Jobs.run(cmd, env, 120);
        List<DynamicNode> tests = new ArrayList<>();
        for (Method m : CudaSyncCopySuite.tests()) {
            Matcher hit = null;
            for (String line : r.output.split("\n")) {
                Matcher x = LINE.matcher(line);
                if (x.matches() && x.group(1).equals(m.getName())) hit = x;
            }
            Matcher found = hit;
            tests.add(DynamicTest.dynamicTest(m.getName(), () -> {
                if (found == null) throw new AssertionError("no result for " + m.getName() + ":\n" + r);
                if (found.group(2).equals("SKIP")) Requirements.skip("CudaSyncCopySuite." + m.getName(), found.group(3));
                if (found.group(2).equals("FAIL")) throw new AssertionError(found.group(3) + "\n" + r);
            }));
        }
        return tests.stream();
    }
}
