package io.github.mpi4j.runtime;

import io.github.mpi4j.backend.mpi.MpiBackend;
import io.github.mpi4j.fabric.FabricBackend;
import io.github.mpi4j.nativeload.Capabilities;
import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.Mpi;
import java.util.Map;
import mpi.MPIException;

/**
 * Picks the backend at {@code MPI.Init}, in this order:
 * <ol>
 *   <li>an explicit choice: {@code -Dmpi4j.backend=mpi|fabric} or {@code MPI4J_BACKEND};</li>
 *   <li>the system MPI, when an MPI launcher started this process ({@code OMPI_COMM_WORLD_*},
 *       {@code PMIX_RANK}, {@code PMI_RANK}, {@code MV2_COMM_WORLD_*}) and the MPI bridge loads;</li>
 *   <li>the fabric: our launcher, torchrun-style variables, SLURM, or a world of one process.</li>
 * </ol>
 * The choice and its reason are available from {@code io.github.mpi4j.Mpi4j}.
 */
public final class BackendSelector {
    private BackendSelector() {
    }

    private static final String[] MPI_LAUNCHER_VARS = {
        "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "MV2_COMM_WORLD_RANK"
    };

    public static Backend select(int requiredThreadLevel) {
        return select(requiredThreadLevel, System.getenv());
    }

    public static Backend select(int requiredThreadLevel, Map<String, String> env) {
        String explicit = System.getProperty("mpi4j.backend", env.get("MPI4J_BACKEND"));
        if (explicit != null && !explicit.isBlank()) {
            switch (explicit.trim().toLowerCase()) {
                case "mpi":
                    if (!Capabilities.mpiAvailable()) {
                        throw MPIException.of(Mpi.ERR_OTHER, "MPI.Init: backend 'mpi' was requested ("
                                + "mpi4j.backend/MPI4J_BACKEND) but the MPI bridge is unavailable: "
                                + Capabilities.mpiDetail());
                    }
                    return MpiBackend.create(requiredThreadLevel, "requested by mpi4j.backend/MPI4J_BACKEND=mpi");
                case "fabric":
                    return FabricBackend.create(requiredThreadLevel, env, "requested by mpi4j.backend/MPI4J_BACKEND=fabric");
                default:
                    throw MPIException.of(Mpi.ERR_ARG, "MPI.Init: unknown backend '" + explicit
                            + "' in mpi4j.backend/MPI4J_BACKEND (use mpi or fabric)");
            }
        }
        String launcherVar = null;
        for (String v : MPI_LAUNCHER_VARS) {
            if (env.containsKey(v)) {
                launcherVar = v;
                break;
            }
        }
        if (launcherVar != null) {
            if (Capabilities.mpiAvailable()) {
                return MpiBackend.create(requiredThreadLevel, "started by an MPI launcher (" + launcherVar
                        + " is set) and the MPI bridge is available");
            }
            String why = "started by an MPI launcher (" + launcherVar + " is set) but the MPI bridge is unavailable ("
                    + Capabilities.mpiDetail() + ")";
            if (!FabricBackend.isLaunched(env)) {
                throw MPIException.of(Mpi.ERR_OTHER, "MPI.Init: " + why + "; fix that (docs/building.md), or "
                        + "start the job with mpi4jrun");
            }
            return FabricBackend.create(requiredThreadLevel, env, why);
        }
        return FabricBackend.create(requiredThreadLevel, env, null);
    }
}
