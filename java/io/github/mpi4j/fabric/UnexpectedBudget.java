package io.github.mpi4j.fabric;

import io.github.mpi4j.spi.Mpi;
import mpi.MPIException;

/**
 * How much memory messages that arrived before their receive (unexpected messages) may hold at
 * one rank, per sending peer and in total. The engine charges each unexpected message (its eager
 * payload plus a fixed cost for the header and queue entry) and credits it back when a receive,
 * a failed collective or a freed communicator takes it.
 *
 * <p>Over budget the engine asks that peer to send rendezvous only (a THROTTLE frame): a
 * rendezvous message waits as a header until it is received, and its data stays with the sender,
 * so legal programs keep running with bounded memory. A peer that goes on sending eager data
 * far past the budget after being asked not to ({@link #hardLimit}) breaks the protocol.
 *
 * <p>Settings: {@code MPI4J_UNEXPECTED_MB} (total; default a quarter of the heap, between 64 MiB
 * and 1 GiB) and {@code MPI4J_UNEXPECTED_PEER_MB} (per peer; default half the total, at least
 * 32 MiB and at most the total), also as system properties {@code mpi4j.unexpected.mb} and
 * {@code mpi4j.unexpected.peer.mb}.
 */
final class UnexpectedBudget {
    /** Charged per unexpected message besides its payload: header, queue entry, array header. */
    static final long ENTRY_COST = 128;
    /** Eager data still in flight after a THROTTLE (socket buffers, a ring) is allowed on top. */
    private static final long SLACK = 64L << 20;

    final long total;
    final long perPeer;
    private final long[] fromPeer;
    private final boolean[] throttled;
    private long held;

    UnexpectedBudget(int size, long total, long perPeer) {
        this.total = total;
        this.perPeer = perPeer;
        this.fromPeer = new long[size];
        this.throttled = new boolean[size];
    }

    /** The budget from the settings; a malformed setting is an error naming it. */
    static UnexpectedBudget fromSettings(int size) {
        long heapQuarter = Runtime.getRuntime().maxMemory() / 4;
        long total = setting("MPI4J_UNEXPECTED_MB", Math.max(64L << 20, Math.min(1L << 30, heapQuarter)));
        long perPeer = setting("MPI4J_UNEXPECTED_PEER_MB", Math.min(total, Math.max(32L << 20, total / 2)));
        return new UnexpectedBudget(size, total, perPeer);
    }

    private static long setting(String env, long dflt) {
        String v = System.getProperty("mpi4j." + env.substring("MPI4J_".length()).toLowerCase().replace('_', '.'));
        if (v == null) v = System.getenv(env);
        if (v == null || v.isBlank()) return dflt;
        try {
            long mb = Long.parseLong(v.trim());
            if (mb <= 0 || mb > (1L << 40)) throw new NumberFormatException();
            return mb << 20;
        } catch (NumberFormatException e) {
            throw MPIException.of(Mpi.ERR_OTHER, env + "='" + v + "' is not a positive number of MiB");
        }
    }

    /** Charges an unexpected message from {@code peer}; true when that peer should now be throttled. */
    boolean charge(int peer, long payloadBytes) {
        long c = payloadBytes + ENTRY_COST;
        fromPeer[peer] += c;
        held += c;
        return !throttled[peer] && (fromPeer[peer] > perPeer || held > total);
    }

    /** Credits a message taken off the queue; true when {@code peer} may send eagerly again. */
    boolean credit(int peer, long payloadBytes) {
        long c = payloadBytes + ENTRY_COST;
        fromPeer[peer] -= c;
        held -= c;
        return throttled[peer] && fromPeer[peer] <= perPeer / 2 && held <= total / 2;
    }

    void setThrottled(int peer, boolean on) {
        throttled[peer] = on;
    }

    /** Whether {@code peer} holds so much that it must have ignored a THROTTLE. */
    boolean hardLimit(int peer) {
        return throttled[peer] && fromPeer[peer] > 2 * perPeer + SLACK;
    }

    long heldFrom(int peer) {
        return fromPeer[peer];
    }

    long held() {
        return held;
    }
}
