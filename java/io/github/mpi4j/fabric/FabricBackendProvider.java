package io.github.mpi4j.fabric;

import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.BackendProvider;
import java.util.Map;

/**
 * The pure-Java fabric: claims jobs started by mpi4jrun, torchrun-style variables or SLURM, and
 * runs a process that nothing claimed as a world of one. Always available.
 */
public final class FabricBackendProvider implements BackendProvider {

    @Override
    public String name() {
        return "fabric";
    }

    @Override
    public int order() {
        return 200;
    }

    @Override
    public String claim(Map<String, String> env) {
        return FabricBackend.isLaunched(env) ? "started by a fabric launcher (mpi4jrun, torchrun or SLURM)" : null;
    }

    @Override
    public String requirement() {
        return "the fabric";
    }

    @Override
    public String unavailableReason() {
        return null;
    }

    @Override
    public boolean runsUnclaimedProcesses() {
        return true;
    }

    @Override
    public Backend create(int requiredThreadLevel, Map<String, String> env, String reason) {
        // A null reason lets the fabric describe the job from the environment it detects.
        return FabricBackend.create(requiredThreadLevel, env, reason);
    }

    // ---- environment (issue 10) ----

    @Override
    public String libVersion() {
        return FabricBackend.libraryVersion();
    }
}
