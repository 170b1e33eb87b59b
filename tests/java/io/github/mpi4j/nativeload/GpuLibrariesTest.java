package io.github.mpi4j.nativeload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Finding and opening the real CUDA runtime and NCCL of this machine (no GPU needed): the
 * search order, the versions against independent references (the soname, nccl.h's version
 * macros), the device count with CUDA's own reason, and the refusals (an override that does not
 * open, a library without the functions, an NCCL older than 2.18). Choices are made once per
 * JVM, so the override cases run in fresh JVMs with -Xcheck:jni.
 */
class GpuLibrariesTest {
    private static final Path CUDART = Path.of("/usr/local/cuda/lib64/libcudart.so.13");

    private static void assumeCudart() {
        if (Boolean.getBoolean("mpi4j.native.skip")) Requirements.skip("GPU libraries", "native code was not built");
        if (!Files.exists(CUDART)) {
            Requirements.skip("CUDA runtime tests", CUDART + " is missing: install the CUDA 13 toolkit");
        }
    }

    /** nccl.h of the Python environment's nvidia-nccl wheel, or a skip. */
    private static Path ncclHeader() {
        for (Path site : GpuLibraries.pythonSites(System.getenv())) {
            Path h = site.resolve("nvidia/nccl/include/nccl.h");
            if (Files.isRegularFile(h)) return h;
        }
        Requirements.skip("NCCL tests", "no nvidia/nccl in the Python environment: pip install nvidia-nccl-cu13");
        return null;
    }

    private static String headerVersion(Path h) throws Exception {
        String text = Files.readString(h);
        String[] parts = new String[3];
        String[] names = {"NCCL_MAJOR", "NCCL_MINOR", "NCCL_PATCH"};
        for (int i = 0; i < 3; i++) {
            Matcher m = Pattern.compile("#define " + names[i] + " (\\d+)").matcher(text);
            assertTrue(m.find(), names[i] + " in " + h);
            parts[i] = m.group(1);
        }
        return String.join(".", parts);
    }

