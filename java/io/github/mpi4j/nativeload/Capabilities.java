package io.github.mpi4j.nativeload;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What this JVM can use, and why not: the native MPI bridge, CUDA, NCCL. Filled in lazily by
 * the loaders; {@link #report()} prints it for users and bug reports
 * ({@code java -cp mpi4j.jar io.github.mpi4j.Info}).
 */
public final class Capabilities {
    private Capabilities() {
    }

    /** The JNI library that talks to the system MPI. */
    public static final String MPI_LIBRARY = "mpi4j_mpi";

    /** Whether the MPI bridge library is loaded (tries to load it). */
    public static boolean mpiAvailable() {
        return NativeLoader.load(MPI_LIBRARY);
    }

    /** Why the MPI bridge is or is not available. */
    public static String mpiDetail() {
        mpiAvailable();
        return NativeLoader.detail(MPI_LIBRARY);
    }

    public static Map<String, String> report() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("platform", NativeLoader.platform());
        m.put("mpi", (mpiAvailable() ? "available: " : "unavailable: ") + mpiDetail());
        return m;
    }
}
