package io.github.mpi4j.fabric;

/**
 * The engine's operations that wait for a peer's answer (a CTS, DATA frames, an ACK), by their
 * id: an open-addressing table of {@code long} keys, so that registering and finding one neither
 * boxes the id nor allocates a map entry per message, as a {@code HashMap<Long, Op>} did for
 * every rendezvous message. Ids are positive ({@code 0} marks an empty slot); the ids looked up
 * come from the wire, so any value is a valid question and a miss answers null. Not thread-safe:
 * used under the engine's lock.
 */
final class OpTable {
    private long[] keys = new long[64];
    private Engine.Op[] ops = new Engine.Op[64];
    private int mask = 63;
    private int size;

    /** Registers {@code op} under {@code id} (positive), replacing what was there. */
    void put(long id, Engine.Op op) {
        if (id <= 0) throw new IllegalArgumentException("operation id " + id + " is not positive");
        if (2 * (size + 1) > keys.length) grow();
        int i = home(id);
        while (keys[i] != 0) {
            if (keys[i] == id) {
                ops[i] = op;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = id;
        ops[i] = op;
        size++;
    }

    /** The operation registered under {@code id}, or null. */
    Engine.Op get(long id) {
        int i = slotOf(id);
        return i < 0 ? null : ops[i];
    }

    /** Removes and returns the operation registered under {@code id}, or null. */
    Engine.Op remove(long id) {
        int i = slotOf(id);
        if (i < 0) return null;
        Engine.Op removed = ops[i];
        // Backward-shift deletion: move later entries of the probe run into the hole unless
        // their home slot lies cyclically after the hole, so every entry stays reachable from its home.
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            if (keys[j] == 0) break;
            int home = home(keys[j]);
            boolean staysPut = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (!staysPut) {
                keys[i] = keys[j];
                ops[i] = ops[j];
                i = j;
            }
        }
        keys[i] = 0;
        ops[i] = null;
        size--;
        return removed;
    }

    int size() {
        return size;
    }

    private int slotOf(long id) {
        if (id <= 0) return -1;
        int i = home(id);
        while (keys[i] != 0) {
            if (keys[i] == id) return i;
            i = (i + 1) & mask;
        }
        return -1;
    }

    /** Ids are handed out in sequence, so the low bits alone spread them over the slots. */
    private int home(long id) {
        return (int) id & mask;
    }

    private void grow() {
        long[] oldKeys = keys;
        Engine.Op[] oldOps = ops;
        keys = new long[oldKeys.length * 2];
        ops = new Engine.Op[oldKeys.length * 2];
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0) put(oldKeys[i], oldOps[i]);
        }
    }
}
