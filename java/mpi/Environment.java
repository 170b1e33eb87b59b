package mpi;

import io.github.mpi4j.runtime.BackendSelector;
import io.github.mpi4j.spi.BackendProvider;

/**
 * The parts of the environment that exist outside a running backend: the library version before
 * {@code MPI.Init} and after {@code MPI.Finalize}, and the keys of {@code MPI.INFO_ENV}, filled
 * at {@code MPI.Init} from the program's arguments and the JVM.
 */
final class Environment {
    private Environment() {
    }

    /**
     * MPI_Get_library_version without a running backend: asks the backend that {@code MPI.Init}
     * would choose now (its provider, which starts nothing); mpi4j's own version if none can say.
     */
    static String libVersionWithoutBackend() {
        try {
            BackendSelector.Choice c = BackendSelector.choose(BackendSelector.providers(),
                    System.getProperty("mpi4j.backend", System.getenv("MPI4J_BACKEND")), System.getenv());
            BackendProvider p = c.provider;
            String v = p.libVersion();
            if (v != null) return v;
        } catch (MPIException e) {
            // No backend could run (Init would say why): fall back to mpi4j's own version.
        }
        return "mpi4j " + io.github.mpi4j.Mpi4j.version();
    }

    /**
     * Fills {@code info} with the keys MPI defines for MPI_INFO_ENV: command, argv, maxprocs,
     * host, arch, wdir, thread_level, and Open MPI's own ompi_* keys. {@code args} are the
     * arguments given to Init.
     */
    static void fillInfoEnv(Info info, String[] args, int worldSize, int threadLevel, String host) {
        String command = System.getProperty("sun.java.command", "").trim();
        int space = command.indexOf(' ');
        info.set("command", space < 0 ? command : command.substring(0, space));
        info.set("argv", args == null ? "" : String.join(" ", args));
        info.set("maxprocs", Integer.toString(worldSize));
        info.set("host", host);
        info.set("arch", System.getProperty("os.arch", ""));
        info.set("wdir", workingDirectory());
        info.set("thread_level", threadLevelName(threadLevel));
        fillOmpiInfoEnv(info, worldSize);
    }

    /**
     * The keys Open MPI adds to MPI_INFO_ENV (ompi_num_apps, ompi_first_rank, ompi_np: the
     * application contexts of the launch), which programs written for its bindings read. Under
     * Open MPI's mpirun they come from the launch's environment, as Open MPI takes them; elsewhere
     * the job is one application of {@code worldSize} ranks starting at rank 0.
     */
    private static void fillOmpiInfoEnv(Info info, int worldSize) {
        info.set("ompi_num_apps", envOr("OMPI_NUM_APP_CTX", "1"));
        info.set("ompi_first_rank", envOr("OMPI_FIRST_RANKS", "0"));
        info.set("ompi_np", envOr("OMPI_APP_CTX_NUM_PROCS", Integer.toString(worldSize)));
    }

    /**
     * The working directory as Open MPI names it: $PWD when set (the name the shell used, links
     * kept), the JVM's working directory when $PWD is unset or names another directory.
     */
    static String workingDirectory() {
        String dir = System.getProperty("user.dir", "");
        String pwd = System.getenv("PWD");
        if (pwd == null || pwd.isEmpty() || pwd.equals(dir)) return dir;
        try {
            return java.nio.file.Files.isSameFile(java.nio.file.Path.of(pwd), java.nio.file.Path.of(dir)) ? pwd : dir;
        } catch (java.io.IOException | RuntimeException e) {
            return dir;
        }
    }

    private static String envOr(String name, String otherwise) {
        String v = System.getenv(name);
        return v != null && !v.isEmpty() ? v : otherwise;
    }

    /** MPI's name of a thread level, as MPI_INFO_ENV's thread_level gives it. */
    static String threadLevelName(int level) {
        switch (level) {
            case MPI.THREAD_SINGLE: return "MPI_THREAD_SINGLE";
            case MPI.THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
            case MPI.THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
            default: return "MPI_THREAD_MULTIPLE";
        }
    }
}
