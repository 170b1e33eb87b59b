package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/** {@link NonBlockingSuite} with ranks as threads (1 to 3, and on pretended nodes: uniform, so the 2-D schedule runs, and uneven) and as processes (np 3). */
class NonBlockingTest {
    @TestFactory
    Stream<DynamicNode> threads() {
        return Stream.concat(SuiteRunner.threads(NonBlockingSuite.class, 1, 2, 3),
                SuiteRunner.threadsOnNodes(NonBlockingSuite.class, new int[] {0, 0, 1, 1}, new int[] {0, 0, 0, 1, 1}));
    }

    @TestFactory
    Stream<DynamicNode> processes() {
        return SuiteRunner.run(NonBlockingSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 3);
    }

    /** {@link NonBlockingAllocationSuite}: processes only (np 2, over shared memory). */
    @TestFactory
    Stream<DynamicNode> allocationsOfProcesses() {
        return SuiteRunner.run(NonBlockingAllocationSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 2);
    }
}
