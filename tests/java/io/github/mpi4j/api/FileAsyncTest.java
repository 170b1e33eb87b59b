package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link FileAsyncSuite} (non-blocking and split-collective file accesses, collective buffering
 * and hints, the shared pointer, atomic mode) on every backend: MPI under Open MPI's mpirun and
 * MPICH's mpiexec.hydra, the fabric with ranks as processes of mpi4jrun and as threads.
 */
class FileAsyncTest {

    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(FileAsyncSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 1, 3)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(FileAsyncSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }

    /** Ranks as processes: the shared pointer's file lock and atomic mode's byte-range locks between JVMs. */
    @TestFactory
    Stream<DynamicNode> fabricProcesses() {
        return SuiteRunner.run(FileAsyncSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 3);
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(FileAsyncSuite.class, 1, 2, 3, 4);
    }
}
