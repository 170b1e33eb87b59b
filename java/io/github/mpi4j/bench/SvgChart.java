package io.github.mpi4j.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small line chart written as SVG, for the benchmark reports (no dependency: plain text).
 * Each series is a polyline with a marker per point; the x axis can be logarithmic in base 2
 * (message sizes, labelled 1, 4, 16, … 1K, … 16M), the y axis logarithmic in base 10
 * (latencies spanning decades) or linear from zero; a legend names the series on the right.
 *
 * <p>Every marker carries its data values as {@code data-x}/{@code data-y} attributes and every
 * polyline its series name as {@code data-series}, so a test (or a reader) can check what was
 * drawn where.
 */
public final class SvgChart {
    /** Size of the picture and of the plot area inside it, in SVG user units (pixels). */
    static final int WIDTH = 760, HEIGHT = 440, LEFT = 78, RIGHT = 200, TOP = 42, BOTTOM = 62;

    /** Colours and dash patterns of the series, in order (distinct also in greyscale). */
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
    private static final String[] DASHES = {"", "6,3", "2,3", "8,3,2,3"};

    /** One named line: points in the order given (x need not be sorted, but usually is). */
    static final class Series {
        final String name;
        final double[] xs, ys;

        Series(String name, double[] xs, double[] ys) {
            this.name = name;
            this.xs = xs;
            this.ys = ys;
        }
    }

    private final String title, xLabel, yLabel;
    private final boolean logX, logY;
    private final List<Series> series = new ArrayList<>();
    /** Top of a linear y axis chosen by the caller (NaN: from the data). */
    private double yTop = Double.NaN;
    /** Data range of the axes once {@link #render()} has computed it. */
    private double x0, x1, y0, y1;

