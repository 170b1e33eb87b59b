package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The remaining gaps of derived datatypes (issue 10): {@link NegativeLayoutSuite} on the fabric
 * with ranks as threads and as processes, and on the MPI backend under Open MPI's mpirun and
 * MPICH's mpiexec.
 */
class NegativeLayoutTest {
    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(NegativeLayoutSuite.class, 1, 2, 3, 4, 5);
    }

    @TestFactory
    Stream<DynamicNode> fabricProcesses() {
        return SuiteRunner.run(NegativeLayoutSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 3);
    }

    @TestFactory
    Stream<DynamicNode> openMpi() {
        return SuiteRunner.run(NegativeLayoutSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 1, 2, 3);
    }

    @TestFactory
    Stream<DynamicNode> mpich() {
        return SuiteRunner.run(NegativeLayoutSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2);
    }
}
