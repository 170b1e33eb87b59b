package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/** The API suites in real processes under the system mpirun (the MPI backend), np 1 to 4. */
class MpiSuitesTest {
    private static Stream<DynamicNode> run(Class<?> suite) {
        return SuiteRunner.run(suite, Jobs.Launcher.MPIRUN, List.of(), null, 1, 2, 3, 4);
    }

    @TestFactory
    Stream<DynamicNode> pointToPoint() {
        return run(P2pSuite.class);
    }

    @TestFactory
    Stream<DynamicNode> collectives() {
        return run(CollectiveSuite.class);
    }

    @TestFactory
    Stream<DynamicNode> communicators() {
        return run(CommSuite.class);
    }

    @TestFactory
    Stream<DynamicNode> errors() {
        return run(ErrorSuite.class);
    }
}
