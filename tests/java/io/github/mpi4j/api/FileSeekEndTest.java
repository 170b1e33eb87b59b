package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/** {@link FileSeekEndSuite} (SEEK_END through views with holes) on both backends. */
class FileSeekEndTest {
    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(FileSeekEndSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 1, 3)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(FileSeekEndSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }

    @TestFactory
    Stream<DynamicNode> fabricProcesses() {
        return SuiteRunner.run(FileSeekEndSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 3);
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(FileSeekEndSuite.class, 1, 2, 3);
    }
}
