package io.github.mpi4j.nativeload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The native loader in fresh JVMs: each way of finding libmpi4j_mpi (explicit file, directory,
 * the copy inside the build/jar), each way of not finding it, and what MPI.Init does then: a
 * world of one on the fabric, or — when an MPI launcher started the process — an MPIException
 * that says why, never an exit or a crash.
 */
class NativeLoaderTest {
    private static final Path NATIVE_DIR = Path.of(Jobs.basedir(), "target", "classes", "META-INF", "native",
            NativeLoader.platform());

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

    private static Jobs.Result java(Map<String, String> env, String... args) throws Exception {
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
        return Jobs.run(cmd, env, 60);
    }

    private static boolean bridgeBuilt() {
        return Files.isRegularFile(NATIVE_DIR.resolve(System.mapLibraryName(Capabilities.MPI_LIBRARY)));
    }

    @Test
    void fromTheBuildOrJarByDefault() throws Exception {
        Assumptions.assumeTrue(bridgeBuilt(), "the MPI bridge was not built (no MPI headers): nothing to load");
        Jobs.Result r = java(null, "CP", "io.github.mpi4j.Mpi4j");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("mpi: available: loaded "), r.toString());
    }

    @Test
    void fromAnExplicitDirectory() throws Exception {
        Assumptions.assumeTrue(bridgeBuilt(), "the MPI bridge was not built (no MPI headers): nothing to load");
        Jobs.Result r = java(null, "-Dmpi4j.native.path=" + NATIVE_DIR, "CP", "io.github.mpi4j.Mpi4j");
        assertTrue(r.output.contains("(mpi4j.native.path)"), r.toString());
    }

    @Test
    void aMissingFileIsReportedWithItsPath() throws Exception {
        Jobs.Result r = java(null, "-Dmpi4j.native.mpi4j_mpi=/nonexistent/libnothing.so", "CP",
                "io.github.mpi4j.Mpi4j");
        assertEquals(0, r.exitCode, r.toString());
        assertTrue(r.output.contains("mpi: unavailable: failed to load /nonexistent/libnothing.so"), r.toString());
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
