package io.github.mpi4j.nativeload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds the system libmpi and loads the MPI bridge built for its ABI family. The jar carries
 * one bridge per family, compiled from the same C sources against each family's {@code mpi.h}:
 * <ul>
 *   <li>{@code libmpi4j_mpi_ompi.so} for Open MPI ({@code libmpi.so.40});</li>
 *   <li>{@code libmpi4j_mpi_mpich.so} for the MPICH ABI ({@code libmpi.so.12}: MPICH, Intel MPI,
 *       MVAPICH, Cray MPICH; Debian names it {@code libmpich.so.12}).</li>
 * </ul>
 * Neither bridge is linked to a libmpi. The library is chosen here: the file named by
 * {@code -Dmpi4j.mpi.library} or {@code MPI4J_MPI_LIBRARY} if set, otherwise the first of the
 * usual names that opens, trying first the family whose launcher started this process
 * ({@code OMPI_COMM_WORLD_*} for Open MPI; {@code PMI_RANK}, {@code HYDRA_*}, {@code I_MPI_*},
 * {@code MV2_*} for the MPICH family). It is opened with {@code RTLD_GLOBAL} (Open MPI's
 * plugins need that), its family is read from its symbols (Open MPI defines
 * {@code ompi_mpi_comm_world}), and then the matching bridge is loaded; a bridge built for
 * another ABI version than this jar's is refused ({@link NativeAbi}). Every step and reason is
 * kept for {@link Capabilities}.
 */
public final class MpiBridge {
    private MpiBridge() {
    }

    /** The two MPI ABI families and the bridge each needs. */
    public enum Family {
        OPEN_MPI("Open MPI", "mpi4j_mpi_ompi", "libopenmpi-dev (Debian/Ubuntu) or openmpi-devel (Fedora/RHEL)",
                "libmpi.so.40"),
        MPICH("MPICH family (MPICH, Intel MPI, MVAPICH, Cray MPICH)", "mpi4j_mpi_mpich",
                "libmpich-dev (Debian/Ubuntu) or mpich-devel (Fedora/RHEL)", "libmpi.so.12", "libmpich.so.12");

        public final String description;
        /** The JNI library name of this family's bridge. */
        public final String bridge;
        /** The development package whose mpi.h the bridge is built against. */
        public final String devPackage;
        final List<String> sonames;

        Family(String description, String bridge, String devPackage, String... sonames) {
            this.description = description;
            this.bridge = bridge;
            this.devPackage = devPackage;
            this.sonames = List.of(sonames);
        }
    }

    /** The outcome of {@link #load()}. */
    public static final class Outcome {
        public final boolean loaded;
        /** The family of the libmpi found, or null if none was found. */
        public final Family family;
        /** The libmpi file opened, or null. */
        public final String library;
        /** Why: which library, which bridge, and every reason along the way. */
        public final String detail;

        Outcome(boolean loaded, Family family, String library, String detail) {
            this.loaded = loaded;
            this.family = family;
            this.library = library;
            this.detail = detail;
        }
    }

    private static Outcome outcome;

    /** Finds libmpi and loads its bridge, once per JVM. */
    public static synchronized Outcome load() {
        if (outcome == null) outcome = tryLoad(System.getenv());
        return outcome;
    }

    /** Whether a libmpi and its bridge are loaded already (never loads them). */
    static synchronized boolean loadedAlready() {
        return outcome != null && outcome.loaded;
    }

    /** Open MPI's marker symbol: the predefined world communicator object. */
    private static final String OPEN_MPI_SYMBOL = "ompi_mpi_comm_world";

