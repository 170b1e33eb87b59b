package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.fabric.bootstrap.Bootstrap;
import io.github.mpi4j.fabric.bootstrap.JobInfo;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Map;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/** A rank 0 whose store port is taken fails Init at once, saying which port and how to pick another. */
class StoreBindTest {
    @Test
    void aTakenStorePortNamesThePortAndMasterPort() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = taken.getLocalPort();
            JobInfo job = Bootstrap.detect(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2",
                    "SLURM_STEP_NODELIST", "localhost", "MASTER_PORT", Integer.toString(port),
                    "MPI4J_SECRET", "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"));
            long t0 = System.nanoTime();
            MPIException e = assertThrows(MPIException.class, () -> FabricConnector.connect(job, 0, "test"));
            assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "failed without waiting for the deadline");
            String m = e.getMessage();
            assertTrue(m.contains("port " + port) && m.contains("MASTER_PORT") && m.contains("SLURM"), m);
        }
    }
}
