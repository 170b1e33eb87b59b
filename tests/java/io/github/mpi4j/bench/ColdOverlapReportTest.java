package io.github.mpi4j.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * The reports of bench/run.sh coldstart, overlap and the latency/bandwidth/allreduce charts,
 * fed with raw lines whose verdicts and medians are worked out by hand here.
 */
class ColdOverlapReportTest {
    @Test
    void latencyTargetsAgainstTwiceCsMeanAndOneMillisecondStalls() {
        List<String> raw = new ArrayList<>();
        // C: rounds 0.4 and 0.6 -> mean 0.5 -> limit 1.0 µs.
        raw.add("impl=c np=2 rep=1 COLD lat c 1 0.4 10");
        raw.add("impl=c np=2 rep=1 COLD lat c 2 0.6 12");
        // fabric arrays: medians over 3 jobs 0.9 and 1.0 -> within 2x; one job's stall of 1500 µs.
        for (String[] r : new String[][] {{"1", "0.9", "20"}, {"1", "5.0", "1500"}, {"1", "0.8", "30"},
            {"2", "1.0", "40"}, {"2", "0.7", "50"}, {"2", "1.1", "60"}}) {
            raw.add("impl=fabric np=2 rep=x COLD lat array " + r[0] + " " + r[1] + " " + r[2]);
        }
        // MPI backend direct: a round at 1.2 (> 1.0), stalls small.
        raw.add("impl=mpi np=2 rep=1 COLD lat direct 1 1.2 100");
        raw.add("impl=mpi np=2 rep=1 COLD lat direct 2 0.5 100");
        raw.add("garbage line");
        raw.add("impl=mpi np=2 rep=1 COLD lat direct x y z");
        ColdStartReport r = ColdStartReport.parse(raw);
        assertEquals(0.5, r.cAverage("2"), 1e-12);
        assertArrayEquals(new boolean[] {true, false}, r.latencyVerdict("2", "fabric array"));
        assertArrayEquals(new boolean[] {false, true}, r.latencyVerdict("2", "mpi direct"));
        String md = r.markdown(2);
        assertTrue(md.contains("| 1 | 0.400 / 10.0 | 0.900 / 1500.0 | 1.200 / 100.0 |"), md);
        assertTrue(md.contains("≤ 2×C ✓, ≤ 1 ms ✗"), md);
        assertTrue(md.contains("≤ 2×C ✗, ≤ 1 ms ✓"), md);
        assertFalse(md.contains("assumes ranks ≤ cores"), "2 ranks on 2 cores: no caveat");
        assertTrue(r.markdown(1).contains("assumes ranks ≤ cores"));
    }

    /** One ping-pong job's lines: its placement readings and rounds given as average, stall pairs. */
    private static void job(List<String> raw, String impl, String rep, String kind, double before, double after,
            double... rounds) {
        List<String> body = new ArrayList<>();
        for (int i = 0; i < rounds.length; i += 2) {
            body.add("COLD lat " + kind + " " + (i / 2 + 1) + " " + rounds[i] + " " + rounds[i + 1]);
        }
        placed(raw, impl, rep, before, after, body);
    }

    /** A job's result lines between its placement readings, as bench/run.sh writes them (np 2). */
    private static void placed(List<String> raw, String impl, String rep, double before, double after,
            List<String> body) {
        String head = "impl=" + impl + " np=2 rep=" + rep + " ";
        raw.add(head + "PLACE before " + before);
        for (String line : body) raw.add(head + line);
        raw.add(head + "PLACE after " + after);
    }

