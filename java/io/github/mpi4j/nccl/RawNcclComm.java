package io.github.mpi4j.nccl;

import io.github.mpi4j.cuda.CudaStream;

/**
 * A bare NCCL communicator for the layers below the public API, which may not use package
 * {@code mpi}: device addresses, element counts and NCCL's own datatype and op codes (the
 * constants here), one CUDA stream of its own. Device buffers in {@code mpi} calls
 * ({@code io.github.mpi4j.device}) run their NCCL path on it. Programs use {@link NcclComm}.
 *
 * <p>Why a class of its own rather than {@link NcclNative} made public: the natives check
 * nothing and their lifecycle rules (settle a non-blocking init, poll the asynchronous error
 * with the deadline, abort on failure, never use a freed handle) belong next to NCCL's other
 * knowledge in this package; {@link NcclComm} keeps its {@code mpi}-typed API unchanged.
 *
 * <p>The caller checks every argument first (addresses are device memory of {@link #device()}
 * spanning the counts, roots in range, codes from the constants here): real NCCL checks no
 * buffer size. Operations are queued on the communicator's stream; {@link #sync} waits for them
 * with the deadline {@code MPI4J_TIMEOUT} and aborts the communicator on an error or at the
 * deadline, so a dead peer is an exception, never a hang. Every method is synchronized: one call
 * at a time, and {@link #close()} never frees the handle under a running call.
 */
public final class RawNcclComm implements AutoCloseable {
    // ncclDataType_t and ncclRedOp_t, as NcclNative pins them.
    public static final int INT8 = NcclNative.INT8;
    public static final int INT32 = NcclNative.INT32;
    public static final int INT64 = NcclNative.INT64;
    public static final int FLOAT32 = NcclNative.FLOAT32;
    public static final int FLOAT64 = NcclNative.FLOAT64;
    public static final int SUM = NcclNative.SUM;
    public static final int PROD = NcclNative.PROD;
    public static final int MAX = NcclNative.MAX;
    public static final int MIN = NcclNative.MIN;
    /** Bytes of an {@code ncclUniqueId}. */
    public static final int UNIQUE_ID_BYTES = NcclNative.UNIQUE_ID_BYTES;

    private final int rank;
    private final int size;
    private final int device;
    private final CudaStream stream;
    private long handle;
    /** Why the communicator may no longer be used (aborted or closed), or null while usable. */
    private String gone;

    private RawNcclComm(long handle, int rank, int size, int device, CudaStream stream) {
        this.handle = handle;
        this.rank = rank;
        this.size = size;
        this.device = device;
        this.stream = stream;
    }

    /** Opens the CUDA runtime and NCCL (once), or throws an {@link NcclException} saying why they are unavailable. */
    public static void ensure(String what) {
        NcclNative.ensure(what);
    }

    /** A new {@code ncclUniqueId} (rank 0 makes it; every rank of the communicator gets it). */
    public static byte[] uniqueId() {
        NcclNative.ensure("ncclGetUniqueId");
        return NcclNative.uniqueId0();
    }

    /**
     * Collective over the {@code size} ranks that pass the same {@code uniqueId}: the
     * communicator of rank {@code rank} on {@code device}, with a new stream of that device.
     * Initialization is non-blocking and polled with the deadline: a rank that never joins is an
     * exception here, not a hang.
     */
    public static RawNcclComm create(byte[] uniqueId, int size, int rank, int device) {
        String what = "ncclCommInitRank (rank " + rank + " of " + size + ", device " + device + ")";
        if (uniqueId == null || uniqueId.length != UNIQUE_ID_BYTES) {
            throw new IllegalArgumentException(what + ": uniqueId must be " + UNIQUE_ID_BYTES + " bytes, got "
                    + (uniqueId == null ? "null" : uniqueId.length + " bytes"));
        }
        if (size < 1 || rank < 0 || rank >= size) {
            throw new IllegalArgumentException(what + ": rank must be in [0, size) and size >= 1");
        }
        if (device < 0) throw new IllegalArgumentException(what + ": device must be >= 0, got " + device);
        NcclNative.ensure(what);
        CudaStream stream = CudaStream.create(device);
        try {
            long h = NcclNative.commInitRank0(uniqueId, size, rank, device, false);
            settle(what, h, device);
            return new RawNcclComm(h, rank, size, device, stream);
        } catch (RuntimeException | Error e) {
            stream.close();
            throw e;
        }
    }

