package io.github.mpi4j.fabric.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/** Where a process stands, from each kind of environment. */
class BootstrapTest {
    @Test
    void noVariablesMeansAWorldOfOne() {
        JobInfo j = Bootstrap.detect(Map.of());
        assertEquals(0, j.rank);
        assertEquals(1, j.size);
        assertNull(j.rendezvous);
    }

    @Test
    void ourLauncher() {
        JobInfo j = Bootstrap.detect(Map.of("MPI4J_RANK", "2", "MPI4J_SIZE", "4", "MPI4J_LOCAL_RANK", "0",
                "MPI4J_LOCAL_SIZE", "2", "MPI4J_JOB_ID", "abc", "MPI4J_RENDEZVOUS", "10.0.0.1:4000",
                "MPI4J_SECRET", "00112233445566778899aabbccddeeff", "MPI4J_TIMEOUT", "30"));
        assertEquals(2, j.rank);
        assertEquals(4, j.size);
        assertEquals(0, j.localRank);
        assertEquals(2, j.localSize);
        assertEquals("10.0.0.1:4000", j.rendezvous);
        assertEquals(16, j.secret.length);
        assertEquals(30.0, j.timeoutSeconds);
        assertEquals("mpi4jrun", j.source);
    }

    @Test
    void torchrunVariables() {
        JobInfo j = Bootstrap.detect(Map.of("RANK", "1", "WORLD_SIZE", "8", "LOCAL_RANK", "1", "LOCAL_WORLD_SIZE",
                "4", "MASTER_ADDR", "node7", "MASTER_PORT", "29511"));
        assertEquals(1, j.rank);
        assertEquals(8, j.size);
        assertEquals(4, j.localSize);
        assertEquals("node7:29511", j.rendezvous);
        assertNotNull(j.secret, "a secret derived from the job's identity");
        assertTrue(j.source.contains("torchrun"));
    }

    @Test
    void slurmVariables() {
        JobInfo j = Bootstrap.detect(Map.of("SLURM_PROCID", "5", "SLURM_NTASKS", "8", "SLURM_LOCALID", "1",
                "SLURM_STEP_NODELIST", "node[01-04,09]", "SLURM_JOB_ID", "1234", "SLURM_STEP_ID", "0"));
        assertEquals(5, j.rank);
        assertEquals(8, j.size);
        assertEquals(1, j.localRank);
        assertTrue(j.rendezvous.startsWith("node01:"), j.rendezvous);
        assertTrue(j.source.contains("SLURM"));
    }

    /**
     * Every task derives the same store port from the job and step ids, below Linux's ephemeral
     * range so that no outgoing connection on the first node can hold it; MASTER_PORT overrides.
     */
    @Test
    void slurmStorePortIsDerivedBelowTheEphemeralRange() {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int job = 1; job <= 5000; job++) {
            int port = Bootstrap.slurmStorePort(Integer.toString(job), "0");
            assertTrue(port >= 1024 && port < 32768, job + " -> " + port);
            seen.add(port);
        }
        assertTrue(seen.size() > 4000, "job ids spread over the range: " + seen.size());
        Map<String, String> env = new java.util.HashMap<>(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2",
                "SLURM_STEP_NODELIST", "n1", "SLURM_JOB_ID", "77", "SLURM_STEP_ID", "3"));
        assertEquals("n1:" + Bootstrap.slurmStorePort("77", "3"), Bootstrap.detect(env).rendezvous);
        env.put("MASTER_PORT", "29999");
        assertEquals("n1:29999", Bootstrap.detect(env).rendezvous);
    }

    /** Slurm writes tasks per node compactly ("2(x3),1"); the count is this node's. */
    @Test
    void slurmTasksPerNode() {
        Map<String, String> env = new java.util.HashMap<>(Map.of("SLURM_PROCID", "6", "SLURM_NTASKS", "7",
                "SLURM_LOCALID", "0", "SLURM_STEP_NODELIST", "n[1-4]", "SLURM_TASKS_PER_NODE", "2(x3),1",
                "SLURM_NODEID", "3"));
        assertEquals(1, Bootstrap.detect(env).localSize);
        env.put("SLURM_NODEID", "1");
        assertEquals(2, Bootstrap.detect(env).localSize);
        env.put("SLURM_STEP_TASKS_PER_NODE", "3,4");
        assertEquals(4, Bootstrap.detect(env).localSize, "the step's own list wins");
        assertEquals(2, Hostlist.tasksOnNode("2(x3),1", 2));
        assertEquals(5, Hostlist.tasksOnNode("5", 0));
        assertThrows(IllegalArgumentException.class, () -> Hostlist.tasksOnNode("2(x3),1", 4));
        env.put("SLURM_STEP_TASKS_PER_NODE", "3(x");
        MPIException e = assertThrows(MPIException.class, () -> Bootstrap.detect(env));
        assertTrue(e.getMessage().contains("SLURM_STEP_TASKS_PER_NODE='3(x'"), e.getMessage());
    }

    @Test
    void badValuesNameTheVariable() {
        MPIException e = assertThrows(MPIException.class,
                () -> Bootstrap.detect(Map.of("MPI4J_RANK", "4", "MPI4J_SIZE", "4", "MPI4J_RENDEZVOUS", "h:1")));
        assertTrue(e.getMessage().contains("MPI4J_RANK=4"), e.getMessage());
        e = assertThrows(MPIException.class, () -> Bootstrap.detect(Map.of("RANK", "x", "WORLD_SIZE", "2")));
        assertTrue(e.getMessage().contains("RANK='x'"), e.getMessage());
        e = assertThrows(MPIException.class, () -> Bootstrap.detect(Map.of("MPI4J_TIMEOUT", "-1")));
        assertTrue(e.getMessage().contains("MPI4J_TIMEOUT"), e.getMessage());
    }

    @Test
    void slurmHostLists() {
        assertEquals(List.of("node01", "node02", "node03", "node04", "node09"), Hostlist.expand("node[01-04,09]"));
        assertEquals(List.of("a1", "a2", "b3", "c5-ib", "c7-ib"), Hostlist.expand("a[1-2],b3,c[5,7]-ib"));
        assertEquals(List.of("x"), Hostlist.expand("x"));
        assertEquals(List.of("n008", "n009", "n010"), Hostlist.expand("n[008-010]"));
        assertThrows(IllegalArgumentException.class, () -> Hostlist.expand("n[1-2"));
    }
}
