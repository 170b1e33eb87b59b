package io.github.mpi4j.device;

import io.github.mpi4j.spi.BackendComm;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the communicators of one decorated backend share: the backend's name (for refusals),
 * the default {@link CollectiveMode} of every communicator (read once, at {@code MPI.Init}) and
 * the NCCL communicators made so far, which finalize frees.
 */
final class DeviceLayer {
    final String backend;
    final CollectiveMode defaultMode;
    /** In creation order, the same on every rank: finalize frees them in that order. */
    private final Set<NcclPath> live = new LinkedHashSet<>();

    DeviceLayer(String backend, Map<String, String> env) {
        this.backend = backend;
        this.defaultMode = CollectiveMode.fromEnvironment(env);
    }

    /** The NCCL path of a communicator in NCCL mode (its NCCL communicator is made at first use). */
    NcclPath ncclPath(BackendComm inner) {
        NcclPath p = new NcclPath(inner, backend);
        synchronized (live) {
            live.add(p);
        }
        return p;
    }

    /** Frees the NCCL communicator of {@code p} (with its mpi communicator). */
    void free(NcclPath p) {
        boolean was;
        synchronized (live) {
            was = p != null && live.remove(p);
        }
        if (was) p.close();
    }

    /** Frees every NCCL communicator still open, then the idle device temporaries (before the backend finishes). */
    void finish() {
        List<NcclPath> all;
        synchronized (live) {
            all = new ArrayList<>(live);
            live.clear();
        }
        RuntimeException first = null;
        for (NcclPath p : all) {
            try {
                p.close();
            } catch (RuntimeException e) {
                if (first == null) first = e;
            }
        }
        DevicePool.drain();
        if (first != null) throw first;
    }
}