    @Test
    void pingPongJobsAreJudgedAgainstCJobsOfTheirOwnPlacement() {
        List<String> raw = new ArrayList<>();
        // C: one core complex, job means 0.2 and 0.3 -> reference 0.25, limit 0.5; apart: 0.5, limit 1.0.
        job(raw, "c", "1.1", "c", 30, 30, 0.2, 10, 0.2, 10);
        job(raw, "c", "1.3", "c", 25, 28, 0.3, 10, 0.3, 10);
        job(raw, "c", "2.1", "c", 170, 160, 0.5, 10, 0.5, 10);
        job(raw, "c", "2.3", "c", 30, 170, 9.0, 10, 9.0, 10);   // moved: left out
        // fabric, warm start, arrays: one complex, round 2 at 0.6 (2.4x) with a 1.2 ms stall ...
        job(raw, "fabric-warm", "1.2", "array", 27, 29, 0.45, 100, 0.6, 1200);
        // ... apart, 0.9 and 0.8 against 1.0: met, although 3.6x the fast C jobs
        job(raw, "fabric-warm", "2.2", "array", 165, 171, 0.9, 50, 0.8, 60);
        job(raw, "fabric-warm", "2.4", "array", 30, 170, 5.0, 50, 5.0, 60);   // moved: left out
        // MPI backend, warm start, direct: two jobs in one complex, per-round medians 0.4 and 0.5: 1.6x and 2.0x
        job(raw, "mpi-warm", "1.4", "direct", 30, 30, 0.3, 20, 0.4, 20);
        job(raw, "mpi-warm", "1.5", "direct", 30, 30, 0.5, 20, 0.6, 20);
        ColdStartReport r = ColdStartReport.parse(raw);
        assertEquals(0.25, r.cAverage(true), 1e-12);
        assertEquals(0.5, r.cAverage(false), 1e-12);
        String md = r.markdown(2);
        assertTrue(md.contains("| fabric, warm start, arrays | one | 1 | 0.250 (2) | 2 | 2.40 | 1200.0 | ≤ 2×C ✗, ≤ 1 ms ✗ |"), md);
        assertTrue(md.contains("| fabric, warm start, arrays | two | 1 | 0.500 (1) | none | 1.80 | 60.0 | ≤ 2×C ✓, ≤ 1 ms ✓ |"), md);
        assertTrue(md.contains("| MPI backend, warm start, direct | one | 2 | 0.250 (2) | none | 2.00 | 20.0 | ≤ 2×C ✓, ≤ 1 ms ✓ |"), md);
        assertFalse(md.contains("| MPI backend, warm start, direct | two |"), "no job of that series apart: no row");
        assertTrue(md.contains("Left out, the placement changed during the job or was not read: c 2.3, fabric-warm 2.4."), md);
        // The per-round table still takes every job (the moved ones included): C's round 1 median of 0.2, 0.3, 0.5, 9.0.
        assertTrue(md.contains("| 1 | 0.400 / 10.0 |"), md);
    }

    /** One allreduce job's lines: placement readings and its calls' times in ms. */
    private static void allreduceJob(List<String> raw, String impl, String rep, double before, double after,
            double... calls) {
        List<String> body = new ArrayList<>();
        for (int i = 0; i < calls.length; i++) {
            body.add("COLD allreduce " + (impl.equals("c") ? "c" : "array") + " " + (i + 1) + " " + calls[i] + " 16777216");
        }
        placed(raw, impl, rep, before, after, body);
    }

    @Test
    void allreduceJobsAreJudgedWithinTheirPlacement() {
        List<String> raw = new ArrayList<>();
        allreduceJob(raw, "c", "1.1", 30, 30, 9, 8, 8, 8);
        // Two jobs in one core complex: per-call medians 10, 5, 6, 5 -> steady 5.5, worst from call 3 6/5.5.
        allreduceJob(raw, "fabric-warm", "1.2", 30, 28, 10, 5, 4, 4);
        allreduceJob(raw, "fabric-warm", "1.4", 27, 29, 10, 5, 8, 6);
        // Apart: 30, 12, 18, 12 -> steady 15, worst 18/15.
        allreduceJob(raw, "fabric-warm", "1.5", 160, 170, 30, 12, 18, 12);
        // Flipped during the job: left out (in the per-call table it still counts).
        allreduceJob(raw, "fabric-warm", "1.3", 30, 165, 12, 12, 12, 4);
        String md = ColdStartReport.parse(raw).markdown(2);
        assertTrue(md.contains("| 2 | C | one | 1 | 8.00 | 1.00 |  |"), md);
        assertTrue(md.contains("| 2 | fabric, warm start, arrays | one | 2 | 5.50 | 1.09 | ✓ |"), md);
        assertTrue(md.contains("| 2 | fabric, warm start, arrays | two | 1 | 15.00 | 1.20 | ✓ |"), md);
        assertTrue(md.contains("Left out, the placement changed during the job or was not read: fabric-warm 1.3."), md);
        assertFalse(md.contains("8-byte ping-pong, np 2, by placement"), "no ping-pong jobs: no ping-pong placement table");
    }

