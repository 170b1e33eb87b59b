package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.StatusData;

/**
 * A non-blocking or persistent MPI request. Holds the staged buffers of its operation and the
 * objects that must stay reachable (counts of v-collectives), and finishes them on completion.
 */
final class MpiRequest implements BackendRequest {
    /** The MPI_Request, 0 once a non-blocking request completed. */
    long handle;
    private final boolean persistent;
    private final Arg[] args;
    @SuppressWarnings("unused")
    private final Object keepAlive;
    /** The user op this operation uses (its failure surfaces at completion), or null. */
    private MpiUserOps.Use userOp;
    /**
     * A point-to-point receive: only the bytes that arrived may be copied back to a staged
     * array, so completion needs the status even when the caller does not.
     */
    boolean receivesOnly;
    /** A persistent request between start() and its completion. */
    private boolean active;
    /**
     * A file access (MPI_File_i*): some MPI-IO layers leave the cancelled flag of its status
     * unset, so an access that moved bytes is reported as not cancelled whatever the flag says.
     */
    boolean fileAccess;
    /** Counted by {@link MpiAsyncProgress#started} and not yet by {@link MpiAsyncProgress#finished}. */
    private boolean progressed;

    private static final Arg[] NO_ARGS = {};

    /** A request with nothing to stage or finish: memory MPI uses as it is (kept reachable). */
    MpiRequest(long handle, boolean persistent, Object keepAlive) {
        this(handle, persistent, keepAlive, null, NO_ARGS);
    }

    MpiRequest(long handle, boolean persistent, Object keepAlive, MpiUserOps.Use userOp, Arg... args) {
        this.handle = handle;
        this.persistent = persistent;
        this.args = args;
        this.keepAlive = keepAlive;
        this.userOp = userOp;
        if (!persistent && handle != 0) progressed = MpiAsyncProgress.started();
    }

    /** Whether completion needs the status (a staged receive copies back only what arrived). */
    boolean needsStatus() {
        if (!receivesOnly) return false;
        for (Arg a : args) if (a.copiesBack()) return true;
        return false;
    }

    @Override
    public void waitFor(StatusData status) {
        if (handle == 0) return;
        StatusData s = status == null && needsStatus() ? new StatusData() : status;
        NativeStatus ns = s == null ? null : NativeStatus.mine();
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Wait", null);
        try {
            MpiNative.wait0(handle, ns == null ? 0 : ns.address);
        } finally {
            m.exit();
        }
        if (ns != null) ns.copyTo(s);
        completed(s);
    }

    @Override
    public boolean test(StatusData status) {
        if (handle == 0) return true;
        StatusData s = status == null && needsStatus() ? new StatusData() : status;
        NativeStatus ns = s == null ? null : NativeStatus.mine();
        if (!MpiNative.test0(handle, ns == null ? 0 : ns.address)) return false;
        if (ns != null) ns.copyTo(s);
        completed(s);
        return true;
    }

    /** Bookkeeping once MPI reports completion (also called by the multi-request waits). */
    void completed(StatusData status) {
        if (fileAccess && status != null && status.bytes > 0) status.cancelled = false;
        long received = receivesOnly && status != null ? status.bytes : -1;
        for (Arg a : args) {
            a.complete(received);
            if (!persistent) a.release();
        }
        if (!persistent) handle = 0;
        active = false;
        endProgress();
        MpiUserOps.Use u = userOp;
        if (u != null && !persistent) {
            userOp = null;
            MpiUserOps.endAndRethrow(u);
        }
    }

    @Override
    public void cancel() {
        if (handle != 0) MpiNative.cancel0(handle);
    }

    @Override
    public void free() {
        if (handle == 0) return;
        MpiNative.requestFree0(handle);
        handle = 0;
        endProgress();
        // An inactive persistent request's staging is free again; otherwise MPI may still use
        // it, and it must outlive this request.
        for (Arg a : args) {
            if (persistent && !active) a.release();
            else a.orphan();
        }
    }

    @Override
    public boolean isPersistent() {
        return persistent;
    }

    @Override
    public void start() {
        for (Arg a : args) a.refresh();
        MpiNative.start0(handle);
        active = true;
        if (!progressed) progressed = MpiAsyncProgress.started();
    }

    private void endProgress() {
        if (progressed) {
            progressed = false;
            MpiAsyncProgress.finished();
        }
    }
}
