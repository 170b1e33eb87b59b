package io.github.mpi4j.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Requirements;
import org.junit.jupiter.api.Test;

/**
 * A machine with the CUDA runtime but no usable device (this one, and CI): every call that
 * needs the device fails with a CudaException carrying CUDA's own error, never a crash; and
 * arguments are checked in Java before any of that.
 */
class CudaWithoutDeviceTest {

    private static void assumeRuntimeWithoutDevice() {
        if (Boolean.getBoolean("mpi4j.native.skip")) Requirements.skip("CUDA without device", "native code was not built");
        if (!Cuda.isAvailable()) Requirements.skip("CUDA without device", "no CUDA runtime: " + Cuda.unavailableReason());
        if (Cuda.deviceCount() > 0) Requirements.skip("CUDA without device", "this machine has a CUDA device");
    }

    /** CUDA's own error: "... failed: cudaErrorX (code): CUDA's text". */
    private static void assertCudaText(CudaException e, String call) {
        assertTrue(e.cudaError() > 0, e.getMessage());
        assertTrue(e.errorName() != null && e.errorName().startsWith("cudaError"), e.getMessage());
        assertTrue(e.getMessage().startsWith(call), e.getMessage());
        assertTrue(e.getMessage().matches(".* failed: " + e.errorName() + " \\(" + e.cudaError() + "\\): .{10,}"),
                e.getMessage());
        // The same words as the device count's reason (cudaGetErrorString of the same code).
        String reason = Cuda.unavailableReason();
        assertTrue(reason.startsWith(e.errorName() + ": "), reason + " / " + e.getMessage());
    }

    @Test
    void allocateFailsWithCudasOwnError() {
        assumeRuntimeWithoutDevice();
        CudaException e = assertThrows(CudaException.class, () -> DeviceBuffer.allocate(1024, 0));
        assertCudaText(e, "cudaSetDevice(0)");
        CudaException d = assertThrows(CudaException.class, () -> DeviceBuffer.allocate(1024));
        assertTrue(d.getMessage().contains(" failed: " + d.errorName()), d.getMessage());
    }

    @Test
    void setDeviceFailsWithCudasOwnError() {
        assumeRuntimeWithoutDevice();
        assertCudaText(assertThrows(CudaException.class, () -> Cuda.setDevice(0)), "cudaSetDevice(0)");
        assertCudaText(assertThrows(CudaException.class, () -> Cuda.synchronize(0)), "cudaSetDevice(0)");
    }

    @Test
    void streamsAndEventsFailWithCudasOwnError() {
        assumeRuntimeWithoutDevice();
        assertCudaText(assertThrows(CudaException.class, () -> CudaStream.create(0)), "cudaSetDevice(0)");
        assertCudaText(assertThrows(CudaException.class, () -> CudaEvent.create(0)), "cudaSetDevice(0)");
    }

    @Test
    void pointerQueriesFailWithCudasOwnError() {
        assumeRuntimeWithoutDevice();
        CudaException e = assertThrows(CudaException.class, () -> Cuda.deviceOf(0x1000));
        assertTrue(e.getMessage().startsWith("cudaPointerGetAttributes failed: " + e.errorName() + " (" + e.cudaError()
                + "): "), e.getMessage());
    }

    @Test
    void argumentsAreCheckedBeforeCuda() {
        IllegalArgumentException a = assertThrows(IllegalArgumentException.class, () -> DeviceBuffer.allocate(-5));
        assertEquals("DeviceBuffer.allocate: bytes must be >= 0, got -5", a.getMessage());
        a = assertThrows(IllegalArgumentException.class, () -> DeviceBuffer.allocate(8, -1));
        assertEquals("DeviceBuffer.allocate: device must be >= 0, got -1", a.getMessage());
        a = assertThrows(IllegalArgumentException.class, () -> Cuda.setDevice(-2));
        assertEquals("Cuda.setDevice: device must be >= 0, got -2", a.getMessage());
        a = assertThrows(IllegalArgumentException.class, () -> CudaStream.wrap(0, -1));
        assertEquals("CudaStream.wrap: device must be >= 0, got -1", a.getMessage());
        a = assertThrows(IllegalArgumentException.class, () -> CudaEvent.wrap(0, 0));
        assertEquals("CudaEvent.wrap: handle is 0 (no event)", a.getMessage());
    }

    @Test
    void theDefaultDeviceFollowsTheLauncher() {
        assertEquals(3, Cuda.localRank(java.util.Map.of("OMPI_COMM_WORLD_LOCAL_RANK", "3")));
        assertEquals(1, Cuda.localRank(java.util.Map.of("MPI4J_LOCAL_RANK", "1", "LOCAL_RANK", "5")));
        assertEquals(2, Cuda.localRank(java.util.Map.of("SLURM_LOCALID", "x", "LOCAL_RANK", "2")));
        assertEquals(-1, Cuda.localRank(java.util.Map.of()));
    }
}
