package io.github.mpi4j.spi;

import java.util.Map;
import mpi.MPIException;

/**
 * The one deadline of every wait in mpi4j, whatever the backend: {@code -Dmpi4j.timeout} or
 * {@code MPI4J_TIMEOUT} seconds, 600 by default. A malformed value is an error naming it, never
 * silently the default.
 */
public final class Timeout {
    private Timeout() {
    }

    public static final double DEFAULT_SECONDS = 600;

    /**
     * The deadline in seconds read from {@code env}; {@code who} prefixes the error message
     * (e.g. "MPI.Init (fabric)").
     */
    public static double seconds(Map<String, String> env, String who) {
        String v = System.getProperty("mpi4j.timeout", env.get("MPI4J_TIMEOUT"));
        if (v == null || v.isBlank()) return DEFAULT_SECONDS;
        double t;
        try {
            t = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw MPIException.of(Mpi.ERR_OTHER, who + ": MPI4J_TIMEOUT='" + v + "' is not a number of seconds");
        }
        if (!(t > 0)) throw MPIException.of(Mpi.ERR_OTHER, who + ": MPI4J_TIMEOUT must be > 0, got " + v);
        return t;
    }
}
