package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 10 items 3, 6 and 7 (buffer rules, matched probes and send modes, environment, attributes
 * and error handlers) on every backend: MPI under Open MPI (np 2, 3) and MPICH (np 2), the
 * fabric with ranks as threads, and in processes over shared memory and TCP.
 */
class CompatibilityRulesTest {
    private static Stream<DynamicNode> everywhere(Class<?> suite) {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(suite, Jobs.Launcher.MPIRUN, List.of(), null, 2, 3)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(suite, Jobs.Launcher.MPICH, List.of(), null, 2)),
                DynamicContainer.dynamicContainer("fabric threads", SuiteRunner.threads(suite, 1, 2, 3, 5)),
                DynamicContainer.dynamicContainer("fabric shm",
                        SuiteRunner.run(suite, Jobs.Launcher.MPI4JRUN, List.of(), null, 3)),
                DynamicContainer.dynamicContainer("fabric tcp",
                        SuiteRunner.run(suite, Jobs.Launcher.MPI4JRUN, List.of("--tcp"), null, 3)));
    }

    @TestFactory
    Stream<DynamicNode> bufferRules() {
        return everywhere(BufferRulesSuite.class);
    }

    @TestFactory
    Stream<DynamicNode> probesAllToAllwAndSendModes() {
        return everywhere(ProbesAndAllToAllwSuite.class);
    }

    @TestFactory
    Stream<DynamicNode> environment() {
        return everywhere(EnvironmentSuite.class);
    }
}
