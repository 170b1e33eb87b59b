package io.github.mpi4j.nativeload;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What this JVM can use, and why not: the native MPI bridge, CUDA, NCCL. Filled in lazily by
 * the loaders; {@link #report()} prints it for users and bug reports
 * ({@code java -cp mpi4j.jar io.github.mpi4j.Mpi4j}).
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

    /** The CUDA runtime: whether it opened, its and the driver's version, the device count, each with its reason. */
    public static GpuLibraries.CudaStatus cuda() {
        return GpuLibraries.cuda();
    }

    /** NCCL: whether it opened and is recent enough, its version, or why not. */
    public static GpuLibraries.NcclStatus nccl() {
        return GpuLibraries.nccl();
    }

    /**
     * Whether the MPI library is CUDA-aware ("yes (...)", "no (...)", "unknown: ..."), asked of
     * the libmpi the MPI bridge opened; unknown when no MPI library is loaded (this never loads one).
     */
    public static String cudaAwareMpi() {
        return GpuLibraries.mpiCudaAware(MpiBridge.loadedAlready());
    }

    public static Map<String, String> report() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("platform", NativeLoader.platform());
        m.put("mpi", (mpiAvailable() ? "available: " : "unavailable: ") + mpiDetail());
        GpuLibraries.CudaStatus c = cuda();
        if (c.available) {
            m.put("cuda runtime", GpuLibraries.cudaVersion(c.runtimeVersion) + " (" + c.detail + ")");
            m.put("cuda driver", c.driverVersion > 0 ? GpuLibraries.cudaVersion(c.driverVersion)
                    : "absent: " + c.driverReason);
            m.put("cuda devices", c.deviceCount + (c.deviceReason == null ? "" : " (" + c.deviceReason + ")"));
        } else {
            m.put("cuda runtime", "unavailable: " + c.detail);
            m.put("cuda driver", "unknown: no CUDA runtime");
            m.put("cuda devices", "0 (no CUDA runtime)");
        }
        GpuLibraries.NcclStatus n = nccl();
        m.put("nccl", n.available ? GpuLibraries.ncclVersion(n.version) + " (" + n.detail + ")"
                : "unavailable: " + n.detail);
        m.put("mpi cuda-aware", cudaAwareMpi());
        return m;
    }
}
