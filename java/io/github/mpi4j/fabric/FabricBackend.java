package io.github.mpi4j.fabric;

import io.github.mpi4j.spi.Backend;
import java.util.Map;
import mpi.MPI;
import mpi.MPIException;

/** The pure-Java fabric. (Placeholder until the fabric lands.) */
public final class FabricBackend {
    private FabricBackend() {
    }

    /** Whether the environment describes a fabric job (our launcher, torchrun-style or SLURM). */
    public static boolean isLaunched(Map<String, String> env) {
        return env.containsKey("MPI4J_RANK") || env.containsKey("RANK") || env.containsKey("SLURM_PROCID");
    }

    /** Creates the fabric backend; {@code reason} is null when the environment decides. */
    public static Backend create(int requiredThreadLevel, Map<String, String> env, String reason) {
        throw MPIException.of(MPI.ERR_OTHER, "the fabric backend is not built yet");
    }
}
