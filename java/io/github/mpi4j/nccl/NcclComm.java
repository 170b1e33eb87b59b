package io.github.mpi4j.nccl;

import io.github.mpi4j.cuda.Cuda;
import io.github.mpi4j.cuda.CudaEvent;
import io.github.mpi4j.cuda.CudaStream;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.memory.NativeMemory;
import io.github.mpi4j.nativeload.GpuLibraries;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;

/**
 * An NCCL communicator over the ranks of an {@code mpi.Intracomm}, with its own CUDA stream.
 *
 * <p>Operations are asynchronous, as in NCCL: they are queued on {@link #stream()} and return;
 * {@link #sync()} waits for them. Every argument is checked in Java before anything is queued
 * (real NCCL does not check buffer sizes): counts against the {@link DeviceBuffer}s' sizes,
 * buffers on this communicator's device, roots and peers in range, datatypes and ops that NCCL
 * can do (see {@link #allReduce(DeviceBuffer, DeviceBuffer, long, Datatype, Op)}). The overloads
 * on raw {@code long} device addresses are for frameworks that manage their own memory: they
 * check that an address is device memory of this device, not its extent.
 *
 * <p>Waits ({@link #sync()}, {@link #barrier()}, creation, {@link #close()}) poll
 * {@code ncclCommGetAsyncError} with the deadline {@code MPI4J_TIMEOUT} (seconds, default 600) and
 * abort the communicator on an error or at the deadline: a dead or absent peer gives an
 * {@link NcclException}, never a hang. Any call on a closed or aborted communicator is an
 * {@link IllegalStateException}. One thread at a time may queue operations on a communicator
 * (NCCL's rule); {@link #abort()} may come from any thread.
 */
public final class NcclComm implements AutoCloseable {
    private static final int OPEN = 0;
    private static final int ABORTED = 1;
    private static final int CLOSED = 2;

    /** Colour for {@link #split} of a rank that wants no communicator (it gets null). */
    public static final int NO_COLOR = MPI.UNDEFINED;

    private final AtomicInteger state = new AtomicInteger(OPEN);
    private final long handle;
    private final int rank;
    private final int size;
    private final int device;
    private final CudaStream stream;
    /** Buffers of queued operations, reachable until the next completed sync. */
    private final List<Object> pending = new ArrayList<>();
    private DeviceBuffer barrierWord;

