package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The API suites under MPICH's launcher (mpiexec.hydra): the MPI backend through the bridge
 * built for the MPICH ABI (libmpi.so.12), which the loader must pick from the launcher's
 * environment. Two and three ranks keep CI short; Open MPI runs every size (MpiSuitesTest).
 */
class MpichSuitesTest {
    private static Stream<DynamicNode> run(Class<?> suite) {
        return SuiteRunner.run(suite, Jobs.Launcher.MPICH, List.of(), null, 2, 3);
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
