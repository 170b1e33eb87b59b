package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 10 items 3, 6 and 7 (buffer rules, matched probes, allToAllw and send modes, environment,
 * attributes and error handlers) on both backends: MPI under Open MPI and MPICH, the fabric with
 * ranks as threads, and in processes over shared memory and TCP. Each suite runs where its code
 * differs: the buffer rules are Java on the MPI side (one MPI family) but reach the transports;
 * the environment has MPI natives (both families) but no transport code.
 */
class CompatibilityRulesTest {
    private static DynamicNode openMpi(Class<?> suite, int... sizes) {
        return DynamicContainer.dynamicContainer("Open MPI", SuiteRunner.run(suite, Jobs.Launcher.MPIRUN, List.of(),
                null, sizes));
    }

    private static DynamicNode mpich(Class<?> suite) {
        return DynamicContainer.dynamicContainer("MPICH", SuiteRunner.run(suite, Jobs.Launcher.MPICH, List.of(), null,
                2));
    }

    private static DynamicNode threads(Class<?> suite) {
        return DynamicContainer.dynamicContainer("fabric threads", SuiteRunner.threads(suite, 1, 2, 3, 5));
    }

    private static DynamicNode shm(Class<?> suite) {
        return DynamicContainer.dynamicContainer("fabric shm", SuiteRunner.run(suite, Jobs.Launcher.MPI4JRUN,
                List.of(), null, 3));
    }

    private static DynamicNode tcp(Class<?> suite) {
        return DynamicContainer.dynamicContainer("fabric tcp", SuiteRunner.run(suite, Jobs.Launcher.MPI4JRUN,
                List.of("--tcp"), null, 3));
    }

    @TestFactory
    Stream<DynamicNode> bufferRules() {
        Class<?> s = BufferRulesSuite.class;
        return Stream.of(openMpi(s, 2, 3), threads(s), shm(s), tcp(s));
    }

    @TestFactory
    Stream<DynamicNode> probesAllToAllwAndSendModes() {
        Class<?> s = ProbesAndAllToAllwSuite.class;
        return Stream.of(openMpi(s, 2, 3), mpich(s), threads(s), shm(s), tcp(s));
    }

    @TestFactory
    Stream<DynamicNode> environment() {
        Class<?> s = EnvironmentSuite.class;
        return Stream.of(openMpi(s, 3), mpich(s), threads(s), shm(s));
    }
}