    /** Polls a new communicator's state until ready; aborts it and throws on an error or at the deadline. */
    private static void settle(String what, long comm, int device) {
        long deadline = NcclDeadline.from(System.nanoTime());
        for (int poll = 0; ; poll++) {
            int s = NcclNative.asyncError0(comm);
            if (s == NcclNative.SUCCESS) return;
            if (s != NcclNative.IN_PROGRESS) {
                NcclException e = new NcclException(what, s, NcclNative.errorString0(s), NcclNative.lastError0(comm));
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

    private static void abortQuietly(long comm, int device) {
        try {
            NcclNative.commAbort0(comm, device);
        } catch (RuntimeException e) {
            // Broken already; the caller throws the reason.
        }
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public int device() {
        return device;
    }

    /** Whether the communicator was aborted or closed. */
    public synchronized boolean isGone() {
        return gone != null;
    }

    private long open(String what) {
        if (gone != null) throw new IllegalStateException(what + ": " + this + " is " + gone);
        return handle;
    }

    /** ncclAllReduce of {@code count} elements of {@code type} (in place when {@code send == recv}). */
    public synchronized void allReduce(long send, long recv, long count, int type, int op) {
        long h = open("ncclAllReduce");
        NcclNative.allReduce0(send, recv, count, type, op, h, stream.handle(), device);
    }

    /** ncclBroadcast in place: root's {@code buf} into every rank's. */
    public synchronized void broadcast(long buf, long count, int type, int root) {
        long h = open("ncclBroadcast");
        NcclNative.broadcast0(buf, buf, count, type, root, h, stream.handle(), device);
    }

    /** ncclReduce into root's {@code recv} (0 elsewhere: NCCL reads it only at the root). */
    public synchronized void reduce(long send, long recv, long count, int type, int op, int root) {
        long h = open("ncclReduce");
        NcclNative.reduce0(send, recv, count, type, op, root, h, stream.handle(), device);
    }

    /** ncclAllGather: {@code sendCount} elements of every rank into {@code recv}, in rank order. */
    public synchronized void allGather(long send, long recv, long sendCount, int type) {
        long h = open("ncclAllGather");
        NcclNative.allGather0(send, recv, sendCount, type, h, stream.handle(), device);
    }

    /** ncclReduceScatter: block {@code rank} ({@code recvCount} elements) of the reduction into {@code recv}. */
    public synchronized void reduceScatter(long send, long recv, long recvCount, int type, int op) {
        long h = open("ncclReduceScatter");
        NcclNative.reduceScatter0(send, recv, recvCount, type, op, h, stream.handle(), device);
    }

    /**
     * Waits until every operation queued so far is done and the communicator's state is
     * {@code ncclSuccess}, with the deadline; on an error or at the deadline, aborts the
     * communicator and throws an {@link NcclException} ({@code what} names the call).
     */
    public synchronized void sync(String what) {
        long h = open(what);
        NcclDeadline.Probe probe = new NcclDeadline.Probe() {
            @Override
            public boolean open() {
                return gone == null;
            }

            @Override
            public boolean done() {
                return stream.query();
            }

            @Override
            public int asyncError() {
                return NcclNative.asyncError0(h);
            }
        };
        int rc = NcclDeadline.await(probe, NcclDeadline.from(System.nanoTime()));
        if (rc == NcclNative.SUCCESS) return;
        NcclException e = rc == NcclException.DEADLINE
                ? NcclException.deadline(what + " (rank " + rank + " of " + size + ")", NcclDeadline.seconds())
                : new NcclException(what + " (rank " + rank + " of " + size + ")", rc, NcclNative.errorString0(rc),
                        NcclNative.lastError0(h));
        abort();
        throw e;
    }

    /** ncclCommAbort: queued operations end without effect; later calls throw. Idempotent. */
    public synchronized void abort() {
        if (gone != null) return;
        gone = "aborted";
        abortQuietly(handle, device);
        stream.close();
    }

    /**
     * Finalizes (waiting for queued operations, with the deadline) and destroys the
     * communicator, then frees its stream. Idempotent; after {@link #abort()} it does nothing.
     */
    @Override
    public synchronized void close() {
        if (gone != null) return;
        String what = "ncclCommFinalize (rank " + rank + " of " + size + ")";
        gone = "closed";
        try {
            int rc;
            try {
                rc = NcclNative.commFinalize0(handle, device);
            } catch (RuntimeException e) {
                abortQuietly(handle, device); // frees the handle: nothing is left to destroy
                throw e;
            }
            if (rc == NcclNative.IN_PROGRESS) settle(what, handle, device); // aborts it on failure
            NcclNative.commDestroy0(handle, device);
        } finally {
            stream.close();
        }
    }

    @Override
    public String toString() {
        return "RawNcclComm[rank " + rank + " of " + size + ", device " + device
                + (gone == null ? "" : ", " + gone) + "]";
    }
}
