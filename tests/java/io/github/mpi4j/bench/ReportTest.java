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
        assertTrue(!table.contains("the same one"), "no readings after the jobs: no same-placement table\n" + table);
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

    /**
     * With a reading after each job too (small runs from the forty-third session on), a job
     * counts in a placement only where both readings agree, and the second table of
     * per-repetition ratios keeps the repetitions whose two jobs held the same placement. Here
     * rep 1's array job starts fast and ends slow, and rep 2's jobs run in different placements.
     */
    @Test
    void smallJobsCountOnlyWhereThePlacementHeldAroundThem() throws Exception {
        String raw = String.join("\n",
                small(1, "c", 0.16, 50, 50), small(1, "array", 0.12, 50, 220),
                small(2, "c", 0.40, 220, 220), small(2, "array", 0.17, 50, 50),
                small(3, "c", 0.40, 220, 220), small(3, "array", 0.40, 220, 220),
                small(4, "c", 0.16, 50, 50), small(4, "array", 0.17, 50, 50), "");
        String table = report(raw);
        // Every repetition: 0.75, 0.425, 1.0, 1.0625; median (0.75 + 1.0) / 2.
        assertTrue(table.contains("| 8 | 0.88 ✓ |  |  |  | 4 |"), table);
        // Reps 3 and 4 held one placement on both sides: 1.0 and 1.0625.
        String same = table.substring(table.indexOf("the same one (the count in parentheses)"));
        assertTrue(same.contains("| 8 | 1.03 ✗ (2) |  |  |  | 2 |"), same);
        // Fast: C reps 1 and 4 (0.16), arrays reps 2 and 4 (0.17); rep 1's array job is left out.
        String fast = table.substring(table.indexOf("jobs in the fast placement"));
        assertTrue(fast.contains("before and after the job"), fast);
        assertTrue(fast.contains("| 8 | 0.160 | 0.170 |  | 1.06 ✗ |"), fast);
        assertTrue(fast.contains("| 2/2/0; 0/0/0 |"), fast);
        String slow = table.substring(table.indexOf("jobs in the slow placement"));
        assertTrue(slow.contains("| 8 | 0.400 | 0.400 |  | 1.00 ✓ |"), slow);
        assertTrue(slow.contains("| 2/1/0; 0/0/0 |"), slow);
    }

    /**
     * The 8-byte targets with the median's 95 % interval: ten repetitions, C at 0.20 µs, the
     * arrays at 0.90-1.40 of it; the last three arrays jobs end in the other placement. All ten:
     * median (0.94 + 0.96) / 2, interval the 2nd and 9th values, 0.91-1.30, so a tie; the seven
     * that held one placement: median 0.93, interval min-max (0.90-0.97) for seven values, met.
     */
    @Test
    void eightByteTargetsCarryTheMediansInterval() throws Exception {
        double[] ratios = {0.90, 0.91, 0.92, 0.93, 0.94, 0.96, 0.97, 1.20, 1.30, 1.40};
        StringBuilder raw = new StringBuilder();
        for (int rep = 1; rep <= ratios.length; rep++) {
            raw.append(small(rep, "c", 0.20, 50, 50)).append('\n')
                    .append(small(rep, "array", 0.20 * ratios[rep - 1], 50, rep > 7 ? 220 : 50)).append('\n');
        }
        String table = report(raw.toString());
        String part = table.substring(table.indexOf("95 % confidence interval"));
        assertTrue(part.contains("| latency ≤ 1.0 | array | 0.95 [0.91–1.30] (10) | tie (1.0 within) | "
                + "0.93 [0.90–0.97] (7) | met ✓ |"), part);
    }

    /** One small-mode latency job's lines at 8 bytes (placement readings at size 0, as run.sh writes them). */
    private static String small(int rep, String kind, double micros, double lineBefore, double lineAfter) {
        return jobLines(rep, "latency", kind, 8, 0, micros, lineBefore, lineAfter);
    }

    /** A job's lines as bench/run.sh writes them: the cpu_pair reading before, the result, the reading after. */
    private static String jobLines(int rep, String test, String kind, long bytes, long placementBytes, double value,
                                   double lineBefore, double lineAfter) {
        String at = "np=2 rep=" + rep + " RESULT ";
        return String.join("\n",
                at + "pairline_" + test + " " + kind + " " + placementBytes + " " + lineBefore,
                at + test + " " + kind + " " + bytes + " " + value,
                at + "pairafter_" + test + " " + kind + " " + placementBytes + " " + lineAfter);
    }

    /**
     * tcp-pairs: three rounds at 64 KiB in which the guest's slow placement (a 170 ns line) hits
     * the raw job of round 2 and the array job of round 3. The ratio of the medians (array 3000 /
     * raw 3000 = 1.00) hides that each round's pair tells a different story; the per-round ratios,
     * and those of the rounds whose jobs stayed in one placement, are worked out by hand.
     */
    @Test
    void tcpPairsCompareEachJavaJobWithTheRawJobOfItsRound() throws Exception {
        String raw = String.join("\n",
                job(1, "raw", 3000, 30, 30), job(1, "array", 3300, 30, 30), job(1, "direct", 2400, 30, 30),
                job(2, "raw", 1400, 170, 170), job(2, "array", 3000, 30, 30), job(2, "direct", 1400, 170, 170),
                job(3, "raw", 3200, 30, 30), job(3, "array", 1600, 30, 170), job(3, "direct", 3200, 30, 30),
                "");
        String table = report(raw, "tcp-pairs");
        // All rounds: arrays 1.10, 2.14, 0.50 -> 1.10; direct 0.80, 1.00, 1.00 -> 1.00.
        // One placement: arrays only round 1 (round 2 differs, round 3's array job changed): 1.10;
        // direct all three (round 2 both slow): 1.00. Raw jobs under 3200 / 2: round 2's.
        assertTrue(table.contains("| 65536 | 3000 | 3000 | 2400 | 1.10 [0.50–2.14] ✓ | 1.00 [0.80–1.00] ✓ | "
                + "1.10 [1.10–1.10] ✓ (1) | 1.00 [0.80–1.00] ✓ (3) | 3 | 1 of 3 |"), table);
        String missed = report(raw.replace("direct 65536 3200", "direct 65536 2000"), "tcp-pairs");
        // direct: 0.80, 1.00, 0.625 -> 0.80 in both columns.
        assertTrue(missed.contains("| 2000 | 1.10 [0.50–2.14] ✓ | 0.80 [0.63–1.00] ✗ | 1.10 [1.10–1.10] ✓ (1) | "
                + "0.80 [0.63–1.00] ✗ (3) |"), missed);
    }

    /** One tcp-pairs job's lines at 64 KiB (its placement readings carry the job's size). */
    private static String job(int round, String kind, double mbps, double lineBefore, double lineAfter) {
        return jobLines(round, "bw", kind, 65536, 65536, mbps, lineBefore, lineAfter);
    }

    private String report(String raw) throws Exception {
        return report(raw, "fabric");
    }

    private String report(String raw, String backend) throws Exception {
        Path file = dir.resolve("raw.txt");
        Files.writeString(file, raw);
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            Report.main(new String[] {file.toString(), backend});
        } finally {
            System.setOut(old);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
