package io.github.mpi4j.nativeload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JDK 22+ prints a "restricted method" warning when a JNI library is loaded without native
 * access; under mpirun that is one warning per rank. The jar's manifest enables it for
 * {@code java -jar}, the documented {@code --enable-native-access=ALL-UNNAMED} for
 * {@code -cp}, and mpi4jrun passes it to its ranks. Needs a JDK 22+ somewhere on the machine
 * (the build JDK may be 17).
 */
class NativeAccessTest {
    private static final String WARNING = "WARNING: A restricted method";

    /** A JDK of version 22 or later: -Dmpi4j.test.newJdk, or one under /usr/lib/jvm. */
    private static Path newJdk() throws Exception {
        String explicit = System.getProperty("mpi4j.test.newJdk");
        if (explicit != null) return Path.of(explicit);
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) return null;
        try (Stream<Path> dirs = Files.list(jvms)) {
            for (Path d : (Iterable<Path>) dirs.sorted()::iterator) {
                Path release = d.resolve("release");
                if (!Files.isRegularFile(release) || !Files.isExecutable(d.resolve("bin/java"))) continue;
                for (String line : Files.readAllLines(release)) {
                    if (line.startsWith("JAVA_VERSION=")) {
                        String v = line.substring(13).replace("\"", "");
                        int major = Integer.parseInt(v.split("[.+-]")[0]);
                        if (major >= 22) return d;
                    }
                }
            }
        }
        return null;
    }

    private static Jobs.Result run(Path jdk, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("env", "OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_SIZE=1",
                jdk.resolve("bin/java").toString()));
        cmd.addAll(List.of(args));
        return Jobs.run(cmd, null, 60);
    }

    @Test
    void noRestrictedMethodWarningWithTheManifestOrTheDocumentedOption(@TempDir Path tmp) throws Exception {
        Requirements.assumeMpi(Jobs.Launcher.MPIRUN, "native access on JDK 22+");
        Path jdk = newJdk();
        if (jdk == null) Requirements.skip("native access on JDK 22+", "no JDK 22 or later under /usr/lib/jvm");
        String classes = Path.of(Jobs.basedir(), "target", "classes").toString();

        // Without native access the loader triggers the warning (so the checks below can fail).
        Jobs.Result plain = run(jdk, "-cp", classes, "io.github.mpi4j.Mpi4j");
        assertTrue(plain.output.contains("mpi: available") && plain.output.contains(WARNING), plain.toString());

        Jobs.Result option = run(jdk, "--enable-native-access=ALL-UNNAMED", "-cp", classes, "io.github.mpi4j.Mpi4j");
        assertTrue(option.output.contains("mpi: available"), option.toString());
        assertFalse(option.output.contains(WARNING), option.toString());

        // java -jar with the manifest entry the build writes (pom.xml, maven-jar-plugin).
        String pom = Files.readString(Path.of(Jobs.basedir(), "pom.xml"));
        assertTrue(pom.contains("<Enable-Native-Access>ALL-UNNAMED</Enable-Native-Access>"), "pom.xml manifest entry");
        Path manifest = tmp.resolve("manifest.txt");
        Files.writeString(manifest, "Main-Class: io.github.mpi4j.Mpi4j\nEnable-Native-Access: ALL-UNNAMED\n");
        Path jar = tmp.resolve("mpi4j.jar");
        Jobs.Result made = Jobs.run(List.of(jdk.resolve("bin/jar").toString(), "--create", "--file", jar.toString(),
                "--manifest", manifest.toString(), "-C", classes, "."), null, 60);
        assertEquals(0, made.exitCode, made.toString());
        Jobs.Result withJar = run(jdk, "-jar", jar.toString());
        assertTrue(withJar.output.contains("mpi: available"), withJar.toString());
        assertFalse(withJar.output.contains(WARNING), withJar.toString());
    }

    /** mpi4jrun gives its ranks native access: no warning per rank on JDK 22+, under the fabric or mpirun. */
    @Test
    void mpi4jrunRanksLoadNativeCodeWithoutTheWarning() throws Exception {
        Requirements.assumeMpi(Jobs.Launcher.MPIRUN, "native access on JDK 22+");
        Path jdk = newJdk();
        if (jdk == null) Requirements.skip("native access on JDK 22+", "no JDK 22 or later under /usr/lib/jvm");
        String classes = Path.of(Jobs.basedir(), "target", "classes").toString();
        String launcher = Path.of(Jobs.basedir(), "launch", "mpi4jrun").toString();
        for (List<String> mode : List.of(List.of("-np", "2"), List.of("-np", "2", "--mpi"))) {
            List<String> cmd = new ArrayList<>(List.of(launcher));
            cmd.addAll(mode);
            cmd.addAll(List.of("-cp", classes, "io.github.mpi4j.Mpi4j"));
            Jobs.Result r = Jobs.run(cmd, java.util.Map.of("JAVA_HOME", jdk.toString()), 90);
            assertEquals(0, r.exitCode, mode + "\n" + r);
            assertEquals(2, r.output.split("mpi: available", -1).length - 1, "both ranks loaded the bridge " + mode + "\n" + r);
            assertFalse(r.output.contains(WARNING), mode + "\n" + r);
        }
    }
}
