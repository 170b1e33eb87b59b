package io.github.mpi4j.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SVG charts of bench/run.sh's latency, bandwidth and allreduce results (the raw lines
 * {@code np=N rep=R RESULT test kind bytes value} that {@link Report} reads): value against
 * message size on a logarithmic size axis, one series per implementation (Java arrays, Java
 * direct buffers, C, raw TCP where measured), the median over repetitions.
 *
 * <pre>
 *   OsuCharts raw.txt outdir [label]      writes latency.svg, bw.svg, allreduce-np&lt;N&gt;.svg
 * </pre>
 */
public final class OsuCharts {
    private OsuCharts() {
    }

    /** Kinds in the raw lines and their names in the legend, in legend order. */
    private static final String[][] KINDS = {{"array", "Java arrays"}, {"direct", "Java direct"}, {"c", "C"},
        {"raw", "raw TCP"}};

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: OsuCharts raw.txt outdir [label]");
            System.exit(2);
        }
        String label = args.length > 2 ? args[2] : "";
        List<Path> written = write(Files.readAllLines(Path.of(args[0])), Path.of(args[1]), label);
        for (Path p : written) System.err.println("chart: " + p);
    }

    /** Parses the raw lines: "np test kind" -> bytes -> values over repetitions. */
    static Map<String, TreeMap<Long, List<Double>>> parse(List<String> lines) {
        Map<String, TreeMap<Long, List<Double>>> v = new TreeMap<>();
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 7 || !f[2].equals("RESULT") || !f[0].startsWith("np=")) continue;
            try {
                long bytes = Long.parseLong(f[5]);
                double value = Double.parseDouble(f[6]);
                v.computeIfAbsent(f[0].substring(3) + " " + f[3] + " " + f[4], k -> new TreeMap<>())
                        .computeIfAbsent(bytes, k -> new ArrayList<>()).add(value);
            } catch (NumberFormatException e) {
                // not a result line of ours
            }
        }
        return v;
    }

    /** Writes the charts the lines allow; returns their paths. */
    static List<Path> write(List<String> lines, Path dir, String label) throws IOException {
        Map<String, TreeMap<Long, List<Double>>> v = parse(lines);
        String suffix = label.isEmpty() ? "" : " (" + label + ")";
        List<Path> out = new ArrayList<>();
        chart(v, "2", "latency", new SvgChart("One-way latency, np 2" + suffix, "message size (bytes)",
                "latency (µs), log scale", true, true), dir.resolve("latency.svg"), out);
        chart(v, "2", "bw", new SvgChart("Bandwidth, np 2" + suffix, "message size (bytes)", "bandwidth (MB/s)", true, false),
                dir.resolve("bw.svg"), out);
        for (String np : nps(v)) {
            chart(v, np, "allreduce", new SvgChart("Allreduce of doubles, np " + np + suffix, "message size (bytes)",
                    "time per call (µs), log scale", true, true), dir.resolve("allreduce-np" + np + ".svg"), out);
        }
        return out;
    }

    private static List<String> nps(Map<String, TreeMap<Long, List<Double>>> v) {
        TreeMap<Integer, String> nps = new TreeMap<>();
        for (String k : v.keySet()) {
            String[] p = k.split(" ");
            if (p[1].equals("allreduce")) nps.put(Integer.parseInt(p[0]), p[0]);
        }
        return new ArrayList<>(nps.values());
    }

    private static void chart(Map<String, TreeMap<Long, List<Double>>> v, String np, String test, SvgChart c, Path file,
                              List<Path> out) throws IOException {
        for (String[] kind : KINDS) {
            TreeMap<Long, List<Double>> s = v.get(np + " " + test + " " + kind[0]);
            if (s == null || s.isEmpty()) continue;
            double[] xs = new double[s.size()], ys = new double[s.size()];
            int i = 0;
            for (Map.Entry<Long, List<Double>> e : s.entrySet()) {
                xs[i] = e.getKey();
                ys[i++] = median(e.getValue());
            }
            c.add(kind[1], xs, ys);
        }
        if (c.seriesCount() == 0) return;
        c.write(file);
        out.add(file);
    }

    static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
