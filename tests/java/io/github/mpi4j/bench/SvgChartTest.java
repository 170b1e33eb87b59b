package io.github.mpi4j.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The SVG writer of the benchmark charts: every picture parses as XML (a real parser), points
 * land where the axes say (checked against positions computed here from the plot area), in the
 * order given, and bad data is refused naming the series, the axis and the value.
 */
class SvgChartTest {
    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    /** The markers of one series, in document order: {cx, cy, data-x, data-y}. */
    static List<double[]> markers(Document d, String series) {
        List<double[]> out = new ArrayList<>();
        NodeList groups = d.getElementsByTagNameNS("http://www.w3.org/2000/svg", "g");
        for (int i = 0; i < groups.getLength(); i++) {
            Element g = (Element) groups.item(i);
            if (!series.equals(g.getAttribute("data-series"))) continue;
            NodeList cs = g.getElementsByTagNameNS("http://www.w3.org/2000/svg", "circle");
            for (int j = 0; j < cs.getLength(); j++) {
                Element c = (Element) cs.item(j);
                out.add(new double[] {Double.parseDouble(c.getAttribute("cx")), Double.parseDouble(c.getAttribute("cy")),
                    Double.parseDouble(c.getAttribute("data-x")), Double.parseDouble(c.getAttribute("data-y"))});
            }
        }
        return out;
    }

    static List<String> texts(Document d) {
        List<String> out = new ArrayList<>();
        NodeList ts = d.getElementsByTagNameNS("http://www.w3.org/2000/svg", "text");
        for (int i = 0; i < ts.getLength(); i++) out.add(ts.item(i).getTextContent());
        return out;
    }

    @Test
    void logSizeAxisPlacesDoublingSizesAtEqualStepsLeftToRight() throws Exception {
        double[] sizes = {8, 16, 32, 64, 128, 256, 512, 1024};
        double[] lat = {1, 2, 4, 8, 16, 32, 64, 128};
        SvgChart c = new SvgChart("lat", "bytes", "µs", true, true).add("C", sizes, lat);
        Document d = parse(c.render());
        assertEquals("svg", d.getDocumentElement().getLocalName());
        List<double[]> m = markers(d, "C");
        assertEquals(sizes.length, m.size());
        // Range: 8 .. 1024 bytes = 7 doublings over the plot width; 1 .. 1000 µs on y is 3 decades
        // rounded out to 1 .. 1000.
        double step = SvgChart.plotWidth() / 7.0;
        double decade = SvgChart.plotHeight() / 3.0;
        for (int i = 0; i < sizes.length; i++) {
            assertEquals(sizes[i], m.get(i)[2], "data-x in the order given");
            assertEquals(lat[i], m.get(i)[3]);
            assertEquals(SvgChart.LEFT + i * step, m.get(i)[0], 0.06, "x of size " + sizes[i]);
            double expectedY = SvgChart.TOP + SvgChart.plotHeight() - Math.log10(lat[i]) * decade;
            assertEquals(expectedY, m.get(i)[1], 0.06, "y of " + lat[i] + " µs");
        }
        for (int i = 1; i < m.size(); i++) {
            assertTrue(m.get(i)[0] > m.get(i - 1)[0], "x grows with size");
            assertTrue(m.get(i)[1] < m.get(i - 1)[1], "larger values are higher up (smaller SVG y)");
        }
        List<String> t = texts(d);
        for (String label : new String[] {"8", "16", "512", "1K", "1", "10", "100", "1000", "lat", "bytes", "µs"}) {
            assertTrue(t.contains(label), "axis text " + label + " in " + t);
        }
    }

    @Test
    void linearAxesStartAtZeroAndPolylineFollowsMarkers() throws Exception {
        double[] rounds = {1, 2, 3, 4};
        double[] pct = {100, 50, 25, 0};
        SvgChart c = new SvgChart("overlap", "round", "%", false, false).add("fabric", rounds, pct);
        String svg = c.render();
        Document d = parse(svg);
        List<double[]> m = markers(d, "fabric");
        int bottom = SvgChart.TOP + SvgChart.plotHeight();
        // x: 0 .. 4 (ticks of 1); y: 0 .. 100 (ticks of 20).
        for (int i = 0; i < 4; i++) {
            assertEquals(SvgChart.LEFT + rounds[i] / 4 * SvgChart.plotWidth(), m.get(i)[0], 0.06);
            assertEquals(bottom - pct[i] / 100 * SvgChart.plotHeight(), m.get(i)[1], 0.06);
        }
        assertEquals(bottom, m.get(3)[1], 0.06, "0 % on the x axis");
        assertEquals(SvgChart.TOP, m.get(0)[1], 0.06, "100 % at the top");
        List<String> t = texts(d);
        for (String label : new String[] {"0", "1", "2", "3", "4", "20", "40", "100"}) {
            assertTrue(t.contains(label), "tick " + label + " in " + t);
        }
        assertFalse(t.contains("0.5") || t.contains("5") || t.contains("120"), "no ticks beyond the range: " + t);
        Element poly = (Element) d.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline").item(0);
        String[] pts = poly.getAttribute("points").trim().split(" ");
        assertEquals(4, pts.length);
        for (int i = 0; i < 4; i++) {
            String[] xy = pts[i].split(",");
            assertEquals(m.get(i)[0], Double.parseDouble(xy[0]), 1e-9, "polyline point " + i);
            assertEquals(m.get(i)[1], Double.parseDouble(xy[1]), 1e-9);
        }
    }

