package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link WindowSuite} and {@link WindowAllocatedSuite} (issue 11, one-sided) on both backends: MPI under Open MPI's mpirun and
 * MPICH's mpiexec.hydra (Open MPI with its UCX one-sided component, see OPEN_MPI_OSC), the fabric with ranks as threads, and with ranks as processes for the allocated windows
 * (windows over user memory are shared only between threads of one JVM). Few
 * sizes, to keep CI short; size 1 and odd and even rings.
 */
class WindowTest {
    /**
     * Open MPI 4.1's default one-sided component (osc/rdma) crashes in MPI_Compare_and_swap over
     * the shared-memory BTL's single-copy path and cannot make an MPI_Win_create window in a
     * one-process job; osc/ucx does both, and osc/sm makes the shared windows (the same holds for C programs; see docs/onesided.md).
     */
    private static final Map<String, String> OPEN_MPI_OSC = Map.of("OMPI_MCA_osc", "sm,ucx");

    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(WindowSuite.class, WindowAllocatedSuite.class).map(suite ->
                DynamicContainer.dynamicContainer(suite.getSimpleName(), Stream.of(
                        DynamicContainer.dynamicContainer("Open MPI",
                                SuiteRunner.run(suite, Jobs.Launcher.MPIRUN, List.of(), OPEN_MPI_OSC, 1, 3)),
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