    private NcclComm(long handle, int rank, int size, int device, CudaStream stream) {
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
     * Collective over {@code comm}: an NCCL communicator of the same ranks, on the device whose
     * number is this rank's rank on its node ({@code comm.splitType(Comm.TYPE_SHARED, ...)}).
     */
    public static NcclComm create(Intracomm comm) {
        if (comm == null) throw new IllegalArgumentException("NcclComm.create: comm is null");
        Intracomm node = comm.splitType(Comm.TYPE_SHARED, 0, MPI.INFO_NULL);
        int local;
        try {
            local = node.getRank();
        } finally {
            node.free();
        }
        return create(comm, local);
    }

    /**
     * Collective over {@code comm}: an NCCL communicator of the same ranks on {@code device}.
     * The unique id travels by {@code comm}'s {@code bcast}. Every rank first learns whether all
     * could take part (NCCL loaded, device valid), so a failure on one rank is an exception on
     * all, not a hang.
     */
    public static NcclComm create(Intracomm comm, int device) {
        if (comm == null) throw new IllegalArgumentException("NcclComm.create: comm is null");
        int rank = comm.getRank();
        int size = comm.getSize();
        RuntimeException local = null;
        CudaStream stream = null;
        try {
            if (device < 0) throw new IllegalArgumentException("NcclComm.create: device must be >= 0, got " + device);
            NcclNative.ensure("NcclComm.create");
            int count = GpuLibraries.cuda().deviceCount;
            if (count > 0 && device >= count) {
                throw new IllegalArgumentException("NcclComm.create: device " + device + " is out of range: rank " + rank
                        + " sees " + count + " CUDA device" + (count == 1 ? "" : "s"));
            }
            stream = CudaStream.create(device);
        } catch (RuntimeException e) {
            local = e;
        }
        // The lowest rank that cannot take part, or size when all can.
        int[] firstFailed = {local == null ? size : rank};
        comm.allReduce(firstFailed, 1, MPI.INT, MPI.MIN);
        if (firstFailed[0] < size) {
            if (stream != null) stream.close();
            if (local != null) throw local;
            throw NcclException.failed("NcclComm.create", "rank " + firstFailed[0] + " of " + size
                    + " could not take part (its own exception says why)");
        }
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
        comm.bcast(message, message.length, MPI.BYTE, 0);
        if (message[0] != 1) {
            stream.close();
            if (local != null) throw local;
            throw NcclException.failed("NcclComm.create", "rank 0 could not make the NCCL unique id");
        }
        byte[] id = java.util.Arrays.copyOfRange(message, 1, message.length);
        long h;
        try {
            // Non-blocking, so that a rank that never joins ends in an exception at the deadline.
            h = NcclNative.commInitRank0(id, size, rank, device, false);
            settle("ncclCommInitRankConfig (rank " + rank + " of " + size + ", device " + device + ")", h, device,
                    System.nanoTime());
        } catch (RuntimeException e) {
            stream.close();
            throw e;
        }
        return new NcclComm(h, rank, size, device, stream);
    }

    /**
     * Collective over this communicator ({@code ncclCommSplit}): ranks passing the same
     * {@code color} (>= 0) form a new communicator, ordered by {@code key} then by rank, on this
     * communicator's device. A rank passing {@link #NO_COLOR} takes part and gets null.
     */
    public NcclComm split(int color, int key) {
        String what = "NcclComm.split";
        if (color < 0 && color != NO_COLOR) {
            throw new IllegalArgumentException(what + ": color must be >= 0 or NcclComm.NO_COLOR, got " + color);
        }
        check(what);
        long child = NcclNative.commSplit0(handle, color == NO_COLOR ? NcclNative.SPLIT_NOCOLOR : color, key, device,
                false);
        if (child == 0) return null;
        settle("ncclCommSplit (color " + color + ", key " + key + ")", child, device, System.nanoTime());
        CudaStream s;
        try {
            s = CudaStream.create(device);
        } catch (RuntimeException e) {
            abortQuietly(child, device);
            throw e;
        }
        return new NcclComm(child, NcclNative.userRank0(child), NcclNative.count0(child), device, s);
    }

    /**
     * Polls {@code comm}'s asynchronous state until it is ready; on an error or at the deadline,
     * aborts it and throws.
     */
    private static void settle(String what, long comm, int device, long start) {
        long deadline = NcclDeadline.from(start);
        for (int poll = 0; ; poll++) {
            int s = NcclNative.asyncError0(comm);
            if (s == NcclNative.SUCCESS) return;
            if (s != NcclNative.IN_PROGRESS) {
                NcclException e = asyncFailure(what, s, comm);
                abortQuietly(comm, device);
                throw e;
            }
            if (System.nanoTime() - deadline > 0) {
                abortQuietly(comm, device);
                throw NcclException.deadline(what, NcclDeadline.seconds());
            }
            NcclDeadline.pause(poll);
        }
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

    // ---------------------------------------------------------------------------------------
    // Queries
    // ---------------------------------------------------------------------------------------

    public int getRank() {
        check("getRank");
        return rank;
    }

    public int getSize() {
        check("getSize");
        return size;
    }

    public int getDevice() {
        check("getDevice");
        return device;
    }

    /** The stream every operation of this communicator is queued on. */
    public CudaStream stream() {
        check("stream");
        return stream;
    }

    /** The {@code ncclComm_t}, for libraries that call NCCL themselves. */
    public long handle() {
        check("handle");
        return handle;
    }

    public boolean isClosed() {
        return state.get() == CLOSED;
    }

    public boolean isAborted() {
        return state.get() == ABORTED;
    }

    // ---------------------------------------------------------------------------------------
    // Stream/event contract
    // ---------------------------------------------------------------------------------------

    /** An event recorded on this communicator's stream: it completes when the operations queued so far have. */
    public CudaEvent recordEvent() {
        check("recordEvent");
        return stream.record();
    }

    /** Later operations of this communicator wait until {@code event} (recorded on any stream) has completed. */
    public void waitEvent(CudaEvent event) {
        check("waitEvent");
        stream.waitEvent(event);
    }

    /** {@code other} (an external stream) waits until the operations queued on this communicator so far are done. */
    public void makeStreamWait(CudaStream other) {
        if (other == null) throw new IllegalArgumentException("NcclComm.makeStreamWait: other is null");
        check("makeStreamWait");
        try (CudaEvent e = stream.record()) {
            other.waitEvent(e);
        }
    }

    // ---------------------------------------------------------------------------------------
    // Collectives on DeviceBuffers
    // ---------------------------------------------------------------------------------------

    /**
     * {@code recv} = the reduction of every rank's {@code send} ({@code count} elements; in place
     * when {@code send == recv}). {@code type}: MPI.BYTE, INT, LONG, FLOAT or DOUBLE; {@code op}:
     * MPI.SUM, PROD, MAX or MIN.
     */
    public void allReduce(DeviceBuffer send, DeviceBuffer recv, long count, Datatype type, Op op) {
        String what = "NcclComm.allReduce";
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        int o = NcclTypes.op(what, op);
        long bytes = bytes(what, count, t);
        long s = buffer(what, "send", send, bytes);
        long r = buffer(what, "recv", recv, bytes);
        check(what);
        queued(what, NcclNative.allReduce0(s, r, count, t.ncclType, o, handle, stream.handle(), device), send, recv);
    }

    /** Root's {@code buf} ({@code count} elements of any fixed-size predefined type) to every rank's. */
    public void broadcast(DeviceBuffer buf, long count, Datatype type, int root) {
        String what = "NcclComm.broadcast";
        NcclTypes.Mapped t = NcclTypes.forMovement(what, type);
        long bytes = bytes(what, count, t);
        long b = buffer(what, "buf", buf, bytes);
        checkRank(what, "root", root);
        check(what);
        queued(what, NcclNative.broadcast0(b, b, count * t.factor, t.ncclType, root, handle, stream.handle(), device),
                buf);
    }

    /** The reduction of every rank's {@code send} into root's {@code recv} ({@code recv} may be null elsewhere). */
    public void reduce(DeviceBuffer send, DeviceBuffer recv, long count, Datatype type, Op op, int root) {
        String what = "NcclComm.reduce";
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        int o = NcclTypes.op(what, op);
        long bytes = bytes(what, count, t);
        checkRank(what, "root", root);
        long s = buffer(what, "send", send, bytes);
        long r = recv == null && rank != root ? 0 : buffer(what, "recv", recv, bytes);
        check(what);
        queued(what, NcclNative.reduce0(s, r, count, t.ncclType, o, root, handle, stream.handle(), device), send, recv);
    }

    /** Every rank's {@code send} ({@code sendCount} elements) into {@code recv}, in rank order. */
    public void allGather(DeviceBuffer send, DeviceBuffer recv, long sendCount, Datatype type) {
        String what = "NcclComm.allGather";
        NcclTypes.Mapped t = NcclTypes.forMovement(what, type);
        long bytes = bytes(what, sendCount, t);
        long s = buffer(what, "send", send, bytes);
        long r = buffer(what, "recv", recv, times(what, bytes, size));
        check(what);
        queued(what, NcclNative.allGather0(s, r, sendCount * t.factor, t.ncclType, handle, stream.handle(), device),
                send, recv);
    }

    /** The reduction of every rank's {@code send} ({@code recvCount × size} elements), block {@code rank} into {@code recv}. */
    public void reduceScatter(DeviceBuffer send, DeviceBuffer recv, long recvCount, Datatype type, Op op) {
        String what = "NcclComm.reduceScatter";
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        int o = NcclTypes.op(what, op);
        long bytes = bytes(what, recvCount, t);
        long s = buffer(what, "send", send, times(what, bytes, size));
        long r = buffer(what, "recv", recv, bytes);
        check(what);
        queued(what, NcclNative.reduceScatter0(s, r, recvCount, t.ncclType, o, handle, stream.handle(), device),
                send, recv);
    }

    /** Sends {@code count} elements of {@code buf} to {@code peer} (completes with the matching {@link #recv}). */
    public void send(DeviceBuffer buf, long count, Datatype type, int peer) {
        String what = "NcclComm.send";
        NcclTypes.Mapped t = NcclTypes.forMovement(what, type);
        long b = buffer(what, "buf", buf, bytes(what, count, t));
        checkRank(what, "peer", peer);
        check(what);
        queued(what, NcclNative.send0(b, count * t.factor, t.ncclType, peer, handle, stream.handle(), device), buf);
    }

    /** Receives {@code count} elements from {@code peer} into {@code buf}. */
    public void recv(DeviceBuffer buf, long count, Datatype type, int peer) {
        String what = "NcclComm.recv";
        NcclTypes.Mapped t = NcclTypes.forMovement(what, type);
        long b = buffer(what, "buf", buf, bytes(what, count, t));
        checkRank(what, "peer", peer);
        check(what);
        queued(what, NcclNative.recv0(b, count * t.factor, t.ncclType, peer, handle, stream.handle(), device), buf);
    }

    // ---------------------------------------------------------------------------------------
    // The same on raw device addresses
    // ---------------------------------------------------------------------------------------

    public void allReduce(long send, long recv, long count, Datatype type, Op op) {
        String what = "NcclComm.allReduce";
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        int o = NcclTypes.op(what, op);
        bytes(what, count, t);
        address(what, "send", send, count);
        address(what, "recv", recv, count);
        check(what);
        queued(what, NcclNative.allReduce0(send, recv, count, t.ncclType, o, handle, stream.handle(), device));
    }

    public void broadcast(long send, long recv, long count, Datatype type, int root) {
        String what = "NcclComm.broadcast";
        NcclTypes.Mapped t = NcclTypes.forMovement(what, type);
        bytes(what, count, t);
        checkRank(what, "root", root);
        if (rank == root) address(what, "send", send, count);
        address(what, "recv", recv, count);
        check(what);
        queued(what, NcclNative.broadcast0(send, recv, count * t.factor, t.ncclType, root, handle, stream.handle(),
                device));
    }

    public void reduce(long send, long recv, long count, Datatype type, Op op, int root) {
        String what = "NcclComm.reduce";
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        int o = NcclTypes.op(what, op);
        bytes(what, count, t);
        checkRank(what, "root", root);
        address(what, "send", send, count);
        if (rank == root) address(what, "recv", recv, count);
        check(what);
        queued(what, NcclNative.reduce0(send, recv, count, t.ncclType, o, root, handle, stream.handle(), device));
    }

    public void allGather(long send, long recv, long sendCount, Datatype type) {
        String what = "NcclComm.allGather";
        NcclTypes.Mapped t = NcclTypes.forMovement(what, type);
        bytes(what, sendCount, t);
        address(what, "send", send, sendCount);
        address(what, "recv", recv, sendCount);
        check(what);
        queued(what, NcclNative.allGather0(send, recv, sendCount * t.factor, t.ncclType, handle, stream.handle(),
                device));
    }

    public void reduceScatter(long send, long recv, long recvCount, Datatype type, Op op) {
        String what = "NcclComm.reduceScatter";
        NcclTypes.Mapped t = NcclTypes.forReduction(what, type);
        int o = NcclTypes.op(what, op);
        bytes(what, recvCount, t);
        address(what, "send", send, recvCount);
        address(what, "recv", recv, recvCount);
        check(what);
        queued(what, NcclNative.reduceScatter0(send, recv, recvCount, t.ncclType, o, handle, stream.handle(), device));
    }

    public void send(long buf, long count, Datatype type, int peer) {
        String what = "NcclComm.send";
        NcclTypes.Mapped t = NcclTypes.forMovement(what, type);
        bytes(what, count, t);
        checkRank(what, "peer", peer);
        address(what, "buf", buf, count);
        check(what);
        queued(what, NcclNative.send0(buf, count * t.factor, t.ncclType, peer, handle, stream.handle(), device));
    }

    public void recv(long buf, long count, Datatype type, int peer) {
        String what = "NcclComm.recv";
        NcclTypes.Mapped t = NcclTypes.forMovement(what, type);
        bytes(what, count, t);
        checkRank(what, "peer", peer);
        address(what, "buf", buf, count);
        check(what);
        queued(what, NcclNative.recv0(buf, count * t.factor, t.ncclType, peer, handle, stream.handle(), device));
    }

    // ---------------------------------------------------------------------------------------
    // Groups
    // ---------------------------------------------------------------------------------------

    /** This thread's open group: its depth and the communicators used in it. */
    private static final class Group {
        int depth;
        final Set<NcclComm> comms = new LinkedHashSet<>();
    }

    private static final ThreadLocal<Group> GROUP = ThreadLocal.withInitial(Group::new);

    /** Starts a group on this thread ({@code ncclGroupStart}): operations until {@link #groupEnd()} progress together. */
    public static void groupStart() {
        NcclNative.ensure("NcclComm.groupStart");
        NcclNative.groupStart0();
        GROUP.get().depth++;
    }

    /** Ends this thread's group ({@code ncclGroupEnd}) and waits until its operations are queued. */
    public static void groupEnd() {
        Group g = GROUP.get();
        if (g.depth == 0) throw new IllegalStateException("NcclComm.groupEnd: no group was started on this thread");
        int rc;
        try {
            rc = NcclNative.groupEnd0();
        } finally {
            g.depth--;
        }
        if (g.depth > 0) return;
        List<NcclComm> used = new ArrayList<>(g.comms);
        g.comms.clear();
        if (rc == NcclNative.IN_PROGRESS) {
            for (NcclComm c : used) c.settleOrAbort("ncclGroupEnd");
        }
    }

    // ---------------------------------------------------------------------------------------
    // Waiting, ending
    // ---------------------------------------------------------------------------------------

    /**
     * Waits until every operation queued on this communicator is done. Polls the communicator's
     * asynchronous error; on an error, or when {@code MPI4J_TIMEOUT} passes, aborts the
     * communicator and throws an {@link NcclException}.
     */
    public void sync() {
        String what = "NcclComm.sync (rank " + rank + " of " + size + ")";
        check("sync");
        long deadline = NcclDeadline.from(System.nanoTime());
        for (int poll = 0; ; poll++) {
            if (state.get() != OPEN) throw new IllegalStateException(what + ": aborted while waiting");
            int s = NcclNative.asyncError0(handle);
            if (s != NcclNative.SUCCESS && s != NcclNative.IN_PROGRESS) {
                NcclException e = asyncFailure(what, s, handle);
                abort();
                throw e;
            }
            if (stream.query()) {
                synchronized (pending) {
                    pending.clear();
                }
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                abort();
                throw NcclException.deadline(what, NcclDeadline.seconds());
            }
            NcclDeadline.pause(poll);
        }
    }

    /** Returns once every rank has called it (an all-reduce of one word, then {@link #sync()}). */
    public void barrier() {
        check("barrier");
        if (barrierWord == null) barrierWord = DeviceBuffer.allocate(4, device);
        queued("NcclComm.barrier", NcclNative.allReduce0(barrierWord.address(), barrierWord.address(), 1,
                NcclNative.INT32, NcclNative.SUM, handle, stream.handle(), device));
        sync();
    }

    /**
     * Aborts the communicator ({@code ncclCommAbort}): queued operations end without effect, and
     * every later call except {@link #close()} throws. Any thread may call it; idempotent.
     */
    public void abort() {
        if (!state.compareAndSet(OPEN, ABORTED)) return;
        try {
            NcclNative.commAbort0(handle, device);
        } finally {
            synchronized (pending) {
                pending.clear();
            }
        }
    }

    /**
     * Finalizes and destroys the communicator (waiting for its queued operations, with the
     * deadline; aborting it at the deadline), then its stream. Idempotent; after {@link #abort()}
     * it only frees the stream.
     */
    @Override
    public void close() {
        int was = state.getAndSet(CLOSED);
        if (was == CLOSED) return;
        try {
            if (was == OPEN) {
                int rc = NcclNative.commFinalize0(handle, device);
                if (rc == NcclNative.IN_PROGRESS) settle("ncclCommFinalize (rank " + rank + ")", handle, device, System.nanoTime());
                NcclNative.commDestroy0(handle, device);
            }
        } finally {
            synchronized (pending) {
                pending.clear();
            }
            if (barrierWord != null) barrierWord.close();
            stream.close();
        }
    }

    @Override
    public String toString() {
        int s = state.get();
        return "NcclComm[rank " + rank + " of " + size + ", device " + device
                + (s == CLOSED ? ", closed" : s == ABORTED ? ", aborted" : "") + "]";
    }

    // ---------------------------------------------------------------------------------------
    // Checks
    // ---------------------------------------------------------------------------------------

    private void check(String what) {
        int s = state.get();
        if (s != OPEN) {
            throw new IllegalStateException(what + ": " + this + " is " + (s == CLOSED ? "closed" : "aborted"));
        }
    }

    private void checkRank(String what, String arg, int r) {
        if (r < 0 || r >= size) {
            throw new IllegalArgumentException(what + ": " + arg + " " + r + " is out of range: the communicator has "
                    + size + " rank" + (size == 1 ? "" : "s"));
        }
    }

    private static long bytes(String what, long count, NcclTypes.Mapped t) {
        if (count < 0) throw new IllegalArgumentException(what + ": count must be >= 0, got " + count);
        return times(what, count, t.elementBytes);
    }

    private static long times(String what, long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(what + ": " + a + " × " + b + " bytes overflows a long");
        }
    }

    /** The address of {@code buf}, after checking it is open, on this device and holds {@code bytes}. */
    private long buffer(String what, String arg, DeviceBuffer buf, long bytes) {
        if (buf == null) throw new IllegalArgumentException(what + ": " + arg + " is null");
        if (buf.isClosed()) throw new IllegalStateException(what + ": " + arg + " " + buf + " is closed");
        if (buf.device() != device) {
            throw new IllegalArgumentException(what + ": " + arg + " is memory of device " + buf.device()
                    + ", the communicator's device is " + device);
        }
        if (bytes > buf.size()) {
            throw new IllegalArgumentException(what + ": " + arg + " holds " + buf.size() + " bytes, the operation needs "
                    + bytes);
        }
        return buf.address();
    }

    /** Checks that a raw address is device memory of this device (its extent cannot be known). */
    private void address(String what, String arg, long address, long count) {
        if (count == 0) return;
        if (address == 0) throw new IllegalArgumentException(what + ": " + arg + " is address 0");
        int d = Cuda.deviceOf(address);
        if (d != device) {
            throw new IllegalArgumentException(what + ": " + arg + " 0x" + Long.toHexString(address) + " is "
                    + (d == NativeMemory.HOST ? "host memory" : "memory of device " + d)
                    + ", the communicator needs memory of device " + device);
        }
    }

    /** After an operation was queued: keeps its buffers reachable, waits if NCCL said in progress. */
    private void queued(String what, int rc, Object... keep) {
        synchronized (pending) {
            for (Object o : keep) if (o != null) pending.add(o);
        }
        Group g = GROUP.get();
        if (g.depth > 0) {
            g.comms.add(this);
        } else if (rc == NcclNative.IN_PROGRESS) {
            settleOrAbort(what);
        }
    }

    private void settleOrAbort(String what) {
        if (state.get() != OPEN) return;
        try {
            settle(what + " (rank " + rank + ")", handle, device, System.nanoTime());
        } catch (RuntimeException e) {
            // settle aborted the NCCL communicator; record it so later calls say so.
            state.compareAndSet(OPEN, ABORTED);
            throw e;
        }
    }
}
