package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Init's wait for every rank's address is MPI4J_TIMEOUT clamped to 60-120 s. */
class StartupDeadlineTest {
    @Test
    void aShortOperationDeadlineDoesNotShortenStartUp() {
        // Jobs (and tests) that set MPI4J_TIMEOUT=4 to catch stuck operations failed Init when
        // three JVMs took over 4 s to start on a loaded node.
        assertEquals(60.0, FabricConnector.startupSeconds(4));
        assertEquals(90.0, FabricConnector.startupSeconds(90));
        assertEquals(120.0, FabricConnector.startupSeconds(600));
    }
}
