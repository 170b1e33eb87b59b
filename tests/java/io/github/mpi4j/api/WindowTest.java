package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link WindowSuite} and {@link WindowAllocatedSuite} (issue 11, one-sided) on both backends: MPI under Open MPI's
 * mpirun (with no one-sided setting of ours: mpi4j itself keeps Open MPI 4's crashing osc/rdma out, see
 * docs/onesided.md) and MPICH's mpiexec.hydra, the fabric with ranks as threads, and with ranks as processes for
 * the allocated windows. Few sizes, to keep CI short; size 1 and odd and even rings.
 */
class WindowTest {
    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(WindowSuite.class, WindowAllocatedSuite.class).map(suite ->
                DynamicContainer.dynamicContainer(suite.getSimpleName(), Stream.of(
                        DynamicContainer.dynamicContainer("Open MPI",
                                SuiteRunner.run(suite, Jobs.Launcher.MPIRUN, List.of(), null, 1, 3)),
                        DynamicContainer.dynamicContainer("MPICH",
                                SuiteRunner.run(suite, Jobs.Launcher.MPICH, List.of(), null, 2)))));
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return Stream.concat(SuiteRunner.threads(WindowSuite.class, 1, 2, 3, 4, 5),
                SuiteRunner.threads(WindowAllocatedSuite.class, 1, 2, 3, 4, 5));
    }

    /** Windows between processes: shared-memory files that every rank maps; user memory is refused. */
    @TestFactory
    Stream<DynamicNode> fabricProcesses() {
        return Stream.concat(SuiteRunner.run(WindowAllocatedSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 3),
                SuiteRunner.run(WindowProcessesSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 2));
    }
}