    @Test
    void placementTableOnlyWhereThePlacementWasRead() {
        ColdStartReport r = ColdStartReport.parse(List.of("impl=c np=2 rep=1 COLD lat c 1 0.5 10",
                "impl=fabric-warm np=2 rep=1 COLD lat array 1 0.7 300"));
        assertFalse(r.markdown(2).contains("by placement"));
        assertTrue(Double.isNaN(r.cAverage(true)));
    }

    @Test
    void warmStartJobsAreTheirOwnColumnsAfterTheColdOnes() {
        List<String> raw = List.of("impl=c np=2 rep=1 COLD lat c 1 0.5 10",
                "impl=fabric-warm np=2 rep=1 COLD lat array 1 0.7 300",
                "impl=fabric np=2 rep=1 COLD lat array 1 40.0 9000");
        ColdStartReport r = ColdStartReport.parse(raw);
        assertArrayEquals(new boolean[] {true, true}, r.latencyVerdict("2", "fabric-warm array"));
        assertArrayEquals(new boolean[] {false, false}, r.latencyVerdict("2", "fabric array"));
        String md = r.markdown(2);
        assertTrue(md.contains("| round | C | fabric, arrays | fabric, warm start, arrays |"), md);
        assertTrue(md.contains("| 1 | 0.500 / 10.0 | 40.000 / 9000.0 | 0.700 / 300.0 |"), md);
    }

    @Test
    void allreduceSteadyStateIsMedianOfLastHalfAndJudgedFromTheThirdCall() {
        List<String> raw = new ArrayList<>();
        double[] fabric = {90, 40, 14, 10, 11, 10, 9, 10};   // last half 11,10,9,10 -> 10; worst from call 3: 14/10
        double[] mpi = {50, 20, 16, 10, 10, 10, 10, 10};     // 16/10 = 1.6 > 1.5
        for (int i = 0; i < fabric.length; i++) {
            raw.add("impl=fabric np=4 rep=1 COLD allreduce direct " + (i + 1) + " " + fabric[i] + " 16777216");
            raw.add("impl=mpi np=4 rep=1 COLD allreduce array " + (i + 1) + " " + mpi[i] + " 16777216");
            raw.add("impl=c np=4 rep=1 COLD allreduce c " + (i + 1) + " 5 16777216");
        }
        ColdStartReport r = ColdStartReport.parse(raw);
        assertArrayEquals(new double[] {10, 1.4}, r.allreduceSteady("4", "fabric direct"), 1e-12);
        assertArrayEquals(new double[] {10, 1.6}, r.allreduceSteady("4", "mpi array"), 1e-12);
        String md = r.markdown(4);
        assertTrue(md.contains("successive 16MiB allreduces of doubles, np 4"), md);
        assertTrue(md.contains("| worst from call 3 ÷ steady | 1.00 | 1.40 ✓ | 1.60 ✗ |"), md);
        assertTrue(md.contains("| 1 | 5.00 | 90.00 | 50.00 |"), md);
    }

    @Test
    void coldStartChartsHaveOneSeriesPerImplementation(@TempDir Path dir) throws Exception {
        List<String> raw = List.of(
                "impl=c np=2 rep=1 COLD lat c 1 0.4 10", "impl=c np=2 rep=1 COLD lat c 2 0.3 9",
                "impl=fabric np=2 rep=1 COLD lat array 1 9 900", "impl=fabric np=2 rep=1 COLD lat array 2 1 90",
                "impl=c np=2 rep=1 COLD allreduce c 1 5 1024", "impl=mpi np=2 rep=1 COLD allreduce direct 1 7 1024");
        List<Path> files = ColdStartReport.parse(raw).charts(dir);
        assertEquals(List.of(dir.resolve("coldstart-lat-np2.svg"), dir.resolve("coldstart-stall-np2.svg"),
                dir.resolve("coldstart-allreduce-np2.svg")), files);
        Document d = SvgChartTest.parse(Files.readString(files.get(0)));
        List<double[]> fab = SvgChartTest.markers(d, "fabric, arrays");
        assertEquals(2, fab.size());
        assertEquals(9, fab.get(0)[3]);
        assertTrue(fab.get(0)[1] < fab.get(1)[1], "the slow first round is drawn higher");
        assertEquals(2, SvgChartTest.markers(d, "C").size());
        Document s = SvgChartTest.parse(Files.readString(files.get(1)));
        assertEquals(900, SvgChartTest.markers(s, "fabric, arrays").get(0)[3]);
    }

