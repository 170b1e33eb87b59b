package io.github.mpi4j.device;

import io.github.mpi4j.testing.FakeGpu;
import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.RankRunner;
import io.github.mpi4j.testing.Requirements;
import io.github.mpi4j.testing.SuiteRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link DeviceMpiSuite} in real processes against the test-only fake CUDA runtime
 * (docs/testing-gpu.md): staged through pinned memory under mpi4jrun (fabric) at np 2-4 and
 * mpirun (Open MPI) at np 2, and with device addresses given to Open MPI as they are
 * ({@code MPI4J_MPI_CUDA_AWARE=yes}: the fake's device memory is host memory, so a non-CUDA-aware
 * Open MPI can read it). {@link WithoutCudaSuite} where no CUDA runtime opens.
 */
class DeviceMpiTest {
    /** The fake CUDA runtime with 4 devices, or null with the reason in {@code why[0]}. */
    /** The fake CUDA runtime only (no NCCL: these paths must not need it), or null with the reason. */
    private static Map<String, String> fakeEnv(String[] why) {
        why[0] = FakeGpu.missing();
        if (why[0] != null) return null;
        Map<String, String> env = FakeGpu.env(4);
        env.remove("MPI4J_NCCL_LIBRARY");
        return env;
    }

    private static Stream<DynamicNode> skipped(String what, String why) {
        return Stream.of(DynamicTest.dynamicTest(what + " (skipped)", () -> Requirements.skip(what, why)));
    }

