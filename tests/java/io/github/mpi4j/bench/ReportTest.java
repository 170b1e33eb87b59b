package io.github.mpi4j.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Report's small-message statistics on raw lines made up for the purpose: four repetitions in
 * which C and the arrays draw the slow placement (0.40 µs, a 220 ns line before the job) in
 * different repetitions. The ratio of the medians is 0.40 / 0.40 = 1.00 there, which compares
 * jobs of different placements; the expected values below are worked out by hand.
 */
class ReportTest {
    @TempDir
    Path dir;

    private static final String RAW = String.join("\n",
            "np=2 rep=1 RESULT pairline_latency c 0 50",
            "np=2 rep=1 RESULT latency c 8 0.16",
            "np=2 rep=1 RESULT pairline_latency array 0 220",
            "np=2 rep=1 RESULT latency array 8 0.40",
            "np=2 rep=2 RESULT pairline_latency c 0 220",
            "np=2 rep=2 RESULT latency c 8 0.40",
            "np=2 rep=2 RESULT pairline_latency array 0 50",
            "np=2 rep=2 RESULT latency array 8 0.17",
            "np=2 rep=3 RESULT pairline_latency c 0 220",
            "np=2 rep=3 RESULT latency c 8 0.40",
            "np=2 rep=3 RESULT pairline_latency array 0 220",
            "np=2 rep=3 RESULT latency array 8 0.40",
            "np=2 rep=4 RESULT pairline_latency c 0 50",
            "np=2 rep=4 RESULT latency c 8 0.16",
            "np=2 rep=4 RESULT pairline_latency array 0 50",
            "np=2 rep=4 RESULT latency array 8 0.17",
            "");

    @Test
    void smallMessagesAreComparedWithinARepetitionAndWithinAPlacement() throws Exception {
        String table = report(RAW);
        // Per repetition: 0.40/0.16 = 2.5, 0.17/0.40 = 0.425, 1.0, 0.17/0.16 = 1.0625; median (1.0 + 1.0625) / 2.
        assertTrue(table.contains("| 8 | 1.03 ✗ |  |  |  | 4 |"), table);
        // Fast placement: C 0.16 (reps 1, 4), arrays 0.17 (reps 2, 4): 1.0625.
        String fast = table.substring(table.indexOf("jobs in the fast placement"));
        assertTrue(fast.contains("| 8 | 0.160 | 0.170 |  | 1.06 ✗ |"), fast);
        assertTrue(fast.contains("| 2/2/0; 0/0/0 |"), fast);
        // Slow placement: 0.40 on both sides.
        String slow = table.substring(table.indexOf("jobs in the slow placement"));
        assertTrue(slow.contains("| 8 | 0.400 | 0.400 |  | 1.00 ✓ |"), slow);
    }

    @Test
    void withoutPlacementLinesThereIsNoPlacementTable() throws Exception {
        report(RAW);  // first a report with them, in the same JVM: nothing of it may carry over
        String table = report(RAW.lines().filter(l -> !l.contains("pairline")).reduce("", (a, b) -> a + b + "\n"));
        assertTrue(table.contains("per-repetition ratios"), table);
        assertTrue(!table.contains("placement ("), table);
    }

    private String report(String raw) throws Exception {
        Path file = dir.resolve("raw.txt");
        Files.writeString(file, raw);
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            Report.main(new String[] {file.toString(), "fabric"});
        } finally {
            System.setOut(old);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
