package io.github.mpi4j.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.mpi4j.testing.Requirements;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The test-only fake CUDA runtime + NCCL pair itself (tests/native/fake_gpu, docs/testing-gpu.md),
 * through its C test program: each scenario forks its ranks, checks results against references
 * computed from rank and size, and exits 0 only when every rank passed. The fake must behave like
 * the real libraries (mpi4j's GPU tests rely on it), so its error texts are also compared with the
 * real libcudart's and libnccl's where they are installed.
 */
class FakeGpuLibraryTest {
    private static final long TIMEOUT_S = 90;

    /** The fake's directory under target/test-native, or a skip with the reason. */
    static Path fakeDir() {
        String what = "fake GPU libraries";
        if (Boolean.getBoolean("mpi4j.native.skip")) {
            Requirements.skip(what, "native code was not built (-Dmpi4j.native.skip=true)");
        }
        String dir = System.getProperty("mpi4j.test.nativeDir");
        Path fake = Path.of(dir == null ? "target/test-native" : dir, "fake_gpu").toAbsolutePath();
        if (!Files.isRegularFile(fake.resolve("fake_gpu_test"))) {
            if (!Files.isRegularFile(Path.of("/usr/local/cuda/include/cuda_runtime_api.h"))) {
                Requirements.skip(what, "no CUDA runtime headers (cuda_runtime_api.h), so the fake was not built: "
                        + "install the CUDA toolkit headers or set CUDA_HOME");
            }
            fail(fake.resolve("fake_gpu_test") + " was not built although the CUDA headers are here "
                    + "(tests/native/fake_gpu/CMakeLists.txt)");
        }
        return fake;
    }

    private static String run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        Path dir = fakeDir();
        List<String> cmd = new ArrayList<>();
        cmd.add(dir.resolve("fake_gpu_test").toString());
        cmd.addAll(List.of(args));
        // Output goes to a file: a failing scenario may print more than a pipe holds.
        Path log = Files.createTempFile("fake_gpu_test", ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("FAKE_GPU_") || k.startsWith("FAKE_NCCL_") || k.equals("MPI4J_NODE"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String text;
        try {
            // The program's own ranks have a 60 s alarm; this deadline is the last resort.
            boolean done = p.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
            if (!done) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            text = Files.readString(log, StandardCharsets.UTF_8);
            if (!done) fail("fake_gpu_test " + String.join(" ", args) + " did not finish in " + TIMEOUT_S + " s:\n" + text);
        } finally {
            Files.deleteIfExists(log);
        }
        assertEquals(0, p.exitValue(), "fake_gpu_test " + String.join(" ", args) + ":\n" + text);
        return text;
    }

    @Test
    void pointerChecksAndTheAllocationRegistry() throws Exception {
        assertTrue(run(Map.of("FAKE_GPU_DEVICES", "3"), "memory").contains("PASS memory"));
    }

    /** Strict mode (no progress thread): stale reads are certain, not just likely. */
    @Test
    void noDeviceIsReportedAsTheRealRuntimeDoes() throws Exception {
        assertTrue(run(Map.of("FAKE_GPU_DEVICES", "0"), "nodevice").contains("PASS nodevice"));
    }

    @Test
    void streamsRunQueuedWorkOnlyWhenSynchronized() throws Exception {
        assertTrue(run(Map.of("FAKE_GPU_LAG_MS", "-1"), "streams").contains("PASS streams"));
    }

    /** With the default lag, old queued work runs by itself: no deadlock a real GPU would not have. */
    @Test
    void queuedWorkProgressesWithoutTheHostAfterTheLag() throws Exception {
        assertTrue(run(Map.of(), "lag", "2").contains("PASS lag"));
    }

    @ParameterizedTest(name = "np {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void collectivesOnEveryTypeAndOpMatchReferences(int np) throws Exception {
        assertTrue(run(Map.of(), "collectives", Integer.toString(np)).contains("PASS collectives np=" + np));
    }

    @Test
    void aNonBlockingCommunicatorCompletesWhilePolled() throws Exception {
        assertTrue(run(Map.of(), "nonblocking", "3").contains("PASS nonblocking"));
    }

    @Test
    void ncclArgumentChecksAndErrorCodes() throws Exception {
        assertTrue(run(Map.of(), "argchecks", "2").contains("PASS argchecks"));
    }

    @Test
    void aRankThatNeverArrivesGivesTheOthersATimeout() throws Exception {
        String out = run(Map.of("FAKE_NCCL_FAULT", "absent:2", "FAKE_NCCL_TIMEOUT_MS", "1500"), "absent", "3");
        assertTrue(out.contains("PASS absent"), out);
    }

    @Test
    void aReceiveOfAnotherSizeThanTheSendIsAnAsyncError() throws Exception {
        assertTrue(run(Map.of(), "mismatch", "2").contains("PASS mismatch"));
    }

    @Test
    void aRankThatNeverJoinsFailsTheOthersInit() throws Exception {
        assertTrue(run(Map.of("FAKE_NCCL_TIMEOUT_MS", "1000"), "noinit", "3").contains("PASS noinit"));
    }

    @Test
    void twoRanksOfOneNodeMayNotShareAGpu() throws Exception {
        assertTrue(run(Map.of(), "duplicate", "2").contains("PASS duplicate"));
    }

    @Test
    void aRankThatExitsGivesTheOthersARemoteError() throws Exception {
        assertTrue(run(Map.of(), "dead", "3").contains("PASS dead"));
    }

    /**
     * A peer that completed its part and then destroyed its communicator and exited, while this
     * rank was descheduled between finding it late and checking whether it is gone, has not
     * failed the operation (was a flake under load: "ReduceScatter: rank 3 is gone").
     */
    @Test
    void aPeerThatLeftAfterDoingItsPartFailsNothing() throws Exception {
        String out = run(Map.of("FAKE_NCCL_FAULT", "stall:1:500"), "leave", "2");
        assertTrue(out.contains("PASS leave"), out);
    }

    @Test
    void anInjectedAsynchronousError() throws Exception {
        assertTrue(run(Map.of("FAKE_NCCL_FAULT", "async:1:1"), "async", "2").contains("PASS async"));
    }

    @Test
    void noOpMode() throws Exception {
        assertTrue(run(Map.of("FAKE_NCCL_NOOP", "1"), "noop").contains("PASS noop"));
    }

    /** The error texts equal the real libraries' (each compared where it is installed). */
    @Test
    void errorTextsMatchTheRealLibraries() throws Exception {
        String cudart = firstExisting(Stream.of("/usr/local/cuda/lib64/libcudart.so.13", "/usr/local/cuda/lib64/libcudart.so.12"));
        String nccl = firstExisting(pythonNvidiaLibs("nccl", "libnccl.so.2"));
        if (cudart.equals("-") && nccl.equals("-")) {
            Requirements.skip("fake GPU error texts", "neither a real libcudart nor a real libnccl is installed "
                    + "(CUDA toolkit; pip install nvidia-nccl-cu13)");
        }
        String out = run(Map.of(), "strings", cudart, nccl);
        assertTrue(out.contains("PASS strings"), out);
    }

    private static String firstExisting(Stream<String> candidates) {
        return candidates.filter(c -> Files.isRegularFile(Path.of(c))).findFirst().orElse("-");
    }

    /** site-packages/nvidia/<pkg>/lib/<file> of the Python environments that python3 names. */
    private static Stream<String> pythonNvidiaLibs(String pkg, String file) {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
                    .redirectErrorStream(true).start();
            String site = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) return Stream.empty();
            return Stream.of(site + "/nvidia/" + pkg + "/lib/" + file);
        } catch (IOException | InterruptedException e) {
            return Stream.empty();
        }
    }
}
