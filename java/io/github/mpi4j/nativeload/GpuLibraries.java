package io.github.mpi4j.nativeload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Finds and opens the CUDA runtime and NCCL for {@code libmpi4j_gpu}, once per JVM, at first
 * use. Neither is linked to mpi4j: both are opened with {@code dlopen} from the first of these
 * that works, and every attempt is kept for {@link Capabilities}:
 * <ol>
 *   <li>the file named by {@code MPI4J_CUDA_LIBRARY} / {@code MPI4J_NCCL_LIBRARY} (or the system
 *       properties {@code mpi4j.cuda.library} / {@code mpi4j.nccl.library}); when set, nothing
 *       else is tried, so a misspelt path never silently runs another library;</li>
 *   <li>the dynamic loader's path ({@code LD_LIBRARY_PATH}, the ld.so cache):
 *       {@code libcudart.so.13}, then {@code libcudart.so.12}; {@code libnccl.so.2};</li>
 *   <li>the CUDA home: {@code $CUDA_HOME/lib64}, {@code /usr/local/cuda/lib64};</li>
 *   <li>the Python environment's {@code nvidia/*}{@code /lib} (the {@code nvidia-*} wheels that
 *       PyTorch environments carry), asked of {@code python3} and of {@code VIRTUAL_ENV} /
 *       {@code CONDA_PREFIX}.</li>
 * </ol>
 * Then the versions are checked: a CUDA runtime of 12 or newer, NCCL 2.18 or newer.
 */
public final class GpuLibraries {
    private GpuLibraries() {
    }

    /** The oldest CUDA runtime mpi4j uses (cudaRuntimeGetVersion's code: 1000 * major + 10 * minor). */
    public static final int MIN_CUDA_RUNTIME = 12000;
    /** The oldest NCCL mpi4j uses: 2.18.0 (ncclGetVersion's code). */
    public static final int MIN_NCCL = 21800;

    private static final List<String> CUDA_NAMES = List.of("libcudart.so.13", "libcudart.so.12");
    private static final List<String> NCCL_NAMES = List.of("libnccl.so.2");

    /** What was found of the CUDA runtime, and why not. */
    public static final class CudaStatus {
        /** The runtime is open and recent enough: CUDA calls can be made (devices may still be absent). */
        public final boolean available;
        /** The file opened, or null. */
        public final String file;
        /** How it was found (every attempt), or why it is unavailable. */
        public final String detail;
        /** cudaRuntimeGetVersion (13000 is 13.0), or 0. */
        public final int runtimeVersion;
        /** cudaDriverGetVersion, or 0 when there is no driver. */
        public final int driverVersion;
        /** Why the driver version is 0, or null. */
        public final String driverReason;
        /** cudaGetDeviceCount, or 0. */
        public final int deviceCount;
        /** CUDA's own error for the device count ("cudaErrorNoDevice: no CUDA-capable device is detected"), or null. */
        public final String deviceReason;

        CudaStatus(boolean available, String file, String detail, int runtimeVersion, int driverVersion,
                   String driverReason, int deviceCount, String deviceReason) {
            this.available = available;
            this.file = file;
            this.detail = detail;
            this.runtimeVersion = runtimeVersion;
            this.driverVersion = driverVersion;
            this.driverReason = driverReason;
            this.deviceCount = deviceCount;
            this.deviceReason = deviceReason;
        }
    }

    /** What was found of NCCL, and why not. */
    public static final class NcclStatus {
        /** NCCL is open and 2.18 or newer. */
        public final boolean available;
        public final String file;
        public final String detail;
        /** ncclGetVersion's code (23007 is 2.30.7), or 0. */
        public final int version;

        NcclStatus(boolean available, String file, String detail, int version) {
            this.available = available;
            this.file = file;
            this.detail = detail;
            this.version = version;
        }
    }

    private static volatile CudaStatus cuda;
    private static volatile NcclStatus nccl;
    private static List<Path> pythonSites;

    /** Whether libmpi4j_gpu itself is loaded (tries once); {@link #gpuLibraryDetail()} says why not. */
    public static boolean gpuLibraryLoaded() {
        return NativeLoader.load(GpuLinker.LIBRARY);
    }

    public static String gpuLibraryDetail() {
        gpuLibraryLoaded();
        return NativeLoader.detail(GpuLinker.LIBRARY);
    }

    /** Opens the CUDA runtime (once) and reports it. */
    public static CudaStatus cuda() {
        CudaStatus c = cuda;
        if (c != null) return c;
        synchronized (GpuLibraries.class) {
            if (cuda == null) cuda = openCuda(System.getenv());
            return cuda;
        }
    }

    /** Opens NCCL (once) and reports it. */
    public static NcclStatus nccl() {
        NcclStatus n = nccl;
        if (n != null) return n;
        synchronized (GpuLibraries.class) {
            if (nccl == null) nccl = openNccl(System.getenv());
            return nccl;
        }
    }