    @Test
    void overlapTargetsFabricEightyPercentAndMpiAtLeastC(@TempDir Path dir) throws Exception {
        List<String> raw = List.of(
                "impl=c np=2 rep=1 OVERLAP c 1048576 100 100 150 50.0",
                "impl=c np=2 rep=2 OVERLAP c 1048576 100 100 130 70.0",      // median 60
                "impl=fabric np=2 rep=1 OVERLAP array 1048576 100 100 110 90.0",
                "impl=fabric np=2 rep=1 OVERLAP direct 1048576 100 100 130 70.0",
                "impl=mpi np=2 rep=1 OVERLAP array 1048576 100 100 140 60.0",
                "impl=mpi np=2 rep=1 OVERLAP direct 1048576 100 100 160 40.0",
                "impl=c np=4 rep=1 OVERLAP c 16777216 1000 1000 1500 50.0",
                "impl=fabric np=4 rep=1 OVERLAP array 16777216 1000 1000 1100 90.0");
        OverlapReport r = OverlapReport.parse(raw);
        assertEquals(" ✓", r.mark("2 1048576", "fabric array"));
        assertEquals(" ✗", r.mark("2 1048576", "fabric direct"));
        assertEquals(" ✓", r.mark("2 1048576", "mpi array"), "60 % ≥ C's median 60 %");
        assertEquals(" ✗", r.mark("2 1048576", "mpi direct"));
        assertEquals("", r.mark("2 1048576", "c c"));
        String md = r.markdown();
        assertTrue(md.contains("| 2 | 1M | C | 100.0 | 100.0 | 140.0 | 60.0 |"), md);
        assertTrue(md.contains("| 4 | 16M | fabric, arrays | 1000.0 | 1000.0 | 1100.0 | 90.0 ✓ |"), md);
        assertTrue(md.indexOf("| 2 | 1M |") < md.indexOf("| 4 | 16M |"), "rows by np, then size");
        Path chart = r.chart(dir);
        Document d = SvgChartTest.parse(Files.readString(chart));
        assertEquals(90, SvgChartTest.markers(d, "fabric, arrays, np 2").get(0)[3]);
        assertEquals(1, SvgChartTest.markers(d, "fabric, arrays, np 4").size());
        // OSU's formula, as Overlap computes it.
        assertEquals(90.0, Overlap.overlap(100, 100, 110), 1e-9);
        assertEquals(0.0, Overlap.overlap(100, 100, 250), 1e-9, "never negative");
        assertEquals(0.0, Overlap.overlap(0, 100, 100), 1e-9);
    }

    @Test
    void busyLoopTakesAboutTheTimeAskedFor() {
        long t = Overlap.compute(2_000_000);
        assertTrue(t >= 2_000_000, "at least the time asked for: " + t);
        long idle = Overlap.idle(2_000_000);
        assertTrue(idle >= 2_000_000, "the sleep too: " + idle);
    }

