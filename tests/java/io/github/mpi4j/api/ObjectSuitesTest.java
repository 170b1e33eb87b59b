package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link ObjectCollectiveSuite} (MPI.OBJECT everywhere mpiJava allows it, issue 10 item 8) on
 * every backend: the MPI backend under Open MPI's mpirun (np 1 to 3) and MPICH (np 2), the
 * fabric with ranks as threads and as processes over shared memory.
 */
class ObjectSuitesTest {
    @TestFactory
    Stream<DynamicNode> mpiBackend() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(ObjectCollectiveSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 1, 2, 3)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(ObjectCollectiveSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(ObjectCollectiveSuite.class, 1, 2, 3, 5, 8);
    }

    @TestFactory
    Stream<DynamicNode> fabricProcesses() {
        return SuiteRunner.run(ObjectCollectiveSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 3);
    }
}
