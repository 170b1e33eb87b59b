package io.github.mpi4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Tables and charts of bench/run.sh coldstart: the raw lines
 * {@code impl=I np=N rep=R COLD lat kind round avgUs stallUs} and
 * {@code impl=I np=N rep=R COLD allreduce kind call ms bytes} of {@link ColdStart} and its C twin;
 * impl {@code fabric-warm} and {@code mpi-warm} are the same jobs with {@code MPI4J_WARMUP=1}
 * (the optional warm start, {@code mpi.WarmStart}).
 *
 * <p>Per round (or call), the median over repetitions (each a fresh job) of the average, and
 * the largest stall of any repetition. Targets of issue 12 item 1b, marked ✓/✗:
 * <ul>
 *   <li>latency: every round's average ≤ 2× C's average (C's mean over its rounds), and no
 *       single message (round trip / 2) over 1 ms — the latter only meaningful with at least
 *       as many cores as ranks;</li>
 *   <li>allreduce: from the third call, every call within 1.5× of the steady state (the median
 *       of the last half of the calls).</li>
 * </ul>
 * <pre>
 *   ColdStartReport raw.txt [outdir] [cores]      markdown on stdout, charts into outdir
 * </pre>
 */
public final class ColdStartReport {
    private ColdStartReport() {
    }

    /** Implementations in table and legend order, and their names. */
    private static final String[][] SERIES = {{"c c", "C"}, {"fabric array", "fabric, arrays"},
        {"fabric direct", "fabric, direct"}, {"mpi array", "MPI backend, arrays"}, {"mpi direct", "MPI backend, direct"},
        {"fabric-warm array", "fabric, warm start, arrays"}, {"fabric-warm direct", "fabric, warm start, direct"},
        {"mpi-warm array", "MPI backend, warm start, arrays"}, {"mpi-warm direct", "MPI backend, warm start, direct"}};

    static final double LAT_FACTOR = 2.0, STALL_LIMIT_US = 1000, ALLREDUCE_FACTOR = 1.5;

    /** One measured point over repetitions. */
    static final class Point {
        final List<Double> a = new ArrayList<>(), b = new ArrayList<>();
    }

    /** "test np impl kind" -> index (round or call) -> values over repetitions. */
    final Map<String, TreeMap<Integer, Point>> data = new TreeMap<>();

    /**
     * One job with the placement of the vCPUs read just before and after it
     * ({@code impl=I np=N rep=R PLACE before|after ns}, bench/cpu_pair.c).
     */
    static final class Job {
        String impl, test, np, kind;
        final TreeMap<Integer, double[]> rounds = new TreeMap<>();   // round or call -> {µs, stall µs} or {ms, bytes}
        double before = Double.NaN, after = Double.NaN;

        /** True (one core complex) or false (two) where both readings agree; else null. */
        Boolean fast() {
            return Report.placement(before, after);
        }

        double mean() {
            double sum = 0;
            for (double[] r : rounds.values()) sum += r[0];
            return sum / rounds.size();
        }
    }

    /** "impl rep" -> job, in the order of the raw lines. */
    final Map<String, Job> jobs = new LinkedHashMap<>();

    static ColdStartReport parse(List<String> lines) {
        ColdStartReport r = new ColdStartReport();
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            // impl=I np=N rep=R COLD test kind index a [b], or impl=I np=2 rep=R PLACE when ns
            if (f.length < 6 || !f[0].startsWith("impl=") || !f[1].startsWith("np=") || !f[2].startsWith("rep=")) continue;
            String job = f[0].substring(5) + " " + f[2].substring(4);
            try {
                if (f[3].equals("PLACE")) {
                    Job j = r.jobs.computeIfAbsent(job, k -> new Job());
                    if (f[4].equals("before")) j.before = Double.parseDouble(f[5]);
                    else if (f[4].equals("after")) j.after = Double.parseDouble(f[5]);
                    continue;
                }
                if (f.length < 8 || !f[3].equals("COLD")) continue;
                String key = f[4] + " " + f[1].substring(3) + " " + f[0].substring(5) + " " + f[5];
                int index = Integer.parseInt(f[6]);
                double a = Double.parseDouble(f[7]), b = f.length > 8 ? Double.parseDouble(f[8]) : Double.NaN;
                Point p = r.data.computeIfAbsent(key, k -> new TreeMap<>()).computeIfAbsent(index, k -> new Point());
                p.a.add(a);
                if (f.length > 8) p.b.add(b);
                Job j = r.jobs.computeIfAbsent(job, k -> new Job());
                j.impl = f[0].substring(5);
                j.test = f[4];
                j.np = f[1].substring(3);
                j.kind = f[5];
                j.rounds.put(index, new double[] {a, b});
            } catch (NumberFormatException e) {
                // not one of ours
            }
        }
        return r;
    }

    public static void main(String[] args) throws IOException {
        ColdStartReport r = parse(Files.readAllLines(Path.of(args[0])));
        int cores = args.length > 2 ? Integer.parseInt(args[2]) : Runtime.getRuntime().availableProcessors();
        System.out.print(r.markdown(cores));
        if (args.length > 1) {
            for (Path p : r.charts(Path.of(args[1]))) System.err.println("chart: " + p);
        }
    }

    static double median(List<Double> v) {
        return OsuCharts.median(v);
    }

    private List<String> nps(String test) {
        TreeMap<Integer, String> nps = new TreeMap<>();
        for (String k : data.keySet()) {
            String[] p = k.split(" ");
            if (p[0].equals(test)) nps.put(Integer.parseInt(p[1]), p[1]);
        }
        return new ArrayList<>(nps.values());
    }

    /** The series of one test and np that have data, in {@link #SERIES} order: key -> name. */
    private Map<String, String> present(String test, String np) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String[] s : SERIES) if (data.containsKey(test + " " + np + " " + s[0])) m.put(s[0], s[1]);
        return m;
    }

    String markdown(int cores) {
        StringBuilder md = new StringBuilder();
        for (String np : nps("lat")) latencyTable(md, np, cores);
        placementTable(md);
        for (String np : nps("allreduce")) allreduceTable(md, np);
        allreducePlacementTable(md);
        return md.toString();
    }

    /** C's mean of its per-round medians: the reference of the latency target. */
    double cAverage(String np) {
        TreeMap<Integer, Point> c = data.get("lat " + np + " c c");
        if (c == null || c.isEmpty()) return Double.NaN;
        double sum = 0;
        for (Point p : c.values()) sum += median(p.a);
        return sum / c.size();
    }

    /** Whether a latency series meets the target: {averages ok, stalls ok}. */
    boolean[] latencyVerdict(String np, String series) {
        double ref = cAverage(np);
        boolean avgOk = true, stallOk = true;
        for (Point p : data.get("lat " + np + " " + series).values()) {
            if (!(median(p.a) <= LAT_FACTOR * ref)) avgOk = false;
            if (!p.b.isEmpty() && Collections.max(p.b) > STALL_LIMIT_US) stallOk = false;
        }
        return new boolean[] {avgOk, stallOk};
    }

    /** Steady state (median of the last half of the calls) and the worst ratio from call 3. */
    double[] allreduceSteady(String np, String series) {
        List<Double> meds = new ArrayList<>();
        for (Point p : data.get("allreduce " + np + " " + series).values()) meds.add(median(p.a));
        return steadyAndWorst(meds);
    }

    /** From per-call times: the steady state (median of the last half) and the worst call from the third ÷ it. */
    static double[] steadyAndWorst(List<Double> perCall) {
        double steady = median(perCall.subList(perCall.size() / 2, perCall.size()));
        double worst = 0;
        for (int i = 2; i < perCall.size(); i++) worst = Math.max(worst, perCall.get(i) / steady);
        return new double[] {steady, worst};
    }

    private void latencyTable(StringBuilder md, String np, int cores) {
        Map<String, String> series = present("lat", np);
        TreeMap<Integer, Boolean> rounds = new TreeMap<>();
        for (String s : series.keySet()) for (int r : data.get("lat " + np + " " + s).keySet()) rounds.put(r, true);
        md.append("\n### Cold start: 8-byte ping-pong, np ").append(np)
                .append(": per round, average one-way latency / largest single round trip ÷ 2, µs\n\n");
        md.append("| round |");
        for (String name : series.values()) md.append(' ').append(name).append(" |");
        md.append("\n|---:|");
        for (int i = 0; i < series.size(); i++) md.append("---:|");
        md.append('\n');
        for (int r : rounds.keySet()) {
            md.append("| ").append(r).append(" |");
            for (String s : series.keySet()) {
                Point p = data.get("lat " + np + " " + s).get(r);
                md.append(' ').append(p == null ? "–" : fmt("%.3f / %.1f", median(p.a), p.b.isEmpty() ? Double.NaN
                        : Collections.max(p.b))).append(" |");
            }
            md.append('\n');
        }
        double ref = cAverage(np);
        md.append("| target |");
        for (String s : series.keySet()) {
            if (s.equals("c c")) {
                md.append(fmt(" mean %.3f |", ref));
                continue;
            }
            if (Double.isNaN(ref)) {
                md.append(" no C reference |");
                continue;
            }
            boolean[] v = latencyVerdict(np, s);
            md.append(" ≤ 2×C").append(v[0] ? " ✓" : " ✗").append(", ≤ 1 ms").append(v[1] ? " ✓" : " ✗").append(" |");
        }
        md.append('\n');
        if (Integer.parseInt(np) > cores) {
            md.append("\n(").append(np).append(" ranks on ").append(cores)
                    .append(" cores: the 1 ms stall target assumes ranks ≤ cores.)\n");
        }
    }

    /** The jobs of one test, np and series ("impl kind") in one placement. */
    private List<Job> jobsOf(String test, String np, String series, boolean fast) {
        List<Job> out = new ArrayList<>();
        for (Job j : jobs.values()) {
            if (test.equals(j.test) && np.equals(j.np) && (j.impl + " " + j.kind).equals(series)
                    && Boolean.valueOf(fast).equals(j.fast())) {
                out.add(j);
            }
        }
        return out;
    }

    /** C's ping-pong reference in one placement: the median of the per-job means of the C jobs in it. */
    double cAverage(boolean fast) {
        List<Double> means = new ArrayList<>();
        for (Job j : jobsOf("lat", "2", "c c", fast)) means.add(j.mean());
        return means.isEmpty() ? Double.NaN : median(means);
    }

    /** Per index (round or call), the values of these jobs. */
    private static TreeMap<Integer, List<Double>> byIndex(List<Job> js) {
        TreeMap<Integer, List<Double>> out = new TreeMap<>();
        for (Job j : js) {
            for (Map.Entry<Integer, double[]> e : j.rounds.entrySet()) {
                out.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()[0]);
            }
        }
        return out;
    }

    /** Jobs whose placement changed or was not read, as "impl rep", where any placement was read. */
    private List<String> unplaced(String test) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Job> e : jobs.entrySet()) {
            if (test.equals(e.getValue().test) && e.getValue().fast() == null) out.add(e.getKey());
        }
        return out;
    }

    /** Whether any job of this test had its placement read. */
    private boolean placementRead(String test) {
        for (Job j : jobs.values()) if (test.equals(j.test) && !Double.isNaN(j.before)) return true;
        return false;
    }

    /**
     * Item 1b's ping-pong target where like is compared with like: each series' jobs in one
     * placement of the two vCPUs (both readings agree) against C's jobs in the same placement.
     * C's 8-byte latency is about 2.3 times as long with the vCPUs apart, so a Java job that
     * drew that placement next to C jobs that did not would miss by the machine, not by itself.
     */
    private void placementTable(StringBuilder md) {
        if (!placementRead("lat")) return;
        md.append("\n### Cold start: 8-byte ping-pong, np 2, by placement of the two vCPUs\n\n")
                .append("Jobs whose cpu_pair readings before and after agree (a cache line's one-way time under ")
                .append(fmt("%.0f", Report.FAST_LINE_NS)).append(" ns: one core complex, else two). Per round, the median ")
                .append("over the series' jobs in that placement, against C's jobs in the same placement (the median of ")
                .append("their means).\n\n");
        md.append("| series | placement | jobs | C, µs (jobs) | rounds over 2× C | worst round ÷ C | largest stall, µs | target |\n");
        md.append("|---|---|---:|---:|---|---:|---:|---|\n");
        for (String[] s : SERIES) {
            if (s[0].equals("c c")) continue;
            for (boolean fast : new boolean[] {true, false}) {
                List<Job> js = jobsOf("lat", "2", s[0], fast);
                if (js.isEmpty()) continue;
                double ref = cAverage(fast);
                TreeMap<Integer, List<Double>> perRound = byIndex(js);
                double stall = 0;
                for (Job j : js) {
                    for (double[] v : j.rounds.values()) if (!Double.isNaN(v[1])) stall = Math.max(stall, v[1]);
                }
                List<String> over = new ArrayList<>();
                double worst = 0;
                for (Map.Entry<Integer, List<Double>> e : perRound.entrySet()) {
                    double ratio = median(e.getValue()) / ref;
                    worst = Math.max(worst, ratio);
                    if (ratio > LAT_FACTOR) over.add(String.valueOf(e.getKey()));
                }
                md.append("| ").append(s[1]).append(" | ").append(fast ? "one" : "two").append(" | ").append(js.size());
                if (Double.isNaN(ref)) {
                    md.append(" | no C job | | | ").append(fmt("%.1f", stall)).append(" | ≤ 1 ms")
                            .append(stall <= STALL_LIMIT_US ? " ✓" : " ✗").append(" |\n");
                    continue;
                }
                md.append(fmt(" | %.3f (%d) | ", ref, jobsOf("lat", "2", "c c", fast).size()))
                        .append(over.isEmpty() ? "none" : String.join(", ", over))
                        .append(fmt(" | %.2f | %.1f | ", worst, stall))
                        .append("≤ 2×C").append(over.isEmpty() ? " ✓" : " ✗")
                        .append(", ≤ 1 ms").append(stall <= STALL_LIMIT_US ? " ✓" : " ✗").append(" |\n");
            }
        }
        leftOut(md, "lat");
    }

    private void leftOut(StringBuilder md, String test) {
        List<String> moved = unplaced(test);
        if (!moved.isEmpty()) {
            md.append("\nLeft out, the placement changed during the job or was not read: ")
                    .append(String.join(", ", moved)).append(".\n");
        }
    }

    /**
     * Item 1b's allreduce target per placement: a 16 MiB allreduce through the fabric's
     * shared-memory slots takes about three times as long with the vCPUs apart (C's does not
     * change), so a job whose placement flips between its calls shows a step that is the
     * machine's. Per np, series and placement, over the jobs whose two readings agree: the
     * per-call median, its steady state (median of the last half) and the worst call from the
     * third on ÷ that.
     */
    private void allreducePlacementTable(StringBuilder md) {
        if (!placementRead("allreduce")) return;
        md.append("\n### Cold start: successive allreduces by placement of the two vCPUs\n\n")
                .append("Jobs whose cpu_pair readings before and after agree; per call the median over those jobs.\n\n");
        md.append("| np | series | placement | jobs | steady, ms | worst from call 3 ÷ steady | target |\n");
        md.append("|---:|---|---|---:|---:|---:|---|\n");
        for (String np : nps("allreduce")) {
            for (String[] s : SERIES) {
                for (boolean fast : new boolean[] {true, false}) {
                    List<Job> js = jobsOf("allreduce", np, s[0], fast);
                    if (js.isEmpty()) continue;
                    List<Double> meds = new ArrayList<>();
                    for (List<Double> v : byIndex(js).values()) meds.add(median(v));
                    double[] sw = steadyAndWorst(meds);
                    md.append("| ").append(np).append(" | ").append(s[1]).append(" | ").append(fast ? "one" : "two")
                            .append(" | ").append(js.size()).append(fmt(" | %.2f | %.2f | ", sw[0], sw[1]))
                            .append(s[0].equals("c c") ? "" : sw[1] <= ALLREDUCE_FACTOR ? "✓" : "✗").append(" |\n");
                }
            }
        }
        leftOut(md, "allreduce");
    }

    private void allreduceTable(StringBuilder md, String np) {
        Map<String, String> series = present("allreduce", np);
        TreeMap<Integer, Boolean> calls = new TreeMap<>();
        for (String s : series.keySet()) for (int c : data.get("allreduce " + np + " " + s).keySet()) calls.put(c, true);
        String bytes = "";
        for (String s : series.keySet()) {
            for (Point p : data.get("allreduce " + np + " " + s).values()) {
                if (!p.b.isEmpty()) {
                    String b = SvgChart.bytes(p.b.get(0));
                    bytes = b + (Character.isDigit(b.charAt(b.length() - 1)) ? " bytes " : "iB ");
                }
            }
        }
        md.append("\n### Cold start: successive ").append(bytes).append("allreduces of doubles, np ").append(np)
                .append(": each call, ms (slowest rank; median over jobs)\n\n");
        md.append("| call |");
        for (String name : series.values()) md.append(' ').append(name).append(" |");
        md.append("\n|---:|");
        for (int i = 0; i < series.size(); i++) md.append("---:|");
        md.append('\n');
        for (int c : calls.keySet()) {
            md.append("| ").append(c).append(" |");
            for (String s : series.keySet()) {
                Point p = data.get("allreduce " + np + " " + s).get(c);
                md.append(' ').append(p == null ? "–" : fmt("%.2f", median(p.a))).append(" |");
            }
            md.append('\n');
        }
        md.append("| steady (median of last half) |");
        for (String s : series.keySet()) md.append(fmt(" %.2f |", allreduceSteady(np, s)[0]));
        md.append("\n| worst from call 3 ÷ steady |");
        for (String s : series.keySet()) {
            double w = allreduceSteady(np, s)[1];
            md.append(fmt(" %.2f", w)).append(s.equals("c c") ? "" : w <= ALLREDUCE_FACTOR ? " ✓" : " ✗").append(" |");
        }
        md.append('\n');
    }

    /** Latency per round, stall per round and allreduce per call, one chart each (per np). */
    List<Path> charts(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        for (String np : nps("lat")) {
            SvgChart avg = new SvgChart("Cold start: 8-byte ping-pong, np " + np, "round (PER round trips each, see machine.txt)",
                    "average one-way latency (µs), log scale", false, true);
            SvgChart stall = new SvgChart("Cold start: worst message per round, np " + np, "round",
                    "largest round trip / 2 (µs), log scale", false, true);
            for (Map.Entry<String, String> s : present("lat", np).entrySet()) {
                TreeMap<Integer, Point> t = data.get("lat " + np + " " + s.getKey());
                double[] xs = new double[t.size()], a = new double[t.size()], b = new double[t.size()];
                int i = 0;
                boolean stalls = true;
                for (Map.Entry<Integer, Point> e : t.entrySet()) {
                    xs[i] = e.getKey();
                    a[i] = median(e.getValue().a);
                    if (e.getValue().b.isEmpty()) stalls = false;
                    else b[i] = Collections.max(e.getValue().b);
                    i++;
                }
                avg.add(s.getValue(), xs, a);
                if (stalls) stall.add(s.getValue(), xs, b);
            }
            write(avg, dir.resolve("coldstart-lat-np" + np + ".svg"), out);
            write(stall, dir.resolve("coldstart-stall-np" + np + ".svg"), out);
        }
        for (String np : nps("allreduce")) {
            SvgChart c = new SvgChart("Cold start: allreduce per call, np " + np, "call",
                    "time (ms), log scale", false, true);
            for (Map.Entry<String, String> s : present("allreduce", np).entrySet()) {
                TreeMap<Integer, Point> t = data.get("allreduce " + np + " " + s.getKey());
                double[] xs = new double[t.size()], a = new double[t.size()];
                int i = 0;
                for (Map.Entry<Integer, Point> e : t.entrySet()) {
                    xs[i] = e.getKey();
                    a[i++] = median(e.getValue().a);
                }
                c.add(s.getValue(), xs, a);
            }
            write(c, dir.resolve("coldstart-allreduce-np" + np + ".svg"), out);
        }
        return out;
    }

    private static void write(SvgChart c, Path file, List<Path> out) throws IOException {
        if (c.seriesCount() == 0) return;
        c.write(file);
        out.add(file);
    }

    private static String fmt(String f, Object... a) {
        return String.format(Locale.ROOT, f, a);
    }
}
