package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.nativeload.Capabilities;
import io.github.mpi4j.spi.DeviceMemory;
import io.github.mpi4j.spi.Mpi;
import java.util.Locale;
import java.util.Map;
import mpi.MPIException;

/**
 * Whether this MPI library takes device (CUDA) memory as it is: decided once, at
 * {@code MPI.Init}, from {@code MPI4J_MPI_CUDA_AWARE} (or {@code -Dmpi4j.mpi.cudaAware}):
 * {@code auto} (the default) asks the library (Open MPI {@code MPIX_Query_cuda_support}, MPICH
 * {@code MPIX_GPU_query_support}, see {@link Capabilities#cudaAwareMpi()}); {@code yes} and
 * {@code no} override the answer, for sites where it is wrong. When it does, the communicators
 * offer the {@link DeviceMemory} capability and {@link Arg} passes device addresses to MPI;
 * otherwise device memory reaches this backend only staged in host memory (io.github.mpi4j.device).
 * One MPI library per process, so the decision is process-wide.
 */
final class MpiDevice implements DeviceMemory {
    static final String VARIABLE = "MPI4J_MPI_CUDA_AWARE";
    static final String PROPERTY = "mpi4j.mpi.cudaAware";

    /** The decision of this process (none until MPI.Init). */
    private static volatile MpiDevice current;

    final boolean cudaAware;
    /** Why, for messages: "yes (Open MPI MPIX_Query_cuda_support)", "no (MPI4J_MPI_CUDA_AWARE=no)". */
    final String reason;

    private MpiDevice(boolean cudaAware, String reason) {
        this.cudaAware = cudaAware;
        this.reason = reason;
    }

    /** The setting, checked before MPI_Init (so a bad value fails without starting MPI): auto, yes or no. */
    static String setting(Map<String, String> env) {
        String v = System.getProperty(PROPERTY, env.get(VARIABLE));
        if (v == null || v.isBlank()) return "auto";
        String s = v.trim().toLowerCase(Locale.ROOT);
        if (s.equals("auto") || s.equals("yes") || s.equals("no")) return s;
        throw MPIException.of(Mpi.ERR_ARG, "MPI.Init (mpi): " + VARIABLE + " must be auto, yes or no, got '" + v + "'");
    }

    /** Decides after MPI_Init (MPICH answers its query only then) and records the decision. */
    static MpiDevice decide(String setting) {
        MpiDevice d;
        if (setting.equals("yes")) {
            d = new MpiDevice(true, "yes (" + VARIABLE + "=yes)");
        } else if (setting.equals("no")) {
            d = new MpiDevice(false, "no (" + VARIABLE + "=no)");
        } else {
            String answer = Capabilities.cudaAwareMpi();
            d = new MpiDevice(answer.startsWith("yes"), answer);
        }
        current = d;
        return d;
    }

    /** Whether device memory may be passed to MPI now. */
    static boolean accepted() {
        MpiDevice d = current;
        return d != null && d.cudaAware;
    }

    /** Why device memory is not passed to MPI (for refusals). */
    static String why() {
        MpiDevice d = current;
        return d == null ? "MPI is not initialized" : "the MPI library is not CUDA-aware: " + d.reason
                + " (override with " + VARIABLE + "=yes if that is wrong)";
    }

    @Override
    public String deviceApi() {
        return "cuda";
    }

    /** A CUDA-aware MPI takes memory of any device of this process. */
    @Override
    public boolean accepts(int device) {
        return cudaAware && device >= 0;
    }

    /** MPI calls are complete on return: nothing is left queued. */
    @Override
    public void synchronize() {
    }
}
