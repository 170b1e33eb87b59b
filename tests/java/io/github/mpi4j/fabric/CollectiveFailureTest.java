package io.github.mpi4j.fabric;

import io.github.mpi4j.testing.SuiteRunner;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/** Issue 7 item 1 on the fabric: a collective failing at one rank fails at every rank, promptly. */
class CollectiveFailureTest {
    @TestFactory
    Stream<DynamicNode> failuresReachEveryRank() {
        return SuiteRunner.threads(CollectiveFailureSuite.class, 3, 4);
    }
}
