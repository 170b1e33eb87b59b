package io.github.mpi4j.nativeload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/**
 * The native loader in fresh JVMs: which libmpi and which ABI family's bridge it picks (from the
 * launcher's variables or MPI4J_MPI_LIBRARY), each way of finding a bridge (explicit file,
 * directory, the copy inside the build/jar), each way of not finding it, and what MPI.Init does
 * then: a world of one on the fabric, or — when an MPI launcher started the process — an
 * MPIException that says why, never an exit or a crash.
 */
class NativeLoaderTest {
    private static final Path NATIVE_DIR = Path.of(Jobs.basedir(), "target", "classes", "META-INF", "native",
            NativeLoader.platform());
    private static final String OMPI_BRIDGE = System.mapLibraryName(MpiBridge.Family.OPEN_MPI.bridge);
    private static final String MPICH_BRIDGE = System.mapLibraryName(MpiBridge.Family.MPICH.bridge);

    /** Prints what MPI.Init chose; exit 3 with the message when it throws. */
    public static final class InitProbe {
        public static void main(String[] args) {
            try {
                MPI.Init(args);
                System.out.println("INIT " + io.github.mpi4j.Mpi4j.backendName() + " size "
                        + MPI.COMM_WORLD.getSize());
                MPI.Finalize();
            } catch (MPIException e) {
                System.out.println("MPIException: " + e.getMessage());
                System.exit(3);
            }
        }
    }

    /** A fresh JVM; launcher variables of the test JVM itself are removed so only {@code env} counts. */
    static Jobs.Result java(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xcheck:jni");
        for (String a : args) {
            if (a.equals("CP")) {
                cmd.add("-cp");
                cmd.add(Jobs.classpath());
            } else {
                cmd.add(a);
            }
        }
        List<String> full = new ArrayList<>(List.of("env"));
        for (String v : List.of("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "PMI_RANK", "PMI_FD", "PMIX_RANK",
                "MPI4J_MPI_LIBRARY")) {
            if (env == null || !env.containsKey(v)) full.addAll(List.of("-u", v));
        }
        if (env != null) env.forEach((k, v) -> full.add(k + "=" + v));
        full.addAll(cmd);
        return Jobs.run(full, null, 60);
    }

    private static void assumeBridge(Jobs.Launcher launcher, String what) {
        Requirements.assumeMpi(launcher, what);
    }

    @Test
    void theBuildCarriesTheBridgeOfBothAbiFamilies() {
        // A build on a machine with both families' headers must produce both bridges (this one
        // has them in CI); a developer build without one family's headers skips, saying so.
        for (Jobs.Launcher l : List.of(Jobs.Launcher.MPIRUN, Jobs.Launcher.MPICH)) {
            String why = Requirements.missing(l);
            if (why != null) Requirements.skip("both bridges in the build", why);
        }
        assertTrue(Files.isRegularFile(NATIVE_DIR.resolve(OMPI_BRIDGE)), NATIVE_DIR + " lacks " + OMPI_BRIDGE);
        assertTrue(Files.isRegularFile(NATIVE_DIR.resolve(MPICH_BRIDGE)), NATIVE_DIR + " lacks " + MPICH_BRIDGE);
        assertTrue(Files.isRegularFile(NATIVE_DIR.resolve(System.mapLibraryName(DynamicLinker.LIBRARY))));
    }

