package io.github.mpi4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Table and chart of bench/run.sh overlap: the raw lines
 * {@code impl=I np=N rep=R OVERLAP kind bytes pureUs computeUs overallUs overlapPct} of
 * {@link Overlap} and its C twin; medians over repetitions. Targets of issue 12 item 5: the
 * fabric ≥ 80% overlap, the MPI backend (with or without asynchronous progress) ≥ C's overlap
 * (same np and size), marked ✓/✗.
 * <pre>
 *   OverlapReport raw.txt [outdir]      markdown on stdout, overlap.svg into outdir
 * </pre>
 */
public final class OverlapReport {
    private OverlapReport() {
    }

    /**
     * Busy computation (OSU's), then the same with the computation a sleep ({@link Overlap#idle}).
     * "mpi-async": the MPI backend with MPI4J_ASYNC_PROGRESS=1 (a helper thread drives MPI's progress).
     */
    private static final String[][] SERIES = {{"c c", "C"}, {"fabric array", "fabric, arrays"},
        {"fabric direct", "fabric, direct"}, {"mpi array", "MPI backend, arrays"}, {"mpi direct", "MPI backend, direct"},
        {"mpi-async array", "MPI backend + async progress, arrays"},
        {"mpi-async direct", "MPI backend + async progress, direct"},
        {"c c-idle", "C, idle compute"}, {"fabric array-idle", "fabric, arrays, idle compute"},
        {"fabric direct-idle", "fabric, direct, idle compute"}, {"mpi array-idle", "MPI backend, arrays, idle compute"},
        {"mpi direct-idle", "MPI backend, direct, idle compute"},
        {"mpi-async array-idle", "MPI backend + async progress, arrays, idle compute"},
        {"mpi-async direct-idle", "MPI backend + async progress, direct, idle compute"}};

    static final double FABRIC_TARGET_PCT = 80;

    /** "np bytes" -> series -> {pure, compute, overall, overlap} lists over repetitions. */
    final Map<String, Map<String, List<double[]>>> data = new TreeMap<>((a, b) -> {
        String[] x = a.split(" "), y = b.split(" ");
        int c = Integer.compare(Integer.parseInt(x[0]), Integer.parseInt(y[0]));
        return c != 0 ? c : Long.compare(Long.parseLong(x[1]), Long.parseLong(y[1]));
    });

    static OverlapReport parse(List<String> lines) {
        OverlapReport r = new OverlapReport();
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            // impl=I np=N rep=R OVERLAP kind bytes pure compute overall pct
            if (f.length < 10 || !f[3].equals("OVERLAP") || !f[0].startsWith("impl=") || !f[1].startsWith("np=")) continue;
            try {
                double[] v = {Double.parseDouble(f[6]), Double.parseDouble(f[7]), Double.parseDouble(f[8]),
                    Double.parseDouble(f[9])};
                String key = Integer.parseInt(f[1].substring(3)) + " " + Long.parseLong(f[5]);
                r.data.computeIfAbsent(key, k -> new LinkedHashMap<>())
                        .computeIfAbsent(f[0].substring(5) + " " + f[4], k -> new ArrayList<>()).add(v);
            } catch (NumberFormatException e) {
                // not one of ours
            }
        }
        return r;
    }

    public static void main(String[] args) throws IOException {
        OverlapReport r = parse(Files.readAllLines(Path.of(args[0])));
        System.out.print(r.markdown());
        if (args.length > 1) {
            Path p = r.chart(Path.of(args[1]));
            if (p != null) System.err.println("chart: " + p);
        }
    }

    /** Medians over repetitions of pure, compute, overall and overlap. */
    static double[] medians(List<double[]> reps) {
        double[] m = new double[4];
        for (int i = 0; i < 4; i++) {
            List<Double> v = new ArrayList<>();
            for (double[] r : reps) v.add(r[i]);
            m[i] = OsuCharts.median(v);
        }
        return m;
    }

    /** " ✓"/" ✗" for a series' overlap at one np and size, "" where no target applies. */
    String mark(String key, String series) {
        double pct = medians(data.get(key).get(series))[3];
        if (series.startsWith("fabric ")) return pct >= FABRIC_TARGET_PCT ? " ✓" : " ✗";
        if (series.startsWith("mpi ") || series.startsWith("mpi-async ")) {
            List<double[]> c = data.get(key).get(series.endsWith("-idle") ? "c c-idle" : "c c");
            if (c == null) return "";
            return pct >= medians(c)[3] ? " ✓" : " ✗";
        }
        return "";
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("\n### Overlap of a non-blocking allreduce with computation (osu_iallreduce style)\n\n");
        md.append("Times in µs (mean over ranks, median over runs); overlap % = max(0, 100·(1 − (overall − compute)/pure)); "
                + "targets: fabric ≥ 80%, MPI backend ≥ C. \"idle compute\": the computation is a sleep of the same length "
                + "(the core is free for progress).\n\n");
        md.append("| np | bytes | implementation | pure | compute | overall | overlap % |\n");
        md.append("|---:|---:|---|---:|---:|---:|---:|\n");
        for (Map.Entry<String, Map<String, List<double[]>>> e : data.entrySet()) {
            String[] k = e.getKey().split(" ");
            for (String[] s : SERIES) {
                List<double[]> reps = e.getValue().get(s[0]);
                if (reps == null) continue;
                double[] m = medians(reps);
                md.append(fmt("| %s | %s | %s | %.1f | %.1f | %.1f | %.1f%s |\n", k[0], SvgChart.bytes(Long.parseLong(k[1])),
                        s[1], m[0], m[1], m[2], m[3], mark(e.getKey(), s[0])));
            }
        }
        return md.toString();
    }

    /** Overlap % against size, one series per implementation and np. */
    Path chart(Path dir) throws IOException {
        SvgChart c = new SvgChart("Overlap of iallreduce with computation", "message size (bytes)", "overlap (%)",
                true, false).yTop(100);
        TreeMap<Integer, Boolean> nps = new TreeMap<>();
        for (String k : data.keySet()) nps.put(Integer.parseInt(k.split(" ")[0]), true);
        for (int np : nps.keySet()) {
            for (String[] s : SERIES) {
                List<Double> xs = new ArrayList<>(), ys = new ArrayList<>();
                for (Map.Entry<String, Map<String, List<double[]>>> e : data.entrySet()) {
                    String[] k = e.getKey().split(" ");
                    if (Integer.parseInt(k[0]) != np || !e.getValue().containsKey(s[0])) continue;
                    xs.add(Double.parseDouble(k[1]));
                    ys.add(medians(e.getValue().get(s[0]))[3]);
                }
                if (xs.isEmpty()) continue;
                double[] x = new double[xs.size()], y = new double[ys.size()];
                for (int i = 0; i < x.length; i++) {
                    x[i] = xs.get(i);
                    y[i] = ys.get(i);
                }
                c.add(s[1] + ", np " + np, x, y);
            }
        }
        if (c.seriesCount() == 0) return null;
        Path file = dir.resolve("overlap.svg");
        c.write(file);
        return file;
    }

    private static String fmt(String f, Object... a) {
        return String.format(Locale.ROOT, f, a);
    }
}
