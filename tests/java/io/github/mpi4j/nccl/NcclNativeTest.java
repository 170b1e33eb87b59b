package io.github.mpi4j.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.nativeload.GpuLibraries;
import io.github.mpi4j.testing.Requirements;
import org.junit.jupiter.api.Test;

/**
 * The NCCL natives against the real NCCL of this machine (no GPU): NCCL's own error strings
 * come through, and a call that needs a device fails with an exception, never a crash.
 */
class NcclNativeTest {

    private static void assumeNccl() {
        if (Boolean.getBoolean("mpi4j.native.skip")) Requirements.skip("NCCL natives", "native code was not built");
        GpuLibraries.NcclStatus n = GpuLibraries.nccl();
        if (!n.available) Requirements.skip("NCCL natives", n.detail);
        if (!GpuLibraries.cuda().available) Requirements.skip("NCCL natives", GpuLibraries.cuda().detail);
    }

    @Test
    void ncclsOwnErrorStrings() {
        assumeNccl();
        // The texts nccl.h documents for its result codes (ncclGetErrorString).
        assertEquals("no error", NcclNative.errorString0(NcclNative.SUCCESS));
        assertTrue(NcclNative.errorString0(4).startsWith("invalid argument"), NcclNative.errorString0(4));
        assertEquals("ncclInvalidArgument", NcclException.resultName(4));
        assertEquals("ncclResult 42", NcclException.resultName(42));
    }

    @Test
    void aCommunicatorWithoutADeviceIsAnExceptionNotACrash() {
        assumeNccl();
        if (GpuLibraries.cuda().deviceCount > 0) Requirements.skip("NCCL without a device", "this machine has a device");
        RuntimeException e = assertThrows(RuntimeException.class, () -> {
            byte[] id = new byte[NcclNative.UNIQUE_ID_BYTES];
            NcclNative.commInitRank0(id, 1, 0, 0, true);
        });
        assertTrue(e.getMessage().contains("failed: "), e.getMessage());
    }

    @Test
    void uniqueIdsNeedNoDeviceAndDiffer() {
        assumeNccl();
        // ncclGetUniqueId only sets up NCCL's bootstrap address: 128 bytes, by value, new each time.
        byte[] a = NcclNative.uniqueId0();
        byte[] b = NcclNative.uniqueId0();
        assertEquals(NcclNative.UNIQUE_ID_BYTES, a.length);
        assertEquals(NcclNative.UNIQUE_ID_BYTES, b.length);
        assertTrue(!java.util.Arrays.equals(a, b), "two unique ids are equal");
    }
}
