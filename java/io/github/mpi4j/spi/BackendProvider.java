package io.github.mpi4j.spi;

import java.util.Map;

/**
 * One backend as {@code MPI.Init} sees it before choosing: its name, whether this process was
 * started for it (and the evidence), whether it can run here (and why not), and how to start it.
 * Providers are found through {@link java.util.ServiceLoader} ({@code META-INF/services}), tried
 * in ascending {@link #order()}; see {@code io.github.mpi4j.runtime.BackendSelector}.
 */
public interface BackendProvider {

    /** The name used by {@code -Dmpi4j.backend} / {@code MPI4J_BACKEND}: "mpi", "fabric", ... */
    String name();

    /** Place in the list: lower is asked first whether it claims the process. */
    int order();

    /**
     * Why this process was started for this backend ("started by an MPI launcher (PMIX_RANK is
     * set)"), or null when nothing in {@code env} says so.
     */
    String claim(Map<String, String> env);

    /** What the backend needs, for messages ("the MPI bridge"). */
    String requirement();

    /** Null when the backend can run in this JVM; otherwise why not (the loader's reason). */
    String unavailableReason();

    /**
     * Whether this backend runs a process that nothing claimed (a program started with plain
     * {@code java}: a world of one). Exactly one provider says yes.
     */
    default boolean runsUnclaimedProcesses() {
        return false;
    }

    /**
     * Starts the backend for this process.
     *
     * @param reason why it was chosen, as {@code Mpi4j.backendReason()} reports it; null when it
     *               was chosen by its own {@link #claim} (or runs an unclaimed process), and the
     *               provider words the reason itself
     */
    Backend create(int requiredThreadLevel, Map<String, String> env, String reason);

    // ---- environment (issue 10) ----

    /**
     * The text {@link Backend#libVersion()} will give, callable before {@code MPI.Init} and after
     * {@code MPI.Finalize} (MPI_Get_library_version may be called then); null if unknown.
     */
    default String libVersion() {
        return null;
    }
}
