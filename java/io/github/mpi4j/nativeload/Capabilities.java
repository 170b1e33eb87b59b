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

    /** Whether the system libmpi was found and the MPI bridge for its family is loaded (tries once). */
    public static boolean mpiAvailable() {
        return MpiBridge.load().loaded;
    }

    /** Which libmpi and bridge were chosen and why, or why MPI is unavailable. */
    public static String mpiDetail() {
        return MpiBridge.load().detail;
    }

    /** The ABI family of the libmpi found, or null. */
    public static MpiBridge.Family mpiFamily() {
        return MpiBridge.load().family;
    }

    public static Map<String, String> report() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("platform", NativeLoader.platform());
        m.put("mpi", (mpiAvailable() ? "available: " : "unavailable: ") + mpiDetail());
        return m;
    }
}