    /**
     * @param logX x axis logarithmic, base 2 (sizes in bytes); otherwise linear
     * @param logY y axis logarithmic, base 10; otherwise linear from zero
     */
    public SvgChart(String title, String xLabel, String yLabel, boolean logX, boolean logY) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
        this.logY = logY;
    }

    /** Adds a series; values must be finite, and positive on a logarithmic axis. */
    public SvgChart add(String name, double[] xs, double[] ys) {
        if (name == null) throw new IllegalArgumentException("series name is null");
        if (xs == null || ys == null || xs.length != ys.length) {
            throw new IllegalArgumentException("series " + name + ": xs and ys must have the same length ("
                    + (xs == null ? "null" : xs.length) + " vs " + (ys == null ? "null" : ys.length) + ")");
        }
        for (int i = 0; i < xs.length; i++) {
            check(name, "x", i, xs[i], logX);
            check(name, "y", i, ys[i], logY);
        }
        series.add(new Series(name, xs.clone(), ys.clone()));
        return this;
    }

    private static void check(String name, String axis, int i, double v, boolean log) {
        if (!Double.isFinite(v) || (log && v <= 0)) {
            throw new IllegalArgumentException("series " + name + ": " + axis + "[" + i + "] = " + v
                    + (log ? " (must be finite and > 0 on a logarithmic axis)" : " (must be finite)"));
        }
    }

    /**
     * Fixes the top of a linear y axis (100 for percentages); data above it still widen the
     * axis.
     */
    public SvgChart yTop(double top) {
        if (logY || !(top > 0) || !Double.isFinite(top)) {
            throw new IllegalArgumentException("yTop = " + top + " (a finite value > 0, on a linear y axis)");
        }
        yTop = top;
        return this;
    }

    public int seriesCount() {
        return series.size();
    }

    /** The picture as an SVG document. */
    public String render() {
        range();
        StringBuilder s = new StringBuilder(4096);
        s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.append(fmt("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">\n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        s.append(fmt("<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, HEIGHT));
        s.append(fmt("<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">%s</text>\n",
                LEFT + plotWidth() / 2, esc(title)));
        axes(s);
        if (series.isEmpty()) {
            s.append(fmt("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#777\">no data</text>\n",
                    LEFT + plotWidth() / 2, TOP + plotHeight() / 2));
        }
        for (int k = 0; k < series.size(); k++) line(s, k, series.get(k));
        legend(s);
        s.append("</svg>\n");
        return s.toString();
    }

    /** Writes {@link #render()} to {@code file}, creating its directory. */
    public void write(Path file) throws IOException {
        if (file.getParent() != null) Files.createDirectories(file.getParent());
        Files.writeString(file, render(), StandardCharsets.UTF_8);
    }

    // ---- geometry ---------------------------------------------------------------------------------

    static int plotWidth() {
        return WIDTH - LEFT - RIGHT;
    }

    static int plotHeight() {
        return HEIGHT - TOP - BOTTOM;
    }

    private void range() {
        double xmin = Double.POSITIVE_INFINITY, xmax = Double.NEGATIVE_INFINITY;
        double ymin = Double.POSITIVE_INFINITY, ymax = Double.NEGATIVE_INFINITY;
        for (Series sr : series) {
            for (int i = 0; i < sr.xs.length; i++) {
                xmin = Math.min(xmin, sr.xs[i]);
                xmax = Math.max(xmax, sr.xs[i]);
                ymin = Math.min(ymin, sr.ys[i]);
                ymax = Math.max(ymax, sr.ys[i]);
            }
        }
        if (xmin > xmax) {   // no points at all
            xmin = 1;
            xmax = logX ? 1024 : 10;
            ymin = 1;
            ymax = 10;
        }
        if (logX) {
            x0 = Math.pow(2, Math.floor(log2(xmin)));
            x1 = Math.pow(2, Math.ceil(log2(xmax)));
            if (x1 <= x0) x1 = x0 * 2;
        } else {
            x0 = Math.min(0, xmin);
            x1 = niceTop(xmax);
            if (x1 <= x0) x1 = x0 + 1;
        }
        if (logY) {
            y0 = Math.pow(10, Math.floor(Math.log10(ymin)));
            y1 = Math.pow(10, Math.ceil(Math.log10(ymax)));
            if (y1 <= y0) y1 = y0 * 10;
        } else {
            y0 = Math.min(0, ymin);
            y1 = Double.isNaN(yTop) || ymax > yTop ? niceTop(ymax) : yTop;
            if (y1 <= y0) y1 = y0 + 1;
        }
    }

    /** Horizontal position of a data x value (after {@link #render()} fixed the range). */
    double px(double x) {
        double f = logX ? (log2(x) - log2(x0)) / (log2(x1) - log2(x0)) : (x - x0) / (x1 - x0);
        return LEFT + f * plotWidth();
    }

    /** Vertical position of a data y value (SVG y grows downwards). */
    double py(double y) {
        double f = logY ? (Math.log10(y) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0)) : (y - y0) / (y1 - y0);
        return TOP + plotHeight() - f * plotHeight();
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    /** The top of a linear axis from zero: {@code max} rounded up to a whole tick step. */
    static double niceTop(double max) {
        if (max <= 0) return 1;
        double step = niceCeil(max / 6);
        return Math.ceil(max / step - 1e-9) * step;
    }

    /** 1, 2, 2.5, 5 or 10 times a power of ten, at least {@code v}. */
    static double niceCeil(double v) {
        if (v <= 0) return 1;
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) if (m * p >= v * (1 - 1e-12)) return m * p;
        return 10 * p;
    }

    // ---- drawing ----------------------------------------------------------------------------------

    private void axes(StringBuilder s) {
        int bottom = TOP + plotHeight(), right = LEFT + plotWidth();
        s.append("<g class=\"grid\" stroke=\"#ddd\" stroke-width=\"1\">\n");
        List<double[]> xt = xTicks(), yt = yTicks();
        for (double[] t : xt) s.append(fmt("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>\n", px(t[0]), TOP, px(t[0]), bottom));
        for (double[] t : yt) s.append(fmt("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", LEFT, py(t[0]), right, py(t[0])));
        s.append("</g>\n");
        s.append(fmt("<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>\n",
                LEFT, TOP, plotWidth(), plotHeight()));
        s.append("<g class=\"xticks\" text-anchor=\"middle\">\n");
        for (double[] t : xt) {
            s.append(fmt("<text x=\"%.1f\" y=\"%d\">%s</text>\n", px(t[0]), bottom + 16, esc(xTickLabel(t[0]))));
        }
        s.append("</g>\n<g class=\"yticks\" text-anchor=\"end\">\n");
        for (double[] t : yt) {
            s.append(fmt("<text x=\"%d\" y=\"%.1f\">%s</text>\n", LEFT - 6, py(t[0]) + 4, esc(number(t[0]))));
        }
        s.append("</g>\n");
        s.append(fmt("<text class=\"xlabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                LEFT + plotWidth() / 2, HEIGHT - 18, esc(xLabel)));
        s.append(fmt("<text class=\"ylabel\" x=\"18\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">%s</text>\n",
                TOP + plotHeight() / 2, TOP + plotHeight() / 2, esc(yLabel)));
    }

    /** Tick values (as one-element arrays) along x: powers of 2 (every 2nd or 4th when dense). */
    List<double[]> xTicks() {
        List<double[]> t = new ArrayList<>();
        if (logX) {
            int a = (int) Math.round(log2(x0)), b = (int) Math.round(log2(x1));
            int step = b - a <= 12 ? 1 : b - a <= 24 ? 2 : 4;
            for (int e = a; e <= b; e += step) t.add(new double[] {Math.pow(2, e)});
        } else {
            linearTicks(t, x0, x1);
        }
        return t;
    }

    List<double[]> yTicks() {
        List<double[]> t = new ArrayList<>();
        if (logY) {
            int a = (int) Math.round(Math.log10(y0)), b = (int) Math.round(Math.log10(y1));
            for (int e = a; e <= b; e++) t.add(new double[] {Math.pow(10, e)});
        } else {
            linearTicks(t, y0, y1);
        }
        return t;
    }

    private static void linearTicks(List<double[]> t, double lo, double hi) {
        double step = niceCeil((hi - lo) / 6);
        for (double v = Math.ceil(lo / step) * step; v <= hi * (1 + 1e-9); v += step) t.add(new double[] {v});
    }

    private String xTickLabel(double v) {
        return logX ? bytes(v) : number(v);
    }

    /** 1, 512, 1K, 16K, 1M, 16M, 1G. */
    static String bytes(double v) {
        long b = Math.round(v);
        if (b >= 1L << 30 && b % (1L << 30) == 0) return (b >> 30) + "G";
        if (b >= 1L << 20 && b % (1L << 20) == 0) return (b >> 20) + "M";
        if (b >= 1L << 10 && b % (1L << 10) == 0) return (b >> 10) + "K";
        return Long.toString(b);
    }

    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e9) return Long.toString((long) v);
        if (Math.abs(v) >= 0.01) return fmt("%.3g", v).replaceAll("\\.?0+$", "");
        return fmt("%.0e", v);
    }

    private void line(StringBuilder s, int k, Series sr) {
        String colour = COLOURS[k % COLOURS.length], dash = DASHES[(k / COLOURS.length + k) % DASHES.length];
        s.append(fmt("<g class=\"series\" data-series=\"%s\">\n", esc(sr.name)));
        StringBuilder pts = new StringBuilder();
        for (int i = 0; i < sr.xs.length; i++) pts.append(fmt("%s%.1f,%.1f", i == 0 ? "" : " ", px(sr.xs[i]), py(sr.ys[i])));
        s.append(fmt("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"%s\"/>\n", colour,
                dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"", pts));
        for (int i = 0; i < sr.xs.length; i++) {
            s.append(fmt("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" data-x=\"%s\" data-y=\"%s\"><title>%s: %s, %s</title></circle>\n",
                    px(sr.xs[i]), py(sr.ys[i]), colour, num(sr.xs[i]), num(sr.ys[i]), esc(sr.name),
                    esc(logX ? bytes(sr.xs[i]) : number(sr.xs[i])), esc(number(sr.ys[i]))));
        }
        s.append("</g>\n");
    }

    private void legend(StringBuilder s) {
        int x = LEFT + plotWidth() + 14, y = TOP + 8;
        s.append("<g class=\"legend\">\n");
        for (int k = 0; k < series.size(); k++) {
            String colour = COLOURS[k % COLOURS.length], dash = DASHES[(k / COLOURS.length + k) % DASHES.length];
            int ly = y + k * 20;
            s.append(fmt("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", x, ly, x + 24, ly,
                    colour, dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\""));
            s.append(fmt("<text x=\"%d\" y=\"%d\">%s</text>\n", x + 30, ly + 4, esc(series.get(k).name)));
        }
        s.append("</g>\n");
    }

    /** A data value written exactly enough to read back. */
    private static String num(double v) {
        return Double.toString(v);
    }

    static String esc(String t) {
        StringBuilder b = new StringBuilder(t.length());
        for (char c : t.toCharArray()) {
            switch (c) {
                case '<': b.append("&lt;"); break;
                case '>': b.append("&gt;"); break;
                case '&': b.append("&amp;"); break;
                case '"': b.append("&quot;"); break;
                default:
                    // XML 1.0 forbids most control characters: drop them.
                    if (c >= 0x20 || c == '\t' || c == '\n') b.append(c);
            }
        }
        return b.toString();
    }

    private static String fmt(String f, Object... a) {
        return String.format(Locale.ROOT, f, a);
    }
}
