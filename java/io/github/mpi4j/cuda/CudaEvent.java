package io.github.mpi4j.cuda;

/**
 * A CUDA event (made without timing, the cheap kind): {@link #record(CudaStream)} marks a point
 * in a stream; {@link #synchronize()} waits for it on the host, and
 * {@link CudaStream#waitEvent(CudaEvent)} makes another stream wait for it on the device. This is
 * how communication on one stream overlaps computation on another.
 */
public final class CudaEvent implements AutoCloseable {
    private final long handle;
    private final int device;
    private final boolean owned;
    private final Lifetime lifetime;

    private CudaEvent(long handle, int device, boolean owned) {
        this.handle = handle;
        this.device = device;
        this.owned = owned;
        this.lifetime = new Lifetime(owned ? () -> CudaNative.eventDestroy0(handle, device) : () -> { });
    }

    /** A new event on the default device ({@link Cuda#defaultDevice()}). */
    public static CudaEvent create() {
        CudaNative.ensure("CudaEvent.create");
        return create(Cuda.defaultDevice());
    }

    public static CudaEvent create(int device) {
        Cuda.checkDevice("CudaEvent.create", device);
        return new CudaEvent(CudaNative.eventCreate0(device), device, true);
    }

    /** Wraps an event made by another library ({@code cudaEvent_t}, not 0); never destroyed by mpi4j. */
    public static CudaEvent wrap(long handle, int device) {
        if (handle == 0) throw new IllegalArgumentException("CudaEvent.wrap: handle is 0 (no event)");
        Cuda.checkDevice("CudaEvent.wrap", device);
        return new CudaEvent(handle, device, false);
    }

    /** Records the event on {@code stream} ({@code cudaEventRecord}); both must be on the same device. */
    public void record(CudaStream stream) {
        if (stream == null) throw new IllegalArgumentException("CudaEvent.record: stream is null");
        if (stream.device() != device) {
            throw new IllegalArgumentException("CudaEvent.record: the stream is on device " + stream.device()
                    + ", the event on device " + device);
        }
        enter("record");
        try {
            long s = stream.enter("record");
            try {
                CudaNative.eventRecord0(handle, s, device);
            } finally {
                stream.exit();
            }
        } finally {
            lifetime.exit();
        }
    }

    /** Waits on the host until the work before the record is done ({@code cudaEventSynchronize}). */
    public void synchronize() {
        enter("synchronize");
        try {
            CudaNative.eventSynchronize0(handle, device);
        } finally {
            lifetime.exit();
        }
    }

    /** Whether the work before the record is done, without waiting ({@code cudaEventQuery}). */
    public boolean query() {
        enter("query");
        try {
            return CudaNative.eventQuery0(handle, device);
        } finally {
            lifetime.exit();
        }
    }

    /** The {@code cudaEvent_t}. */
    public long handle() {
        if (lifetime.isClosed()) throw new IllegalStateException("CudaEvent.handle: " + this + " is closed");
        return handle;
    }

    public int device() {
        return device;
    }

    public boolean isOwned() {
        return owned;
    }

    @Override
    public void close() {
        lifetime.close();
    }

    public boolean isClosed() {
        return lifetime.isClosed();
    }

    @Override
    public String toString() {
        return "CudaEvent[device " + device + ", 0x" + Long.toHexString(handle) + (owned ? "" : ", wrapped")
                + (isClosed() ? ", closed" : "") + "]";
    }

    long enter(String what) {
        if (!lifetime.enter()) throw new IllegalStateException("CudaEvent." + what + ": " + this + " is closed");
        return handle;
    }

    void exit() {
        lifetime.exit();
    }
}
