package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.nativeload.Capabilities;
import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.BackendProvider;
import java.util.Map;

/** The system MPI through JNI: claims processes that an MPI launcher started. */
public final class MpiBackendProvider implements BackendProvider {
    /** Variables that MPI launchers set in every rank (Open MPI, PMIx, PMI-1/2 of MPICH, MVAPICH2). */
    private static final String[] LAUNCHER_VARS = {
        "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK"
    };

    @Override
    public String name() {
        return "mpi";
    }

    @Override
    public int order() {
        return 100;
    }

    @Override
    public String claim(Map<String, String> env) {
        for (String v : LAUNCHER_VARS) {
            if (env.containsKey(v)) return "started by an MPI launcher (" + v + " is set)";
        }
        return null;
    }

    @Override
    public String requirement() {
        return "the MPI bridge";
    }

    @Override
    public String unavailableReason() {
        return Capabilities.mpiAvailable() ? null : Capabilities.mpiDetail();
    }

    @Override
    public Backend create(int requiredThreadLevel, Map<String, String> env, String reason) {
        String why = reason != null ? reason : claim(env) + " and " + requirement() + " is available";
        return MpiBackend.create(requiredThreadLevel, why);
    }

    // ---- environment (issue 10) ----

    /** MPI_Get_library_version, which MPI allows before MPI_Init; null where the bridge is unavailable. */
    @Override
    public String libVersion() {
        return unavailableReason() == null ? MpiNative.libVersion0() : null;
    }
}
