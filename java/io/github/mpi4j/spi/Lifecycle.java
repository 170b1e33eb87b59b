package io.github.mpi4j.spi;

/**
 * The life of a user-created object that backends may hold native resources for (a user op now;
 * derived datatypes next): which backends made something for it, and whether the API freed it.
 * Resources are made lazily, on first use, by whichever backend uses the object (a program may
 * create an op before {@code MPI.Init}, and ranks running as threads share one op object), so the
 * object itself remembers its holders and freeing it calls each one's free hook once.
 */
public final class Lifecycle {
    private static final Backend[] NONE = {};

    private Backend[] holders = NONE;
    private volatile boolean freed;

    public boolean isFreed() {
        return freed;
    }

    /**
     * Records that {@code backend} is about to make a resource for the object. False when the
     * object was freed meanwhile: the backend must then make nothing.
     */
    public synchronized boolean hold(Backend backend) {
        if (freed) return false;
        for (Backend b : holders) if (b == backend) return true;
        Backend[] more = java.util.Arrays.copyOf(holders, holders.length + 1);
        more[holders.length] = backend;
        holders = more;
        return true;
    }

    /**
     * Marks the object freed and returns the backends whose free hook must now run, or null when
     * it was already freed (a double free, which the caller reports).
     */
    public synchronized Backend[] free() {
        if (freed) return null;
        freed = true;
        Backend[] h = holders;
        holders = NONE;
        return h;
    }
}
