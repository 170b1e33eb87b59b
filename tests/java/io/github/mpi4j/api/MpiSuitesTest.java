package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The API suites in real processes on the MPI backend, under each MPI family's launcher: Open
 * MPI's mpirun at np 1 to 4, and MPICH's mpiexec.hydra (the bridge built for the MPICH ABI,
 * which the loader must pick from the launcher's environment) at np 1 to 3 to keep CI short.
 */
class MpiSuitesTest {
    private static Stream<DynamicNode> run(Class<?> suite) {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(suite, Jobs.Launcher.MPIRUN, List.of(), null, 1, 2, 3, 4)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(suite, Jobs.Launcher.MPICH, List.of(), null, 1, 2, 3)));
    }

    @TestFactory
    Stream<DynamicNode> pointToPoint() {
        return run(P2pSuite.class);
    }

    @TestFactory
    Stream<DynamicNode> collectives() {
        return run(CollectiveSuite.class);
    }

    @TestFactory
    Stream<DynamicNode> communicators() {
        return run(CommSuite.class);
    }

    @TestFactory
    Stream<DynamicNode> nativeMemory() {
        return run(NativeMemorySuite.class);
    }

    @TestFactory
    Stream<DynamicNode> errors() {
        return run(ErrorSuite.class);
    }
}
