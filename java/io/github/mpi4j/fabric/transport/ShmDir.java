package io.github.mpi4j.fabric.transport;

import java.nio.file.Path;

/**
 * Where the shared-memory segments of a node's ranks live: {@code MPI4J_SHM_DIR} (or
 * {@code -Dmpi4j.shm.dir}), else {@code /dev/shm}. One place, so the ranks that create the files
 * and the launcher that removes a crashed job's files agree.
 */
public final class ShmDir {
    private ShmDir() {
    }

    public static Path get() {
        String v = System.getProperty("mpi4j.shm.dir");
        if (v == null) v = System.getenv("MPI4J_SHM_DIR");
        return Path.of(v == null || v.isBlank() ? "/dev/shm" : v.trim());
    }
}
