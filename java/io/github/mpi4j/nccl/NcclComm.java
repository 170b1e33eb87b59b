package io.github.mpi4j.nccl;

import io.github.mpi4j.cuda.Cuda;
import io.github.mpi4j.cuda.CudaEvent;
import io.github.mpi4j.cuda.CudaStream;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Mpi;

/**
 * An NCCL communicator over the ranks of an {@code mpi.Intracomm}, with its own CUDA stream.
 *
 * <p>Operations are asynchronous, as in NCCL: they are queued on {@link #stream()} and return;
 * {@link #sync()} waits for them. Every argument is checked in Java before anything is queued
 * (real NCCL does not check buffer sizes): counts against the {@link DeviceBuffer}s' sizes,
 * buffers on this communicator's device, roots and peers in range, datatypes and ops that NCCL
 * can do (see {@link #allReduce(DeviceBuffer, DeviceBuffer, long, mpi.Datatype, mpi.Op)}). The
 * overloads on raw {@code long} device addresses are for frameworks that manage their own memory:
 * an address inside an open {@link DeviceBuffer} (of any slice) is checked against that
 * allocation's extent, as a buffer would be; an address mpi4j did not allocate is only checked to
 * be device memory of this device (its extent cannot be known). The memory of every buffer and
 * known address an operation uses is kept from being freed (a {@code close()} is deferred) until
 * the next {@link #sync()} that completes, or an abort or close.
 *
 * <p>Waits ({@link #sync()}, {@link #barrier()}, creation, {@link #close()}) poll
 * {@code ncclCommGetAsyncError} with the deadline {@code MPI4J_TIMEOUT} (seconds, default 600) and
 * abort the communicator on an error or at the deadline: a dead or absent peer gives an
 * {@link NcclException}, never a hang. Any call on a closed or aborted communicator is an
 * {@link IllegalStateException}. One thread at a time may queue operations on a communicator
 * (NCCL's rule); {@link #abort()} may come from any thread at any time.
 *
 * <p>This class is the public face of the engine {@link RawNcclComm}, which does all of the
 * above: it checks the arguments that are {@code mpi} objects, maps datatypes and ops to NCCL's
 * ({@link NcclTypes}, through {@link io.github.mpi4j.spi.ApiBridge}) and delegates.
 */
public final class NcclComm implements AutoCloseable {
    /** Colour for {@link #split} of a rank that wants no communicator (it gets null). */
    public static final int NO_COLOR = Mpi.UNDEFINED;

    private final RawNcclComm engine;

    /** The public face of {@code engine} (also for {@link DeviceMesh}'s dimensions). */
    NcclComm(RawNcclComm engine) {
        this.engine = engine;
    }

    // ---------------------------------------------------------------------------------------
    // Creation
    // ---------------------------------------------------------------------------------------

    /**
     * Collective over {@code comm}: an NCCL communicator of the same ranks on this process's
     * device, its rank on its node: {@link Cuda#defaultDevice()} (the launcher's local rank, or
     * {@code Cuda.setDevice}'s choice), the same for every communicator the process is in, so a
     * split or a sub-communicator keeps the device its {@code DeviceBuffer}s are on.
     */
    public static NcclComm create(mpi.Intracomm comm) {
        BackendComm c = ApiArgs.comm("NcclComm.create", comm);
        return create(c, HierarchicalEngine.deviceOf(c));
    }

    /**
     * Collective over {@code comm}: an NCCL communicator of the same ranks on {@code device}.
     * The unique id travels by {@code comm}'s {@code bcast}. Every rank first learns whether all
     * could take part (NCCL loaded, device valid), so a failure on one rank is an exception on
     * all, not a hang.
     */
    public static NcclComm create(mpi.Intracomm comm, int device) {
        return create(ApiArgs.comm("NcclComm.create", comm), device);
    }

    private static NcclComm create(BackendComm comm, int device) {
        return new NcclComm(RawNcclComm.create("NcclComm.create", comm, () -> device));
    }

