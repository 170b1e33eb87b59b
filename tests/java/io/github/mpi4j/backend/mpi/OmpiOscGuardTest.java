package io.github.mpi4j.backend.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** When compareAndSwap could reach Open MPI 4's crashing osc/rdma (docs/onesided.md), from the version text and settings. */
class OmpiOscGuardTest {
    private static final String OMPI4 = "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4";

    private static boolean risky(String lib, Map<String, String> env) {
        return OmpiOscGuard.rdmaMayRun(lib, env);
    }

    @Test
    void openMpi4() {
        assertEquals(false, risky(OMPI4, Map.of()), "no setting: mpi4j's ^rdma");
        assertEquals(false, risky(OMPI4, Map.of("OMPI_MCA_osc", "sm,ucx")), "rdma not listed");
        assertEquals(false, risky(OMPI4, Map.of("OMPI_MCA_osc", "^rdma,pt2pt")), "rdma excluded");
        assertEquals(true, risky(OMPI4, Map.of("OMPI_MCA_osc", "rdma")), "rdma chosen");
        assertEquals(true, risky(OMPI4, Map.of("OMPI_MCA_osc", "sm,rdma")), "rdma listed");
        assertEquals(true, risky(OMPI4, Map.of("OMPI_MCA_osc", "^ucx")), "excluding others lets rdma in");
        assertEquals(true, risky(OMPI4, Map.of("MPI4J_OMPI_OSC", "")), "Open MPI's own choice");
        assertEquals(false, risky(OMPI4, Map.of("MPI4J_OMPI_OSC", "pt2pt")), "mpi4j told to use pt2pt");
        assertEquals(true, risky(OMPI4, Map.of("MPI4J_OMPI_OSC", "pt2pt", "OMPI_MCA_osc", "")),
                "the user's empty OMPI_MCA_osc wins over MPI4J_OMPI_OSC");
    }

    @Test
    void otherLibraries() {
        assertEquals(false, risky("Open MPI v5.0.3, package: Open MPI", Map.of("OMPI_MCA_osc", "rdma")), "Open MPI 5");
        assertEquals(false, risky("MPICH Version: 4.0.2", Map.of("OMPI_MCA_osc", "rdma")), "MPICH");
        assertEquals(false, risky(null, Map.of()), "no version text");
    }

    /** Whether an allocated window of one node may be MPI_Win_allocate_shared (osc/sm must be selectable). */
    @Test
    void sharedWindows() {
        assertEquals(true, OmpiOscGuard.sharedWindowsMayRun(OMPI4, Map.of()), "mpi4j's ^rdma keeps sm");
        assertEquals(true, OmpiOscGuard.sharedWindowsMayRun(OMPI4, Map.of("MPI4J_OMPI_OSC", "")), "Open MPI's own");
        assertEquals(false, OmpiOscGuard.sharedWindowsMayRun(OMPI4, Map.of("OMPI_MCA_osc", "rdma")), "rdma only");
        assertEquals(true, OmpiOscGuard.sharedWindowsMayRun(OMPI4, Map.of("OMPI_MCA_osc", "sm,ucx")), "sm listed");
        assertEquals(false, OmpiOscGuard.sharedWindowsMayRun(OMPI4, Map.of("OMPI_MCA_osc", "^sm")), "sm excluded");
        assertEquals(true, OmpiOscGuard.sharedWindowsMayRun("MPICH Version: 4.0.2", Map.of("OMPI_MCA_osc", "rdma")),
                "MPICH");
    }
}
