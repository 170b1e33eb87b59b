package io.github.mpi4j.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The public memory types, and the fabric's two answers to host memory: with libmpi4j_dl it is
 * viewed and moved; with native code disabled it is refused with the loader's reason, and the
 * fabric still works for arrays.
 */
class NativeMemoryTest {

    @Test
    void hostAndDeviceMemoryDescribeThemselves() {
        HostMemory h = HostMemory.of(0x1000, 64);
        assertEquals(NativeMemory.HOST, h.device());
        assertEquals(false, h.isDevice());
        HostMemory s = h.slice(16, 32);
        assertEquals(0x1010, s.address());
        assertEquals(32, s.byteSize());
        DeviceMemory d = DeviceMemory.of(0x2000, 8, 1);
        assertTrue(d.isDevice());
        assertEquals(1, d.slice(4, 4).device());
        assertEquals(0x2004, d.slice(4, 4).address());
    }

    @Test
    void badSizesAndSlicesAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostMemory.of(0x1000, -1));
        assertTrue(e.getMessage().contains("bytes must be >= 0, got -1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DeviceMemory.of(0x1000, 8, -2));
        assertTrue(e.getMessage().contains("device must be >= 0, got -2"), e.getMessage());
        IndexOutOfBoundsException o = assertThrows(IndexOutOfBoundsException.class,
                () -> HostMemory.of(0x1000, 64).slice(60, 8));
        assertTrue(o.getMessage().contains("8 bytes from offset 60") && o.getMessage().contains("64 bytes"),
                o.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> HostMemory.of(0x1000, 64).slice(-1, 1));
    }

    @Test
    void theFabricMovesHostMemoryThroughItsView() throws Exception {
        Jobs.Result r = probe();
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("MOVED 40 43"), r.toString());
        assertTrue(r.output.contains("ARRAYS STILL WORK 7"), r.toString());
    }

    @Test
    void withoutNativeCodeTheFabricRefusesHostMemoryAndSaysWhy() throws Exception {
        Jobs.Result r = probe("-Dmpi4j.native.disable=true");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("REFUSED host memory given by address (HostMemory[0x")
                && r.output.contains("is not accepted by the fabric backend: libmpi4j_dl is not loaded: "
                        + "native code disabled"), r.toString());
        assertTrue(r.output.contains("ARRAYS STILL WORK 7"), r.toString());
    }

    private static Jobs.Result probe(String... options) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("env", "-u", "OMPI_COMM_WORLD_RANK", "-u", "PMI_RANK",
                "-u", "PMIX_RANK", "-u", "MPI4J_BACKEND"));
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xcheck:jni");
        cmd.addAll(List.of(options));
        cmd.addAll(List.of("-cp", Jobs.classpath(), HostMemoryProbe.class.getName()));
        return Jobs.run(cmd, null, 60);
    }
}
