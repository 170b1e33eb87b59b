package io.github.mpi4j.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/** The one MPI4J_TIMEOUT parser every backend and the NCCL layer use. */
class TimeoutTest {

    @Test
    void defaultVariableAndPropertyInThatOrder() {
        assertEquals(600, Timeout.seconds(Map.of(), "t"));
        assertEquals(2.5, Timeout.seconds(Map.of("MPI4J_TIMEOUT", " 2.5 "), "t"));
        System.setProperty("mpi4j.timeout", "7");
        try {
            assertEquals(7, Timeout.seconds(Map.of("MPI4J_TIMEOUT", "2.5"), "t"), "the property wins");
        } finally {
            System.clearProperty("mpi4j.timeout");
        }
    }

    @Test
    void malformedValuesAreErrorsNamingThem() {
        for (String bad : new String[] {"soon", "0", "-3", "NaN"}) {
            MPIException e = assertThrows(MPIException.class,
                    () -> Timeout.seconds(Map.of("MPI4J_TIMEOUT", bad), "MPI.Init (fabric)"), bad);
            assertTrue(e.getMessage().startsWith("MPI.Init (fabric): MPI4J_TIMEOUT"), e.getMessage());
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
    }
}