    private static String noGpuLibrary() {
        if (Boolean.getBoolean("mpi4j.native.disable")) return "native code disabled by -Dmpi4j.native.disable=true";
        return "libmpi4j_gpu.so is not usable: " + gpuLibraryDetail();
    }

    private static CudaStatus openCuda(Map<String, String> env) {
        if (!gpuLibraryLoaded()) return new CudaStatus(false, null, noGpuLibrary(), 0, 0, null, 0, null);
        StringBuilder why = new StringBuilder();
        String file = open(GpuLinker.CUDA, "mpi4j.cuda.library", "MPI4J_CUDA_LIBRARY", CUDA_NAMES, env, why);
        if (file == null) {
            return new CudaStatus(false, null, "no CUDA runtime found (tried " + why + "); install the CUDA toolkit or "
                    + "name libcudart.so with MPI4J_CUDA_LIBRARY", 0, 0, null, 0, null);
        }
        String missing = GpuLinker.missing0(GpuLinker.CUDA);
        int[] s = GpuLinker.cudaStatus0();
        if (s[0] != 0) {
            return new CudaStatus(false, file, why + "; but cudaRuntimeGetVersion " + failure(s[0], true)
                    + missingNote(missing), 0, 0, null, 0, null);
        }
        int runtime = s[1];
        if (runtime < MIN_CUDA_RUNTIME) {
            return new CudaStatus(false, file, why + "; but it is CUDA " + cudaVersion(runtime)
                    + ", too old: mpi4j needs a CUDA runtime of " + cudaVersion(MIN_CUDA_RUNTIME) + " or newer",
                    runtime, 0, null, 0, null);
        }
        int driver = s[2] == 0 ? s[3] : 0;
        String driverReason = s[2] != 0 ? "cudaDriverGetVersion " + failure(s[2], true)
                : driver == 0 ? "no CUDA driver is installed (cudaDriverGetVersion reports 0)" : null;
        int count = s[4] == 0 ? s[5] : 0;
        String deviceReason = s[4] != 0 ? failure(s[4], false) : count == 0 ? "the CUDA runtime sees no device" : null;
        return new CudaStatus(true, file, why + missingNote(missing), runtime, driver, driverReason, count,
                deviceReason);
    }

    private static NcclStatus openNccl(Map<String, String> env) {
        if (!gpuLibraryLoaded()) return new NcclStatus(false, null, noGpuLibrary(), 0);
        cuda(); // the runtime first: an NCCL that needs its functions from the process finds ours
        StringBuilder why = new StringBuilder();
        String file = open(GpuLinker.NCCL, "mpi4j.nccl.library", "MPI4J_NCCL_LIBRARY", NCCL_NAMES, env, why);
        if (file == null) {
            return new NcclStatus(false, null, "no NCCL found (tried " + why + "); install NCCL (libnccl2, or "
                    + "pip install nvidia-nccl-cu13) or name libnccl.so.2 with MPI4J_NCCL_LIBRARY", 0);
        }
        String missing = GpuLinker.missing0(GpuLinker.NCCL);
        int[] s = GpuLinker.ncclStatus0();
        if (s[0] != 0) {
            String text = s[0] < 0 ? "is missing" : "failed: " + GpuLinker.ncclErrorText0(s[0]) + " (" + s[0] + ")";
            return new NcclStatus(false, file, why + "; but ncclGetVersion " + text + missingNote(missing), 0);
        }
        if (s[1] < MIN_NCCL) {
            return new NcclStatus(false, file, why + "; but it is NCCL " + ncclVersion(s[1])
                    + ", too old: mpi4j needs NCCL " + ncclVersion(MIN_NCCL) + " or newer", s[1]);
        }
        return new NcclStatus(true, file, why + missingNote(missing), s[1]);
    }

    private static String missingNote(String missing) {
        return missing.isEmpty() ? "" : "; it lacks " + missing + " (calls to them throw)";
    }

    /** "failed: cudaErrorX: text (35)", or "is missing" for -1. */
    private static String failure(int status, boolean verb) {
        if (status < 0) return "is missing";
        String text = GpuLinker.cudaErrorText0(status);
        String what = (text == null ? "CUDA error" : text) + " (" + status + ")";
        return verb ? "failed: " + what : what;
    }

