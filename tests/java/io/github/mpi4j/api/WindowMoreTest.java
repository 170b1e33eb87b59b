package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link WindowMoreSuite} (derived datatypes in RMA, concurrent accumulates, window attributes
 * and error handlers) on the MPI backend (Open MPI's mpirun with no one-sided setting, MPICH's
 * mpiexec.hydra) and the fabric with ranks as threads of one node; {@link WindowTransportTest}
 * runs it through the fabric's transport.
 */
class WindowMoreTest {
    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(WindowMoreSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 1, 3)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(WindowMoreSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }

    /** Open MPI with the user choosing the crashing osc/rdma: compareAndSwap is refused, not a JVM crash. */
    @TestFactory
    Stream<DynamicNode> openMpiWithOscRdma() {
        return SuiteRunner.run(WindowOscSuite.class, Jobs.Launcher.MPIRUN, List.of(),
                java.util.Map.of("OMPI_MCA_osc", "rdma"), 2);
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(WindowMoreSuite.class, 1, 2, 3, 4);
    }
}
