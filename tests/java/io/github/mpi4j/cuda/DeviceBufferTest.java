package io.github.mpi4j.cuda;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs {@link DeviceBufferSuite}: in this JVM against the CUDA runtime it finds (skipped with
 * CUDA's reason when there is no device), and in a fresh JVM against the CUDA library named by
 * {@code -Dmpi4j.test.cudaLibrary}, by default the test-only fake CUDA runtime the test build
 * makes (skipped, saying so, when there is none).
 */
class DeviceBufferTest {
    private static final Pattern LINE = Pattern.compile(Pattern.quote(DeviceBufferSuite.RESULT)
            + " (\\S+) (PASS|FAIL|SKIP) ?(.*)");

    @TestFactory
    Stream<DynamicNode> inThisJvm() {
        List<DynamicNode> tests = new ArrayList<>();
        for (Method m : DeviceBufferSuite.tests()) {
            tests.add(DynamicTest.dynamicTest(m.getName(), () -> {
                if (Boolean.getBoolean("mpi4j.native.skip")) Requirements.skip("DeviceBufferSuite", "native code was not built");
                if (Cuda.deviceCount() == 0) {
                    Requirements.skip("DeviceBufferSuite on this machine", "no CUDA device: " + Cuda.unavailableReason());
                }
                DeviceBufferSuite.run(m);
            }));
        }
        return tests.stream();
    }

    @TestFactory
    Stream<DynamicNode> underANamedCudaLibrary() throws Exception {
        String lib = System.getProperty("mpi4j.test.cudaLibrary", System.getenv("MPI4J_TEST_CUDA_LIBRARY"));
        if (lib == null || lib.isBlank()) lib = builtFake();
        if (lib == null) {
            return Stream.of(DynamicTest.dynamicTest("DeviceBufferSuite under a named CUDA library (skipped)",
                    () -> Requirements.skip("DeviceBufferSuite under a named CUDA library",
                            "no library named (-Dmpi4j.test.cudaLibrary or MPI4J_TEST_CUDA_LIBRARY) and the test build"
                                    + " made no fake CUDA runtime (tests/native/fake_gpu)")));
        }
        List<String> cmd = new ArrayList<>(List.of("env", "MPI4J_CUDA_LIBRARY=" + lib,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xcheck:jni", "-cp",
                // The suite asserts with JUnit: the test JVM's class path carries it.
                Jobs.classpath() + java.io.File.pathSeparator + System.getProperty("java.class.path"),
                DeviceBufferSuite.class.getName()));
        Jobs.Result r = Jobs.run(cmd, null, 300);
        String named = lib;
        List<DynamicNode> tests = new ArrayList<>();
        for (Method m : DeviceBufferSuite.tests()) {
            Matcher hit = null;
            for (String line : r.output.split("\n")) {
                Matcher x = LINE.matcher(line);
                if (x.matches() && x.group(1).equals(m.getName())) hit = x;
            }
            Matcher found = hit;
            tests.add(DynamicTest.dynamicTest(m.getName(), () -> {
                if (found == null) throw new AssertionError("no result for " + m.getName() + ":\n" + r);
                if (found.group(2).equals("SKIP")) Requirements.skip("DeviceBufferSuite under " + named, found.group(3));
                if (found.group(2).equals("FAIL")) throw new AssertionError(found.group(3) + "\n" + r);
            }));
        }
        return tests.stream();
    }

    /** The fake CUDA runtime the test build made (docs/testing-gpu.md), or null. */
    private static String builtFake() {
        String dir = System.getProperty("mpi4j.test.nativeDir");
        if (dir == null) return null;
        Path fake = Path.of(dir, "fake_gpu", "libfakecudart.so");
        return java.nio.file.Files.isRegularFile(fake) ? fake.toString() : null;
    }
}
