package io.github.mpi4j.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.MPIException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Collective settings: a malformed one is an error naming it, never silently the default. */
class CostModelSettingsTest {
    private static final String[] KEYS = {"mpi4j.allreduce", "mpi4j.bcast", "mpi4j.allgather",
        "mpi4j.coll.segment.kb", "mpi4j.coll.alpha.us"};

    @AfterEach
    void clear() {
        for (String k : KEYS) System.clearProperty(k);
    }

    private static void refused(String key, String value) {
        System.setProperty(key, value);
        MPIException e = assertThrows(MPIException.class, CostModel::fromSettings, key + "=" + value);
        String env = key.toUpperCase().replace('.', '_');
        assertTrue(e.getMessage().contains(env) && e.getMessage().contains(value), e.getMessage());
        System.clearProperty(key);
    }

    @Test
    void malformedSettingsAreErrors() {
        refused("mpi4j.allreduce", "rign");
        refused("mpi4j.bcast", "pipelined");
        refused("mpi4j.allgather", "ringg");
        refused("mpi4j.coll.segment.kb", "64k");
        refused("mpi4j.coll.alpha.us", "-1");
    }

    @Test
    void wellFormedSettingsAreTaken() {
        System.setProperty("mpi4j.allreduce", " Ring ");
        System.setProperty("mpi4j.coll.segment.kb", "64");
        CostModel m = CostModel.fromSettings();
        assertEquals(CostModel.AllReduce.RING, m.allReduce(8, 4, 2));
    }
}
