package io.github.mpi4j.nccl;

import io.github.mpi4j.cuda.Cuda;
import io.github.mpi4j.cuda.CudaEvent;
import io.github.mpi4j.cuda.CudaStream;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.memory.NativeMemory;
import io.github.mpi4j.nativeload.GpuLibraries;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Predefined;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import java.util.function.LongToIntFunction;

/**
 * The NCCL engine: one {@code ncclComm_t} with its own CUDA stream, made over a backend
 * communicator ({@code spi.BackendComm}) and driven with device addresses and NCCL's own type
 * and op codes ({@link NcclTypes}). Everything that runs NCCL goes through it: the public
 * {@link NcclComm} (a facade that maps {@code mpi} datatypes and ops and delegates),
 * {@link HierarchicalEngine}, {@link MeshEngine}, and the device layer's NCCL path
 * ({@code io.github.mpi4j.device.NcclPath}). No {@code mpi} types here.
 *
 * <p>Operations are asynchronous, as in NCCL: they are queued on {@link #stream()} and return;
 * {@link #sync} waits for them. Every address is checked in Java before anything is queued
 * (real NCCL does not check buffer sizes): an address inside an open {@link DeviceBuffer} (of
 * any slice) against that allocation's device and extent; an address mpi4j did not allocate only
 * to be device memory of this device (its extent cannot be known). The memory of every operation
 * is kept from being freed (a {@code close()} is deferred) until the next {@link #sync} that
 * completes, or an abort or close.
 *
 * <p>Waits ({@link #sync}, creation, {@link #close()}) poll {@code ncclCommGetAsyncError} with
 * the deadline {@code MPI4J_TIMEOUT} (seconds, default 600) and abort the communicator on an
 * error or at the deadline: a dead or absent peer gives an {@link NcclException}, never a hang.
 * Any call on a closed or aborted communicator is an {@link IllegalStateException}. One thread at
 * a time may queue operations (NCCL's rule); {@link #abort()} may come from any thread at any
 * time: every native call on the {@code ncclComm_t} is short and counted, and the abort marks the
 * communicator first (so a wait on another thread ends at its next poll with an exception), then
 * calls {@code ncclCommAbort} once no call is in flight, so the handle is never used after it
 * was freed.
 */
public final class RawNcclComm implements AutoCloseable {
    private static final long OPEN = 0;
    private static final long ABORTED = 1;
    private static final long CLOSED = 2;
    private static final long CALLS = 0xffff_ffffL;

    /** The state (OPEN, ABORTED, CLOSED) in the high half, native calls in flight in the low half. */
    private final AtomicLong life = new AtomicLong(OPEN << 32);
    /** Counted down once ncclCommAbort has returned (after an abort). */
    private final CountDownLatch aborted = new CountDownLatch(1);
    private final AtomicBoolean abortStarted = new AtomicBoolean();
    private final long handle;
    private final int rank;
    private final int size;
    private final int device;
    private final CudaStream stream;
    /** Holds on the memory of queued operations, released at the next completed sync. */
    private final List<DeviceBuffer.Hold> holds = new ArrayList<>();
    private DeviceBuffer barrierWord;

    private RawNcclComm(long handle, int rank, int size, int device, CudaStream stream) {
        this.handle = handle;
        this.rank = rank;
        this.size = size;
        this.device = device;
        this.stream = stream;
    }

    // ---------------------------------------------------------------------------------------
    // Creation
    // ---------------------------------------------------------------------------------------

