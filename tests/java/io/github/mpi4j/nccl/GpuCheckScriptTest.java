package io.github.mpi4j.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.cuda.DeviceBufferSuite;
import io.github.mpi4j.testing.FakeGpu;
import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.RankRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tests/gpu/run-on-gpu.sh, the script that runs the GPU suites on a real GPU, kept working
 * between the sessions that have one: run here against the fake pair posing as a machine with one
 * GPU (every rank on device 0, as on the H200 it was written for; the fake's duplicate-GPU check
 * lifted, as NCCL_HOSTID lifts NCCL's), with two suites and no benchmarks. The summary must give
 * each suite as many passes as it has tests (RankRunner's list, times its three communicators for
 * a rank suite) and no failure. Skipped, saying why, without the fake.
 */
class GpuCheckScriptTest {
    @Test
    void runsTheSuitesOnOneGpuAndSummarisesThem(@TempDir Path out) throws Exception {
        FakeGpu.assume("tests/gpu/run-on-gpu.sh against the fake");
        Map<String, String> env = FakeGpu.env(1);
        env.put("FAKE_NCCL_ALLOW_SHARED_GPU", "1");
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("EXTRA_CP", System.getProperty("java.class.path")); // the JUnit API, for DeviceBufferSuite
        env.put("SUITES", "nccl-np2 device-buffer");
        env.put("BENCH", "none");
        Path script = Path.of(Jobs.basedir(), "tests", "gpu", "run-on-gpu.sh");
        Jobs.Result r = Jobs.run(List.of(script.toString(), out.toString()), env, 300);
        assertEquals(0, r.exitCode, "the script's exit status\n" + r.output);

        String summary = Files.readString(out.resolve("summary.txt"));
        int rankTests = 3 * RankRunner.testMethods(NcclSuite.class).size();
        assertTrue(summary.contains("nccl-np2: " + rankTests + " pass, 0 fail, 0 skip"), summary);
        int singleTests = DeviceBufferSuite.tests().size();
        assertTrue(summary.contains("device-buffer: " + singleTests + " pass, 0 fail"), summary);
        assertTrue(summary.contains("every rank is its own NCCL host"), "no nvidia-smi: the wrapper is used\n" + summary);
        assertTrue(Files.isRegularFile(out.resolve("machine.txt")), "machine.txt");
    }
}
