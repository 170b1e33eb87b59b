package io.github.mpi4j.bench;

import io.github.mpi4j.fabric.coll.Prediction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The model-only part of the scaling study (docs/scaling.md): for 64 to 1024 ranks, one per
 * node, on 10 and 100 Gb/s links, the algorithm the fabric's cost model picks for each
 * collective and size and the time it predicts, next to what Open MPI 4.1's tuned component
 * picks for the same case ({@link OmpiTuned41}).
 * <pre>
 *   ScalingModel [alpha10Us alpha100Us gammaNsPerKiB]
 * </pre>
 * Defaults: 25 µs per message on 10 Gb/s (the fabric's {@code MPI4J_COLL_NET_ALPHA_US}: TCP
 * over Ethernet), 10 µs on 100 Gb/s (TCP, a faster NIC and switch; not RDMA), and the
 * fabric's reduction cost, 100 ns/KiB. Beta is the link's rate: 0.8 ns/B on 10 Gb/s, 0.08 ns/B
 * on 100 Gb/s. Prints markdown.
 */
public final class ScalingModel {
    private ScalingModel() {
    }

    static final int[] RANKS = {64, 128, 256, 512, 1024};
    static final long[] SIZES = {8, 64, 512, 4096, 32768, 262144, 2097152, 16777216, 134217728, 268435456};
    static final String[] COLLS = {"allreduce", "bcast", "allgather", "reduce_scatter_block"};

    /** One link's constants. */
    record Link(String name, double gbit, double alphaUs, double gammaNsPerKiB) {
        Prediction model() {
            return Prediction.network(alphaUs, gbit, gammaNsPerKiB);
        }
    }

    /** One cell: the fabric's choice and time, and Open MPI's choice; null choice where the case does not exist. */
    record Cell(Prediction.Choice fabric, String ompi) {
    }

    public static void main(String[] args) {
        double a10 = args.length > 0 ? Double.parseDouble(args[0]) : 25;
        double a100 = args.length > 1 ? Double.parseDouble(args[1]) : 10;
        double gamma = args.length > 2 ? Double.parseDouble(args[2]) : 100;
        System.out.print(render(List.of(new Link("10 Gb/s", 10, a10, gamma), new Link("100 Gb/s", 100, a100, gamma))));
    }

    /**
     * The case of {@code coll} at {@code bytes} (the whole vector) over p ranks, or a cell with
     * a null choice where each rank's block would be less than one double.
     */
    static Cell cell(Prediction m, String coll, long bytes, int p) {
        switch (coll) {
            case "allreduce":
                return new Cell(m.allReduce(bytes, p, false), OmpiTuned41.allReduce(bytes, p));
            case "bcast":
                return new Cell(m.bcast(bytes, p), OmpiTuned41.bcast(bytes, p));
            case "allgather":
                if (bytes / p < 8) return new Cell(null, null);
                return new Cell(m.allGather(bytes, p), OmpiTuned41.allGather(bytes / p, p));
            case "reduce_scatter_block":
                if (bytes / p < 8) return new Cell(null, null);
                return new Cell(m.reduceScatterBlock(bytes, p), OmpiTuned41.reduceScatterBlock(bytes / p, p));
            case "barrier":
                return new Cell(m.barrier(p), OmpiTuned41.barrier(p));
            default:
                throw new IllegalArgumentException(coll);
        }
    }

    static String render(List<Link> links) {
        StringBuilder sb = new StringBuilder();
        for (Link l : links) {
            Prediction m = l.model();
            sb.append(String.format(Locale.ROOT, "### %s: alpha %.0f µs, beta %.3g ns/B, gamma %.0f ns/KiB%n%n", l.name(),
                    l.alphaUs(), m.beta() * 1e9, l.gammaNsPerKiB()));
            for (String coll : COLLS) {
                sb.append("**").append(coll).append("** (size: ")
                        .append(coll.equals("allreduce") || coll.equals("bcast") ? "the message"
                                : "the whole vector; each rank's block is size / ranks, Open MPI's key")
                        .append("): fabric's choice, predicted time; Open MPI 4.1 tuned's choice\n\n");
                header(sb, "size");
                for (long s : SIZES) {
                    sb.append("| ").append(size(s)).append(" |");
                    for (int p : RANKS) sb.append(' ').append(text(cell(m, coll, s, p))).append(" |");
                    sb.append('\n');
                }
                sb.append('\n');
            }
            sb.append("**barrier**\n\n");
            header(sb, "");
            sb.append("| |");
            for (int p : RANKS) sb.append(' ').append(text(cell(m, "barrier", 0, p))).append(" |");
            sb.append("\n\n");
        }
        return sb.toString();
    }

    private static void header(StringBuilder sb, String first) {
        sb.append("| ").append(first).append(" |");
        List<String> dashes = new ArrayList<>();
        dashes.add("---");
        for (int p : RANKS) {
            sb.append(' ').append(p).append(" ranks |");
            dashes.add("---");
        }
        sb.append("\n|").append(String.join("|", dashes)).append("|\n");
    }

    static String text(Cell c) {
        if (c.fabric() == null) return "—";
        return c.fabric().algorithm() + " " + time(c.fabric().seconds()) + "; " + c.ompi();
    }

    static String size(long b) {
        if (b >= 1 << 20) return (b >> 20) + " MiB";
        if (b >= 1 << 10) return (b >> 10) + " KiB";
        return b + " B";
    }

    static String time(double s) {
        if (s >= 1) return String.format(Locale.ROOT, "%.2f s", s);
        if (s >= 1e-3) return String.format(Locale.ROOT, "%.3g ms", s * 1e3);
        return String.format(Locale.ROOT, "%.3g µs", s * 1e6);
    }
}
