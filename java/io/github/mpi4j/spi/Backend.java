package io.github.mpi4j.spi;

/**
 * One MPI engine behind the {@code mpi} API: the system MPI through JNI, the pure-Java fabric,
 * or (later) NCCL. Chosen once at {@code MPI.Init}; see {@code io.github.mpi4j.runtime.BackendSelector}.
 */
public interface Backend {

    /** Short name: "mpi", "fabric", ... */
    String name();

    /** Why this backend was chosen (the variables or settings that decided it). */
    String reason();

    /** Thread support level actually provided (MPI.THREAD_* values). */
    int threadLevel();

    boolean isThreadMain();

    BackendComm world();

    BackendComm self();

    double wtime();

    double wtick();

    String processorName();

    /** {major, minor} of the MPI standard provided. */
    int[] version();

    String libVersion();

    /** Message of an error code (MPI_Error_string). */
    String errorString(int errorCode);

    /** Error class of an error code (MPI_Error_class). */
    int errorClass(int errorCode);

    // ---- lifecycles of user objects (see Lifecycle) ------------------------------------
    // A backend makes its handle for an op or a type when it first needs one (or at commit) and
    // records it with lifecycle.hold(this, handle); freeing the object hands the handle back here.

    /**
     * MPI_Type_commit: called by {@code Datatype.commit()} on the running backend. A backend that
     * needs a handle of its own for the type may make and record it now (it must still cope with
     * a type first seen in a call, e.g. by ranks running as threads of one JVM).
     */
    default void commitType(TypeDesc type) {
    }

    /**
     * Releases the handle this backend recorded for a datatype: called once, by
     * {@code Datatype.free()}. Operations still pending with the type complete normally.
     */
    default void freeType(TypeDesc type, Object handle) {
    }

    /**
     * Releases the handle this backend recorded for a user op (e.g. an MPI_Op): called once, by
     * {@code Op.free()}. Operations still pending with the op complete normally (as MPI_Op_free
     * allows).
     */
    default void freeOp(OpDesc op, Object handle) {
    }

    /** User ops this backend holds native resources for (see {@code Mpi4j.liveUserOps()}). */
    default int liveUserOps() {
        return 0;
    }

    /** Ends the job with {@code code}; may not return. */
    void abort(BackendComm comm, int code);

    /** MPI_Finalize. After this no call may reach the backend. */
    void finish();

    /** MPI_Buffer_attach: memory for buffered sends. */
    void attachBuffer(java.nio.ByteBuffer buffer);

    /** MPI_Buffer_detach: returns the attached buffer after pending bsends complete. */
    java.nio.ByteBuffer detachBuffer();

    // ---- completion of several requests ----------------------------------------------
    // Entries of {@code requests} may be null (inactive); statuses may be null.

    /** Waits for all; fills {@code statuses[i]} when not null. */
    default void waitAll(BackendRequest[] requests, StatusData[] statuses) {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null) {
                requests[i].waitFor(statuses == null ? null : statuses[i]);
            }
        }
    }

    /** Waits for one; returns its index, or -1 (MPI.UNDEFINED case) if all are null. */
    default int waitAny(BackendRequest[] requests, StatusData status) {
        Backoff backoff = new Backoff();
        while (true) {
            int i = testAny(requests, status);
            if (i != Integer.MIN_VALUE) return i;
            backoff.pause();
        }
    }

    /**
     * Returns the index of a completed request, -1 if all are null, or
     * {@code Integer.MIN_VALUE} if none is complete yet.
     */
    default int testAny(BackendRequest[] requests, StatusData status) {
        boolean anyActive = false;
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == null) continue;
            anyActive = true;
            if (requests[i].test(status)) return i;
        }
        return anyActive ? Integer.MIN_VALUE : -1;
    }

    /**
     * True when all are complete; then fills statuses. Requests completed here are set to null
     * in {@code requests} with their statuses filled even when not all are (a request cannot be
     * tested without completing it): mpi.Request keeps those until a later call reports them, so
     * that the user sees MPI_Testall's all-or-nothing behaviour.
     */
    default boolean testAll(BackendRequest[] requests, StatusData[] statuses) {
        StatusData[] done = new StatusData[requests.length];
        boolean all = true;
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == null) continue;
            StatusData s = new StatusData();
            if (requests[i].test(s)) {
                done[i] = s;
                requests[i] = null;
            } else {
                all = false;
            }
        }
        if (statuses != null) {
            for (int i = 0; i < requests.length; i++) {
                if (done[i] != null && statuses[i] != null) {
                    StatusData d = done[i];
                    statuses[i].set(d.source, d.tag, d.error, d.cancelled, d.bytes);
                    statuses[i].objects = d.objects;
                }
            }
        }
        return all;
    }

    /** Waits until at least one completes; returns indices of all completed, or null if all are null. */
    default int[] waitSome(BackendRequest[] requests, StatusData[] statuses) {
        Backoff backoff = new Backoff();
        while (true) {
            int[] done = testSome(requests, statuses);
            if (done == null || done.length > 0) return done;
            backoff.pause();
        }
    }

    /** Indices of completed requests (possibly empty), or null if all are null. */
    default int[] testSome(BackendRequest[] requests, StatusData[] statuses) {
        int[] done = new int[requests.length];
        int n = 0;
        boolean anyActive = false;
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == null) continue;
            anyActive = true;
            StatusData s = statuses == null ? null : statuses[n];
            if (requests[i].test(s)) done[n++] = i;
        }
        return anyActive ? java.util.Arrays.copyOf(done, n) : null;
    }

    // ---- environment (issue 10) ----

    /**
     * The value of a predefined attribute of the world ({@link PredefinedAttribute}), or null
     * where this backend has none (as MPI_Comm_get_attr's flag false). TAG_UB is per
     * communicator: {@link BackendComm#tagUpperBound()}.
     */
    default Integer predefinedAttribute(int key) {
        return null;
    }
}