    /**
     * Collective over {@code comm}: an NCCL communicator of the same ranks on the device
     * {@code device} says (asked inside the agreement, so that its failure counts as this rank's).
     * Every rank first learns whether all could take part (NCCL loaded, device valid), so a
     * failure on one rank is an exception on all, not a hang; then rank 0's unique id travels by
     * {@code comm}'s bcast. {@code call} names the caller in exceptions.
     */
    public static RawNcclComm create(String call, BackendComm comm, IntSupplier device) {
        int rank = comm.rank();
        int size = comm.size();
        RuntimeException local = null;
        CudaStream stream = null;
        int d = -1;
        try {
            d = device.getAsInt();
            if (d < 0) throw new IllegalArgumentException(call + ": device must be >= 0, got " + d);
            NcclNative.ensure(call);
            int count = GpuLibraries.cuda().deviceCount;
            if (count > 0 && d >= count) {
                throw new IllegalArgumentException(call + ": device " + d + " is out of range: rank " + rank
                        + " sees " + count + " CUDA device" + (count == 1 ? "" : "s"));
            }
            stream = CudaStream.create(d);
        } catch (RuntimeException e) {
            local = e;
        }
        CudaStream made = stream;
        BackendCalls.agree(comm, call, local, () -> {
            if (made != null) made.close();
        }, "could not take part (its own exception says why)");
        byte[] message = new byte[1 + NcclNative.UNIQUE_ID_BYTES];
        if (rank == 0) {
            try {
                byte[] id = NcclNative.uniqueId0();
                System.arraycopy(id, 0, message, 1, id.length);
                message[0] = 1;
            } catch (RuntimeException e) {
                local = e;
            }
        }
        BackendCalls.bcast(comm, "bcast", message, message.length, Predefined.T_BYTE, 0);
        if (message[0] != 1) {
            stream.close();
            if (local != null) throw local;
            throw NcclException.failed(call, "rank 0 could not make the NCCL unique id");
        }
        byte[] id = java.util.Arrays.copyOfRange(message, 1, message.length);
        long h;
        try {
            // Non-blocking, so that a rank that never joins ends in an exception at the deadline.
            h = NcclNative.commInitRank0(id, size, rank, d, false);
            settle("ncclCommInitRankConfig (rank " + rank + " of " + size + ", device " + d + ")", h, d);
        } catch (RuntimeException e) {
            stream.close();
            throw e;
        }
        return new RawNcclComm(h, rank, size, d, stream);
    }

    /**
     * Collective over this communicator ({@code ncclCommSplit}): ranks passing the same
     * {@code color} (>= 0) form a new communicator, ordered by {@code key} then by rank, on this
     * communicator's device. A rank passing a negative color takes part and gets null.
     */
    public RawNcclComm split(String what, int color, int key) {
        long slot = NcclNative.newSlot0();
        long h = enter(what);
        try {
            NcclNative.commSplit0(h, color < 0 ? NcclNative.SPLIT_NOCOLOR : color, key, device, false, slot);
        } catch (RuntimeException e) {
            NcclNative.freeSlot0(slot); // refused at the call: NCCL keeps no pointer to the slot
            throw e;
        } finally {
            exit();
        }
        // On a non-blocking parent the split goes on as the parent's operation, whatever the call
        // returned (NCCL 2.28 returns ncclSuccess, not ncclInProgress, with the handle still NULL):
        // NCCL writes the new handle into the slot when it is done, and only the parent's state
        // says when. Also a rank passing no color waits: the parent is busy until then. On an error
        // or at the deadline the parent is aborted and the slot stays allocated: NCCL might still
        // write into it.
        await(what + ": ncclCommSplit (color " + color + ", key " + key + ")", false);
        long child = NcclNative.readSlot0(slot);
        NcclNative.freeSlot0(slot);
        if (child == 0) {
            if (color < 0) return null;
            throw NcclException.failed(what, "ncclCommSplit (color " + color + ", key " + key
                    + ") reported success but gave no communicator");
        }
        settle("ncclCommSplit (color " + color + ", key " + key + ")", child, device);
        CudaStream s;
        try {
            s = CudaStream.create(device);
        } catch (RuntimeException e) {
            abortQuietly(child, device);
            throw e;
        }
        return new RawNcclComm(child, NcclNative.userRank0(child), NcclNative.count0(child), device, s);
    }

    /**
     * Polls {@code comm}'s asynchronous state until it is ready; on an error or at the deadline,
     * aborts it and throws.
     */
    private static void settle(String what, long comm, int device) {
        int rc = NcclDeadline.await(NcclDeadline.stateOnly(() -> NcclNative.asyncError0(comm)),
                NcclDeadline.from(System.nanoTime()));
        if (rc == NcclNative.SUCCESS) return;
        NcclException e = rc == NcclException.DEADLINE ? NcclException.deadline(what, NcclDeadline.seconds())
                : asyncFailure(what, rc, comm);
        abortQuietly(comm, device);
        throw e;
    }

