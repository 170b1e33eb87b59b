package io.github.mpi4j.api;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.SuiteRunner;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * {@link BufferedPersistentSuite} on the MPI backend under Open MPI's mpirun and on the fabric
 * with ranks as processes of mpi4jrun (its tests attach a buffer, process-wide state, so ranks
 * as threads would skip them). Not under MPICH: its MPI_Bsend takes MPI_BSEND_OVERHEAD of the
 * buffer per message, so a buffer of exactly Pack_size bytes is too small there.
 */
class BufferedPersistentTest {

    @TestFactory
    Stream<DynamicNode> openMpi() {
        return SuiteRunner.run(BufferedPersistentSuite.class, Jobs.Launcher.MPIRUN, List.of(), null, 2, 3);
    }

    @TestFactory
    Stream<DynamicNode> fabricProcesses() {
        return SuiteRunner.run(BufferedPersistentSuite.class, Jobs.Launcher.MPI4JRUN, List.of(), null, 2, 3);
    }
}
