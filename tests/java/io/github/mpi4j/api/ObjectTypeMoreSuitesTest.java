package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link ObjectTypeMoreSuite} (MPI.OBJECT and types over it in persistent requests, pack/unpack,
 * allToAllw, neighbour and intercommunicator collectives) on both backends: the MPI backend under
 * Open MPI's mpirun (np 2 and 3) and MPICH (np 2), the fabric with ranks as threads (sizes 1, 2, 3,
 * 4) and as processes (np 3).
 */
class ObjectTypeMoreSuitesTest {
    @TestFactory
    Stream<DynamicNode> mpiBackend() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI", SuiteRunner.run(ObjectTypeMoreSuite.class,
                        Jobs.Launcher.MPIRUN, List.of(), null, 2, 3)),
                DynamicContainer.dynamicContainer("MPICH", SuiteRunner.run(ObjectTypeMoreSuite.class,
                        Jobs.Launcher.MPICH, List.of(), null, 2)));
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(ObjectTypeMoreSuite.class, 1, 2, 3, 4);
    }

    @TestFactory
    Stream<DynamicNode> fabricProcesses() {
        return SuiteRunner.run(ObjectTypeMoreSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 3);
    }
}
