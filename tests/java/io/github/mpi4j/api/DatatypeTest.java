package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Derived datatypes, struct helpers and user reductions on them (issue 10, items 1, 2 and 8b):
 * one suite body on every backend — the fabric with ranks as threads and as processes, and
 * the MPI backend under Open MPI's mpirun and MPICH's mpiexec.
 */
class DatatypeTest {
    private static final Class<?>[] SUITES = {DatatypeSuite.class, StructSuite.class};

    private static Stream<DynamicNode> each(java.util.function.Function<Class<?>, Stream<DynamicNode>> run) {
        return Stream.of(SUITES).map(s -> DynamicContainer.dynamicContainer(s.getSimpleName(), run.apply(s)));
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return each(s -> SuiteRunner.threads(s, 1, 2, 3, 4, 5, 8));
    }

    @TestFactory
    Stream<DynamicNode> fabricProcesses() {
        return each(s -> SuiteRunner.run(s, Jobs.Launcher.MPI4JRUN, List.of(), null, 3));
    }

    @TestFactory
    Stream<DynamicNode> openMpi() {
        return each(s -> SuiteRunner.run(s, Jobs.Launcher.MPIRUN, List.of(), null, 1, 2, 3));
    }

    @TestFactory
    Stream<DynamicNode> mpich() {
        return each(s -> SuiteRunner.run(s, Jobs.Launcher.MPICH, List.of(), null, 2));
    }
}