    /**
     * Collective over this communicator ({@code ncclCommSplit}): ranks passing the same
     * {@code color} (>= 0) form a new communicator, ordered by {@code key} then by rank, on this
     * communicator's device. Every rank must call it; a rank passing {@link #NO_COLOR} takes part
     * and gets null.
     */
    public NcclComm split(int color, int key) {
        String what = "NcclComm.split";
        if (color < 0 && color != NO_COLOR) {
            throw new IllegalArgumentException(what + ": color must be >= 0 or NcclComm.NO_COLOR, got " + color);
        }
        RawNcclComm child = engine.split(what, color, key);
        return child == null ? null : new NcclComm(child);
    }

    // ---------------------------------------------------------------------------------------
    // Queries
    // ---------------------------------------------------------------------------------------

    /** The engine, after checking the communicator is open ({@code what} names the call). */
    private RawNcclComm open(String what) {
        engine.check(what);
        return engine;
    }

    public int getRank() {
        return open("getRank").rank();
    }

    public int getSize() {
        return open("getSize").size();
    }

    public int getDevice() {
        return open("getDevice").device();
    }

    /** The stream every operation of this communicator is queued on. */
    public CudaStream stream() {
        return open("stream").stream();
    }

    /** The {@code ncclComm_t}, for libraries that call NCCL themselves. */
    public long handle() {
        return open("handle").handle();
    }

    public boolean isClosed() {
        return engine.isClosed();
    }

    public boolean isAborted() {
        return engine.isAborted();
    }

    // ---------------------------------------------------------------------------------------
    // Stream/event contract
    // ---------------------------------------------------------------------------------------

    /** An event recorded on this communicator's stream: it completes when the operations queued so far have. */
    public CudaEvent recordEvent() {
        return engine.recordEvent("recordEvent");
    }

    /** Records {@code event} (of this device) on this communicator's stream, after the operations queued so far. */
    public void recordEvent(CudaEvent event) {
        engine.recordEvent("NcclComm.recordEvent", event);
    }

    /** Later operations of this communicator wait until {@code event} (recorded on any stream) has completed. */
    public void waitEvent(CudaEvent event) {
        engine.waitEvent("NcclComm.waitEvent", event);
    }

    /**
     * Later operations of this communicator wait until {@code cudaEvent}, an event another
     * library made and recorded ({@code cudaEvent_t} as a long, on this device), has completed.
     */
    public void waitEvent(long cudaEvent) {
        if (cudaEvent == 0) throw new IllegalArgumentException("NcclComm.waitEvent: cudaEvent is 0 (no event)");
        engine.waitEvent("NcclComm.waitEvent", CudaEvent.wrap(cudaEvent, open("waitEvent").device()));
    }

    /**
     * Later operations of this communicator wait until the work queued so far on {@code other}
     * (an external stream of this device) is done: an event recorded there, waited on here.
     */
    public void waitStream(CudaStream other) {
        engine.waitStream("NcclComm.waitStream", other);
    }

    /** {@link #waitStream(CudaStream)} for a {@code cudaStream_t} of another library (0: the legacy default stream). */
    public void waitStream(long cudaStream) {
        waitStream(CudaStream.wrap(cudaStream, engine.device()));
    }

    /** {@code other} (an external stream of this device) waits until the operations queued on this communicator so far are done. */
    public void makeStreamWait(CudaStream other) {
        engine.makeStreamWait("NcclComm.makeStreamWait", other);
    }

    /** {@link #makeStreamWait(CudaStream)} for a {@code cudaStream_t} of another library (0: the legacy default stream). */
    public void makeStreamWait(long cudaStream) {
        makeStreamWait(CudaStream.wrap(cudaStream, engine.device()));
    }

    // ---------------------------------------------------------------------------------------
    // Collectives on DeviceBuffers
    // ---------------------------------------------------------------------------------------

