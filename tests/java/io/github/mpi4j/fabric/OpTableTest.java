package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The engine's table of waiting operations against a {@link HashMap} as the reference: random
 * registrations and removals (ids in sequence as the engine hands them out, long-lived ones among
 * short-lived ones so probe runs wrap around the table's end and removals shift entries back),
 * and lookups of ids from the wire that were never registered.
 */
class OpTableTest {
    private static Engine.Op op(long id) {
        Engine.SendOp op = new Engine.SendOp(1, null, 0, id, false);  // its length names it
        op.id = id;
        return op;
    }

    private static long idOf(Engine.Op op) {
        return ((Engine.SendOp) op).len;
    }

    @Test
    void agreesWithAHashMapUnderRandomTraffic() {
        Random random = new Random(12345);
        OpTable table = new OpTable();
        Map<Long, Engine.Op> reference = new HashMap<>();
        List<Long> live = new ArrayList<>();
        long nextId = 1;
        for (int step = 0; step < 200_000; step++) {
            int what = random.nextInt(10);
            if (what < 5 || live.isEmpty()) {
                long id = nextId++;
                Engine.Op op = op(id);
                table.put(id, op);
                reference.put(id, op);
                live.add(id);
            } else if (what < 9) {
                // Mostly the oldest (messages complete in order), sometimes any of them.
                int k = random.nextInt(4) == 0 ? random.nextInt(live.size()) : 0;
                long id = live.remove(k);
                assertSame(reference.remove(id), table.remove(id), "remove " + id);
                assertNull(table.get(id), "gone after its removal: " + id);
            } else {
                long id = random.nextInt(3) == 0 ? -random.nextInt(1000) : nextId + random.nextInt(1000);
                assertNull(table.get(id), "never registered: " + id);
                assertNull(table.remove(id), "never registered: " + id);
            }
            assertEquals(reference.size(), table.size(), "size at step " + step);
            if (step % 1000 == 0) {
                for (Map.Entry<Long, Engine.Op> e : reference.entrySet()) {
                    assertSame(e.getValue(), table.get(e.getKey()), "lookup of " + e.getKey() + " at step " + step);
                }
            }
        }
    }

    @Test
    void idsThatShareAHomeSlotStayReachableAcrossRemovals() {
        OpTable table = new OpTable();
        // 64 slots at first: ids 64 apart land on one home slot, so they form one probe run.
        long[] ids = {5, 69, 133, 197, 6, 7};
        for (long id : ids) table.put(id, op(id));
        assertEquals(69, idOf(table.remove(69)));
        for (long id : new long[] {5, 133, 197, 6, 7}) assertEquals(id, idOf(table.get(id)), "id " + id);
        assertEquals(5, idOf(table.remove(5)));
        for (long id : new long[] {133, 197, 6, 7}) assertEquals(id, idOf(table.get(id)), "id " + id);
        assertEquals(4, table.size());
    }

    @Test
    void refusesIdsThatAreNotPositive() {
        OpTable table = new OpTable();
        assertThrows(IllegalArgumentException.class, () -> table.put(0, op(1)));
        assertThrows(IllegalArgumentException.class, () -> table.put(-3, op(1)));
    }
}
