package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.Backend;
import mpi.MPI;
import mpi.MPIException;

/** The system MPI through JNI. (Placeholder until the bridge lands.) */
public final class MpiBackend {
    private MpiBackend() {
    }

    public static Backend create(int requiredThreadLevel, String reason) {
        throw MPIException.of(MPI.ERR_OTHER, "the MPI backend is not built yet");
    }
}
