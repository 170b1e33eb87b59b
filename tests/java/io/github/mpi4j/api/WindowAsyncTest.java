package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link WindowAsyncSuite} (request-based RMA, issue 11): on the fabric through the transport
 * (ranks as threads on pretended nodes, processes of one node over user memory, two "hosts" over
 * TCP), where rGet and rGetAccumulate complete when their reply lands; on the fabric's load/store
 * windows (threads); and on the MPI backend under Open MPI's and MPICH's launchers.
 */
class WindowAsyncTest {
    @TestFactory
    Stream<DynamicNode> fabricTransport() {
        return Stream.of(
                DynamicContainer.dynamicContainer("threads on nodes",
                        SuiteRunner.threadsOnNodes(WindowAsyncSuite.class, new int[] {0, 1}, new int[] {0, 1, 0})),
                DynamicContainer.dynamicContainer("processes, one node",
                        SuiteRunner.run(WindowAsyncSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 3)),
                DynamicContainer.dynamicContainer("two hosts over TCP",
                        SuiteRunner.run(WindowAsyncSuite.class, Jobs.Launcher.MPI4JRUN,
                                List.of("--hosts", "localhost:1,127.0.0.1:2", "--agent", "env"), null, 3)));
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(WindowAsyncSuite.class, 1, 3);
    }

    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(WindowAsyncSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 2)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(WindowAsyncSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }
}
