package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link ObjectTypeSuite} (derived datatypes over MPI.OBJECT) on both backends: the MPI backend
 * under Open MPI's mpirun (np 2), the fabric with ranks as threads (sizes 1 to 3).
 */
class ObjectTypeSuitesTest {
    @TestFactory
    Stream<DynamicNode> mpiBackend() {
        return SuiteRunner.run(ObjectTypeSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 2);
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(ObjectTypeSuite.class, 1, 2, 3);
    }
}