    /**
     * {@code recv} = the reduction of every rank's {@code send} ({@code count} elements; in place
     * when {@code send == recv}). {@code type}: MPI.BYTE, INT, LONG, FLOAT or DOUBLE; {@code op}:
     * MPI.SUM, PROD, MAX or MIN.
     */
    public void allReduce(DeviceBuffer send, DeviceBuffer recv, long count, mpi.Datatype type, mpi.Op op) {
        String what = "NcclComm.allReduce";
        NcclTypes.Mapped t = ApiArgs.reduction(what, type);
        int o = ApiArgs.ncclOp(what, op);
        engine.allReduce(what, engine.address(what, "send", send, count, t, 1),
                engine.address(what, "recv", recv, count, t, 1), count, t, o);
    }

    /** Root's {@code buf} ({@code count} elements of any fixed-size predefined type) to every rank's. */
    public void broadcast(DeviceBuffer buf, long count, mpi.Datatype type, int root) {
        String what = "NcclComm.broadcast";
        NcclTypes.Mapped t = ApiArgs.movement(what, type);
        long b = engine.address(what, "buf", buf, count, t, 1);
        engine.broadcast(what, b, b, count, t, root);
    }

    /** The reduction of every rank's {@code send} into root's {@code recv} ({@code recv} may be null elsewhere). */
    public void reduce(DeviceBuffer send, DeviceBuffer recv, long count, mpi.Datatype type, mpi.Op op, int root) {
        String what = "NcclComm.reduce";
        NcclTypes.Mapped t = ApiArgs.reduction(what, type);
        int o = ApiArgs.ncclOp(what, op);
        long s = engine.address(what, "send", send, count, t, 1);
        long r = recv == null && engine.rank() != root ? 0 : engine.address(what, "recv", recv, count, t, 1);
        engine.reduce(what, s, r, count, t, o, root);
    }

    /** Every rank's {@code send} ({@code sendCount} elements) into {@code recv}, in rank order. */
    public void allGather(DeviceBuffer send, DeviceBuffer recv, long sendCount, mpi.Datatype type) {
        String what = "NcclComm.allGather";
        NcclTypes.Mapped t = ApiArgs.movement(what, type);
        engine.allGather(what, engine.address(what, "send", send, sendCount, t, 1),
                engine.address(what, "recv", recv, sendCount, t, engine.size()), sendCount, t);
    }

    /** The reduction of every rank's {@code send} ({@code recvCount × size} elements), block {@code rank} into {@code recv}. */
    public void reduceScatter(DeviceBuffer send, DeviceBuffer recv, long recvCount, mpi.Datatype type, mpi.Op op) {
        String what = "NcclComm.reduceScatter";
        NcclTypes.Mapped t = ApiArgs.reduction(what, type);
        int o = ApiArgs.ncclOp(what, op);
        engine.reduceScatter(what, engine.address(what, "send", send, recvCount, t, engine.size()),
                engine.address(what, "recv", recv, recvCount, t, 1), recvCount, t, o);
    }

    /** Sends {@code count} elements of {@code buf} to {@code peer} (completes with the matching {@link #recv}). */
    public void send(DeviceBuffer buf, long count, mpi.Datatype type, int peer) {
        String what = "NcclComm.send";
        NcclTypes.Mapped t = ApiArgs.movement(what, type);
        engine.sendOrRecv(what, true, engine.address(what, "buf", buf, count, t, 1), count, t, peer);
    }

    /** Receives {@code count} elements from {@code peer} into {@code buf}. */
    public void recv(DeviceBuffer buf, long count, mpi.Datatype type, int peer) {
        String what = "NcclComm.recv";
        NcclTypes.Mapped t = ApiArgs.movement(what, type);
        engine.sendOrRecv(what, false, engine.address(what, "buf", buf, count, t, 1), count, t, peer);
    }

    // ---------------------------------------------------------------------------------------
    // The same on raw device addresses
    // ---------------------------------------------------------------------------------------

    /** {@link #allReduce(DeviceBuffer, DeviceBuffer, long, mpi.Datatype, mpi.Op)} on device addresses ({@code count} elements each). */
    public void allReduce(long send, long recv, long count, mpi.Datatype type, mpi.Op op) {
        String what = "NcclComm.allReduce";
        engine.allReduce(what, send, recv, count, ApiArgs.reduction(what, type), ApiArgs.ncclOp(what, op));
    }

