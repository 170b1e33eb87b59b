package io.github.mpi4j.spi;

/** Mutable result of a receive, probe or completed request; backends fill it in. */
public final class StatusData {
    public int source;
    public int tag;
    public int error;
    public boolean cancelled;
    /** Bytes received (or that would be received, for probes). */
    public long bytes;
    /** For MPI.OBJECT receives: objects received. -1 when not an object message. */
    public int objects = -1;

    public void set(int source, int tag, int error, boolean cancelled, long bytes) {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.cancelled = cancelled;
        this.bytes = bytes;
    }

    /** The status of an operation with no peer (PROC_NULL, empty requests). */
    public void setEmpty(int procNull, int anyTag) {
        set(procNull, anyTag, 0, false, 0);
    }

    /**
     * The status of a completed send. MPI defines only its error and cancelled fields; the rest
     * is what Open MPI reports (the empty status), so a program sees the same on every backend.
     */
    public void setSend(boolean cancelled) {
        set(Mpi.PROC_NULL, Mpi.ANY_TAG, 0, cancelled, 0);
    }

    public StatusData copy() {
        StatusData s = new StatusData();
        s.set(source, tag, error, cancelled, bytes);
        s.objects = objects;
        return s;
    }
}
