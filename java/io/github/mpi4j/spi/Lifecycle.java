package io.github.mpi4j.spi;

/**
 * The life of a user-created object that backends may hold native resources for (a user op, a
 * datatype): which backends made something for it, each one's handle, and whether the API freed
 * it. Resources are made lazily, on first use, by whichever backend uses the object (a program
 * may create an op before {@code MPI.Init}, and ranks running as threads share one op object),
 * so the object itself remembers its holders, and freeing it calls each one's free hook once
 * ({@link Backend#freeOp}, {@link Backend#freeType}) with the handle it recorded.
 */
public final class Lifecycle {
    /** What one backend made for the object: its own handle (an MPI_Op, an MPI_Datatype, ...). */
    public static final class Held {
        public final Backend backend;
        public final Object handle;

        Held(Backend backend, Object handle) {
            this.backend = backend;
            this.handle = handle;
        }
    }

    private static final Held[] NONE = {};

    private Held[] held = NONE;
    private volatile boolean freed;

    public boolean isFreed() {
        return freed;
    }

    /**
     * Records that {@code backend} made {@code handle} for the object (replacing a handle it
     * recorded before). False when the object was freed meanwhile: the backend must then release
     * what it made at once and report the object as freed.
     */
    public synchronized boolean hold(Backend backend, Object handle) {
        if (freed) return false;
        for (int i = 0; i < held.length; i++) {
            if (held[i].backend == backend) {
                held[i] = new Held(backend, handle);
                return true;
            }
        }
        Held[] more = java.util.Arrays.copyOf(held, held.length + 1);
        more[held.length] = new Held(backend, handle);
        held = more;
        return true;
    }

    /** The handle {@code backend} recorded, or null when it made nothing (or the object was freed). */
    public synchronized Object handleOf(Backend backend) {
        for (Held h : held) if (h.backend == backend) return h.handle;
        return null;
    }

    /**
     * Marks the object freed and returns what each backend holds, whose free hooks must now run,
     * or null when it was already freed (a double free, which the caller reports).
     */
    public synchronized Held[] free() {
        if (freed) return null;
        freed = true;
        Held[] h = held;
        held = NONE;
        return h;
    }
}