    private static NcclException asyncFailure(String what, int code, long comm) {
        return new NcclException(what, code, NcclNative.errorString0(code), NcclNative.lastError0(comm));
    }

    private static void abortQuietly(long comm, int device) {
        try {
            NcclNative.commAbort0(comm, device);
        } catch (RuntimeException e) {
            // The communicator is broken already; the caller throws the reason.
        }
    }

    /** Opens the CUDA runtime and NCCL (once), or throws an {@link NcclException} saying why they are unavailable. */
    public static void ensure(String what) {
        NcclNative.ensure(what);
    }

    // ---------------------------------------------------------------------------------------
    // Queries (no check: the facades check the state with their own names)
    // ---------------------------------------------------------------------------------------

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public int device() {
        return device;
    }

    /** The stream every operation of this communicator is queued on. */
    public CudaStream stream() {
        return stream;
    }

    /** The {@code ncclComm_t}. */
    public long handle() {
        return handle;
    }

    public boolean isClosed() {
        return state(life.get()) == CLOSED;
    }

    public boolean isAborted() {
        return state(life.get()) == ABORTED;
    }

    // ---------------------------------------------------------------------------------------
    // Stream/event contract
    // ---------------------------------------------------------------------------------------

    /** An event recorded on the stream: it completes when the operations queued so far have. */
    public CudaEvent recordEvent(String what) {
        check(what);
        return stream.record();
    }

    /** Records {@code event} (of this device) on the stream, after the operations queued so far. */
    public void recordEvent(String what, CudaEvent event) {
        if (event == null) throw new IllegalArgumentException(what + ": event is null");
        check(what);
        event.record(stream);
    }

    /** Later operations wait until {@code event} (recorded on any stream) has completed. */
    public void waitEvent(String what, CudaEvent event) {
        if (event == null) throw new IllegalArgumentException(what + ": event is null");
        check(what);
        stream.waitEvent(event);
    }

    /**
     * Later operations wait until the work queued so far on {@code other} (an external stream of
     * this device) is done: an event recorded there, waited on here.
     */
    public void waitStream(String what, CudaStream other) {
        if (other == null) throw new IllegalArgumentException(what + ": other is null");
        checkDevice(what, "other", other.device());
        check(what);
        try (CudaEvent e = other.record()) {
            stream.waitEvent(e);
        }
    }

    /** {@code other} (an external stream of this device) waits until the operations queued so far are done. */
    public void makeStreamWait(String what, CudaStream other) {
        if (other == null) throw new IllegalArgumentException(what + ": other is null");
        checkDevice(what, "other", other.device());
        check(what);
        try (CudaEvent e = stream.record()) {
            other.waitEvent(e);
        }
    }

    private void checkDevice(String what, String arg, int d) {
        if (d != device) {
            throw new IllegalArgumentException(what + ": " + arg + " is on device " + d + ", the communicator's device is "
                    + device);
        }
    }

    // ---------------------------------------------------------------------------------------
    // Operations on device addresses, NCCL types and ops
    // ---------------------------------------------------------------------------------------

    /**
     * The address of {@code buf} after checking it is open, on this device and holds
     * {@code count} elements of {@code t} ({@code times} times over): the operations then check
     * and hold it by that address.
     */
    public long address(String what, String arg, DeviceBuffer buf, long count, NcclTypes.Mapped t, int times) {
        long bytes = times(what, bytes(what, count, t), times);
        if (buf == null) throw new IllegalArgumentException(what + ": " + arg + " is null");
        if (buf.isClosed()) throw new IllegalStateException(what + ": " + arg + " " + buf + " is closed");
        if (buf.device() != device) {
            throw new IllegalArgumentException(what + ": " + arg + " is memory of device " + buf.device()
                    + ", the communicator's device is " + device);
        }
        if (bytes > buf.size()) {
            throw new IllegalArgumentException(what + ": " + arg + " holds " + buf.size()
                    + " bytes, the operation needs " + bytes);
        }
        return buf.address();
    }

