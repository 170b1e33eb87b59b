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
 * The table of bench/run.sh gpu-overhead: per case, the median over repetitions of the C
 * caller's and of Java's nanoseconds per call (lines
 * {@code rep=R RESULT gpu-overhead c|java <case> <ns>}), the difference Java − C, that difference
 * per NCCL call (a group is two calls, {@code ncclGroupStart} and {@code ncclGroupEnd}; a
 * send/receive pair in a group four) and whether it is within issue 9's target (0.3 µs per NCCL
 * call). A Java case {@code X-raw} (raw device addresses) is compared with the C case {@code X}.
 * Where the C twin also reports {@code c-nonblocking} (the same calls on a non-blocking
 * communicator, the kind mpi4j makes), a column shows it and Java's difference to it: the part
 * of Java − C that NCCL's non-blocking mode costs C too. The verdict stays against blocking C.
 * <pre>
 *   GpuOverheadReport raw.txt
 * </pre>
 */
public final class GpuOverheadReport {
    private GpuOverheadReport() {
    }

    /** Issue 9's target: what mpi4j may add to one NCCL call. */
    static final double TARGET_NS = 300;

    public static void main(String[] args) throws IOException {
        Map<String, List<Double>> c = new TreeMap<>();
        Map<String, List<Double>> cNonBlocking = new TreeMap<>();
        Map<String, List<Double>> java = new java.util.LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.trim().split("\\s+");
            // rep=R RESULT gpu-overhead impl case ns
            if (f.length < 6 || !f[1].equals("RESULT") || !f[2].equals("gpu-overhead")) continue;
            Map<String, List<Double>> into = f[3].equals("c") ? c : f[3].equals("c-nonblocking") ? cNonBlocking : java;
            into.computeIfAbsent(f[4], k -> new ArrayList<>()).add(Double.parseDouble(f[5]));
        }
        StringBuilder md = new StringBuilder();
        md.append("ns per iteration of a case, median over repetitions (spread = max/min of Java's); target: Java − C ≤ ")
                .append(fmt("%.0f", TARGET_NS)).append(" ns")
                .append(" per NCCL call\n\n")
                .append("| case | NCCL calls | C | C non-blocking | Java | Java − C | per NCCL call | Java − C non-blocking | spread | |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map.Entry<String, List<Double>> e : java.entrySet()) {
            String name = e.getKey();
            String base = name.replace("-raw", "");
            List<Double> ref = c.get(base);
            List<Double> nb = cNonBlocking.get(base);
            double j = median(e.getValue());
            double spread = Collections.max(e.getValue()) / Collections.min(e.getValue());
            int calls = ncclCalls(name);
            if (ref == null) {
                md.append(fmt("| %s | %d | – | – | %.1f | – | – | – | %.2f | no C reference |\n", name, calls, j, spread));
                continue;
            }
            double diff = j - median(ref);
            String nbCell = nb == null ? "–" : fmt("%.1f", median(nb));
            String nbDiff = nb == null ? "–" : fmt("%+.1f", j - median(nb));
            md.append(fmt("| %s | %d | %.1f | %s | %.1f | %+.1f | %+.1f | %s | %.2f | %s |\n", name, calls, median(ref), nbCell,
                    j, diff, diff / calls, nbDiff, spread, diff / calls <= TARGET_NS ? "✓" : "✗"));
        }
        System.out.print(md);
    }

    /** NCCL functions one iteration of a case calls (see NcclOverhead). */
    static int ncclCalls(String name) {
        switch (name) {
            case "group": return 2;
            case "sendrecv": return 4;
            default: return 1;
        }
    }

    static double median(List<Double> values) {
        List<Double> v = new ArrayList<>(values);
        Collections.sort(v);
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
