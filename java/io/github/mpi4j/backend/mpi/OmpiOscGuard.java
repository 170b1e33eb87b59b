package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.Mpi;
import java.util.Map;
import mpi.MPIException;

/**
 * Open MPI before 5.0: osc/rdma, its default one-sided component, kills the process with
 * SIGSEGV in MPI_Compare_and_swap between processes (docs/onesided.md; reproduced in C).
 * mpi4j's MPI_Init leaves rdma out unless the user chose components; when the user's choice
 * lets rdma in, compareAndSwap is refused here with an exception instead of taking the JVM down.
 */
final class OmpiOscGuard {
    private OmpiOscGuard() {
    }

    private static volatile Boolean risky;

    /** Throws when a compare-and-swap between processes could reach Open MPI 4's osc/rdma. */
    static void checkCompareAndSwap(MpiBackend backend, int commSize) {
        if (commSize < 2) return;
        Boolean r = risky;
        if (r == null) risky = r = rdmaMayRun(backend.libVersion(), System.getenv());
        if (r) {
            throw MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION, "Win.compareAndSwap: refused because Open MPI "
                    + "before 5.0 may use its osc/rdma component here (OMPI_MCA_osc=" + effective(System.getenv())
                    + "), which dies with SIGSEGV in MPI_Compare_and_swap between processes; leave OMPI_MCA_osc "
                    + "and MPI4J_OMPI_OSC unset (mpi4j then uses ^rdma) or exclude rdma (e.g. OMPI_MCA_osc=^rdma)");
        }
    }

    /** The osc selection Open MPI sees: the user's, else mpi4j's default (native mpi4j_mpi_init.c). */
    static String effective(Map<String, String> env) {
        String v = env.get("OMPI_MCA_osc");
        if (v != null) return v;
        v = env.get("MPI4J_OMPI_OSC");
        return v != null ? v : "^rdma";
    }

    /**
     * Whether MPI_Win_allocate_shared can work: not on Open MPI when the osc selection leaves
     * out sm, its only component for shared windows (OMPI_MCA_osc=rdma, say). Other libraries: yes.
     */
    static boolean sharedWindowsMayRun(String libVersion, Map<String, String> env) {
        if (libVersion == null || !libVersion.contains("Open MPI")) return true;
        String sel = effective(env).trim();
        if (sel.isEmpty()) return true;
        boolean exclude = sel.startsWith("^");
        return exclude != names(exclude ? sel.substring(1) : sel, "sm");
    }

    private static boolean names(String list, String component) {
        boolean named = false;
        for (String c : list.split(",")) named |= c.trim().equals(component);
        return named;
    }

    static boolean rdmaMayRun(String libVersion, Map<String, String> env) {
        if (libVersion == null) return false;
        int at = libVersion.indexOf("Open MPI v");
        if (at < 0) return false;
        int major;
        try {
            String digits = libVersion.substring(at + 10).replaceAll("^(\\d+).*$", "$1");
            major = Integer.parseInt(digits.trim());
        } catch (RuntimeException e) {
            return false;
        }
        if (major >= 5) return false;
        String sel = effective(env).trim();
        if (sel.isEmpty()) return true; // Open MPI's own choice: rdma first
        boolean exclude = sel.startsWith("^");
        return exclude != names(exclude ? sel.substring(1) : sel, "rdma");
    }
}
