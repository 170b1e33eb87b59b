package io.github.mpi4j.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The environment that points mpi4j at the test-only fake CUDA runtime + NCCL pair
 * (tests/native/fake_gpu, docs/testing-gpu.md), for jobs started by tests; or a skip, with the
 * reason, where the build made no fake.
 */
public final class FakeGpu {
    private FakeGpu() {
    }

    /** The directory the test build puts the fake in. */
    public static Path dir() {
        String d = System.getProperty("mpi4j.test.nativeDir");
        return Path.of(d == null ? Path.of(Jobs.basedir(), "target", "test-native").toString() : d, "fake_gpu")
                .toAbsolutePath();
    }

    /** Why there is no fake here, or null when there is one. */
    public static String missing() {
        if (Boolean.getBoolean("mpi4j.native.skip")) return "native code was not built (-Dmpi4j.native.skip=true)";
        if (!Files.isRegularFile(dir().resolve("libfakecudart.so")) || !Files.isRegularFile(dir().resolve("libfakenccl.so"))) {
            return "the test build made no fake CUDA/NCCL pair in " + dir() + " (it needs the CUDA runtime headers)";
        }
        return null;
    }

    /** Skips the calling test, naming {@code what}, unless the fake is here. */
    public static void assume(String what) {
        String why = missing();
        if (why != null) Requirements.skip(what, why);
    }

    /** MPI4J_CUDA_LIBRARY and MPI4J_NCCL_LIBRARY of the fake, with {@code devices} fake GPUs per node. */
    public static Map<String, String> env(int devices) {
        Map<String, String> env = new HashMap<>();
        env.put("MPI4J_CUDA_LIBRARY", dir().resolve("libfakecudart.so").toString());
        env.put("MPI4J_NCCL_LIBRARY", dir().resolve("libfakenccl.so").toString());
        env.put("FAKE_GPU_DEVICES", Integer.toString(devices));
        return env;
    }
}