    /** ncclAllReduce of {@code count} elements (in place when {@code send == recv}). */
    public void allReduce(String what, long send, long recv, long count, NcclTypes.Mapped t, int op) {
        long bytes = bytes(what, count, t);
        queue(what, "send", send, bytes, recv, bytes,
                h -> NcclNative.allReduce0(send, recv, count, t.ncclType, op, h, stream.handle(), device));
    }

    /** ncclBroadcast: root's {@code send} into every rank's {@code recv} ({@code send} is read at the root only). */
    public void broadcast(String what, long send, long recv, long count, NcclTypes.Mapped t, int root) {
        long bytes = bytes(what, count, t);
        checkRank(what, "root", root);
        queue(what, "send", send, rank == root ? bytes : 0, recv, bytes,
                h -> NcclNative.broadcast0(send, recv, count * t.factor, t.ncclType, root, h, stream.handle(), device));
    }

    /** ncclReduce into root's {@code recv} ({@code recv} is used at the root only). */
    public void reduce(String what, long send, long recv, long count, NcclTypes.Mapped t, int op, int root) {
        long bytes = bytes(what, count, t);
        checkRank(what, "root", root);
        queue(what, "send", send, bytes, recv, rank == root ? bytes : 0,
                h -> NcclNative.reduce0(send, recv, count, t.ncclType, op, root, h, stream.handle(), device));
    }

    /** ncclAllGather: every rank's {@code send} ({@code sendCount} elements) into {@code recv}, in rank order. */
    public void allGather(String what, long send, long recv, long sendCount, NcclTypes.Mapped t) {
        long bytes = bytes(what, sendCount, t);
        queue(what, "send", send, bytes, recv, times(what, bytes, size),
                h -> NcclNative.allGather0(send, recv, sendCount * t.factor, t.ncclType, h, stream.handle(), device));
    }

    /** ncclReduceScatter: of every rank's {@code send} ({@code recvCount × size} elements), block {@code rank} into {@code recv}. */
    public void reduceScatter(String what, long send, long recv, long recvCount, NcclTypes.Mapped t, int op) {
        long bytes = bytes(what, recvCount, t);
        queue(what, "send", send, times(what, bytes, size), recv, bytes,
                h -> NcclNative.reduceScatter0(send, recv, recvCount, t.ncclType, op, h, stream.handle(), device));
    }

    /** ncclSend ({@code toPeer}) or ncclRecv of {@code count} elements at {@code buf}. */
    public void sendOrRecv(String what, boolean toPeer, long buf, long count, NcclTypes.Mapped t, int peer) {
        long bytes = bytes(what, count, t);
        checkRank(what, "peer", peer);
        long n = count * t.factor;
        queue(what, "buf", buf, bytes, 0, 0,
                toPeer ? h -> NcclNative.send0(buf, n, t.ncclType, peer, h, stream.handle(), device)
                        : h -> NcclNative.recv0(buf, n, t.ncclType, peer, h, stream.handle(), device));
    }

    /**
     * Queues one operation: checks the communicator is open, checks and holds its memory (the
     * first operand {@code firstArg}, then {@code recv}; an operand of 0 bytes is not used
     * here), then runs {@code op} on the handle.
     */
    private void queue(String what, String firstArg, long first, long firstBytes, long recv, long recvBytes,
                       LongToIntFunction op) {
        check(what);
        Holds k = new Holds();
        k.address(what, firstArg, first, firstBytes);
        k.address(what, "recv", recv, recvBytes);
        call(what, k, op);
    }

    // ---------------------------------------------------------------------------------------
    // Groups
    // ---------------------------------------------------------------------------------------

    /** This thread's open group: its depth and the communicators used in it. */
    private static final class Group {
        int depth;
        final Set<RawNcclComm> comms = new LinkedHashSet<>();
    }

    private static final ThreadLocal<Group> GROUP = ThreadLocal.withInitial(Group::new);

