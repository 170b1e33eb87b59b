package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Issue 11 item 3: spawning processes, on the fabric (parents started by mpi4jrun; children
 * started by the spawning root) and on the MPI backend (Open MPI's mpirun, MPI_Comm_spawn), plus
 * the fabric's failures (children that never join) and its refusal under srun- and
 * torchrun-style starts. Spawning starts real JVMs, so every job here is kept small.
 */
class SpawnTest {
    @TestFactory
    Stream<DynamicNode> fabricProcesses() {
        return SuiteRunner.run(SpawnSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 2);
    }

    @TestFactory
    Stream<DynamicNode> fabricFailures() {
        return SuiteRunner.run(SpawnFailureSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 2);
    }

    @TestFactory
    Stream<DynamicNode> fabricRefusedUnderSrunAndTorchrun() {
        return Stream.concat(SuiteRunner.runWithoutLauncher(SpawnRefusalSuite.class, "slurm", 2),
                SuiteRunner.runWithoutLauncher(SpawnRefusalSuite.class, "torchrun", 2));
    }

    @TestFactory
    Stream<DynamicNode> mpi() {
        return Stream.of(DynamicContainer.dynamicContainer("Open MPI",
                SuiteRunner.run(SpawnSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 2)));
    }
}
