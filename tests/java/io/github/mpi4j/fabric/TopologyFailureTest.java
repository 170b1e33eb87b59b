package io.github.mpi4j.fabric;

import io.github.mpi4j.testing.SuiteRunner;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link TopologyFailureSuite} on the fabric with ranks as threads; at 5 ranks some are not
 * neighbours of the failing one.
 */
class TopologyFailureTest {
    @TestFactory
    Stream<DynamicNode> failuresReachEveryRank() {
        return SuiteRunner.threads(TopologyFailureSuite.class, 2, 3, 5);
    }
}
