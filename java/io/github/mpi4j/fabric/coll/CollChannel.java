package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.Reductions;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * What the collective schedules need from the fabric, for one communicator: reliable, ordered
 * (per peer and tag) byte messages between its members, in a context of their own that user
 * point-to-point traffic can never match.
 *
 * <p>Offsets and lengths are in bytes from a {@link Buf}'s first element and are always whole
 * elements of its kind. A receive must be posted with exactly the length that is sent.
 * Implementations are thread-safe: several collectives (distinguished by tag) may run at once.
 * Every wait has a deadline; a dead peer or an expired deadline throws {@code mpi.MPIException}
 * naming the rank.
 */
public interface CollChannel {

    int rank();

    int size();

    /** Starts sending {@code len} bytes of {@code buf} from byte {@code off} to {@code peer}. */
    CollOp isend(int peer, int tag, Buf buf, long off, long len);

    /** Starts receiving {@code len} bytes from {@code peer} into {@code buf} at byte {@code off}. */
    CollOp irecv(int peer, int tag, Buf buf, long off, long len);

    /**
     * Waits for all the operations (null entries are skipped). Throws, with the operations
     * given up, when another rank reports that it failed the collective call in progress.
     */
    void waitAll(CollOp... ops);

    /**
     * The tag of the next step schedule of the collective call in progress on this thread: every
     * rank gets the same tags for the same call, and no two calls share one.
     */
    int tag();

    /**
     * Starts a recorded schedule as the rest of the non-blocking call in progress on this
     * thread (whose tags it holds): it is advanced by the request's {@code test} and
     * {@code waitFor} and by the fabric's progress thread, never blocking anyone else; the
     * request completes when its last step has run.
     */
    BackendRequest start(Schedule schedule);

    /**
     * Copies {@code len} bytes between buffers as a step of the schedule. Schedules make every
     * local data movement through here (and {@link #reduce}) rather than directly, so that a
     * recorded schedule ({@link Recorder}) performs it in order with its messages.
     */
    default void copy(Buf src, long srcOff, Buf dst, long dstOff, long len) {
        if (len > 0) BufAccess.copy(src, srcOff, dst, dstOff, len);
    }

    /** Combines {@code items} of {@code in} into {@code inout} ("in op inout"), as a step of the schedule. */
    default void reduce(OpDesc op, TypeDesc t, Buf in, long inOff, Buf inout, long inoutOff, long items) {
        if (items > 0) Reductions.reduce(op, t, in, inOff, inout, inoutOff, (int) items);
    }

    default void send(int peer, int tag, Buf buf, long off, long len) {
        waitAll(isend(peer, tag, buf, off, len));
    }

    default void recv(int peer, int tag, Buf buf, long off, long len) {
        waitAll(irecv(peer, tag, buf, off, len));
    }

    /** Exchanges with two peers at once (the building block of rings and butterflies). */
    default void sendRecv(int to, Buf sbuf, long soff, long slen, int from, Buf rbuf, long roff, long rlen, int tag) {
        CollOp r = irecv(from, tag, rbuf, roff, rlen);
        CollOp s = isend(to, tag, sbuf, soff, slen);
        waitAll(r, s);
    }

    /**
     * Node of each rank of this communicator (equal values share a node and can share memory);
     * node-aware schedules combine inside a node first.
     */
    int[] nodeOf();

    /**
     * The shared-memory slots of this communicator's members, for schedules that read and write
     * each other's data directly ({@link ShmAllReduce}); null (the default) when some member is
     * on another node or has no slot, or when collectives may run concurrently on one rank
     * (THREAD_MULTIPLE). Only blocking collectives may use them.
     */
    default SharedSlots sharedSlots() {
        return null;
    }

    /**
     * Whether the collectives' temporaries should live in direct memory: some member is reached
     * over a transport that reads and writes direct buffers without a copy and arrays through
     * one (TCP). False (the default) keeps them in heap arrays, which reduce fastest.
     */
    default boolean directTemporaries() {
        return false;
    }

    /** A started operation. */
    interface CollOp {
        boolean isDone();
    }
}
