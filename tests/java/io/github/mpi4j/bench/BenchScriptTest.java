package io.github.mpi4j.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * bench/run.sh's argument handling, which no other test runs (a full run takes minutes): a
 * setting it does not know stops it with exit status 2 and a message naming the value, before
 * anything runs. Under {@code set -e} a failed command substitution in an assignment ends the
 * script silently with status 1; that happened once to the PAGES setting.
 */
class BenchScriptTest {
    private static String[] run(String pages, String mode) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "bench/run.sh", mode).redirectErrorStream(true);
        pb.environment().put("PAGES", pages);
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "bench/run.sh did not stop within 60 s");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new String[] {String.valueOf(p.exitValue()), out};
    }

    @Test
    void anUnknownPagesSettingIsRefusedByName() throws Exception {
        String[] r = run("bogus", "fabric");
        assertEquals("2", r[0], "exit status; output: " + r[1]);
        assertTrue(r[1].contains("unknown PAGES=bogus"), r[1]);
    }

    @Test
    void anUnknownModeIsRefusedByName() throws Exception {
        String[] r = run("4k", "nonsense");
        assertEquals("2", r[0], "exit status; output: " + r[1]);
        assertTrue(r[1].contains("unknown mode nonsense"), r[1]);
    }

    @Test
    void theScriptParses() throws Exception {
        Process p = new ProcessBuilder("bash", "-n", "bench/run.sh").redirectErrorStream(true).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
