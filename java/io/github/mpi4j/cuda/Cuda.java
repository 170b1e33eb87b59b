package io.github.mpi4j.cuda;

import io.github.mpi4j.nativeload.GpuLibraries;
import java.util.Map;

/**
 * The CUDA devices of this process. mpi4j opens the CUDA runtime at first use (see
 * {@code docs/gpu.md} for where it looks); without one, {@link #deviceCount()} is 0 and
 * {@link #unavailableReason()} says why.
 *
 * <p>CUDA keeps a "current device" per OS thread. mpi4j does not rely on it: every buffer,
 * stream and event knows its device, and each call sets it on the calling thread when it
 * differs, so any Java thread may use any of them. {@link #setDevice(int)} chooses the device
 * that {@link DeviceBuffer#allocate(long)}, {@link CudaStream#create()} and
 * {@link CudaEvent#create()} use; until it is called, that is this rank's rank on its node (from
 * the launcher: {@code MPI4J_LOCAL_RANK}, {@code OMPI_COMM_WORLD_LOCAL_RANK},
 * {@code MPI_LOCALRANKID}, {@code MV2_COMM_WORLD_LOCAL_RANK}, {@code SLURM_LOCALID},
 * {@code LOCAL_RANK}) modulo the device count, or device 0.
 */
public final class Cuda {
    private Cuda() {
    }

    private static volatile int chosen = -1;

    /** Launcher variables that give the rank on its node, most specific first. */
    private static final String[] LOCAL_RANK = {"MPI4J_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
        "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "LOCAL_RANK"};

    /** Whether a usable CUDA runtime was found (devices may still be absent). */
    public static boolean isAvailable() {
        return GpuLibraries.cuda().available;
    }

    /** CUDA devices visible to this process; 0 without a CUDA runtime, driver or device. */
    public static int deviceCount() {
        GpuLibraries.CudaStatus s = GpuLibraries.cuda();
        return s.available ? s.deviceCount : 0;
    }

    /**
     * Why {@link #deviceCount()} is 0 (CUDA's own error, or why no CUDA runtime was found), or
     * null when there are devices.
     */
    public static String unavailableReason() {
        GpuLibraries.CudaStatus s = GpuLibraries.cuda();
        if (!s.available) return "no usable CUDA runtime: " + s.detail;
        if (s.deviceCount > 0) return null;
        return s.deviceReason + (s.driverReason == null ? "" : "; " + s.driverReason);
    }

    /**
     * Makes {@code device} this process's default device (for allocations, streams and events
     * made without one) and the calling thread's current CUDA device.
     *
     * @throws IllegalArgumentException if {@code device} is negative or beyond the devices present
     * @throws CudaException with CUDA's own error when CUDA refuses it (no driver, no device)
     */
    public static void setDevice(int device) {
        checkDevice("Cuda.setDevice", device);
        CudaNative.setDevice0(device);
        chosen = device;
    }

    /** The device used where none is given: see the class comment. */
    public static int defaultDevice() {
        int d = chosen;
        if (d >= 0) return d;
        int local = localRank(System.getenv());
        int count = deviceCount();
        return local < 0 ? 0 : count > 0 ? local % count : local;
    }

    /** Waits until all work queued on the default device is done ({@code cudaDeviceSynchronize}). */
    public static void synchronize() {
        synchronize(defaultDevice());
    }

    /** Waits until all work queued on {@code device} is done. */
    public static void synchronize(int device) {
        checkDevice("Cuda.synchronize", device);
        CudaNative.synchronize0(device);
    }

    /**
     * The device whose memory {@code address} is in (device or managed memory, as
     * {@code cudaPointerGetAttributes} says), or {@link io.github.mpi4j.memory.NativeMemory#HOST}
     * for host memory: how pointer-level calls refuse a host pointer where device memory is
     * required, before anything is queued.
     *
     * @throws CudaException when CUDA cannot tell (no driver)
     */
    public static int deviceOf(long address) {
        if (address == 0) throw new IllegalArgumentException("Cuda.deviceOf: address is 0");
        CudaNative.ensure("Cuda.deviceOf");
        long kind = CudaNative.pointerKind0(address);
        int type = (int) (kind >>> 32);
        boolean onDevice = type == CudaNative.MEMORY_DEVICE || type == CudaNative.MEMORY_MANAGED;
        return onDevice ? (int) kind : io.github.mpi4j.memory.NativeMemory.HOST;
    }

    /** This rank's rank on its node from the launcher's variables, or -1. */
    static int localRank(Map<String, String> env) {
        for (String k : LOCAL_RANK) {
            String v = env.get(k);
            if (v == null) continue;
            try {
                int r = Integer.parseInt(v.trim());
                if (r >= 0) return r;
            } catch (NumberFormatException e) {
                // not a number: try the next variable
            }
        }
        return -1;
    }

    /**
     * Opens CUDA and checks {@code device}: negative is refused, and so is a device beyond the
     * count when CUDA could count them; with no count (no driver) the call goes on, so that CUDA
     * itself says what is wrong.
     */
    static void checkDevice(String what, int device) {
        if (device < 0) throw new IllegalArgumentException(what + ": device must be >= 0, got " + device);
        CudaNative.ensure(what);
        GpuLibraries.CudaStatus s = GpuLibraries.cuda();
        if (s.deviceCount > 0 && device >= s.deviceCount) {
            throw new IllegalArgumentException(what + ": device " + device + " is out of range: this process sees "
                    + s.deviceCount + " CUDA device" + (s.deviceCount == 1 ? "" : "s"));
        }
    }
}
