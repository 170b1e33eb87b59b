package io.github.mpi4j.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/** The accessor package mpi installs for the public NCCL classes below it. */
class ApiBridgeTest {

    /**
     * In a class loader of its own, where nothing of package mpi has been initialized, the bridge
     * is the first thing touched (as when a facade is): get() initializes mpi.Comm, which installs it.
     */
    @Test
    void getInstallsTheBridgeWhenNothingOfMpiRanYet() throws Exception {
        URL classes = Path.of(Jobs.basedir(), "target", "classes").toUri().toURL();
        try (URLClassLoader fresh = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader())) {
            Class<?> bridge = Class.forName(ApiBridge.class.getName(), true, fresh);
            Object b = bridge.getMethod("get").invoke(null);
            assertEquals("mpi.SpiBridge", b.getClass().getName());
            assertSame(fresh, b.getClass().getClassLoader(), "the bridge of that loader's package mpi");
            assertSame(b, bridge.getMethod("get").invoke(null), "installed once");
        }
    }

    @Test
    void itHandsOutTheDescriptorsAndKeepsTheApisChecks() {
        ApiBridge b = ApiBridge.get();
        assertSame(Predefined.T_INT, b.typeOf(MPI.INT, "call", "type"));
        assertEquals(OpCode.SUM, b.opOf(MPI.SUM, "call").code);
        assertEquals(OpCode.MINLOC, b.opOf(MPI.MINLOC, "call").code);
        MPIException e = assertThrows(MPIException.class, () -> b.typeOf(MPI.DATATYPE_NULL, "NcclComm.send", "type"));
        assertTrue(e.getMessage().contains("NcclComm.send") && e.getMessage().contains("DATATYPE_NULL"), e.getMessage());
        assertThrows(ClassCastException.class, () -> b.typeOf("not a datatype", "call", "type"));
    }

    @Test
    void aSecondInstallationIsRefused() {
        ApiBridge b = ApiBridge.get();
        assertThrows(IllegalStateException.class, () -> ApiBridge.set(b));
        assertSame(b, ApiBridge.get());
    }
}
