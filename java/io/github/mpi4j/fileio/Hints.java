package io.github.mpi4j.fileio;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The MPI_Info hints of one open file on the fabric. The collective-buffering ones (ROMIO's names)
 * steer {@link TwoPhase}: {@code cb_nodes} (how many ranks aggregate; all of them by default),
 * {@code cb_buffer_size} (bytes an aggregator handles per round; 16 MiB by default, as ROMIO),
 * {@code romio_cb_write} and {@code romio_cb_read} ({@code enable}, {@code disable} or
 * {@code automatic}: aggregate when the ranks' accesses interleave and are not contiguous).
 * A value that does not parse is ignored, as MPI lets implementations ignore hints; every
 * other key is kept and reported as given.
 */
final class Hints {
    static final String CB_NODES = "cb_nodes", CB_BUFFER_SIZE = "cb_buffer_size", CB_WRITE = "romio_cb_write",
            CB_READ = "romio_cb_read";
    static final int DEFAULT_BUFFER = 16 << 20;

    /** 0: every rank aggregates. */
    final int cbNodes;
    final int cbBufferSize;
    final String cbWrite;
    final String cbRead;
    private final Map<String, String> others;

    static final Hints DEFAULT = new Hints(0, DEFAULT_BUFFER, "automatic", "automatic", new LinkedHashMap<>());

    private Hints(int cbNodes, int cbBufferSize, String cbWrite, String cbRead, Map<String, String> others) {
        this.cbNodes = cbNodes;
        this.cbBufferSize = cbBufferSize;
        this.cbWrite = cbWrite;
        this.cbRead = cbRead;
        this.others = others;
    }

    /** These hints with {@code given} applied over them. */
    Hints with(Map<String, String> given) {
        int nodes = cbNodes, buffer = cbBufferSize;
        String w = cbWrite, r = cbRead;
        Map<String, String> o = new LinkedHashMap<>(others);
        for (Map.Entry<String, String> e : given.entrySet()) {
            String k = e.getKey(), v = e.getValue() == null ? "" : e.getValue().trim();
            switch (k) {
                case CB_NODES:
                    nodes = positive(v, nodes);
                    break;
                case CB_BUFFER_SIZE:
                    buffer = positive(v, buffer);
                    break;
                case CB_WRITE:
                    w = mode(v, w);
                    break;
                case CB_READ:
                    r = mode(v, r);
                    break;
                default:
                    o.put(k, e.getValue());
            }
        }
        return new Hints(nodes, buffer, w, r, o);
    }

    /** The aggregators used with {@code size} ranks. */
    int aggregators(int size) {
        return cbNodes <= 0 ? size : Math.min(cbNodes, size);
    }

    /** Every hint in effect, the collective-buffering ones with the values used. */
    Map<String, String> inEffect(int size) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(CB_NODES, Integer.toString(aggregators(size)));
        m.put(CB_BUFFER_SIZE, Integer.toString(cbBufferSize));
        m.put(CB_WRITE, cbWrite);
        m.put(CB_READ, cbRead);
        m.putAll(others);
        return m;
    }

    private static int positive(String v, int otherwise) {
        try {
            long n = Long.parseLong(v);
            return n > 0 ? (int) Math.min(n, 1 << 30) : otherwise;
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    private static String mode(String v, String otherwise) {
        String m = v.toLowerCase(java.util.Locale.ROOT);
        return m.equals("enable") || m.equals("disable") || m.equals("automatic") ? m : otherwise;
    }
}
