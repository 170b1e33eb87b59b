package io.github.mpi4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar alone runs jobs: {@code java -jar mpi4j.jar run ...} and the script it writes out. */
class JarLauncherIT {
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    private static Path jar() {
        Path jar = Path.of(Jobs.basedir(), "target", "mpi4j.jar");
        assertTrue(Files.isRegularFile(jar), "the jar is built before this test runs (phase integration-test)");
        return jar;
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) n++;
        return n;
    }

    @Test
    void runAJobFromTheJarAndFromTheScriptItWrites(@TempDir Path dir) throws Exception {
        String tests = Path.of(Jobs.basedir(), "target", "test-classes").toString();
        Jobs.Result r = Jobs.run(List.of(JAVA, "-jar", jar().toString(), "run", "-np", "2", "-cp", tests,
                "io.github.mpi4j.api.LifecycleProgram"), java.util.Map.of("MPI4J_JAR", ""), 90);
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(2, count(r.output, "LIFECYCLE OK \\d 2 fabric"), r.toString());

        Path script = dir.resolve("mpi4jrun");
        Jobs.Result w = Jobs.run(List.of(JAVA, "-jar", jar().toString(), "launcher-script", script.toString()), null, 60);
        assertEquals(0, w.exitCode, w.toString());
        r = Jobs.run(List.of(script.toString(), "-np", "3", "-cp", tests, "io.github.mpi4j.api.LifecycleProgram"),
                java.util.Map.of("MPI4J_JAR", ""), 90);
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(3, count(r.output, "LIFECYCLE OK \\d 3 fabric"), r.toString());

        Jobs.Result help = Jobs.run(List.of(JAVA, "-jar", jar().toString(), "run", "--help"), null, 60);
        assertEquals(0, help.exitCode, help.toString());
        assertTrue(help.output.contains("usage: mpi4jrun"), help.toString());
    }
}
