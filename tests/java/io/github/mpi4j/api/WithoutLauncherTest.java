package io.github.mpi4j.api;

import io.github.mpi4j.testing.SuiteRunner;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Fabric jobs whose JVMs are started by someone else than mpi4jrun — as torchrun and srun do,
 * with their environment variables — run the same suites: the ranks find each other through
 * the store hosted by rank 0 (torchrun) or by the step's first node (SLURM).
 */
class WithoutLauncherTest {
    @TestFactory
    Stream<DynamicNode> torchrunStyle() {
        return Stream.concat(SuiteRunner.runWithoutLauncher(P2pSuite.class, "torchrun", 3),
                SuiteRunner.runWithoutLauncher(CommSuite.class, "torchrun", 2));
    }

    @TestFactory
    Stream<DynamicNode> slurmStyle() {
        return SuiteRunner.runWithoutLauncher(CollectiveSuite.class, "slurm", 3);
    }
}
