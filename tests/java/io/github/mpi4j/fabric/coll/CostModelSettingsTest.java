package io.github.mpi4j.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.fabric.transport.TcpTransport;
import io.github.mpi4j.fabric.transport.Transport;
import mpi.MPIException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Collective settings: a malformed one is an error naming it, never silently the default. */
class CostModelSettingsTest {
    private static final String[] KEYS = {"mpi4j.allreduce", "mpi4j.bcast", "mpi4j.allgather",
        "mpi4j.coll.segment.kb", "mpi4j.coll.alpha.us", "mpi4j.coll.net.alpha.us", "mpi4j.coll.net.beta.ns.per.kb"};

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
        refused("mpi4j.coll.net.alpha.us", "fast");
    }

    /** Steps across nodes are priced with network constants, not shared-memory ones. */
    @Test
    void stepsAcrossNodesUseNetworkCosts() {
        CostModel m = CostModel.fromSettings();
        CostModel net = m.acrossNodes();
        assertEquals(2e-6, m.alpha, 1e-12);
        assertEquals(25e-6, net.alpha, 1e-12);
        assertEquals(1000e-9 / 1024, net.beta, 1e-15);
        assertEquals(m.gamma, net.gamma, 0);
        // 32 KiB over 8 ranks: with shared-memory latencies Rabenseifner's extra messages pay,
        // with 25 us per message recursive doubling's fewer ones win.
        assertEquals(CostModel.AllReduce.RABENSEIFNER, m.allReduce(1 << 15, 8, 1 << 13));
        assertEquals(CostModel.AllReduce.RECURSIVE_DOUBLING, net.allReduce(1 << 15, 8, 1 << 13));
        System.setProperty("mpi4j.coll.net.alpha.us", "3");
        System.setProperty("mpi4j.coll.net.beta.ns.per.kb", "2048");
        net = CostModel.fromSettings().acrossNodes();
        assertEquals(3e-6, net.alpha, 1e-12);
        assertEquals(2048e-9 / 1024, net.beta, 1e-15);
    }

    @Test
    void wellFormedSettingsAreTaken() {
        System.setProperty("mpi4j.allreduce", " Ring ");
        System.setProperty("mpi4j.coll.segment.kb", "64");
        CostModel m = CostModel.fromSettings();
        assertEquals(CostModel.AllReduce.RING, m.allReduce(8, 4, 2));
    }

    /**
     * The ring's default segment is larger than the largest eager message of a collective on any
     * transport (TCP's point-to-point limit is higher, and a segment must not fall under it: only
     * the collective limit applies to the ring), so a segment that arrives early waits as a
     * rendezvous instead of being held in a heap copy.
     */
    @Test
    void theDefaultSegmentIsNeverSentEagerly() {
        CostModel m = CostModel.fromSettings();
        assertEquals(CostModel.DEFAULT_SEGMENT_BYTES, m.segmentBytes);
        TcpTransport tcp = new TcpTransport(1, new TcpTransport.Connection[0]);
        assertTrue(m.segmentBytes > tcp.collectiveEagerLimit(),
                m.segmentBytes + " <= TCP's collective eager limit " + tcp.collectiveEagerLimit());
        assertTrue(m.segmentBytes > Transport.COLLECTIVE_EAGER_CAP);
    }

    /** Over TCP, point-to-point messages go eagerly to 512 KiB, a collective's only to 256 KiB. */
    @Test
    void collectivesGoEagerlyLessFarThanPointToPointOverTcp() {
        TcpTransport tcp = new TcpTransport(1, new TcpTransport.Connection[0]);
        assertEquals(512 * 1024, tcp.eagerLimit());
        assertEquals(256 * 1024, tcp.collectiveEagerLimit());
    }
}
