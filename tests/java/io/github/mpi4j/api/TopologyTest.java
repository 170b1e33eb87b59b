package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link TopologySuite} on every backend: MPI under Open MPI's mpirun and MPICH's
 * mpiexec.hydra, the fabric with ranks as threads (TopologyProgramsTest runs a topology program
 * with ranks as processes of mpi4jrun). Sizes are few, to keep CI short (the fabric's threads
 * cover size 1 and more sizes), but include odd and even sizes, and grids with dimensions of
 * size 1 and 2.
 */
class TopologyTest {

    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(TopologySuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 3, 4)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(TopologySuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(TopologySuite.class, 1, 2, 3, 4, 5, 8);
    }
}