    /** Root's {@code send} into every rank's {@code recv} ({@code send} is read at the root only). */
    public void broadcast(long send, long recv, long count, mpi.Datatype type, int root) {
        String what = "NcclComm.broadcast";
        engine.broadcast(what, send, recv, count, ApiArgs.movement(what, type), root);
    }

    /** The reduction of every rank's {@code send} into root's {@code recv} ({@code recv} is used at the root only). */
    public void reduce(long send, long recv, long count, mpi.Datatype type, mpi.Op op, int root) {
        String what = "NcclComm.reduce";
        engine.reduce(what, send, recv, count, ApiArgs.reduction(what, type), ApiArgs.ncclOp(what, op), root);
    }

    /** Every rank's {@code send} ({@code sendCount} elements) into {@code recv} ({@code sendCount × size} elements). */
    public void allGather(long send, long recv, long sendCount, mpi.Datatype type) {
        String what = "NcclComm.allGather";
        engine.allGather(what, send, recv, sendCount, ApiArgs.movement(what, type));
    }

    /** The reduction of every rank's {@code send} ({@code recvCount × size} elements), block {@code rank} into {@code recv}. */
    public void reduceScatter(long send, long recv, long recvCount, mpi.Datatype type, mpi.Op op) {
        String what = "NcclComm.reduceScatter";
        engine.reduceScatter(what, send, recv, recvCount, ApiArgs.reduction(what, type), ApiArgs.ncclOp(what, op));
    }

    /** Sends {@code count} elements from device address {@code buf} to {@code peer}. */
    public void send(long buf, long count, mpi.Datatype type, int peer) {
        String what = "NcclComm.send";
        engine.sendOrRecv(what, true, buf, count, ApiArgs.movement(what, type), peer);
    }

    /** Receives {@code count} elements from {@code peer} at device address {@code buf}. */
    public void recv(long buf, long count, mpi.Datatype type, int peer) {
        String what = "NcclComm.recv";
        engine.sendOrRecv(what, false, buf, count, ApiArgs.movement(what, type), peer);
    }

    // ---------------------------------------------------------------------------------------
    // Groups
    // ---------------------------------------------------------------------------------------

    /** Starts a group on this thread ({@code ncclGroupStart}): operations until {@link #groupEnd()} progress together. */
    public static void groupStart() {
        RawNcclComm.groupStart("NcclComm.groupStart");
    }

    /**
     * Ends this thread's group ({@code ncclGroupEnd}) and waits until its operations are queued.
     * A communicator used in an open group counts as in use until here, so an abort from another
     * thread waits for the group's end before it frees the {@code ncclComm_t}.
     */
    public static void groupEnd() {
        RawNcclComm.groupEnd("NcclComm.groupEnd");
    }

    // ---------------------------------------------------------------------------------------
    // Waiting, ending
    // ---------------------------------------------------------------------------------------

    /**
     * Waits until every operation queued on this communicator is done. Polls the communicator's
     * asynchronous error; on an error, or when {@code MPI4J_TIMEOUT} passes, aborts the
     * communicator and throws an {@link NcclException}; if another thread aborts or closes the
     * communicator meanwhile, throws an {@link IllegalStateException} at the next poll.
     */
    public void sync() {
        engine.sync("NcclComm.sync");
    }

    /** Returns once every rank has called it (an all-reduce of one word, then {@link #sync()}). */
    public void barrier() {
        engine.barrier("NcclComm.barrier");
    }

    /**
     * Aborts the communicator ({@code ncclCommAbort}): queued operations end without effect, and
     * every later call except {@link #close()} throws. Any thread may call it, also while another
     * thread waits or queues on this communicator. Idempotent.
     */
    public void abort() {
        engine.abort();
    }

    /**
     * Finalizes and destroys the communicator (waiting for its queued operations, with the
     * deadline; aborting it at the deadline), then its stream. Idempotent; after {@link #abort()}
     * it only frees the stream.
     */
    @Override
    public void close() {
        engine.close();
    }

    @Override
    public String toString() {
        return engine.toString();
    }
}
