package io.github.mpi4j.nativeload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stale JNI library (from an old jar, or an old build directory named by an override) is
 * refused right after loading, with its path, the ABI version it was built for and the one this
 * jar needs; MPI.Init then throws an MPIException saying so instead of calling into it. The
 * stale libraries are test-only (tests/native/stale_abi.c): one reports the next ABI version, one
 * fails in JNI_OnLoad on a class that is gone, one has no version function at all. Each case
 * runs in a fresh JVM with -Xcheck:jni.
 */
class NativeAbiTest {
    private static final int NEEDED = NativeAbi.VERSION;

    /** A test-only library of target/test-native, or a skip when the native build did not run. */
    private static Path staleLibrary(String kind) {
        String what = "stale native library " + kind;
        if (Boolean.getBoolean("mpi4j.native.skip")) {
            Requirements.skip(what, "native code was not built (-Dmpi4j.native.skip=true)");
        }
        String dir = System.getProperty("mpi4j.test.nativeDir");
        Path lib = Path.of(dir == null ? "target/test-native" : dir, System.mapLibraryName("mpi4j_test_abi_" + kind));
        assertTrue(Files.isRegularFile(lib), lib + " was not built (tests/native/CMakeLists.txt)");
        return lib.toAbsolutePath();
    }

    private static String staleMessage(Path lib, String source, String built) {
        return "stale native library " + lib + " (" + source + "): " + built + ", this jar needs " + NEEDED;
    }

    @Test
    void aLoaderHelperBuiltForAnotherAbiIsRefused() throws Exception {
        Path stale = staleLibrary("newer");
        Jobs.Result r = NativeLoaderTest.java(null, "-Dmpi4j.native.mpi4j_dl=" + stale, "CP", "io.github.mpi4j.Mpi4j");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("mpi: unavailable: the loader helper libmpi4j_dl.so is not usable: "
                + staleMessage(stale, "mpi4j.native.mpi4j_dl", "built for ABI " + (NEEDED + 1))), r.toString());
    }

    @Test
    void aLibraryWhoseOnLoadNeedsAGoneClassIsReportedNotThrown() throws Exception {
        Path stale = staleLibrary("gone");
        Jobs.Result r = NativeLoaderTest.java(null, "-Dmpi4j.native.mpi4j_dl=" + stale, "CP", "io.github.mpi4j.Mpi4j");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("mpi: unavailable: the loader helper libmpi4j_dl.so is not usable: "
                + staleMessage(stale, "mpi4j.native.mpi4j_dl", "its JNI_OnLoad failed with "
                + "java.lang.NoClassDefFoundError: io/github/mpi4j/spi/RemovedLongAgo")), r.toString());
    }

    @Test
    void aBridgeInAnOldBuildDirectoryIsRefusedAndInitSaysWhy(@TempDir Path oldBuild) throws Exception {
        Requirements.assumeMpi(Jobs.Launcher.MPIRUN, "stale Open MPI bridge");
        // An old build directory: the bridge has the right name; the loader helper is not there,
        // so the good one comes from this build.
        Path bridge = oldBuild.resolve(System.mapLibraryName(MpiBridge.Family.OPEN_MPI.bridge));
        Files.copy(staleLibrary("newer"), bridge);
        Jobs.Result r = NativeLoaderTest.java(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2"),
                "-Dmpi4j.native.path=" + oldBuild, "CP", NativeLoaderTest.InitProbe.class.getName());
        assertEquals(3, r.exitCode, r.toString());
        assertTrue(r.output.contains("MPIException: MPI.Init: started by an MPI launcher (OMPI_COMM_WORLD_RANK is set) "
                + "but the MPI bridge is unavailable ("), r.toString());
        assertTrue(r.output.contains("is Open MPI; but the bridge for it is not usable: "
                + staleMessage(bridge, "mpi4j.native.path", "built for ABI " + (NEEDED + 1))), r.toString());
    }

    @Test
    void aBridgeWithoutAnyAbiVersionCountsAsStale() throws Exception {
        Requirements.assumeMpi(Jobs.Launcher.MPICH, "MPICH bridge without an ABI version");
        Path stale = staleLibrary("none");
        String property = "mpi4j.native." + MpiBridge.Family.MPICH.bridge;
        Jobs.Result info = NativeLoaderTest.java(Map.of("PMI_RANK", "0"), "-D" + property + "=" + stale, "CP",
                "io.github.mpi4j.Mpi4j");
        assertEquals(0, info.exitCode, info.toString());
        String message = staleMessage(stale, property, "it has no ABI version (built before mpi4j checked one)");
        assertTrue(info.output.contains("mpi: unavailable: ") && info.output.contains("is MPICH family")
                && info.output.contains(message), info.toString());

        // Asking for the MPI backend by name: refused with the same reason, never a crash.
        Jobs.Result init = NativeLoaderTest.java(Map.of("PMI_RANK", "0"), "-D" + property + "=" + stale,
                "-Dmpi4j.backend=mpi", "CP", NativeLoaderTest.InitProbe.class.getName());
        assertEquals(3, init.exitCode, init.toString());
        assertTrue(init.output.contains("MPIException: MPI.Init: backend 'mpi' was requested")
                && init.output.contains(message), init.toString());
    }
}
