package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link WindowLoadStoreSuite}: puts and gets as loads and stores in allocated windows of one node
 * (docs/onesided.md) on Open MPI's mpirun (MPI_Win_allocate_shared underneath), on it again with
 * the shortcut off ({@code MPI4J_RMA_LOADSTORE=0}: every call through JNI), on MPICH, and on the
 * fabric with ranks as threads and as processes (shared-memory files).
 */
class WindowLoadStoreTest {
    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(WindowLoadStoreSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 1, 3)),
                DynamicContainer.dynamicContainer("Open MPI, through JNI",
                        SuiteRunner.run(WindowLoadStoreSuite.class, Jobs.Launcher.MPIRUN,
                                List.of("-x", "MPI4J_RMA_LOADSTORE=0"), null, 2)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(WindowLoadStoreSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }

    @TestFactory
    Stream<DynamicNode> fabric() {
        return Stream.concat(SuiteRunner.threads(WindowLoadStoreSuite.class, 1, 3, 4),
                SuiteRunner.run(WindowLoadStoreSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 3));
    }
}
