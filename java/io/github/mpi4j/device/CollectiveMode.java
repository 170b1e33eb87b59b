package io.github.mpi4j.device;

import io.github.mpi4j.spi.Mpi;
import java.util.Map;
import mpi.MPIException;

/**
 * How a communicator runs the collectives that NCCL can do: {@link #HOST} (staging or a
 * CUDA-aware MPI, chosen per buffer; the default) or {@link #NCCL} (through NCCL on every rank,
 * whatever each rank's buffers are). NCCL meets only NCCL, so the choice must be the same on
 * every rank: it comes from the info key {@link #KEY} (setInfo is collective: every rank sets
 * the same value) or, for every communicator without the key, from {@link #ENV} (the launcher
 * gives every rank the same environment); never from the local buffer kinds.
 */
enum CollectiveMode {
    HOST, NCCL;

    /** The info key of {@code Comm.setInfo} / {@code dupWithInfo}. */
    static final String KEY = "mpi4j_device_collectives";
    /** The environment variable (and {@code -Dmpi4j.deviceCollectives}) that sets the default. */
    static final String ENV = "MPI4J_DEVICE_COLLECTIVES";

    /** {@code value} of {@code source} ("nccl" or "host", any case); anything else names both. */
    static CollectiveMode parse(String source, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(java.util.Locale.ROOT);
        if (v.equals("nccl")) return NCCL;
        if (v.equals("host")) return HOST;
        throw MPIException.of(Mpi.ERR_INFO_VALUE, source + " = '" + value + "' is not a device collectives mode: "
                + "use 'nccl' (collectives NCCL can do go through NCCL on every rank) or 'host' (the default)");
    }

    /** The default of every communicator: {@code -Dmpi4j.deviceCollectives}, else {@link #ENV}, else HOST. */
    static CollectiveMode fromEnvironment(Map<String, String> env) {
        String p = System.getProperty("mpi4j.deviceCollectives");
        if (p != null) return parse("-Dmpi4j.deviceCollectives", p);
        String e = env.get(ENV);
        return e == null || e.isBlank() ? HOST : parse(ENV, e);
    }

    /** The mode the hints set, or {@code current} when they do not name {@link #KEY}. */
    static CollectiveMode fromHints(Map<String, String> hints, CollectiveMode current) {
        if (hints == null || !hints.containsKey(KEY)) return current;
        return parse("info key " + KEY, hints.get(KEY));
    }
}
