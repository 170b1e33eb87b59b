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

/**
 * Turns the raw lines of bench/run.sh ({@code np=N rep=R RESULT test kind bytes value}) into
 * markdown tables: the median over repetitions for C and each Java buffer kind, the ratio to C
 * (or the difference, for latency), the spread (max/min over repetitions), and whether the
 * targets of the foundation issue are met.
 */
public final class Report {
    private Report() {
    }

    /** Values of one (np, test, kind, bytes) over repetitions. */
    private static final Map<String, List<Double>> VALUES = new TreeMap<>();

    public static void main(String[] args) throws IOException {
        String backend = args.length > 1 ? args[1] : "mpi";
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 7 || !f[2].equals("RESULT")) continue;
            String np = f[0].substring(3);
            String key = np + " " + f[3] + " " + f[4] + " " + f[5];
            VALUES.computeIfAbsent(key, k -> new ArrayList<>()).add(Double.parseDouble(f[6]));
        }
        StringBuilder md = new StringBuilder();
        md.append("Backend: ").append(backend).append(". Values are medians over repetitions; spread = max/min.\n");
        table(md, "latency", "2", "one-way latency, µs (lower is better); diff = Java - C", true);
        table(md, "bw", "2", "bandwidth, MB/s (higher is better); ratio = Java / C", false);
        for (String np : new String[] {"2", "4"}) {
            table(md, "allreduce", np, "allreduce of doubles, µs per call (lower is better); ratio = Java / C", false);
            table(md, "bcast", np, "bcast, µs per call (lower is better); ratio = Java / C", false);
        }
        System.out.print(md);
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

    private static void table(StringBuilder md, String test, String np, String title, boolean diff) {
        TreeMap<Long, String[]> rows = new TreeMap<>();
        for (Map.Entry<String, List<Double>> e : VALUES.entrySet()) {
            String[] k = e.getKey().split(" ");
            if (!k[0].equals(np) || !k[1].equals(test)) continue;
            long bytes = Long.parseLong(k[3]);
            rows.computeIfAbsent(bytes, b -> new String[3]);
        }
        if (rows.isEmpty()) return;
        md.append("\n### ").append(test).append(", np ").append(np).append(": ").append(title).append("\n\n");
        md.append("| bytes | C | Java array | Java direct | array ").append(diff ? "diff" : "ratio")
                .append(" | direct ").append(diff ? "diff" : "ratio").append(" | spread C/array/direct |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---|\n");
        for (long bytes : rows.keySet()) {
            List<Double> c = VALUES.get(np + " " + test + " c " + bytes);
            List<Double> a = VALUES.get(np + " " + test + " array " + bytes);
            List<Double> d = VALUES.get(np + " " + test + " direct " + bytes);
            if (c == null || a == null || d == null) continue;
            double cm = median(c), am = median(a), dm = median(d);
            String ra = diff ? fmt("%+.3f", am - cm) : fmt("%.2f", am / cm);
            String rd = diff ? fmt("%+.3f", dm - cm) : fmt("%.2f", dm / cm);
            md.append("| ").append(bytes).append(" | ").append(fmt("%.3f", cm)).append(" | ").append(fmt("%.3f", am))
                    .append(" | ").append(fmt("%.3f", dm)).append(" | ").append(ra).append(target(test, bytes, am, cm, false))
                    .append(" | ").append(rd).append(target(test, bytes, dm, cm, true)).append(" | ")
                    .append(fmt("%.2f/%.2f/%.2f", spread(c), spread(a), spread(d))).append(" |\n");
        }
    }

    /** " ✓" / " ✗" where the foundation issue sets a target for this size. */
    private static String target(String test, long bytes, double java, double c, boolean direct) {
        switch (test) {
            case "latency":
                if (bytes > 1024) return "";
                return java - c <= (direct ? 0.15 : 0.3) ? " ✓" : " ✗";
            case "bw":
                if (bytes < 65536) return "";
                return java / c >= (direct ? 0.95 : 0.85) ? " ✓" : " ✗";
            default:
                if (bytes != 16L << 20) return "";
                return java / c <= (direct ? 1.05 : 1.15) ? " ✓" : " ✗";
        }
    }

    private static String fmt(String f, Object... a) {
        return String.format(Locale.ROOT, f, a);
    }
}