    private static Outcome tryLoad(Map<String, String> env) {
        if (Boolean.getBoolean("mpi4j.native.disable")) {
            return new Outcome(false, null, null, "native code disabled by -Dmpi4j.native.disable=true");
        }
        if (!DynamicLinker.available()) {
            if (NativeLoader.stale(DynamicLinker.LIBRARY)) {
                return new Outcome(false, null, null, "the loader helper lib" + DynamicLinker.LIBRARY
                        + ".so is not usable: " + NativeLoader.detail(DynamicLinker.LIBRARY));
            }
            return new Outcome(false, null, null, "the loader helper lib" + DynamicLinker.LIBRARY
                    + ".so is missing (" + NativeLoader.detail(DynamicLinker.LIBRARY) + "); a jar built with "
                    + "-Dmpi4j.native.skip=true has no native code: use the release jar");
        }
        StringBuilder why = new StringBuilder();
        String override = System.getProperty("mpi4j.mpi.library", env.get("MPI4J_MPI_LIBRARY"));
        List<String> candidates = new ArrayList<>();
        if (override != null && !override.isBlank()) {
            candidates.add(override.trim());
            why.append("libmpi named by mpi4j.mpi.library/MPI4J_MPI_LIBRARY; ");
        } else {
            Family hinted = launcherFamily(env);
            Family other = hinted == Family.MPICH ? Family.OPEN_MPI : Family.MPICH;
            if (hinted != null) {
                why.append("the launcher looks like ").append(hinted == Family.MPICH ? "MPICH's" : "Open MPI's")
                        .append(" (").append(launcherEvidence(env)).append("); ");
                candidates.addAll(hinted.sonames);
                candidates.addAll(other.sonames);
            } else {
                candidates.addAll(Family.OPEN_MPI.sonames);
                candidates.addAll(Family.MPICH.sonames);
            }
            candidates.add("libmpi.so");
        }
        long handle = 0;
        String opened = null;
        List<String> misses = new ArrayList<>();
        for (String c : candidates) {
            try {
                handle = DynamicLinker.openGlobal0(c);
                opened = c;
                break;
            } catch (UnsatisfiedLinkError e) {
                misses.add(e.getMessage());
            }
        }
        if (handle == 0) {
            return new Outcome(false, null, null, why + "no MPI library found (tried " + String.join("; ", misses)
                    + "); install Open MPI or an MPICH-family MPI, or name the file with MPI4J_MPI_LIBRARY");
        }
        String file = DynamicLinker.fileOf0(handle);
        String library = file != null ? file : opened;
        Family family;
        if (DynamicLinker.hasSymbol0(handle, OPEN_MPI_SYMBOL)) {
            family = Family.OPEN_MPI;
        } else if (DynamicLinker.hasSymbol0(handle, "MPI_Init")) {
            family = Family.MPICH;
        } else {
            return new Outcome(false, null, library, why + library + " does not define MPI_Init: not an MPI library");
        }
        String version = DynamicLinker.libraryVersion0(handle);
        why.append("libmpi ").append(library);
        if (version != null) why.append(" (").append(firstLine(version)).append(")");
        why.append(" is ").append(family.description).append("; ");
        if (!NativeLoader.load(family.bridge)) {
            if (NativeLoader.stale(family.bridge)) {
                return new Outcome(false, family, library, why + "but the bridge for it is not usable: "
                        + NativeLoader.detail(family.bridge));
            }
            return new Outcome(false, family, library, why + "but the bridge for it, lib" + family.bridge
                    + ".so, is not usable: " + NativeLoader.detail(family.bridge) + ". This jar was built without "
                    + family.description + " headers: use the release jar (it carries both bridges), or rebuild "
                    + "with " + family.devPackage + " installed (mvn -Prelease package)");
        }
        return new Outcome(true, family, library, why + "bridge " + NativeLoader.detail(family.bridge));
    }

    /** The family whose launcher started this process, judged by its variables, or null. */
    static Family launcherFamily(Map<String, String> env) {
        if (env.containsKey("OMPI_COMM_WORLD_RANK") || env.containsKey("OMPI_COMM_WORLD_SIZE")) return Family.OPEN_MPI;
        for (String k : env.keySet()) {
            if (k.equals("PMI_RANK") || k.equals("PMI_FD") || k.startsWith("HYDRA_") || k.startsWith("I_MPI_")
                    || k.startsWith("MV2_") || k.startsWith("MPIR_CVAR_")) {
                return Family.MPICH;
            }
        }
        return null;
    }

    private static String launcherEvidence(Map<String, String> env) {
        for (String k : new String[] {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "PMI_RANK", "PMI_FD"}) {
            if (env.containsKey(k)) return k + " is set";
        }
        for (String k : env.keySet()) {
            if (k.startsWith("HYDRA_") || k.startsWith("I_MPI_") || k.startsWith("MV2_") || k.startsWith("MPIR_CVAR_")) {
                return k + " is set";
            }
        }
        return "no launcher variables";
    }

    private static String firstLine(String s) {
        String t = s.strip();
        int nl = t.indexOf('\n');
        return (nl < 0 ? t : t.substring(0, nl)).strip();
    }
}