    private static Jobs.Result java(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("env", "-u", "MPI4J_CUDA_LIBRARY", "-u", "MPI4J_NCCL_LIBRARY"));
        env.forEach((k, v) -> cmd.add(k + "=" + v));
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xcheck:jni");
        cmd.add("-cp");
        cmd.add(Jobs.classpath());
        cmd.addAll(List.of(args));
        return Jobs.run(cmd, null, 60);
    }

    private static Path testLibrary(String name) {
        String dir = System.getProperty("mpi4j.test.nativeDir");
        Path lib = Path.of(dir == null ? "target/test-native" : dir, System.mapLibraryName(name));
        assertTrue(Files.isRegularFile(lib), lib + " was not built (tests/native/CMakeLists.txt)");
        return lib.toAbsolutePath();
    }

    @Test
    void versionsAreSpelledAsTheLibrariesDo() {
        assertEquals("2.30.7", GpuLibraries.ncclVersion(23007));
        assertEquals("2.18.0", GpuLibraries.ncclVersion(GpuLibraries.MIN_NCCL));
        assertEquals("2.8.4", GpuLibraries.ncclVersion(2804));
        assertEquals("13.0", GpuLibraries.cudaVersion(13000));
        assertEquals("12.4", GpuLibraries.cudaVersion(12040));
    }

    @Test
    void theCudaRuntimeOfThisMachineIsFoundAndMatchesItsSoname() throws Exception {
        assumeCudart();
        GpuLibraries.CudaStatus c = GpuLibraries.cuda();
        assertTrue(c.available, c.detail);
        assertEquals(CUDART.toRealPath(), Path.of(c.file).toRealPath(), c.detail);
        assertEquals(13, c.runtimeVersion / 1000, "the runtime of libcudart.so.13 reports " + c.runtimeVersion);
    }

    @Test
    void withoutADriverThereAreNoDevicesAndCudaSaysWhy() {
        assumeCudart();
        GpuLibraries.CudaStatus c = GpuLibraries.cuda();
        if (c.driverVersion > 0) Requirements.skip("no-driver test", "this machine has a CUDA driver");
        assertEquals(0, c.deviceCount);
        assertNotNull(c.driverReason);
        // CUDA's own name and code for "no driver" / "no device", as cudaGetErrorName spells them.
        assertTrue(c.deviceReason.matches("cudaError(InsufficientDriver|NoDevice): .+ \\((35|100)\\)"), c.deviceReason);
    }

    @Test
    void ncclOfThePythonEnvironmentIsFoundWithTheVersionOfItsHeader() throws Exception {
        assumeCudart();
        Path header = ncclHeader();
        GpuLibraries.NcclStatus n = GpuLibraries.nccl();
        assertTrue(n.available, n.detail);
        assertEquals(headerVersion(header), GpuLibraries.ncclVersion(n.version), n.detail);
        assertEquals(header.getParent().getParent().resolve("lib/libnccl.so.2").toRealPath(),
                Path.of(n.file).toRealPath(), n.detail);
    }

    @Test
    void mpi4jPrintsTheGpuCapabilities() throws Exception {
        assumeCudart();
        Jobs.Result r = java(Map.of(), "io.github.mpi4j.Mpi4j");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("  cuda runtime: 13."), r.toString());
        assertTrue(r.output.contains("  cuda driver: "), r.toString());
        assertTrue(r.output.contains("  cuda devices: "), r.toString());
        assertTrue(r.output.contains("  nccl: "), r.toString());
        assertTrue(r.output.contains("  mpi cuda-aware: "), r.toString());
    }

    @Test
    void anOverrideThatDoesNotOpenIsTheOnlyCandidate() throws Exception {
        assumeCudart();
        Jobs.Result r = java(Map.of("MPI4J_CUDA_LIBRARY", "/nonexistent/libcudart.so.13"), "io.github.mpi4j.Mpi4j");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("cuda runtime: unavailable: no CUDA runtime found (tried /nonexistent/libcudart.so.13 "
                + "(MPI4J_CUDA_LIBRARY/mpi4j.cuda.library): /nonexistent/libcudart.so.13: cannot open shared object file"),
                r.toString());
        String runtimeLine = r.output.lines().filter(l -> l.startsWith("  cuda runtime: ")).findFirst().orElse("");
        assertFalse(runtimeLine.contains("(loader path)"), r.toString());
        // Calls say the same instead of crashing.
        Jobs.Result p = java(Map.of("MPI4J_CUDA_LIBRARY", "/nonexistent/libcudart.so.13"),
                "io.github.mpi4j.cuda.GpuProbe", "allocate", "deviceCount");
        assertTrue(p.output.contains("allocate: CudaException: DeviceBuffer.allocate: CUDA is unavailable: no CUDA runtime "
                + "found (tried /nonexistent/libcudart.so.13"), p.toString());
        assertTrue(p.output.contains("deviceCount: ok 0 (no usable CUDA runtime: "), p.toString());
    }

    @Test
    void aFunctionTheLibraryLacksIsAnExceptionNamingItAtCallTime() throws Exception {
        Path partial = testLibrary("mpi4j_test_partial_cudart");
        Jobs.Result r = java(Map.of("MPI4J_CUDA_LIBRARY", partial.toString()), "io.github.mpi4j.Mpi4j");
        assertTrue(r.output.contains("cuda runtime: 13.0 (opened " + partial), r.toString());
        assertTrue(r.output.contains("it lacks cudaSetDevice cudaGetDevice "), r.toString());
        Jobs.Result p = java(Map.of("MPI4J_CUDA_LIBRARY", partial.toString()), "io.github.mpi4j.cuda.GpuProbe",
                "allocate", "setDevice");
        assertEquals(0, p.exitCode, p.toString());
        assertTrue(p.output.contains("allocate: CudaException: cudaMalloc: the CUDA runtime library that was loaded "
                + "has no function cudaMalloc"), p.toString());
        assertTrue(p.output.contains("setDevice: CudaException: cudaSetDevice: the CUDA runtime library that was loaded "
                + "has no function cudaSetDevice"), p.toString());
    }

    @Test
    void ncclOlderThan218IsRefused() throws Exception {
        Path old = testLibrary("mpi4j_test_old_nccl");
        Jobs.Result r = java(Map.of("MPI4J_NCCL_LIBRARY", old.toString()), "io.github.mpi4j.Mpi4j");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("nccl: unavailable: opened " + old + " (MPI4J_NCCL_LIBRARY/mpi4j.nccl.library); "
                + "but it is NCCL 2.17.3, too old: mpi4j needs NCCL 2.18.0 or newer"), r.toString());
    }

    @Test
    void cudaAwarenessOfMpiIsAskedWithoutEndingTheProcess() throws Exception {
        assumeCudart();
        // Open MPI answers at any time; Debian's 4.1.4 is built without CUDA (DESIGN.md §10).
        String ompi = Requirements.missing(Jobs.Launcher.MPIRUN);
        if (ompi == null) {
            Jobs.Result r = java(Map.of("MPI4J_MPI_LIBRARY", "libmpi.so.40"), "io.github.mpi4j.Mpi4j");
            assertEquals(0, r.exitCode, r.toString());
            assertTrue(r.output.contains("  mpi cuda-aware: no (Open MPI MPIX_Query_cuda_support)")
                    || r.output.contains("  mpi cuda-aware: yes (Open MPI MPIX_Query_cuda_support)"), r.toString());
        }
        // The MPICH family aborts the process when asked before MPI_Init: it must not be asked.
        String mpich = Requirements.missing(Jobs.Launcher.MPICH);
        if (mpich == null) {
            Jobs.Result r = java(Map.of("MPI4J_MPI_LIBRARY", "libmpich.so.12"), "io.github.mpi4j.Mpi4j");
            assertEquals(0, r.exitCode, r.toString());
            assertTrue(r.output.contains("  mpi cuda-aware: unknown: the MPICH family answers (MPIX_GPU_query_support) "
                    + "only after MPI_Init"), r.toString());
        }
        if (ompi != null && mpich != null) Requirements.skip("CUDA-aware MPI query", ompi + "; " + mpich);
    }

    @Test
    void aStaleGpuLibraryIsRefusedAndCallsSayWhy() throws Exception {
        // An mpi4j_gpu from before the ABI check (any stale copy is refused the same way).
        Path stale = testLibrary("mpi4j_test_abi_none");
        String property = "-Dmpi4j.native." + GpuLinker.LIBRARY + "=" + stale;
        String why = "libmpi4j_gpu.so is not usable: stale native library " + stale + " (mpi4j.native.mpi4j_gpu): "
                + "it has no ABI version (built before mpi4j checked one), this jar needs " + NativeAbi.VERSION;
        Jobs.Result r = java(Map.of(), property, "io.github.mpi4j.Mpi4j");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("  cuda runtime: unavailable: " + why), r.toString());
        assertTrue(r.output.contains("  nccl: unavailable: " + why), r.toString());
        Jobs.Result p = java(Map.of(), property, "io.github.mpi4j.cuda.GpuProbe", "allocate");
        assertTrue(p.output.contains("allocate: CudaException: DeviceBuffer.allocate: CUDA is unavailable: " + why),
                p.toString());
    }
}