    @Test
    void underOpenMpisLauncherTheOpenMpiBridgeIsChosen() throws Exception {
        assumeBridge(Jobs.Launcher.MPIRUN, "Open MPI bridge selection");
        Jobs.Result r = java(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "1"), "CP",
                "io.github.mpi4j.Mpi4j");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("mpi: available: the launcher looks like Open MPI's (OMPI_COMM_WORLD_RANK is set)"),
                r.toString());
        assertTrue(r.output.contains("libmpi.so.40"), r.toString());
        assertTrue(r.output.contains("is Open MPI; bridge loaded ") && r.output.contains(OMPI_BRIDGE), r.toString());
    }

    @Test
    void underMpichsLauncherTheMpichBridgeIsChosen() throws Exception {
        assumeBridge(Jobs.Launcher.MPICH, "MPICH bridge selection");
        Jobs.Result r = java(Map.of("PMI_RANK", "0"), "CP", "io.github.mpi4j.Mpi4j");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("mpi: available: the launcher looks like MPICH's (PMI_RANK is set)"), r.toString());
        assertTrue(r.output.contains("libmpich.so.12") || r.output.contains("libmpi.so.12"), r.toString());
        assertTrue(r.output.contains("is MPICH family") && r.output.contains(MPICH_BRIDGE), r.toString());
    }

    @Test
    void anExplicitLibmpiDecidesTheFamily() throws Exception {
        assumeBridge(Jobs.Launcher.MPICH, "MPI4J_MPI_LIBRARY selection");
        // Without launcher variables Open MPI comes first; the named file overrides that.
        Jobs.Result r = java(Map.of("MPI4J_MPI_LIBRARY", "libmpich.so.12"), "CP", "io.github.mpi4j.Mpi4j");
        assertTrue(r.output.contains("named by mpi4j.mpi.library/MPI4J_MPI_LIBRARY")
                && r.output.contains("is MPICH family") && r.output.contains(MPICH_BRIDGE), r.toString());
        Jobs.Result bad = java(Map.of("MPI4J_MPI_LIBRARY", "/nonexistent/libmpi.so.99"), "CP", "io.github.mpi4j.Mpi4j");
        assertTrue(bad.output.contains("mpi: unavailable: ") && bad.output.contains("/nonexistent/libmpi.so.99"),
                bad.toString());
    }

    @Test
    void aMissingBridgeSaysWhichAndHowToGetIt() throws Exception {
        assumeBridge(Jobs.Launcher.MPICH, "missing-bridge message");
        // A jar without the MPICH bridge, on a machine with MPICH: as if it was built without libmpich-dev.
        Map<String, String> env = Map.of("PMI_RANK", "0", "PMI_SIZE", "2");
        String noBridge = "-Dmpi4j.native.mpi4j_mpi_mpich=/nonexistent/" + MPICH_BRIDGE;
        Jobs.Result r = java(env, noBridge, "CP", InitProbe.class.getName());
        assertEquals(3, r.exitCode, r.toString());
        assertTrue(r.output.contains("MPIException: MPI.Init: started by an MPI launcher (PMI_RANK"), r.toString());
        assertTrue(r.output.contains("is MPICH family"), r.toString());
        assertTrue(r.output.contains("the bridge for it, " + MPICH_BRIDGE + ", is not usable"), r.toString());
        assertTrue(r.output.contains("libmpich-dev") && r.output.contains("release jar"), r.toString());
    }

    @Test
    void fromAnExplicitDirectory() throws Exception {
        assumeBridge(Jobs.Launcher.MPIRUN, "loading from mpi4j.native.path");
        Jobs.Result r = java(null, "-Dmpi4j.native.path=" + NATIVE_DIR, "CP", "io.github.mpi4j.Mpi4j");
        assertTrue(r.output.contains("mpi: available: ") && r.output.contains("(mpi4j.native.path)"), r.toString());
    }

    @Test
    void aMissingFileIsReportedWithItsPath() throws Exception {
        assumeBridge(Jobs.Launcher.MPIRUN, "missing explicit bridge file");
        Jobs.Result r = java(null, "-Dmpi4j.native.mpi4j_mpi_ompi=/nonexistent/libnothing.so", "CP",
                "io.github.mpi4j.Mpi4j");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("mpi: unavailable: ") && r.output.contains("failed to load /nonexistent/libnothing.so"),
                r.toString());
    }

    @Test
    void withoutNativeCodeAPlainJavaProgramIsAWorldOfOne() throws Exception {
        Jobs.Result r = java(null, "-Dmpi4j.native.disable=true", "CP", InitProbe.class.getName());
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("INIT fabric size 1"), r.toString());
    }

    @Test
    void underAnMpiLauncherWithoutTheBridgeInitSaysWhy() throws Exception {
        Jobs.Result r = java(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2"),
                "-Dmpi4j.native.disable=true", "CP", InitProbe.class.getName());
        assertEquals(3, r.exitCode, r.toString());
        assertTrue(r.output.contains("MPIException: MPI.Init: started by an MPI launcher (OMPI_COMM_WORLD_RANK"),
                r.toString());
        assertTrue(r.output.contains("native code disabled"), r.toString());
    }
}
