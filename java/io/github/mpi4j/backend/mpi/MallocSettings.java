package io.github.mpi4j.backend.mpi;

import java.util.Locale;
import java.util.Map;

/**
 * glibc's malloc settings for MPI inside a JVM, applied before {@code MPI_Init} (docs/performance.md,
 * "The MPI backend's 10x-slow large allreduce").
 *
 * <p>Open MPI mallocs a temporary buffer as large as the message in each large collective and
 * frees it at the end. A C program gets that memory from the main heap, where glibc keeps it
 * between calls. A JVM thread has its own malloc arena, whose heaps are at most 64 MiB and are
 * shared with the JVM's own allocations (direct buffers among them); when the temporary does not
 * fit, glibc maps it fresh and unmaps it at the free, so every call touches new pages. In this
 * state a 16 MiB allreduce spent most of its time in page faults and took 42–66 ms instead of
 * about 5 ms, in one run of three and up to eight runs of ten of the same benchmark. Fixed
 * settings keep freed memory for the next call:
 * <ul>
 *   <li>{@code M_MMAP_THRESHOLD} 32 MiB (glibc's largest): blocks up to 32 MiB come from the heaps;</li>
 *   <li>{@code M_TRIM_THRESHOLD} 256 MiB: free memory at a heap's top is kept up to this size;</li>
 *   <li>{@code M_TOP_PAD} 64 MiB: a heap grows with room to spare, and a heap whose blocks are all
 *       free is kept instead of unmapped.</li>
 * </ul>
 * The cost is memory the process keeps after freeing it (up to the trim threshold per heap).
 * {@code MPI4J_MALLOC=0} leaves malloc alone, and so does any malloc setting of the user's own
 * ({@code MALLOC_*_} variables, or {@code glibc.malloc} tunables).
 */
final class MallocSettings {
    private MallocSettings() {
    }

    static final long MMAP_THRESHOLD = 32L << 20, TRIM_THRESHOLD = 256L << 20, TOP_PAD = 64L << 20;

    /** glibc's environment variables for the settings; any of them means the user chose. */
    private static final String[] USER_VARIABLES = {"MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_",
        "MALLOC_TOP_PAD_", "MALLOC_MMAP_MAX_", "MALLOC_ARENA_MAX"};

    /** What was decided at MPI.Init, for diagnostics and tests. */
    private static volatile String applied = "not decided (MPI not initialized)";

    /** Why the settings are not applied in this environment, or null when they are to be applied. */
    static String reasonToSkip(Map<String, String> env) {
        String v = env.get("MPI4J_MALLOC");
        if (v != null) {
            String s = v.trim().toLowerCase(Locale.ROOT);
            if (s.equals("0") || s.equals("no") || s.equals("off") || s.equals("false")) return "MPI4J_MALLOC=" + v;
        }
        for (String name : USER_VARIABLES) {
            if (env.containsKey(name)) return "the user set " + name;
        }
        String tunables = env.get("GLIBC_TUNABLES");
        if (tunables != null && tunables.contains("glibc.malloc.")) return "the user set glibc.malloc tunables";
        return null;
    }

    /** Applies the settings unless {@link #reasonToSkip} says why not; before MPI_Init. */
    static void apply(Map<String, String> env) {
        String skip = reasonToSkip(env);
        if (skip != null) {
            applied = "left alone: " + skip;
        } else if (MpiNative.tuneMalloc0(MMAP_THRESHOLD, TRIM_THRESHOLD, TOP_PAD)) {
            applied = "mmap_threshold=" + MMAP_THRESHOLD + " trim_threshold=" + TRIM_THRESHOLD + " top_pad=" + TOP_PAD;
        } else {
            applied = "left alone: not glibc, or mallopt refused a value";
        }
    }

    /** What {@link #apply} did in this process. */
    static String applied() {
        return applied;
    }
}
