package io.github.mpi4j.nccl;

import io.github.mpi4j.testing.FakeGpu;
import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import io.github.mpi4j.testing.SuiteRunner;
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
        why[0] = FakeGpu.missing();
        return why[0] == null ? FakeGpu.env(4) : null;
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
