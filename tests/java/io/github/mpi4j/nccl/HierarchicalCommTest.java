package io.github.mpi4j.nccl;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import io.github.mpi4j.testing.SuiteRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link HierarchicalSuite} and {@link MeshSuite} in real processes under mpi4jrun on simulated
 * nodes of this machine: {@code --hosts localhost:2,127.0.0.1:2 --agent env} gives two "hosts"
 * (each rank's MPI4J_NODE, which the fabric and the fake NCCL take as its node), so each node
 * has its own fake GPUs 0.. and its own NCCL communicator. Against the test-only fake CUDA+NCCL
 * pair (docs/testing-gpu.md); skipped, saying why, when native code or the fake was not built.
 */
class HierarchicalCommTest {
    /** The fake's libraries, or null with the reason in {@code why[0]} (as NcclCommTest). */
    private static Map<String, String> fakeEnv(String[] why) {
        if (Boolean.getBoolean("mpi4j.native.skip")) {
            why[0] = "native code was not built (-Dmpi4j.native.skip=true)";
            return null;
        }
        String dir = System.getProperty("mpi4j.test.nativeDir");
        Path fake = Path.of(dir == null ? "target/test-native" : dir, "fake_gpu").toAbsolutePath();
        Path cudart = fake.resolve("libfakecudart.so");
        Path nccl = fake.resolve("libfakenccl.so");
        if (!Files.isRegularFile(cudart) || !Files.isRegularFile(nccl)) {
            why[0] = "the test build made no fake CUDA/NCCL pair in " + fake + " (it needs the CUDA runtime headers)";
            return null;
        }
        return Map.of("MPI4J_CUDA_LIBRARY", cudart.toString(), "MPI4J_NCCL_LIBRARY", nccl.toString(),
                "FAKE_GPU_DEVICES", "4");
    }

    private static Stream<DynamicNode> onHosts(Class<?> suite, String hosts, int np) {
        String what = suite.getSimpleName() + " on hosts " + hosts;
        String[] why = new String[1];
        Map<String, String> env = fakeEnv(why);
        if (env == null) {
            return Stream.of(DynamicTest.dynamicTest(what + " (skipped)", () -> Requirements.skip(what, why[0])));
        }
        List<String> launcher = List.of("--hosts", hosts, "--agent", "env");
        return Stream.of(DynamicContainer.dynamicContainer("hosts " + hosts,
                SuiteRunner.run(suite, Jobs.Launcher.MPI4JRUN, launcher, env, np)));
    }

    /** Two nodes of two ranks: the case a leader-only inter-node step gets wrong. */
    @TestFactory
    Stream<DynamicNode> twoNodesOfTwoRanks() {
        return onHosts(HierarchicalSuite.class, "localhost:2,127.0.0.1:2", 4);
    }

    /** Nodes of different sizes: local index 1 and 2 have no partner on the second node. */
    @TestFactory
    Stream<DynamicNode> nodesOfThreeAndOneRanks() {
        return onHosts(HierarchicalSuite.class, "localhost:3,127.0.0.1:1", 4);
    }

    /**
     * Three nodes of 2, 1 and 2 ranks (the third "host" is this machine's own name, which
     * mpi4jrun also starts locally): more than two nodes, of unequal sizes.
     */
    @TestFactory
    Stream<DynamicNode> threeNodesOfTwoOneAndTwoRanks() {
        String self;
        try {
            self = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            String what = "HierarchicalSuite on three hosts";
            return Stream.of(DynamicTest.dynamicTest(what + " (skipped)",
                    () -> Requirements.skip(what, "this machine's host name does not resolve: " + e)));
        }
        return onHosts(HierarchicalSuite.class, "localhost:2,127.0.0.1:1," + self + ":2", 5);
    }

    /** One node of two ranks: the inter-node step is empty. */
    @TestFactory
    Stream<DynamicNode> oneNode() {
        return onHosts(HierarchicalSuite.class, "localhost:2", 2);
    }

    @TestFactory
    Stream<DynamicNode> meshOnTwoNodesOfTwoRanks() {
        return onHosts(MeshSuite.class, "localhost:2,127.0.0.1:2", 4);
    }
}
