package io.github.mpi4j.device;

import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.BackendDecorator;

/**
 * Device buffers in {@code mpi} calls (issue 9): the decorator that {@code BackendSelector}
 * applies to whichever backend {@code MPI.Init} chose (listed in
 * {@code META-INF/services/io.github.mpi4j.spi.BackendDecorator}). Calls without device memory
 * pay one check per buffer; see {@link StagedComm} for the rest and docs/gpu.md, "Device
 * buffers in mpi calls".
 */
public final class DeviceBuffers implements BackendDecorator {

    /** First around the backend: later layers (none yet) see a backend that takes device memory. */
    @Override
    public int order() {
        return 0;
    }

    @Override
    public Backend decorate(Backend backend) {
        return backend instanceof StagedBackend ? backend : new StagedBackend(backend);
    }

    /** {@code backend} with device buffers accepted (tests build rank threads' worlds with it). */
    public static Backend around(Backend backend) {
        return new DeviceBuffers().decorate(backend);
    }
}
