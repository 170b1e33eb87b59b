package io.github.mpi4j.nccl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The arithmetic of HierarchicalComm's node table and DeviceMesh's coordinates, without MPI. */
class RankLayoutTest {
    @Test
    void twoNodesOfTwoInBlocks() {
        RankLayout l = RankLayout.of(new int[] {0, 0, 2, 2}, new int[] {0, 1, 0, 1});
        assertEquals(2, l.nodes());
        assertTrue(l.uniform());
        assertEquals(2, l.minNodeSize());
        // After the uniform all-gather blocks are ordered (local 0: node 0, node 1), (local 1: node 0, node 1).
        int[] where = new int[4];
        for (int p = 0; p < 4; p++) where[p] = l.byLocalThenNode(p);
        assertArrayEquals(new int[] {0, 2, 1, 3}, where);
    }

    @Test
    void alternatingRanksAndUnequalNodes() {
        // Ranks 0, 2, 3 on the node led by 0; rank 1 alone.
        RankLayout l = RankLayout.of(new int[] {0, 1, 0, 0}, new int[] {0, 0, 1, 2});
        assertEquals(2, l.nodes());
        assertFalse(l.uniform());
        assertEquals(1, l.minNodeSize());
        assertEquals(3, l.nodeSize(0));
        assertEquals(1, l.nodeSize(1));
        assertEquals(3, l.nodeStart(1));
        int[] where = new int[4];
        for (int p = 0; p < 4; p++) where[p] = l.byNodeThenLocal(p);
        assertArrayEquals(new int[] {0, 3, 1, 2}, where);
    }

    @Test
    void nodesAreNumberedByTheirLowestRank() {
        RankLayout l = RankLayout.of(new int[] {1, 1, 0, 0}, new int[] {0, 1, 0, 1});
        assertEquals(1, l.nodeOf(0));
        assertEquals(0, l.nodeOf(2));
    }

    @Test
    void inconsistentFactsAreRefused() {
        assertThrows(IllegalStateException.class, () -> RankLayout.of(new int[] {0, 0}, new int[] {0, 0}));
        assertThrows(IllegalArgumentException.class, () -> RankLayout.of(new int[] {0, 0}, new int[] {0}));
    }

    @Test
    void meshCoordinatesAreRowMajor() {
        assertArrayEquals(new int[] {0, 0}, MeshEngine.coordinateOf(0, new int[] {2, 3}));
        assertArrayEquals(new int[] {0, 2}, MeshEngine.coordinateOf(2, new int[] {2, 3}));
        assertArrayEquals(new int[] {1, 0}, MeshEngine.coordinateOf(3, new int[] {2, 3}));
        assertArrayEquals(new int[] {1, 0, 1}, MeshEngine.coordinateOf(5, new int[] {2, 2, 2}));
    }
}