    /** ncclGroupStart on this thread: operations until {@link #groupEnd} progress together. */
    public static void groupStart(String what) {
        NcclNative.ensure(what);
        NcclNative.groupStart0();
        GROUP.get().depth++;
    }

    /**
     * ncclGroupEnd on this thread; waits until the group's operations are queued. A communicator
     * used in an open group counts as in use until here, so an abort from another thread waits
     * for the group's end before it frees the {@code ncclComm_t}.
     */
    public static void groupEnd(String what) {
        Group g = GROUP.get();
        if (g.depth == 0) throw new IllegalStateException(what + ": no group was started on this thread");
        int rc;
        List<RawNcclComm> used;
        try {
            rc = NcclNative.groupEnd0();
        } finally {
            g.depth--;
            used = new ArrayList<>(g.comms);
            if (g.depth == 0) {
                g.comms.clear();
                for (RawNcclComm c : used) {
                    c.exit();
                    if (c.isAborted()) c.abortNative(); // an abort() from inside the group
                }
            }
        }
        if (g.depth > 0) return;
        if (rc == NcclNative.IN_PROGRESS) {
            for (RawNcclComm c : used) c.settleOrAbort("ncclGroupEnd");
        }
    }

    // ---------------------------------------------------------------------------------------
    // Waiting, ending
    // ---------------------------------------------------------------------------------------

    /**
     * Waits until every operation queued on this communicator is done. Polls the communicator's
     * asynchronous error; on an error, or when {@code MPI4J_TIMEOUT} passes, aborts the
     * communicator and throws an {@link NcclException} ({@code what} names the call); if another
     * thread aborts or closes the communicator meanwhile, throws an {@link IllegalStateException}
     * at the next poll.
     */
    public void sync(String what) {
        check(what);
        await(what + " (rank " + rank + " of " + size + ")", true);
        releaseHolds();
    }

    /** Returns once every rank has called it (an all-reduce of one word, then {@link #sync}). */
    public void barrier(String what) {
        check(what);
        if (barrierWord == null) barrierWord = DeviceBuffer.allocate(4, device);
        long w = barrierWord.address();
        call(what, new Holds(), h -> NcclNative.allReduce0(w, w, 1, NcclNative.INT32, NcclNative.SUM, h,
                stream.handle(), device));
        sync(what);
    }

    /**
     * Aborts the communicator ({@code ncclCommAbort}): queued operations end without effect, and
     * every later call except {@link #close()} throws. Any thread may call it, also while another
     * thread waits or queues on this communicator: the state changes first (a wait elsewhere ends
     * at its next poll), NCCL's abort runs once no native call on the communicator is in flight.
     * Idempotent.
     */
    public void abort() {
        long s;
        do {
            s = life.get();
            if (state(s) != OPEN) return;
        } while (!life.compareAndSet(s, (ABORTED << 32) | (s & CALLS)));
        // This thread's own open group holds the communicator: NCCL's abort runs at its groupEnd.
        if (!GROUP.get().comms.contains(this)) abortNative();
    }

    /** ncclCommAbort, exactly once, when no native call is in flight; others wait for it. */
    private void abortNative() {
        if (!abortStarted.compareAndSet(false, true)) {
            awaitAbort();
            return;
        }
        quiesce();
        try {
            NcclNative.commAbort0(handle, device);
        } catch (RuntimeException e) {
            // Aborting a broken communicator: the abort is what was asked; nothing is left to do.
        } finally {
            aborted.countDown();
            releaseHolds();
        }
    }

    /**
     * Finalizes and destroys the communicator (waiting for its queued operations, with the
     * deadline; aborting it at the deadline), then its stream. Idempotent; after {@link #abort()}
     * it only frees the stream.
     */
    @Override
    public void close() {
        if (GROUP.get().comms.contains(this)) {
            throw new IllegalStateException("NcclComm.close: " + this + " is used in this thread's open group; call"
                    + " groupEnd() first");
        }
        long s;
        do {
            s = life.get();
            if (state(s) == CLOSED) return;
        } while (!life.compareAndSet(s, (CLOSED << 32) | (s & CALLS)));
        try {
            if (state(s) == OPEN) {
                quiesce();
                int rc = NcclNative.commFinalize0(handle, device);
                if (rc == NcclNative.IN_PROGRESS) settle("ncclCommFinalize (rank " + rank + ")", handle, device);
                NcclNative.commDestroy0(handle, device);
            } else {
                awaitAbort();
            }
        } finally {
            releaseHolds();
            if (barrierWord != null) barrierWord.close();
            stream.close();
        }
    }

