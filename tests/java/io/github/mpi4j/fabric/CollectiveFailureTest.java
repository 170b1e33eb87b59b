package io.github.mpi4j.fabric;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 7 item 1 on the fabric: a collective failing at one rank fails at every rank, promptly,
 * and the communicator gives right results afterwards — with ranks as threads (np 3 and 4: the
 * reduce tree has inner ranks) and as processes of mpi4jrun over shared memory (np 3).
 */
class CollectiveFailureTest {
    @TestFactory
    Stream<DynamicNode> failuresReachEveryRankThreads() {
        return SuiteRunner.threads(CollectiveFailureSuite.class, 3, 4);
    }

    @TestFactory
    Stream<DynamicNode> failuresReachEveryRankProcesses() {
        return SuiteRunner.run(CollectiveFailureSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 3);
    }
}
