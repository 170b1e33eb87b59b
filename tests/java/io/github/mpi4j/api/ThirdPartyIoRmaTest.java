package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link ThirdPartyIoRmaSuite}: what third-party programs for the Open MPI bindings and
 * MPJ Express rely on in one-sided work (issue 11), under Open MPI's mpirun (MPI backend), in fabric processes started by
 * mpi4jrun and on the fabric with ranks as threads.
 */
class ThirdPartyIoRmaTest {

    @TestFactory
    Stream<DynamicNode> openMpi() {
        return SuiteRunner.run(ThirdPartyIoRmaSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 2, 3);
    }

    @TestFactory
    Stream<DynamicNode> fabricProcesses() {
        return SuiteRunner.run(ThirdPartyIoRmaSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 2, 3);
    }

    @TestFactory
    Stream<DynamicNode> fabricThreads() {
        return SuiteRunner.threads(ThirdPartyIoRmaSuite.class, 1, 2, 4);
    }

    @TestFactory
    Stream<DynamicNode> buffersOpenMpi() {
        return SuiteRunner.run(ThirdPartyBuffersSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 2);
    }

    @TestFactory
    Stream<DynamicNode> buffersFabricProcesses() {
        return SuiteRunner.run(ThirdPartyBuffersSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 2);
    }

    @TestFactory
    Stream<DynamicNode> buffersFabricThreads() {
        return SuiteRunner.threads(ThirdPartyBuffersSuite.class, 1, 3);
    }
}
