package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import mpi.MPIException;

/**
 * How a backend refuses a memory kind it cannot move: one wording for every backend, naming the
 * kind, the memory and the backend, and saying why. Each backend decides what it accepts where
 * its buffers enter (the MPI backend in its native arguments, Java code in {@link BufAccess#forJava}).
 */
public final class MemoryRules {
    private MemoryRules() {
    }

    /** The exception for a refused Buf: "device memory (DeviceMemory[...]) is not accepted by the mpi backend: why". */
    public static MPIException refuse(Buf b, String backend, String why) {
        String what = b.isNative() ? b.memory.description + " (" + b.base + ")" : b.memory.description;
        return MPIException.of(Mpi.ERR_BUFFER, what + " is not accepted by " + backend + (why == null ? "" : ": " + why));
    }
}