    @TestFactory
    Stream<DynamicNode> stagedUnderMpi4jrun() {
        String[] why = new String[1];
        Map<String, String> env = fakeEnv(why);
        if (env == null) return skipped("DeviceMpiSuite under mpi4jrun", why[0]);
        return SuiteRunner.run(DeviceMpiSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), env, 2, 3, 4);
    }

    @TestFactory
    Stream<DynamicNode> stagedUnderMpirun() {
        String[] why = new String[1];
        Map<String, String> env = fakeEnv(why);
        if (env == null) return skipped("DeviceMpiSuite under mpirun", why[0]);
        env.put("MPI4J_MPI_CUDA_AWARE", "no");
        return SuiteRunner.run(DeviceMpiSuite.class, Jobs.Launcher.MPIRUN, List.of(), env, 2);
    }

    @TestFactory
    Stream<DynamicNode> cudaAwareMpiUnderMpirun() {
        String[] why = new String[1];
        Map<String, String> env = fakeEnv(why);
        if (env == null) return skipped("DeviceMpiSuite with a CUDA-aware MPI", why[0]);
        env.put("MPI4J_MPI_CUDA_AWARE", "yes");
        return SuiteRunner.run(DeviceMpiSuite.class, Jobs.Launcher.MPIRUN, List.of(), env, 2);
    }

    /** Ranks as threads of one JVM (fabric, in-process transport), in a JVM of its own that loads the fake. */
    @org.junit.jupiter.api.Test
    void stagedWithRanksAsThreads() throws Exception {
        String[] why = new String[1];
        Map<String, String> env = fakeEnv(why);
        if (env == null) Requirements.skip("DeviceMpiSuite with ranks as threads", why[0]);
        int n = 3;
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(Jobs.jvmOptions());
        cmd.addAll(List.of("-cp", Jobs.classpath(), DeviceThreadsProgram.class.getName(), Integer.toString(n)));
        Jobs.Result r = Jobs.run(cmd, env, 180);
        long passed = r.output.lines().filter(l -> l.startsWith(RankRunner.RESULT) && l.endsWith(" PASS")).count();
        long methods = RankRunner.testMethods(DeviceMpiSuite.class).size();
        org.junit.jupiter.api.Assertions.assertTrue(r.exitCode == 0 && !r.output.contains(" FAIL"), r.toString());
        org.junit.jupiter.api.Assertions.assertEquals(methods * 3 * n, passed, "every test passed on every rank\n" + r);
    }

    /** {@link #fakeEnv} with the fake NCCL too, or null with the reason in {@code why[0]}. */
    private static Map<String, String> fakeNcclEnv(String[] why) {
        Map<String, String> env = fakeEnv(why);
        if (env == null) return null;
        Path nccl = Path.of(env.get("MPI4J_CUDA_LIBRARY")).resolveSibling("libfakenccl.so");
        if (!Files.isRegularFile(nccl)) {
            why[0] = "the test build made no fake NCCL at " + nccl;
            return null;
        }
        env.put("MPI4J_NCCL_LIBRARY", nccl.toString());
        return env;
    }

    /** NCCL mode by the environment: {@link NcclModeSuite}, and {@link DeviceMpiSuite} unchanged (its results must not change). */
    @TestFactory
    Stream<DynamicNode> ncclModeUnderMpi4jrun() {
        String[] why = new String[1];
        Map<String, String> env = fakeNcclEnv(why);
        if (env == null) return skipped("NcclModeSuite under mpi4jrun", why[0]);
        env.put("MPI4J_DEVICE_COLLECTIVES", "nccl");
        return Stream.concat(SuiteRunner.run(NcclModeSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), env, 2, 3, 4),
                SuiteRunner.run(DeviceMpiSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), env, 2, 4));
    }

    @TestFactory
    Stream<DynamicNode> ncclModeUnderMpirun() {
        String[] why = new String[1];
        Map<String, String> env = fakeNcclEnv(why);
        if (env == null) return skipped("NcclModeSuite under mpirun", why[0]);
        env.put("MPI4J_DEVICE_COLLECTIVES", "nccl");
        env.put("MPI4J_MPI_CUDA_AWARE", "no");
        return Stream.concat(SuiteRunner.run(NcclModeSuite.class, Jobs.Launcher.MPIRUN, List.of(), env, 2),
                SuiteRunner.run(DeviceMpiSuite.class, Jobs.Launcher.MPIRUN, List.of(), env, 2));
    }

    /** NCCL mode by the info key on one duplicate only. */
    @TestFactory
    Stream<DynamicNode> ncclModeByInfoKey() {
        String[] why = new String[1];
        Map<String, String> env = fakeNcclEnv(why);
        if (env == null) return skipped("NcclInfoSuite", why[0]);
        return Stream.concat(SuiteRunner.run(NcclInfoSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), env, 2, 3),
                SuiteRunner.run(NcclInfoSuite.class, Jobs.Launcher.MPIRUN, List.of(), env, 2));
    }

    /** NCCL mode with the fake CUDA but no NCCL: an exception on every rank, no hang. */
    @TestFactory
    Stream<DynamicNode> ncclModeWithoutNccl() {
        String[] why = new String[1];
        Map<String, String> env = fakeEnv(why);
        if (env == null) return skipped("NcclAbsentSuite", why[0]);
        env.put("MPI4J_NCCL_LIBRARY", "/no-such-dir/libnccl.so.2");
        env.put("MPI4J_DEVICE_COLLECTIVES", "nccl");
        return SuiteRunner.run(NcclAbsentSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), env, 2, 3);
    }

    /** A bad MPI4J_DEVICE_COLLECTIVES fails MPI.Init on every rank, naming variable and value. */
    @org.junit.jupiter.api.Test
    void aBadModeFailsMpiInitNamingIt() throws Exception {
        for (Jobs.Launcher l : List.of(Jobs.Launcher.MPI4JRUN, Jobs.Launcher.MPIRUN)) {
            if (l == Jobs.Launcher.MPIRUN && !Jobs.mpirunAvailable()) continue;
            List<String> java = List.of("-cp", Jobs.classpath(), RankRunner.class.getName(), NcclModeSuite.class.getName());
            List<String> cmd = l == Jobs.Launcher.MPIRUN ? Jobs.mpirun(2, java) : Jobs.mpi4jrun(2, List.of(), java);
            Jobs.Result r = Jobs.run(cmd, Map.of("MPI4J_DEVICE_COLLECTIVES", "gpu"), 120);
            org.junit.jupiter.api.Assertions.assertTrue(r.exitCode != 0, l + ": the job failed\n" + r);
            org.junit.jupiter.api.Assertions.assertTrue(r.output.contains("MPI4J_DEVICE_COLLECTIVES = 'gpu' is not a device "
                    + "collectives mode"), l + ": the message names variable and value\n" + r);
        }
    }

    @TestFactory
    Stream<DynamicNode> refusedWithoutCuda() {
        if (Boolean.getBoolean("mpi4j.native.skip")) {
            return skipped("WithoutCudaSuite", "native code was not built (-Dmpi4j.native.skip=true)");
        }
        // A path that does not exist: the only candidate, so no CUDA runtime opens.
        Map<String, String> env = Map.of("MPI4J_CUDA_LIBRARY", "/no-such-dir/libcudart.so.13");
        return SuiteRunner.run(WithoutCudaSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), env, 2);
    }
}
