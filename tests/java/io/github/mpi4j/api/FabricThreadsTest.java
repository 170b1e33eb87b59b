package io.github.mpi4j.api;

import io.github.mpi4j.testing.SuiteRunner;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/** Tier 1: the API suites on the fabric with ranks as threads of one JVM, sizes 1 to 16. */
class FabricThreadsTest {
    private static final int[] SIZES = {1, 2, 3, 4, 5, 7, 8, 16};

    @TestFactory
    Stream<DynamicNode> pointToPoint() {
        return SuiteRunner.threads(P2pSuite.class, SIZES);
    }

    @TestFactory
    Stream<DynamicNode> collectives() {
        return SuiteRunner.threads(CollectiveSuite.class, SIZES);
    }

    @TestFactory
    Stream<DynamicNode> schedules() {
        return SuiteRunner.threads(ScheduleSuite.class, 1, 2, 3, 5, 8, 13);
    }

    /**
     * Ranks on pretended nodes, so the node-aware allreduce runs: uniform nodes (2D schedule for
     * large messages), uneven nodes (leader schedule), and ranks interleaved across nodes.
     */
    private static final int[][] LAYOUTS = {
        {0, 0, 1, 1, 2, 2},
        {0, 0, 0, 1, 1, 2, 2},
        {0, 1, 0, 1, 0, 1, 0, 1},
        {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2},
        {5, 5, 9},
    };

    @TestFactory
    Stream<DynamicNode> collectivesOnSeveralNodes() {
        return Stream.concat(SuiteRunner.threadsOnNodes(CollectiveSuite.class, LAYOUTS),
                SuiteRunner.threadsOnNodes(ScheduleSuite.class, LAYOUTS));
    }

    @TestFactory
    Stream<DynamicNode> communicators() {
        return SuiteRunner.threads(CommSuite.class, SIZES);
    }

    @TestFactory
    Stream<DynamicNode> nativeMemory() {
        return SuiteRunner.threads(NativeMemorySuite.class, 1, 2, 3, 4);
    }

    @TestFactory
    Stream<DynamicNode> errors() {
        return SuiteRunner.threads(ErrorSuite.class, 1, 2, 3);
    }
}
