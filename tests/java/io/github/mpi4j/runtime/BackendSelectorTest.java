package io.github.mpi4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.backend.mpi.MpiBackendProvider;
import io.github.mpi4j.fabric.FabricBackendProvider;
import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.BackendProvider;
import java.util.List;
import java.util.Map;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/**
 * The selection rules of {@code MPI.Init}, decided without starting a backend: the real
 * providers' claims, with the MPI bridge's availability set by the test.
 */
class BackendSelectorTest {

    /** The real MPI provider, except that the test says whether its bridge loads. */
    private static final class Mpi implements BackendProvider {
        private final MpiBackendProvider real = new MpiBackendProvider();
        private final String missing;

        Mpi(String missing) {
            this.missing = missing;
        }

        @Override public String name() { return real.name(); }
        @Override public int order() { return real.order(); }
        @Override public String claim(Map<String, String> env) { return real.claim(env); }
        @Override public String requirement() { return real.requirement(); }
        @Override public String unavailableReason() { return missing; }
        @Override public Backend create(int level, Map<String, String> env, String reason) {
            throw new AssertionError("not started in this test");
        }
    }

    private static final BackendProvider FABRIC = new FabricBackendProvider();
    private static final List<BackendProvider> BRIDGE_LOADS = List.of(new Mpi(null), FABRIC);
    private static final List<BackendProvider> NO_BRIDGE = List.of(new Mpi("no libmpi found"), FABRIC);
    private static final Map<String, String> MPIRUN = Map.of("OMPI_COMM_WORLD_RANK", "0");
    private static final Map<String, String> MPI4JRUN = Map.of("MPI4J_RANK", "0", "MPI4J_SIZE", "2",
            "MPI4J_RENDEZVOUS", "127.0.0.1:1", "MPI4J_SECRET", "00", "MPI4J_JOB_ID", "j");

    @Test
    void theClassPathListsMpiThenFabric() {
        List<String> names = BackendSelector.providers().stream().map(BackendProvider::name).toList();
        assertEquals(List.of("mpi", "fabric"), names);
    }

    @Test
    void anExplicitChoiceWins() {
        BackendSelector.Choice c = BackendSelector.choose(BRIDGE_LOADS, " Fabric ", MPIRUN);
        assertEquals("fabric", c.provider.name());
        assertEquals("requested by mpi4j.backend/MPI4J_BACKEND=fabric", c.reason);
        c = BackendSelector.choose(BRIDGE_LOADS, "mpi", Map.of());
        assertEquals("mpi", c.provider.name());
        assertEquals("requested by mpi4j.backend/MPI4J_BACKEND=mpi", c.reason);
    }

    @Test
    void anExplicitChoiceThatCannotRunSaysWhy() {
        MPIException e = assertThrows(MPIException.class, () -> BackendSelector.choose(NO_BRIDGE, "mpi", Map.of()));
        assertEquals("MPI.Init: backend 'mpi' was requested (mpi4j.backend/MPI4J_BACKEND) but the MPI bridge is "
                + "unavailable: no libmpi found", e.getMessage());
        e = assertThrows(MPIException.class, () -> BackendSelector.choose(BRIDGE_LOADS, "nccl", Map.of()));
        assertEquals("MPI.Init: unknown backend 'nccl' in mpi4j.backend/MPI4J_BACKEND (use mpi or fabric)",
                e.getMessage());
    }

    @Test
    void anMpiLauncherPicksTheSystemMpi() {
        for (String v : List.of("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK")) {
            BackendSelector.Choice c = BackendSelector.choose(BRIDGE_LOADS, null, Map.of(v, "1"));
            assertEquals("mpi", c.provider.name(), v);
            assertNull(c.reason, "the provider words its own reason");
            assertEquals("started by an MPI launcher (" + v + " is set)", c.provider.claim(Map.of(v, "1")));
        }
    }

    @Test
    void withoutTheBridgeAnMpiLauncherFallsBackOnlyToALaunchedFabric() {
        BackendSelector.Choice c = BackendSelector.choose(NO_BRIDGE, null,
                Map.of("PMIX_RANK", "0", "MPI4J_RANK", "0", "MPI4J_SIZE", "2", "MPI4J_RENDEZVOUS", "127.0.0.1:1",
                        "MPI4J_SECRET", "00", "MPI4J_JOB_ID", "j"));
        assertEquals("fabric", c.provider.name());
        assertEquals("started by an MPI launcher (PMIX_RANK is set) but the MPI bridge is unavailable "
                + "(no libmpi found)", c.reason);
        MPIException e = assertThrows(MPIException.class, () -> BackendSelector.choose(NO_BRIDGE, null, MPIRUN));
        assertEquals("MPI.Init: started by an MPI launcher (OMPI_COMM_WORLD_RANK is set) but the MPI bridge is "
                + "unavailable (no libmpi found); fix that (docs/building.md), or start the job with mpi4jrun",
                e.getMessage());
    }

    @Test
    void fabricJobsAndPlainProcessesRunOnTheFabric() {
        BackendSelector.Choice c = BackendSelector.choose(BRIDGE_LOADS, null, MPI4JRUN);
        assertSame(FABRIC, c.provider);
        assertNull(c.reason);
        c = BackendSelector.choose(BRIDGE_LOADS, "  ", Map.of());
        assertSame(FABRIC, c.provider);
        assertNull(c.reason);
        assertTrue(FABRIC.runsUnclaimedProcesses());
    }
}