    /** Tries the candidates in order; returns the file opened (appending each attempt to why), or null. */
    private static String open(int which, String property, String variable, List<String> names,
                               Map<String, String> env, StringBuilder why) {
        String explicit = System.getProperty(property, env.get(variable));
        List<String[]> candidates = new ArrayList<>();
        if (explicit != null && !explicit.isBlank()) {
            candidates.add(new String[] {explicit.trim(), variable + "/" + property});
        } else {
            for (String n : names) candidates.add(new String[] {n, "loader path"});
            Set<String> homes = new LinkedHashSet<>();
            String home = env.get("CUDA_HOME");
            if (home != null && !home.isBlank()) homes.add(home.trim());
            homes.add("/usr/local/cuda");
            for (String h : homes) {
                for (String n : names) candidates.add(new String[] {h + "/lib64/" + n, "CUDA home"});
            }
            for (Path lib : pythonLibraries(env, names)) candidates.add(new String[] {lib.toString(), "Python environment"});
        }
        List<String> misses = new ArrayList<>();
        for (String[] c : candidates) {
            String error = GpuLinker.open0(which, c[0]);
            if (error == null) {
                String file = GpuLinker.fileOf0(which);
                if (file == null || file.isEmpty()) file = c[0];
                if (!misses.isEmpty()) why.append("not found: ").append(String.join("; ", misses)).append("; ");
                why.append("opened ").append(c[0]).append(" (").append(c[1]).append(")");
                if (!file.equals(c[0])) why.append(" = ").append(file);
                return file;
            }
            misses.add(c[0] + " (" + c[1] + "): " + error);
        }
        why.append(String.join("; ", misses));
        return null;
    }

    /** Existing files nvidia/<pkg>/lib/<name> under the Python environment's site directories. */
    private static List<Path> pythonLibraries(Map<String, String> env, List<String> names) {
        List<Path> found = new ArrayList<>();
        for (Path site : pythonSites(env)) {
            Path nvidia = site.resolve("nvidia");
            if (!Files.isDirectory(nvidia)) continue;
            try (DirectoryStream<Path> pkgs = Files.newDirectoryStream(nvidia)) {
                for (Path pkg : pkgs) {
                    for (String n : names) {
                        Path lib = pkg.resolve("lib").resolve(n);
                        if (Files.isRegularFile(lib)) found.add(lib);
                    }
                }
            } catch (IOException e) {
                // unreadable: nothing found there
            }
        }
        return found;
    }

    /** Site-packages directories: VIRTUAL_ENV, CONDA_PREFIX, then what python3 says (once per JVM). */
    static synchronized List<Path> pythonSites(Map<String, String> env) {
        if (pythonSites != null) return pythonSites;
        Set<Path> sites = new LinkedHashSet<>();
        for (String var : new String[] {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
            String prefix = env.get(var);
            if (prefix == null || prefix.isBlank()) continue;
            try (DirectoryStream<Path> libs = Files.newDirectoryStream(Path.of(prefix, "lib"), "python3*")) {
                for (Path p : libs) sites.add(p.resolve("site-packages"));
            } catch (IOException | RuntimeException e) {
                // no such environment
            }
        }
        sites.addAll(askPython());
        pythonSites = List.copyOf(sites);
        return pythonSites;
    }

    /** python3's site-packages directories, with a deadline; empty when there is no python3. */
    private static List<Path> askPython() {
        List<Path> out = new ArrayList<>();
        Process p;
        try {
            p = new ProcessBuilder("python3", "-c", "import site, sysconfig; p = sysconfig.get_paths(); "
                    + "print('\\n'.join([p['purelib'], p['platlib']] + site.getsitepackages()))")
                    .redirectErrorStream(false).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            return out;
        }
        try (InputStream in = p.getInputStream()) {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return out;
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) out.add(Path.of(line.trim()));
            }
        } catch (IOException | RuntimeException e) {
            // no answer: no Python sites
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out;
    }

    /** "13.0" for 13000. */
    public static String cudaVersion(int code) {
        return (code / 1000) + "." + (code % 1000) / 10;
    }

    /** "2.30.7" for 23007 (and "2.8.4" for the old encoding 2804). */
    public static String ncclVersion(int code) {
        if (code >= 10000) return (code / 10000) + "." + (code % 10000) / 100 + "." + code % 100;
        return (code / 1000) + "." + (code % 1000) / 100 + "." + code % 100;
    }

    /** Whether the MPI library of this process is CUDA-aware, and how that is known. */
    public static String mpiCudaAware(boolean mpiLoaded) {
        if (!mpiLoaded) return "unknown: not running under MPI (no MPI library loaded)";
        if (!gpuLibraryLoaded()) return "unknown: " + noGpuLibrary();
        int[] a = GpuLinker.mpiCudaSupport0();
        switch (a[0]) {
            case 1:
                return (a[1] == 1 ? "yes" : "no") + " (Open MPI MPIX_Query_cuda_support)";
            case 2:
                if (a[1] == -2) return "unknown: the MPICH family answers (MPIX_GPU_query_support) only after MPI_Init";
                return (a[1] == 1 ? "yes" : "no") + " (MPICH MPIX_GPU_query_support)";
            default:
                return "no (the MPI library has neither MPIX_Query_cuda_support nor MPIX_GPU_query_support)";
        }
    }
}