    @Override
    public String toString() {
        long s = state(life.get());
        return "NcclComm[rank " + rank + " of " + size + ", device " + device
                + (s == CLOSED ? ", closed" : s == ABORTED ? ", aborted" : "") + "]";
    }

    // ---------------------------------------------------------------------------------------
    // The life of the ncclComm_t across threads
    // ---------------------------------------------------------------------------------------

    private static long state(long word) {
        return word >>> 32;
    }

    /** Counts a native call on the handle in; the caller must {@link #exit()}. Throws if not open. */
    private long enter(String what) {
        if (!tryEnter()) throw notOpen(what, state(life.get()));
        return handle;
    }

    private void exit() {
        life.decrementAndGet();
    }

    /** {@link #enter} that says false instead of throwing. */
    private boolean tryEnter() {
        while (true) {
            long s = life.get();
            if (state(s) != OPEN) return false;
            if (life.compareAndSet(s, s + 1)) return true;
        }
    }

    /** Waits until no native call is in flight (they are short: nothing blocks inside one). */
    private void quiesce() {
        for (int spin = 0; (life.get() & CALLS) != 0; spin++) {
            if (spin < 100) Thread.onSpinWait();
            else LockSupport.parkNanos(100_000);
        }
    }

    /** Waits until the abort that another thread started has called ncclCommAbort. */
    private void awaitAbort() {
        try {
            aborted.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Polls until this communicator's stream is idle and its state ready ({@code waitForStream}
     * true) or only its state is ready, with the deadline; on an error or at the deadline, aborts
     * it and throws.
     */
    private void await(String what, boolean waitForStream) {
        NcclDeadline.Probe probe = new NcclDeadline.Probe() {
            @Override
            public boolean open() {
                return state(life.get()) == OPEN;
            }

            @Override
            public boolean done() {
                return !waitForStream || stream.query();
            }

            @Override
            public int asyncError() {
                long h = enter(what);
                try {
                    return NcclNative.asyncError0(h);
                } finally {
                    exit();
                }
            }
        };
        int rc = NcclDeadline.await(probe, NcclDeadline.from(System.nanoTime()));
        if (rc == NcclNative.SUCCESS) return;
        if (rc == NcclDeadline.STOPPED) throw notOpen(what + " (while waiting)", state(life.get()));
        RuntimeException e;
        if (rc == NcclException.DEADLINE) {
            e = NcclException.deadline(what, NcclDeadline.seconds());
        } else if (tryEnter()) { // NCCL's last error, while the handle is valid
            try {
                e = asyncFailure(what, rc, handle);
            } finally {
                exit();
            }
        } else {
            e = new NcclException(what, rc, NcclNative.errorString0(rc), null);
        }
        abort();
        throw e;
    }

    // ---------------------------------------------------------------------------------------
    // Checks
    // ---------------------------------------------------------------------------------------

    /** Throws an {@link IllegalStateException} naming {@code what} unless the communicator is open. */
    public void check(String what) {
        long s = state(life.get());
        if (s != OPEN) throw notOpen(what, s);
    }

    private IllegalStateException notOpen(String what, long s) {
        return new IllegalStateException(what + ": " + this + " is " + (s == CLOSED ? "closed" : "aborted"));
    }

    /** Throws unless {@code r} is a rank of this communicator ({@code arg} names it: root, peer). */
    public void checkRank(String what, String arg, int r) {
        if (r < 0 || r >= size) {
            throw new IllegalArgumentException(what + ": " + arg + " " + r + " is out of range: the communicator has "
                    + size + " rank" + (size == 1 ? "" : "s"));
        }
    }

    /** Bytes of {@code count} elements of {@code t}, after checking the count. */
    static long bytes(String what, long count, NcclTypes.Mapped t) {
        if (count < 0) throw new IllegalArgumentException(what + ": count must be >= 0, got " + count);
        return times(what, count, t.elementBytes);
    }

    static long times(String what, long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(what + ": " + a + " × " + b + " bytes overflows a long");
        }
    }

