package io.github.mpi4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * Turns the raw lines of bench/run.sh ({@code np=N rep=R RESULT test kind bytes value}) into
 * markdown tables: the median over repetitions for the reference (Open MPI's C library, or raw
 * TCP) and each Java buffer kind, the ratio to the reference (or the difference, for latency on
 * the MPI backend), the spread (max/min over repetitions), and ✓/✗ where an issue sets a target.
 *
 * <pre>
 *   Report raw.txt mpi|fabric|fabric-tcp|tcp-pairs
 * </pre>
 */
public final class Report {
    private Report() {
    }

    /** Values of one (np, test, kind, bytes) over repetitions. */
    private static final Map<String, List<Double>> VALUES = new TreeMap<>();
    /** The same values by repetition number, for the ratios of jobs of one repetition. */
    private static final Map<String, Map<Integer, Double>> BY_REP = new TreeMap<>();

    public static void main(String[] args) throws IOException {
        String backend = args.length > 1 ? args[1] : "mpi";
        VALUES.clear();  // (a second report in one JVM, as in the tests, starts afresh)
        BY_REP.clear();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 7 || !f[2].equals("RESULT")) continue;
            String np = f[0].substring(3);
            String key = np + " " + f[3] + " " + f[4] + " " + f[5];
            VALUES.computeIfAbsent(key, k -> new ArrayList<>()).add(Double.parseDouble(f[6]));
            if (f[1].startsWith("rep=")) {
                BY_REP.computeIfAbsent(key, k -> new TreeMap<>()).put(Integer.parseInt(f[1].substring(4)),
                        Double.parseDouble(f[6]));
            }
        }
        if (backend.equals("tcp-pairs")) {
            StringBuilder md = new StringBuilder();
            tcpPairs(md);
            System.out.print(md);
            return;
        }
        Targets targets = Targets.of(backend);
        StringBuilder md = new StringBuilder();
        md.append("Backend: ").append(backend).append(". Values are medians over repetitions; spread = max/min.\n");
        boolean latencyDiff = backend.equals("mpi");
        table(md, targets, "latency", "2", "c", "one-way latency, µs (lower is better); "
                + (latencyDiff ? "diff = Java - C" : "ratio = Java / C"), latencyDiff);
        allocations(md);
        table(md, targets, "bw", "2", "c", "bandwidth, MB/s (higher is better); ratio = Java / C", false);
        messageRate(md);
        if (backend.equals("fabric")) {
            sameRepetitionRatios(md, false);
            sameRepetitionRatios(md, true);
            targetIntervals(md);
            byPlacement(md, true);
            byPlacement(md, false);
        }
        table(md, targets, "bw", "2", "raw", "bandwidth vs raw loopback TCP, MB/s; ratio = Java / raw TCP", false);
        for (String np : new String[] {"2", "4"}) {
            table(md, targets, "allreduce", np, "c", "allreduce of doubles, µs per call (lower is better); ratio = Java / C", false);
            table(md, targets, "bcast", np, "c", "bcast, µs per call (lower is better); ratio = Java / C", false);
        }
        for (String np : new String[] {"2", "4", "8"}) {
            List<Double> init = VALUES.get(np + " init java 0");
            if (init == null) continue;
            double m = median(init);
            md.append("\n### start-up, np ").append(np).append(": JVM start to end of MPI.Init, slowest rank\n\n")
                    .append(fmt("%.0f ms median over %d runs (min %.0f, max %.0f)", m, init.size(),
                            Collections.min(init), Collections.max(init)))
                    .append(np.equals("4") && targets.initMillis > 0 ? (m <= targets.initMillis ? " ✓" : " ✗") : "")
                    .append('\n');
        }
        System.out.print(md);
    }

    /**
     * Heap bytes rank 0's thread allocated per message (a send or a receive) in the timed
     * latency phase, median over repetitions: issue 12 wants none on the fabric's small-message
     * path (a blocking receive returns a Status, 48 bytes, unless the JIT drops it).
     */
    private static void allocations(StringBuilder md) {
        TreeSet<Long> sizes = new TreeSet<>();
        for (String key : VALUES.keySet()) {
            String[] k = key.split(" ");
            if (k[1].equals("latency_alloc")) sizes.add(Long.parseLong(k[3]));
        }
        if (sizes.isEmpty()) return;
        md.append("\n### heap bytes allocated per message, latency test (rank 0's thread; median)\n\n");
        md.append("| bytes | array | direct |\n|---:|---:|---:|\n");
        for (long size : sizes) {
            List<Double> a = VALUES.get("2 latency_alloc array " + size);
            List<Double> d = VALUES.get("2 latency_alloc direct " + size);
            md.append("| ").append(size).append(" | ").append(a == null ? "" : fmt("%.1f", median(a))).append(" | ")
                    .append(d == null ? "" : fmt("%.1f", median(d))).append(" |\n");
        }
    }

    /**
     * Small-message rate (issue 12, item 1: osu_mbw_mr-style, window of 64, one pair): the bw
     * test runs exactly that loop (64 non-blocking sends, wait, acknowledgement), so the rate is
     * its MB/s over the message size, in millions of messages per second; ratio = Java / C.
     */
    private static void messageRate(StringBuilder md) {
        TreeSet<Long> sizes = sizes("2", "bw", "c", 4096);
        if (sizes.isEmpty()) return;
        md.append("\n### message rate, np 2: window of 64 (the bw loop), millions of messages/s (higher is better); ")
                .append("ratio = Java / C, target ≥ 1.0\n\n");
        md.append("| bytes | C | Java array | Java direct | array ratio | direct ratio |\n|---:|---:|---:|---:|---:|---:|\n");
        for (long size : sizes) {
            double c = median(VALUES.get("2 bw c " + size)) / size;
            List<Double> a = VALUES.get("2 bw array " + size);
            List<Double> d = VALUES.get("2 bw direct " + size);
            double ar = a == null ? Double.NaN : median(a) / size, dr = d == null ? Double.NaN : median(d) / size;
            md.append(fmt("| %d | %.2f | %.2f | %.2f | %.2f %s | %.2f %s |\n", size, c, ar, dr, ar / c,
                    ar / c >= 1.0 ? "✓" : "✗", dr / c, dr / c >= 1.0 ? "✓" : "✗"));
        }
    }

    /**
     * Issue 12's small-message targets as the median of per-repetition ratios: each Java job
     * against the C job of its own repetition, run seconds before it. A shared guest can run
     * everything, C included, 2-3 times slower for seconds to minutes at a time
     * (docs/performance.md, twenty-fourth session); when that state holds a large share of the
     * jobs, the ratio of the two medians compares jobs of different states, and this one does not.
     * With {@code samePlacement}, only the repetitions whose C and Java jobs read the same
     * placement before and after each ran: the placement flips within seconds, so a C job and
     * the Java job after it do not always share one (forty-third session).
     */
    private static void sameRepetitionRatios(StringBuilder md, boolean samePlacement) {
        TreeSet<Long> sizes = sizes("2", "latency", "c", 64);
        if (sizes.isEmpty()) return;
        if (samePlacement && !readAfterJobs()) return;  // runs before the 43rd session
        md.append("\n### small messages, np 2: median of the per-repetition ratios (each Java job / the C job of ")
                .append("its repetition)")
                .append(samePlacement ? ", over the repetitions whose C job and Java job each read one placement before "
                        + "and after and the same one (the count in parentheses)" : "")
                .append("; targets at 8 bytes: latency ≤ 1.0, rate ≥ 1.0\n\n");
        md.append("| bytes | latency array | latency direct | rate array | rate direct | repetitions |\n")
                .append("|---:|---:|---:|---:|---:|---:|\n");
        for (long size : sizes) {
            StringBuilder row = new StringBuilder("| " + size);
            int pairs = 0;
            for (String test : new String[] {"latency", "bw"}) {
                for (String kind : new String[] {"array", "direct"}) {
                    List<Double> r = repetitionRatios(test, kind, size, samePlacement);
                    pairs = Math.max(pairs, r.size());
                    if (r.isEmpty()) {
                        row.append(" | ");
                        continue;
                    }
                    row.append(" | ").append(ratioCell(test, size, median(r)))
                            .append(samePlacement ? " (" + r.size() + ")" : "");
                }
            }
            md.append(row).append(" | ").append(pairs).append(" |\n");
        }
    }

    /**
     * The 8-byte targets' per-repetition ratios with a 95 % confidence interval for their median
     * ({@link MedianInterval}), over all repetitions and over those that held one placement, and
     * what the run can say: met or missed where the whole interval lies on one side of 1.0, a
     * tie where it holds 1.0 (this run cannot tell Java from C there).
     */
    private static void targetIntervals(StringBuilder md) {
        if (!VALUES.containsKey("2 latency c 8")) return;
        boolean placements = readAfterJobs();
        md.append("\n### small messages, 8 bytes: the median of the per-repetition ratios with its 95 % confidence ")
                .append("interval (order statistics); met or missed where the whole interval is on one side of 1.0, ")
                .append("a tie where it holds 1.0\n\n");
        md.append("| target | kind | all repetitions | verdict |")
                .append(placements ? " repetitions that held one placement | verdict |" : "").append('\n')
                .append("|---|---|---|---|").append(placements ? "---|---|" : "").append('\n');
        for (String test : new String[] {"latency", "bw"}) {
            for (String kind : new String[] {"array", "direct"}) {
                StringBuilder row = new StringBuilder("| " + (test.equals("latency") ? "latency ≤ 1.0" : "rate ≥ 1.0")
                        + " | " + kind);
                for (boolean samePlacement : placements ? new boolean[] {false, true} : new boolean[] {false}) {
                    List<Double> r = repetitionRatios(test, kind, 8, samePlacement);
                    row.append(" | ").append(intervalCell(r)).append(" | ").append(verdict(test, r));
                }
                md.append(row).append(" |\n");
            }
        }
    }

    private static String intervalCell(List<Double> r) {
        if (r.isEmpty()) return "";
        double[] ci = MedianInterval.of(r);
        return fmt("%.2f", median(r)) + (ci == null ? "" : fmt(" [%.2f–%.2f]", ci[0], ci[1])) + " (" + r.size() + ")";
    }

    /** Met, missed or a tie for a lower-is-better (latency) or higher-is-better (rate) ratio's interval. */
    static String verdict(String test, List<Double> r) {
        double[] ci = r.isEmpty() ? null : MedianInterval.of(r);
        if (ci == null) return r.isEmpty() ? "" : "too few repetitions";
        boolean lowerIsBetter = test.equals("latency");
        double good = lowerIsBetter ? ci[1] : ci[0], bad = lowerIsBetter ? ci[0] : ci[1];
        if (lowerIsBetter ? good <= 1.0 : good >= 1.0) return "met ✓";
        if (lowerIsBetter ? bad > 1.0 : bad < 1.0) return "missed ✗";
        return "tie (1.0 within)";
    }

    /**
     * Java / C per small-mode repetition at one size; with {@code samePlacement}, only the
     * repetitions whose two jobs held one placement, the same.
     */
    private static List<Double> repetitionRatios(String test, String kind, long size, boolean samePlacement) {
        return ratios("2 " + test + " " + kind + " " + size, "2 " + test + " c " + size,
                rep -> !samePlacement || samePlacement(test, kind, rep));
    }

    /** Whether the small run read the placement after each job too (from the forty-third session on). */
    private static boolean readAfterJobs() {
        return BY_REP.containsKey("2 pairafter_latency c 0");
    }

    /** Whether the C job and the {@code kind} job of one small-mode repetition both stayed in one placement, the same. */
    private static boolean samePlacement(String test, String kind, int rep) {
        Boolean java = smallPlacement(test, kind, rep);
        return java != null && java.equals(smallPlacement(test, "c", rep));
    }

    /**
     * A small-mode job's placement: from the readings before and after it where both were taken
     * (null where they disagree: the placement changed around the job), else from the one before.
     */
    private static Boolean smallPlacement(String test, String kind, int rep) {
        Map<Integer, Double> before = BY_REP.get("2 pairline_" + test + " " + kind + " 0");
        Map<Integer, Double> after = BY_REP.get("2 pairafter_" + test + " " + kind + " 0");
        Double b = before == null ? null : before.get(rep);
        if (after == null) return b == null || b.isNaN() ? null : b < FAST_LINE_NS;
        return placement(b, after.get(rep));
    }

    /**
     * bench/run.sh tcp-pairs: the TCP point-to-point target (issue 12, item 3: bandwidth ≥ 0.9×
     * raw loopback TCP from 64 KiB) from rounds of adjacent one-size jobs. Per size: the medians
     * of raw TCP, arrays and direct buffers; the median [range] of the per-round ratios (each
     * Java job / the raw job of its round); the same over the rounds in which both jobs stayed
     * in one placement of the vCPUs (every cpu_pair reading before and after the two jobs on the
     * same side of {@link #FAST_LINE_NS}), which compares like with like: TCP over loopback runs
     * about twice as fast with the vCPUs in one core complex as in two, for raw TCP and the
     * fabric alike (docs/performance.md, thirty-ninth session). Last, how many raw jobs ran at
     * under half the fastest raw job of that size.
     */
    private static void tcpPairs(StringBuilder md) {
        TreeSet<Long> sizes = sizes("2", "bw", "raw", Long.MAX_VALUE);
        md.append("Backend: fabric-tcp, one size per job, in rounds of adjacent jobs (raw TCP, Java arrays, Java direct).\n");
        md.append("\n### bw, np 2, adjacent jobs: MB/s medians, and the median [min–max] of the per-round ratios ")
                .append("Java / raw TCP of the same round, over all rounds and over the rounds whose two jobs stayed in one ")
                .append("placement; target ≥ 0.9 from 64 KiB\n\n");
        md.append("| bytes | raw TCP | Java array | Java direct | array / raw | direct / raw | array / raw, one placement | ")
                .append("direct / raw, one placement | rounds | raw jobs under half the fastest |\n")
                .append("|---:|---:|---:|---:|---|---|---|---|---:|---:|\n");
        for (long size : sizes) {
            List<Double> raw = VALUES.get("2 bw raw " + size);
            StringBuilder row = new StringBuilder(fmt("| %d | %.0f", size, median(raw)));
            for (String kind : new String[] {"array", "direct"}) {
                List<Double> v = VALUES.get("2 bw " + kind + " " + size);
                row.append(" | ").append(v == null ? "" : fmt("%.0f", median(v)));
            }
            int rounds = 0;
            for (boolean samePlacement : new boolean[] {false, true}) {
                for (String kind : new String[] {"array", "direct"}) {
                    List<Double> r = roundRatios(kind, size, samePlacement);
                    if (!samePlacement) rounds = Math.max(rounds, r.size());
                    row.append(" | ").append(r.isEmpty() ? "" : fmt("%.2f [%.2f–%.2f]", median(r), Collections.min(r),
                            Collections.max(r)) + (size >= 65536 ? Targets.ok(median(r) >= 0.9) : "")
                            + (samePlacement ? " (" + r.size() + ")" : ""));
                }
            }
            double fastest = Collections.max(raw);
            long slow = raw.stream().filter(x -> x < fastest / 2).count();
            md.append(row).append(" | ").append(rounds).append(" | ").append(slow).append(" of ").append(raw.size())
                    .append(" |\n");
        }
    }

    /**
     * Java / raw TCP per round of tcp-pairs at one size; with {@code samePlacement}, only the
     * rounds in which every placement reading around the two jobs fell on one side.
     */
    private static List<Double> roundRatios(String kind, long size, boolean samePlacement) {
        return ratios("2 bw " + kind + " " + size, "2 bw raw " + size, round -> {
            if (!samePlacement) return true;
            Boolean a = placementOf(kind, size, round);
            return a != null && a.equals(placementOf("raw", size, round));
        });
    }

    /** True (fast) or false (slow) where a tcp-pairs job's readings before and after agree; else null. */
    private static Boolean placementOf(String kind, long size, int round) {
        Map<Integer, Double> before = BY_REP.get("2 pairline_bw " + kind + " " + size);
        Map<Integer, Double> after = BY_REP.get("2 pairafter_bw " + kind + " " + size);
        if (before == null || after == null) return null;
        return placement(before.get(round), after.get(round));
    }

    /**
     * A job's placement from the cpu_pair readings before and after it: true (one core complex,
     * under {@link #FAST_LINE_NS}) or false (two) where both exist and agree; else null.
     */
    static Boolean placement(Double before, Double after) {
        if (before == null || after == null || before.isNaN() || after.isNaN()) return null;
        boolean fastBefore = before < FAST_LINE_NS, fastAfter = after < FAST_LINE_NS;
        return fastBefore == fastAfter ? fastBefore : null;
    }

    /**
     * A cache line's one-way time between the two vCPUs (bench/cpu_pair.c, read just before each
     * job) under which the job counts as run in the fast placement: 35-60 ns with the vCPUs in one
     * core complex, 200-245 ns in two, on the development guest.
     */
    static final double FAST_LINE_NS = 120;

    /**
     * Issue 12's small-message targets from the jobs of one placement only: the medians of C,
     * arrays and direct buffers over the jobs that found the vCPUs in that placement before and
     * after they ran (runs before the forty-third session: just before; a placement can change
     * and change back during a job).
     */
    private static void byPlacement(StringBuilder md, boolean fast) {
        TreeSet<Long> sizes = sizes("2", "latency", "c", 64);
        if (sizes.isEmpty() || !BY_REP.containsKey("2 pairline_latency c 0")) return;
        md.append("\n### small messages, np 2, jobs in the ").append(fast ? "fast" : "slow")
                .append(" placement (a cache line ").append(fast ? "under " : "at or over ")
                .append(fmt("%.0f", FAST_LINE_NS)).append(readAfterJobs()
                        ? " ns before and after the job; jobs whose readings disagree are left out): medians\n\n"
                        : " ns just before the job): medians\n\n");
        md.append("| bytes | latency C | array | direct | array ratio | direct ratio | rate C (M/s) | array | direct | ")
                .append("array ratio | direct ratio | jobs C/array/direct, latency; rate |\n")
                .append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (long size : sizes) {
            StringBuilder row = new StringBuilder("| " + size);
            String jobs = "";
            for (String test : new String[] {"latency", "bw"}) {
                double scale = test.equals("bw") ? size : 1;  // bw in MB/s -> millions of messages/s
                List<Double> c = inPlacement(test, "c", size, fast);
                List<Double> a = inPlacement(test, "array", size, fast);
                List<Double> d = inPlacement(test, "direct", size, fast);
                double cm = c.isEmpty() ? Double.NaN : median(c) / scale;
                row.append(" | ").append(c.isEmpty() ? "" : fmt(test.equals("bw") ? "%.2f" : "%.3f", cm));
                for (List<Double> j : List.of(a, d)) {
                    row.append(" | ").append(j.isEmpty() ? "" : fmt(test.equals("bw") ? "%.2f" : "%.3f", median(j) / scale));
                }
                for (List<Double> j : List.of(a, d)) {
                    if (j.isEmpty() || c.isEmpty()) {
                        row.append(" | ");
                        continue;
                    }
                    row.append(" | ").append(ratioCell(test, size, median(j) / scale / cm));
                }
                jobs += (jobs.isEmpty() ? "" : "; ") + c.size() + "/" + a.size() + "/" + d.size();
            }
            md.append(row).append(" | ").append(jobs).append(" |\n");
        }
    }

    /** The values of one test, kind and size from jobs that found the vCPUs in the placement asked for. */
    private static List<Double> inPlacement(String test, String kind, long size, boolean fast) {
        List<Double> out = new ArrayList<>();
        Map<Integer, Double> values = BY_REP.get("2 " + test + " " + kind + " " + size);
        if (values == null) return out;
        for (Map.Entry<Integer, Double> e : values.entrySet()) {
            Boolean placement = smallPlacement(test, kind, e.getKey());
            if (placement != null && placement == fast) out.add(e.getValue());
        }
        return out;
    }

    /** A Java / C ratio of the small-message tables, marked against issue 12's target at 8 bytes. */
    private static String ratioCell(String test, long size, double ratio) {
        boolean met = test.equals("latency") ? ratio <= 1.0 : ratio >= 1.0;
        return fmt("%.2f", ratio) + (size == 8 ? (met ? " ✓" : " ✗") : "");
    }

    /** Java / reference for each repetition that has both. */
    private static List<Double> ratios(String javaKey, String refKey) {
        return ratios(javaKey, refKey, rep -> true);
    }

    /** Java / reference for each repetition that has both and that {@code keep} accepts. */
    private static List<Double> ratios(String javaKey, String refKey, IntPredicate keep) {
        List<Double> out = new ArrayList<>();
        Map<Integer, Double> java = BY_REP.get(javaKey), ref = BY_REP.get(refKey);
        if (java == null || ref == null) return out;
        for (Map.Entry<Integer, Double> e : java.entrySet()) {
            Double r = ref.get(e.getKey());
            if (r != null && r > 0 && keep.test(e.getKey())) out.add(e.getValue() / r);
        }
        return out;
    }

    /** The message sizes, up to {@code max} bytes, of one np, test and kind's results. */
    private static TreeSet<Long> sizes(String np, String test, String kind, long max) {
        TreeSet<Long> sizes = new TreeSet<>();
        for (String key : VALUES.keySet()) {
            String[] k = key.split(" ");
            if (k[0].equals(np) && k[1].equals(test) && k[2].equals(kind) && Long.parseLong(k[3]) <= max) {
                sizes.add(Long.parseLong(k[3]));
            }
        }
        return sizes;
    }

    private static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static double spread(List<Double> v) {
        return Collections.max(v) / Math.max(1e-12, Collections.min(v));
    }

    private static void table(StringBuilder md, Targets targets, String test, String np, String ref, String title,
                              boolean diff) {
        TreeSet<Long> sizes = sizes(np, test, ref, Long.MAX_VALUE);
        if (sizes.isEmpty()) return;
        String refName = ref.equals("c") ? "C" : "raw TCP";
        md.append("\n### ").append(test).append(", np ").append(np).append(": ").append(title).append("\n\n");
        md.append("| bytes | ").append(refName).append(" | Java array | Java direct | array ").append(diff ? "diff" : "ratio")
                .append(" | direct ").append(diff ? "diff" : "ratio").append(" | spread ref/array/direct |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---|\n");
        for (long bytes : sizes) {
            List<Double> c = VALUES.get(np + " " + test + " " + ref + " " + bytes);
            List<Double> a = VALUES.get(np + " " + test + " array " + bytes);
            List<Double> d = VALUES.get(np + " " + test + " direct " + bytes);
            if (c == null || a == null || d == null) continue;
            double cm = median(c), am = median(a), dm = median(d);
            String ra = diff ? fmt("%+.3f", am - cm) : fmt("%.2f", am / cm);
            String rd = diff ? fmt("%+.3f", dm - cm) : fmt("%.2f", dm / cm);
            md.append("| ").append(bytes).append(" | ").append(fmt("%.3f", cm)).append(" | ").append(fmt("%.3f", am))
                    .append(" | ").append(fmt("%.3f", dm)).append(" | ").append(ra)
                    .append(targets.mark(test, ref, np, bytes, am, cm, false)).append(" | ").append(rd)
                    .append(targets.mark(test, ref, np, bytes, dm, cm, true)).append(" | ")
                    .append(fmt("%.2f/%.2f/%.2f", spread(c), spread(a), spread(d))).append(" |\n");
        }
    }

    /** The targets the issues set for each backend, as ✓/✗ marks. */
    private abstract static class Targets {
        /** Start-up target at np 4, ms (0: none). */
        double initMillis;

        /** " ✓" / " ✗" where a target applies to this cell, "" elsewhere. */
        abstract String mark(String test, String ref, String np, long bytes, double java, double reference,
                             boolean direct);

        static String ok(boolean met) {
            return met ? " ✓" : " ✗";
        }

        static Targets of(String backend) {
            switch (backend) {
                case "mpi": return new MpiTargets();
                case "fabric": return new FabricShmTargets();
                case "fabric-tcp": return new FabricTcpTargets();
                default: throw new IllegalArgumentException("backend " + backend + " (mpi, fabric or fabric-tcp)");
            }
        }
    }

    /** The foundation issue: the MPI backend against the same MPI's C library. */
    private static final class MpiTargets extends Targets {
        @Override
        String mark(String test, String ref, String np, long bytes, double java, double c, boolean direct) {
            switch (test) {
                case "latency":
                    return bytes > 1024 ? "" : ok(java - c <= (direct ? 0.15 : 0.3));
                case "bw":
                    return bytes < 65536 ? "" : ok(java / c >= (direct ? 0.95 : 0.85));
                default:
                    return bytes != 16L << 20 ? "" : ok(java / c <= (direct ? 1.05 : 1.15));
            }
        }
    }

    /** The fabric issue, shared memory against Open MPI over shared memory. */
    private static final class FabricShmTargets extends Targets {
        FabricShmTargets() {
            initMillis = 500;
        }

        @Override
        String mark(String test, String ref, String np, long bytes, double java, double c, boolean direct) {
            switch (test) {
                case "latency":
                    return bytes != 8 ? "" : ok(java / c <= 1.0);
                case "bw":
                    return bytes < 65536 ? "" : ok(java / c >= 0.9);
                case "allreduce":
                    return bytes != 16L << 20 ? "" : ok(java / c <= 0.8);
                default:
                    return "";
            }
        }
    }

    /** The fabric issue, TCP against Open MPI with --mca btl tcp,self and against raw TCP. */
    private static final class FabricTcpTargets extends Targets {
        FabricTcpTargets() {
            initMillis = 500;
        }

        @Override
        String mark(String test, String ref, String np, long bytes, double java, double c, boolean direct) {
            switch (test) {
                case "bw":
                    return ref.equals("raw") && bytes >= 65536 ? ok(java / c >= 0.9) : "";
                case "allreduce":
                    if (!np.equals("4")) return "";
                    if (bytes == 16L << 20) return ok(java / c <= 1.0);
                    return bytes == 8 ? ok(java / c <= 1.2) : "";
                default:
                    return "";
            }
        }
    }

    private static String fmt(String f, Object... a) {
        return String.format(Locale.ROOT, f, a);
    }
}
