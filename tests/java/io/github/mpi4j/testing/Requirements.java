package io.github.mpi4j.testing;

import io.github.mpi4j.nativeload.MpiBridge;
import io.github.mpi4j.nativeload.NativeLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;

/**
 * Tests that need a component this machine may lack (an MPI launcher, the MPI bridge built
 * for it) are skipped, never silently dropped: the JUnit assumption carries the reason, which
 * Surefire reports with the skipped test, and one line per reason goes to the console.
 */
public final class Requirements {
    private Requirements() {
    }

    private static final Set<String> PRINTED = ConcurrentHashMap.newKeySet();

    /** Skips the calling test unless {@code launcher} and the bridge of its MPI family are here. */
    public static void assumeMpi(Jobs.Launcher launcher, String what) {
        String reason = missing(launcher);
        if (reason != null) skip(what, reason);
    }

    /**
     * For a test factory: null when {@code launcher} can run here, otherwise one dynamic test
     * that is skipped with the reason. (An aborted factory would vanish from Surefire's counts:
     * "Tests run: 0".)
     */
    public static DynamicNode skippedOrNull(Jobs.Launcher launcher, String what) {
        String reason = missing(launcher);
        if (reason == null) return null;
        return DynamicTest.dynamicTest(what + " (skipped)", () -> skip(what, reason));
    }

    /** Why {@code launcher} cannot run MPI-backend jobs here, or null if it can. */
    public static String missing(Jobs.Launcher launcher) {
        switch (launcher) {
            case MPIRUN:
                if (!Jobs.mpirunAvailable()) {
                    return "mpirun is not on PATH: install Open MPI (openmpi-bin, libopenmpi-dev)";
                }
                return bridgeMissing(MpiBridge.Family.OPEN_MPI);
            case MPICH:
                if (Jobs.mpichLauncher() == null) {
                    return "mpiexec.hydra is not on PATH: install MPICH (mpich, libmpich-dev)";
                }
                return bridgeMissing(MpiBridge.Family.MPICH);
            default:
                return null;
        }
    }

    /**
     * Null when the family's bridge was built. A missing bridge is a reason to skip only where
     * the family's headers are missing too; with the headers here, the build should have made
     * it, and the test fails saying so.
     */
    private static String bridgeMissing(MpiBridge.Family family) {
        if (Boolean.getBoolean("mpi4j.native.skip")) {
            return "native code was not built (-Dmpi4j.native.skip=true): a fabric-only build";
        }
        Path dir = Path.of(Jobs.basedir(), "target", "classes", "META-INF", "native", NativeLoader.platform());
        Path lib = dir.resolve(System.mapLibraryName(family.bridge));
        if (Files.isRegularFile(lib)) return null;
        Path header = header(family);
        if (header != null) {
            throw new AssertionError("the MPI bridge for " + family.description + " was not built (" + lib
                    + " is missing) although its headers are here (" + header + ")");
        }
        return "the MPI bridge for " + family.description + " was not built (" + lib + " is missing): install "
                + family.devPackage + " and rebuild";
    }

    /** The family's mpi.h where distributions put it, or null (native/CMakeLists.txt looks further). */
    private static Path header(MpiBridge.Family family) {
        String arch = Path.of("/usr/lib/x86_64-linux-gnu").toFile().isDirectory() ? "x86_64-linux-gnu"
                : "aarch64-linux-gnu";
        List<String> places = family == MpiBridge.Family.OPEN_MPI
                ? List.of("/usr/lib/" + arch + "/openmpi/include", "/usr/lib64/openmpi/include", "/usr/include/openmpi")
                : List.of("/usr/include/" + arch + "/mpich", "/usr/lib64/mpich/include", "/usr/include/mpich");
        for (String p : places) {
            Path h = Path.of(p, "mpi.h");
            if (Files.isRegularFile(h)) return h;
        }
        return null;
    }

    /** Aborts the calling test with {@code reason}, printing it once on the console. */
    public static void skip(String what, String reason) {
        if (PRINTED.add(what + "|" + reason)) {
            System.out.println("[mpi4j tests] SKIPPED " + what + ": " + reason);
        }
        Assumptions.abort(what + " skipped: " + reason);
    }
}