    @Test
    void idleComputeRowsAreJudgedAgainstTheirOwnCRow() {
        List<String> raw = List.of(
                "impl=c np=2 rep=1 OVERLAP c 1048576 100 100 190 10.0",
                "impl=c np=2 rep=1 OVERLAP c-idle 1048576 100 100 150 50.0",
                "impl=fabric np=2 rep=1 OVERLAP array-idle 1048576 100 100 115 85.0",
                "impl=fabric np=2 rep=1 OVERLAP array 1048576 100 100 150 50.0",
                "impl=mpi np=2 rep=1 OVERLAP direct-idle 1048576 100 100 170 30.0",
                "impl=mpi np=2 rep=1 OVERLAP direct 1048576 100 100 170 30.0",
                "impl=mpi-async np=2 rep=1 OVERLAP direct-idle 1048576 100 100 120 80.0",
                "impl=mpi-async np=2 rep=1 OVERLAP direct 1048576 100 100 195 5.0");
        OverlapReport r = OverlapReport.parse(raw);
        assertEquals(" ✓", r.mark("2 1048576", "fabric array-idle"));
        assertEquals(" ✓", r.mark("2 1048576", "mpi-async direct-idle"), "80 % against C's 50 % with idle compute");
        assertEquals(" ✗", r.mark("2 1048576", "mpi-async direct"), "5 % against C's 10 % with busy compute");
        assertEquals(" ✗", r.mark("2 1048576", "fabric array"));
        assertEquals(" ✗", r.mark("2 1048576", "mpi direct-idle"), "30 % against C's 50 % with idle compute");
        assertEquals(" ✓", r.mark("2 1048576", "mpi direct"), "30 % against C's 10 % with busy compute");
        String md = r.markdown();
        assertTrue(md.contains("| 2 | 1M | fabric, arrays, idle compute | 100.0 | 100.0 | 115.0 | 85.0 ✓ |"), md);
        assertTrue(md.indexOf("| fabric, arrays |") < md.indexOf("| C, idle compute |"), "busy rows first: " + md);
        assertTrue(md.contains("| 2 | 1M | MPI backend + async progress, direct, idle compute | 100.0 | 100.0 | 120.0 | 80.0 ✓ |"),
                md);
        assertTrue(md.indexOf("| MPI backend, direct, idle compute |")
                < md.indexOf("| MPI backend + async progress, direct, idle compute |"), "after the plain backend: " + md);
    }

    @Test
    void osuChartsMedianOverRepetitionsPerKind(@TempDir Path dir) throws Exception {
        List<String> raw = List.of(
                "np=2 rep=1 RESULT latency c 1 0.30", "np=2 rep=2 RESULT latency c 1 0.50", "np=2 rep=3 RESULT latency c 1 0.40",
                "np=2 rep=1 RESULT latency array 1 0.9", "np=2 rep=1 RESULT latency array 2 1.1",
                "np=2 rep=1 RESULT latency direct 1 0.8",
                "np=2 rep=1 RESULT bw c 1024 5000", "np=2 rep=1 RESULT bw raw 1024 3000",
                "np=4 rep=1 RESULT allreduce c 8 2.0", "np=4 rep=1 RESULT allreduce array 8 3.0",
                "np=2 rep=1 RESULT allreduce c 8 1.0", "np=4 rep=1 RESULT init java 0 400");
        List<Path> files = OsuCharts.write(raw, dir, "fabric");
        assertEquals(List.of(dir.resolve("latency.svg"), dir.resolve("bw.svg"), dir.resolve("allreduce-np2.svg"),
                dir.resolve("allreduce-np4.svg")), files);
        Document lat = SvgChartTest.parse(Files.readString(files.get(0)));
        assertEquals(0.40, SvgChartTest.markers(lat, "C").get(0)[3], 1e-12, "median of 0.3, 0.5, 0.4");
        List<double[]> arr = SvgChartTest.markers(lat, "Java arrays");
        assertEquals(2, arr.size());
        assertTrue(arr.get(0)[0] < arr.get(1)[0]);
        assertEquals(1, SvgChartTest.markers(lat, "Java direct").size());
        assertTrue(SvgChartTest.texts(lat).contains("One-way latency, np 2 (fabric)"));
        Document bw = SvgChartTest.parse(Files.readString(files.get(1)));
        assertEquals(3000, SvgChartTest.markers(bw, "raw TCP").get(0)[3]);
        Document a4 = SvgChartTest.parse(Files.readString(files.get(3)));
        assertEquals(2, SvgChartTest.markers(a4, "C").get(0)[3]);
        assertEquals(3, SvgChartTest.markers(a4, "Java arrays").get(0)[3]);
    }
}
