package io.github.mpi4j.cuda;

import java.util.ArrayList;
import java.util.List;

/**
 * A CUDA stream: work queued on it runs in order, asynchronously to the host.
 * {@link #create()} makes a non-blocking stream (it does not serialize with the legacy default
 * stream) that {@link #close()} destroys; {@link #wrap(long, int)} wraps a stream another library
 * made (a {@code cudaStream_t} as a {@code long}), which {@link #close()} leaves alone.
 *
 * <p>Host buffers given to an asynchronous copy on this stream are kept reachable here until
 * the next {@link #synchronize()} (or a {@link #query()} that finds the stream idle).
 */
public final class CudaStream implements AutoCloseable {
    private final long handle;
    private final int device;
    private final boolean owned;
    private final Lifetime lifetime;
    private final List<Object> keep = new ArrayList<>();

    private CudaStream(long handle, int device, boolean owned) {
        this.handle = handle;
        this.device = device;
        this.owned = owned;
        this.lifetime = new Lifetime(owned ? () -> CudaNative.streamDestroy0(handle, device) : () -> { });
    }

    /** A new stream on the default device ({@link Cuda#defaultDevice()}). */
    public static CudaStream create() {
        CudaNative.ensure("CudaStream.create");
        return create(Cuda.defaultDevice());
    }

    /** A new non-blocking stream on {@code device}. */
    public static CudaStream create(int device) {
        Cuda.checkDevice("CudaStream.create", device);
        return new CudaStream(CudaNative.streamCreate0(device), device, true);
    }

    /**
     * Wraps a stream made by another library ({@code cudaStream_t}; 0 is the legacy default
     * stream) on {@code device}. mpi4j never destroys it; it must outlive this object's use.
     */
    public static CudaStream wrap(long handle, int device) {
        Cuda.checkDevice("CudaStream.wrap", device);
        return new CudaStream(handle, device, false);
    }

    /** The {@code cudaStream_t}. */
    public long handle() {
        checkOpen("handle");
        return handle;
    }

    public int device() {
        return device;
    }

    /** Whether {@link #close()} destroys the stream (false for a wrapped one). */
    public boolean isOwned() {
        return owned;
    }

    /** Waits until everything queued on the stream is done ({@code cudaStreamSynchronize}). */
    public void synchronize() {
        enter("synchronize");
        try {
            CudaNative.streamSynchronize0(handle, device);
            release();
        } finally {
            lifetime.exit();
        }
    }

    /** Whether everything queued on the stream is done, without waiting ({@code cudaStreamQuery}). */
    public boolean query() {
        enter("query");
        try {
            boolean done = CudaNative.streamQuery0(handle, device);
            if (done) release();
            return done;
        } finally {
            lifetime.exit();
        }
    }

    /** Makes later work on this stream wait until {@code event} has completed ({@code cudaStreamWaitEvent}). */
    public void waitEvent(CudaEvent event) {
        if (event == null) throw new IllegalArgumentException("CudaStream.waitEvent: event is null");
        enter("waitEvent");
        try {
            long e = event.enter("waitEvent");
            try {
                CudaNative.streamWaitEvent0(handle, e, device);
            } finally {
                event.exit();
            }
        } finally {
            lifetime.exit();
        }
    }

    /** Records a new event on this stream: it completes when the work queued so far has. */
    public CudaEvent record() {
        CudaEvent e = CudaEvent.create(device);
        try {
            e.record(this);
        } catch (RuntimeException x) {
            e.close();
            throw x;
        }
        return e;
    }

    /** Destroys the stream (if owned) once calls in flight have left; later calls throw. Idempotent. */
    @Override
    public void close() {
        lifetime.close();
        release();
    }

    public boolean isClosed() {
        return lifetime.isClosed();
    }

    @Override
    public String toString() {
        return "CudaStream[device " + device + ", 0x" + Long.toHexString(handle) + (owned ? "" : ", wrapped")
                + (isClosed() ? ", closed" : "") + "]";
    }

    /** Enters the stream for a call; the caller must {@link #exit()}. Returns the handle. */
    long enter(String what) {
        if (!lifetime.enter()) throw new IllegalStateException("CudaStream." + what + ": " + this + " is closed");
        return handle;
    }

    void exit() {
        lifetime.exit();
    }

    /** Keeps {@code o} reachable until the stream is next found idle. */
    void keep(Object o) {
        synchronized (keep) {
            keep.add(o);
        }
    }

    private void release() {
        synchronized (keep) {
            keep.clear();
        }
    }

    private void checkOpen(String what) {
        if (lifetime.isClosed()) throw new IllegalStateException("CudaStream." + what + ": " + this + " is closed");
    }
}
