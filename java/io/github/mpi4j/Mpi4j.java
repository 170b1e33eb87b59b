package io.github.mpi4j;

import io.github.mpi4j.nativeload.Capabilities;
import io.github.mpi4j.spi.Backend;
import java.util.Map;

/**
 * What mpi4j is running on: the backend {@code MPI.Init} chose and why, and what this JVM can
 * use. {@code java -cp mpi4j.jar io.github.mpi4j.Mpi4j} prints the capabilities; setting
 * {@code MPI4J_VERBOSE=1} (or {@code -Dmpi4j.verbose=true}) makes rank 0 print the choice at
 * {@code MPI.Init}.
 */
public final class Mpi4j {
    private Mpi4j() {
    }

    private static volatile Backend current;

    /** Called by MPI.Init. */
    public static void chosen(Backend backend) {
        current = backend;
        if (verbose() && backend.world().rank() == 0) {
            System.err.println("mpi4j: backend " + backend.name() + " (" + backend.reason() + ")");
        }
    }

    /** Whether MPI4J_VERBOSE=1 (or -Dmpi4j.verbose=true) asks rank 0 to say what Init did. */
    public static boolean verbose() {
        return Boolean.getBoolean("mpi4j.verbose") || "1".equals(System.getenv("MPI4J_VERBOSE"));
    }

    /** "mpi" or "fabric"; null before MPI.Init. */
    public static String backendName() {
        Backend b = current;
        return b == null ? null : b.name();
    }

    /** Why that backend was chosen; null before MPI.Init. */
    public static String backendReason() {
        Backend b = current;
        return b == null ? null : b.reason();
    }

    /**
     * User-defined ops for which the backend of {@code MPI.Init} holds native resources (on the
     * MPI backend: an MPI_Op and a trampoline slot); 0 before MPI.Init and on backends that keep
     * none. {@code Op.free()} releases them, so tools and tests can check for leaks.
     */
    public static int liveUserOps() {
        Backend b = current;
        return b == null ? 0 : b.liveUserOps();
    }

    public static void main(String[] args) {
        System.out.println("mpi4j " + version());
        for (Map.Entry<String, String> e : Capabilities.report().entrySet()) {
            System.out.println("  " + e.getKey() + ": " + e.getValue());
        }
    }

    public static String version() {
        String v = Mpi4j.class.getPackage().getImplementationVersion();
        return v == null ? "(development build)" : v;
    }
}
