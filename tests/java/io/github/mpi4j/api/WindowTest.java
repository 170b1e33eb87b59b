package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link WindowSuite} (issue 11, one-sided) on both backends: MPI under Open MPI's mpirun and
 * MPICH's mpiexec.hydra, the fabric with ranks as threads (its windows live in one JVM). Few
 * sizes, to keep CI short; size 1 and odd and even rings.
 */
class WindowTest {

    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(WindowSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 1, 3)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(WindowSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(WindowSuite.class, 1, 2, 3, 4, 5);
    }
}