    /**
     * The holds one operation takes while its addresses are checked, then the entry on the
     * communicator: on any failure before the operation is queued, all are let go.
     */
    private final class Holds {
        private final List<DeviceBuffer.Hold> taken = new ArrayList<>(2);

        /**
         * Checks an address: inside an open {@link DeviceBuffer}, that allocation's device and
         * extent ({@code bytes} from the address); otherwise that it is device memory of this
         * device (the extent of memory mpi4j did not allocate cannot be known).
         */
        void address(String what, String arg, long address, long bytes) {
            try {
                if (bytes == 0) return;
                if (address == 0) throw new IllegalArgumentException(what + ": " + arg + " is address 0");
                DeviceBuffer.Hold a = DeviceBuffer.hold(address);
                if (a != null) {
                    taken.add(a);
                    String at = what + ": " + arg + " 0x" + Long.toHexString(address);
                    if (a.device() != device) {
                        throw new IllegalArgumentException(at + " is memory of device " + a.device()
                                + ", the communicator needs memory of device " + device);
                    }
                    long left = a.size() - (address - a.base());
                    if (bytes > left) {
                        throw new IllegalArgumentException(at + " lies in an allocation of " + a.size() + " bytes at 0x"
                                + Long.toHexString(a.base()) + " that has " + left + " bytes from there, the operation"
                                + " needs " + bytes);
                    }
                    return;
                }
                int d = Cuda.deviceOf(address);
                if (d != device) {
                    throw new IllegalArgumentException(what + ": " + arg + " 0x" + Long.toHexString(address) + " is "
                            + (d == NativeMemory.HOST ? "host memory" : "memory of device " + d)
                            + ", the communicator needs memory of device " + device);
                }
            } catch (RuntimeException e) {
                undo();
                throw e;
            }
        }

        /** Enters the communicator for the native call (the holds are let go if it is not open). */
        long enter(String what) {
            try {
                return RawNcclComm.this.enter(what);
            } catch (RuntimeException e) {
                undo();
                throw e;
            }
        }

        private void undo() {
            for (DeviceBuffer.Hold x : taken) x.close();
            taken.clear();
        }
    }

    /**
     * After the native call of an operation: keeps its holds until the next completed sync, leaves the
     * communicator (in a group: at groupEnd), and waits if NCCL said in progress.
     */
    private void queued(String what, Holds k, int rc) {
        Group g = GROUP.get();
        boolean many;
        synchronized (holds) {
            holds.addAll(k.taken);
            many = holds.size() >= 4096;
        }
        k.taken.clear();
        // A program that queues without syncing: once the stream is idle, every hold can go.
        if (many && stream.query()) releaseHolds();
        if (g.depth > 0 && g.comms.add(this)) {
            // The group keeps this entry until groupEnd.
        } else {
            exit();
        }
        if (g.depth == 0 && rc == NcclNative.IN_PROGRESS) settleOrAbort(what);
    }

    /**
     * Runs an operation's native call on the handle inside an entry on the communicator (the
     * holds and the entry are let go if it throws), then {@link #queued}.
     */
    private void call(String what, Holds k, LongToIntFunction op) {
        long h = k.enter(what);
        int rc;
        try {
            rc = op.applyAsInt(h);
        } catch (RuntimeException e) {
            k.undo();
            exit();
            throw e;
        }
        queued(what, k, rc);
    }

    private void releaseHolds() {
        List<DeviceBuffer.Hold> done;
        synchronized (holds) {
            done = new ArrayList<>(holds);
            holds.clear();
        }
        for (DeviceBuffer.Hold x : done) x.close();
    }

    private void settleOrAbort(String what) {
        if (state(life.get()) != OPEN) return;
        await(what + " (rank " + rank + ")", false);
    }
}
