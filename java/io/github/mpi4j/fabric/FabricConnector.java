package io.github.mpi4j.fabric;

import io.github.mpi4j.fabric.bootstrap.JobInfo;
import io.github.mpi4j.spi.Backend;
import mpi.MPI;
import mpi.MPIException;

/** Connects the ranks of a multi-process fabric job. (Transports land next.) */
final class FabricConnector {
    private FabricConnector() {
    }

    static Backend connect(JobInfo job, int required, String reason) {
        throw MPIException.of(MPI.ERR_OTHER, "multi-process fabric jobs are not available yet");
    }
}