    @Test
    void legendNamesEverySeriesInOrderAndTextIsEscaped(@TempDir Path dir) throws Exception {
        SvgChart c = new SvgChart("a < b & \"c\"", "x", "y", true, false);
        c.add("Java <arrays>", new double[] {1, 2}, new double[] {3, 4});
        c.add("C & co", new double[] {1, 4}, new double[] {5, 6});
        c.add("third", new double[] {2}, new double[] {1});
        Path f = dir.resolve("sub/chart.svg");
        c.write(f);
        Document d = parse(Files.readString(f));
        List<String> t = texts(d);
        assertTrue(t.contains("a < b & \"c\""), t.toString());
        int a = t.indexOf("Java <arrays>"), b = t.indexOf("C & co"), e = t.indexOf("third");
        assertTrue(a >= 0 && a < b && b < e, "legend in the order added: " + t);
        assertEquals(2, markers(d, "C & co").size());
        assertEquals(3, d.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline").getLength());
    }

    @Test
    void fixedTopOfPercentAxis() throws Exception {
        SvgChart c = new SvgChart("t", "x", "%", true, false).yTop(100).add("s", new double[] {1, 2}, new double[] {0, 40});
        List<double[]> m = markers(parse(c.render()), "s");
        int bottom = SvgChart.TOP + SvgChart.plotHeight();
        assertEquals(bottom - 0.4 * SvgChart.plotHeight(), m.get(1)[1], 0.06, "40 % of a 0..100 axis");
        assertThrows(IllegalArgumentException.class, () -> new SvgChart("t", "x", "y", true, true).yTop(100));
        assertThrows(IllegalArgumentException.class, () -> new SvgChart("t", "x", "y", true, false).yTop(-1));
    }

    @Test
    void emptyChartIsStillWellFormed() throws Exception {
        Document d = parse(new SvgChart("nothing", "x", "y", true, true).render());
        assertTrue(texts(d).contains("no data"));
    }

    @Test
    void badDataIsRefusedNamingSeriesAxisAndValue() {
        SvgChart c = new SvgChart("t", "x", "y", true, true);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> c.add("C", new double[] {8, 0}, new double[] {1, 1}));
        assertTrue(e.getMessage().contains("series C: x[1] = 0.0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> c.add("J", new double[] {8}, new double[] {Double.NaN}));
        assertTrue(e.getMessage().contains("y[0] = NaN"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> c.add("K", new double[] {8, 16}, new double[] {1}));
        assertTrue(e.getMessage().contains("2 vs 1"), e.getMessage());
        SvgChart lin = new SvgChart("t", "x", "y", false, false);
        lin.add("zero is fine on a linear axis", new double[] {0, 1}, new double[] {0, -1});
        assertEquals(1, lin.seriesCount());
        assertEquals(0, c.seriesCount(), "refused series are not added");
    }

    @Test
    void labelsAndNiceNumbers() {
        assertEquals("1K", SvgChart.bytes(1024));
        assertEquals("16M", SvgChart.bytes(16 << 20));
        assertEquals("1536", SvgChart.bytes(1536));
        assertEquals(5.0, SvgChart.niceCeil(4.2));
        assertEquals(250.0, SvgChart.niceCeil(201));
        assertEquals(100.0, SvgChart.niceCeil(100));
        assertEquals(20.0, SvgChart.niceTop(20), "rounds 1..20: ticks of 5 up to 20");
        assertEquals(100.0, SvgChart.niceTop(90));
        assertEquals(8.0, SvgChart.niceTop(7.5));
        assertEquals("0.25", SvgChart.number(0.25));
        assertEquals("1000", SvgChart.number(1000));
    }
}
