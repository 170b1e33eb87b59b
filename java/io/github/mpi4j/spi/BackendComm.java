package io.github.mpi4j.spi;

/**
 * A communicator as a backend implements it: its basics and management here, point-to-point
 * through {@link PointToPoint}, the collectives through {@link #collectives()}, and what only
 * some backends have through {@link #capability}. The {@code mpi} layer has already validated
 * every argument (ranks, roots, tags, counts against buffer capacity, types against buffers),
 * so implementations may trust them; they report runtime failures as {@code mpi.MPIException}.
 *
 * <p>Conventions:
 * <ul>
 *   <li>Ranks, tags and the wildcards use the values of {@code mpi.MPI}
 *       ({@code ANY_SOURCE}, {@code ANY_TAG}, {@code PROC_NULL}).</li>
 *   <li>{@link Buf#IN_PLACE} in a send-buffer position means MPI_IN_PLACE.</li>
 *   <li>Buffers that are not significant on a rank (the receive buffer of a gather on a
 *       non-root, for example) may be null.</li>
 *   <li>Displacements of the v-variants are in items of the datatype's extent.</li>
 *   <li>Non-blocking calls return a request; the {@code mpi} layer keeps the buffers reachable
 *       until the request completes.</li>
 * </ul>
 */
public interface BackendComm extends PointToPoint {

    int rank();

    int size();

    /** Ranks in MPI_COMM_WORLD of this communicator's members, indexed by rank here. */
    int[] worldRanks();

    /** Largest tag value allowed (MPI_TAG_UB). */
    int tagUpperBound();

    // ---- management (collective over the communicator) --------------------------------

    BackendComm dup();

    /** MPI_Comm_split; returns null on ranks that passed {@code color < 0} (MPI.UNDEFINED). */
    BackendComm split(int color, int key);

    /**
     * MPI_Comm_split_type with MPI_COMM_TYPE_SHARED: one communicator per node. Returns null
     * when {@code sharedType} is false (MPI.UNDEFINED was passed).
     */
    BackendComm splitShared(boolean sharedType, int key);

    /**
     * MPI_Comm_create: the members are {@code ranks} (ranks in this communicator, in the new
     * rank order). Collective over this communicator; returns null on ranks not included.
     */
    BackendComm create(int[] ranks);

    void free();

    /**
     * The hints of {@code Comm.setInfo} (and {@code dupWithInfo}), every key with its value; keys
     * a layer does not know are ignored. MPI makes setInfo collective, so every rank passes the
     * same hints. A layer that refuses a value throws (naming key and value) before it changes
     * anything; the default ignores them all.
     */
    default void hints(java.util.Map<String, String> hints) {
    }

    // ---- the bracket around one collective call of the API ------------------------------

    /**
     * Opens one collective call of the API at this rank, before its arguments are checked:
     * everything the call does on this communicator until {@link #endCollective} belongs to it
     * (a backend may number calls, so that every rank numbers them alike even when a call fails
     * its checks at one rank only). Calls do not nest across communicators.
     */
    default void beginCollective(String call, boolean nonBlocking) {
    }

    /**
     * Closes the call opened by {@link #beginCollective}; {@code failure} is what leaves the
     * call at this rank (a bad argument, an error inside the schedule), or null. A backend may
     * tell the other ranks about the failure so that they do not wait for this rank.
     */
    default void endCollective(Throwable failure) {
    }

    /**
     * Runs {@code body} as the collective call {@code call} of this communicator, inside
     * {@link #beginCollective} / {@link #endCollective}, so that a failure at this rank reaches
     * the others; for the internal collectives of windows, files and ports.
     */
    default void bracketed(String call, Runnable body) {
        beginCollective(call, false);
        Throwable failure = null;
        try {
            body.run();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            endCollective(failure);
        }
    }

    // ---- what the communicator can do besides point-to-point ---------------------------

    /**
     * The object that runs this communicator's collectives: the communicator itself, or one it
     * owns (the fabric's schedules). The same object every time, so that callers on hot paths
     * pay one field read; its calls must run inside {@link #beginCollective} /
     * {@link #endCollective}.
     */
    CollectiveOps collectives();

    /**
     * An optional capability of this communicator ({@link Intercommunication}, {@link Topology},
     * {@link OneSided}, {@link FileIO}, {@link DeviceMemory}, ...), or null when the backend does
     * not provide it. The {@code mpi} layer turns null into an exception that names the missing
     * feature and the backend. The default finds capabilities the communicator implements.
     */
    default <T> T capability(Class<T> kind) {
        return kind.isInstance(this) ? kind.cast(this) : null;
    }

    // ---- matched probes (issue 10) ----

    /**
     * MPI_Mprobe: blocks until a message from {@code source} (a rank, not PROC_NULL; or
     * ANY_SOURCE) with {@code tag} (or ANY_TAG) is there, fills {@code status}, and takes the
     * message out of matching. The default refuses: a backend without matched probes.
     */
    default BackendMessage mprobe(int source, int tag, StatusData status) {
        throw mpi.MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION, "matched probes (mProbe) are not supported by "
                + getClass().getSimpleName());
    }

    /** MPI_Improbe: as {@link #mprobe} when a message is there; null (status untouched) otherwise. */
    default BackendMessage improbe(int source, int tag, StatusData status) {
        throw mpi.MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION, "matched probes (imProbe) are not supported by "
                + getClass().getSimpleName());
    }

    // ---- intercommunicators (issue 10) ----------------------------------------------------

    /**
     * How many ranks point-to-point calls address: {@link #size()} on an intracommunicator, the
     * remote group's size on an intercommunicator.
     */
    default int peerCount() {
        return size();
    }
}
