package io.github.mpi4j.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/** The mode's sources and values: the info key, the environment, and refusals that name both. */
class CollectiveModeTest {
    @Test
    void valuesAndDefault() {
        assertEquals(CollectiveMode.NCCL, CollectiveMode.parse("x", " NCCL "));
        assertEquals(CollectiveMode.HOST, CollectiveMode.parse("x", "host"));
        assertEquals(CollectiveMode.HOST, CollectiveMode.fromEnvironment(Map.of()));
        assertEquals(CollectiveMode.NCCL, CollectiveMode.fromEnvironment(Map.of("MPI4J_DEVICE_COLLECTIVES", "nccl")));
    }

    @Test
    void hintsChangeOnlyWhenTheyNameTheKey() {
        assertEquals(CollectiveMode.NCCL, CollectiveMode.fromHints(Map.of("other", "x"), CollectiveMode.NCCL));
        assertEquals(CollectiveMode.HOST,
                CollectiveMode.fromHints(Map.of("mpi4j_device_collectives", "host"), CollectiveMode.NCCL));
    }

    @Test
    void aBadValueNamesKeyAndValue() {
        MPIException e = assertThrows(MPIException.class,
                () -> CollectiveMode.fromHints(Map.of("mpi4j_device_collectives", "cuda"), CollectiveMode.HOST));
        assertTrue(e.getMessage().contains("mpi4j_device_collectives") && e.getMessage().contains("'cuda'"), e.getMessage());
        e = assertThrows(MPIException.class,
                () -> CollectiveMode.fromEnvironment(Map.of("MPI4J_DEVICE_COLLECTIVES", "yes")));
        assertTrue(e.getMessage().contains("MPI4J_DEVICE_COLLECTIVES") && e.getMessage().contains("'yes'"), e.getMessage());
    }
}
