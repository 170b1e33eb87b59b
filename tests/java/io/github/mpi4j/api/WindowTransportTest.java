package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Fabric windows whose ranks cannot load and store each other's memory, so that every operation
 * goes through the transport and the target's RMA service thread (issue 11; docs/onesided.md):
 * ranks as threads placed on pretended nodes, ranks as processes over user memory (shared-memory
 * rings), ranks as processes on different "hosts" of this machine (mpi4jrun --hosts with distinct
 * names for this host: MPI4J_NODE differs, so the fabric talks TCP between them), and --tcp.
 * The suites are the ones the MPI backend passes too (WindowTest, WindowMoreTest).
 */
class WindowTransportTest {
    private static final List<Class<?>> SUITES = List.of(WindowSuite.class, WindowAllocatedSuite.class,
            WindowMoreSuite.class);

    @TestFactory
    Stream<DynamicNode> threadsOnNodes() {
        return SUITES.stream().map(suite -> DynamicContainer.dynamicContainer(suite.getSimpleName(),
                SuiteRunner.threadsOnNodes(suite, new int[] {0, 1}, new int[] {0, 1, 0}, new int[] {0, 1, 2, 1})));
    }

    /** Ranks as processes of one node: windows over user memory go through the shared-memory rings. */
    @TestFactory
    Stream<DynamicNode> processesOneNode() {
        return Stream.of(WindowSuite.class, WindowMoreSuite.class, WindowProcessesSuite.class).map(suite ->
                DynamicContainer.dynamicContainer(suite.getSimpleName(),
                        SuiteRunner.run(suite, Jobs.Launcher.MPI4JRUN, List.of(), null, 3)));
    }

    /** Two "hosts" (localhost and 127.0.0.1 are both this machine, started without an agent): TCP between them. */
    @TestFactory
    Stream<DynamicNode> processesOnTwoHostsOverTcp() {
        List<String> hosts = List.of("--hosts", "localhost:1,127.0.0.1:2", "--agent", "env");
        return Stream.of(WindowSuite.class, WindowAllocatedSuite.class, WindowMoreSuite.class,
                WindowProcessesSuite.class).map(suite -> DynamicContainer.dynamicContainer(suite.getSimpleName(),
                        SuiteRunner.run(suite, Jobs.Launcher.MPI4JRUN, hosts, null, 3)));
    }

    /** mpi4jrun --tcp: no shared memory at all, allocated windows go through the transport too. */
    @TestFactory
    Stream<DynamicNode> processesWithTcpOnly() {
        return SuiteRunner.run(WindowAllocatedSuite.class, Jobs.Launcher.MPI4JRUN, List.of("--tcp"), null, 2);
    }
}
