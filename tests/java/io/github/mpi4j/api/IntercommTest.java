package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 10 item 4: intercommunicators, createGroup, ports and names, one suite body on every
 * backend: the fabric with ranks as threads and as processes (mpi4jrun), and the MPI backend
 * under Open MPI's mpirun and MPICH's mpiexec.hydra.
 */
class IntercommTest {
    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(InterSuite.class, 2, 3, 4, 5, 8);
    }

    @TestFactory
    Stream<DynamicNode> errorsFabricThreads() {
        return SuiteRunner.threads(InterErrorSuite.class, 2, 3, 5);
    }

    @TestFactory
    Stream<DynamicNode> errorsMpi() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(InterErrorSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 3)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(InterErrorSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }

    @TestFactory
    Stream<DynamicNode> portsFabricThreads() {
        return SuiteRunner.threads(PortsSuite.class, 1, 3);
    }

    @TestFactory
    Stream<DynamicNode> portsFabricProcesses() {
        return SuiteRunner.run(PortsSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 2);
    }

    @TestFactory
    Stream<DynamicNode> portsMpi() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(PortsSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 2)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(PortsSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }

    @TestFactory
    Stream<DynamicNode> fabricProcesses() {
        return SuiteRunner.run(InterSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 3);
    }

    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(
                DynamicContainer.dynamicContainer("Open MPI",
                        SuiteRunner.run(InterSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 2, 3)),
                DynamicContainer.dynamicContainer("MPICH",
                        SuiteRunner.run(InterSuite.class, Jobs.Launcher.MPICH, List.of(), null, 2)));
    }
}
