package io.github.mpi4j.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.FakeGpu;
import io.github.mpi4j.testing.Jobs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The GPU benchmarks: NcclBench as a smoke test under mpi4jrun against the fake CUDA/NCCL pair
 * (small sizes, every result checked against rank and size), NcclOverhead and its C twin against
 * the fake's no-op mode, and the pieces that need no GPU (options, bus-bandwidth factors, the
 * overhead report) against values worked out by hand.
 */
class GpuBenchTest {
    /** collective, size, count, time, algbw, busbw, check. */
    private static final Pattern ROW = Pattern.compile(
            "^(?:\\[\\d+\\] )?\\s+(\\w+)\\s+(\\d+)\\s+(\\d+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+(\\w+)\\s*$",
            Pattern.MULTILINE);

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 3})
    void ncclBenchRunsEveryCollectiveAndSizeWithCorrectResults(int np) throws Exception {
        FakeGpu.assume("NcclBench smoke test");
        List<String> cmd = Jobs.mpi4jrun(np, List.of(), List.of("-cp", Jobs.classpath(), NcclBench.class.getName(),
                "-b", "4", "-e", "16K", "-f", "8", "-n", "2", "-w", "1", "-j", "0.3", "-c"));
        Jobs.Result r = Jobs.run(cmd, FakeGpu.env(4), 180);
        assertFalse(r.timedOut, r.toString());
        assertEquals(0, r.exitCode, r.toString());
        Map<String, List<Long>> sizes = new HashMap<>();
        Matcher m = ROW.matcher(r.output);
        while (m.find()) {
            assertEquals("ok", m.group(7), "every result is checked and right: " + m.group() + "\n" + r);
            long bytes = Long.parseLong(m.group(2));
            assertEquals(bytes / 4, Long.parseLong(m.group(3)), m.group());
            assertTrue(Double.parseDouble(m.group(4)) > 0, "a positive time: " + m.group());
            sizes.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(bytes);
        }
        // Sizes 4, 32, 256, 2048, 16384 bytes; allgather and reducescatter round down to a
        // multiple of 4 × np and skip sizes that give a rank no element.
        List<Long> whole = List.of(4L, 32L, 256L, 2048L, 16384L);
        List<Long> perRank = new ArrayList<>();
        for (long s : whole) if (s / 4 / np > 0) perRank.add(s / 4 / np * 4 * np);
        for (String op : NcclBench.ALL) {
            boolean split = op.equals("allgather") || op.equals("reducescatter");
            assertEquals(split ? perRank : whole, sizes.get(op), op + " rows\n" + r);
        }
    }

    @Test
    void ncclBenchRefusesBadOptionsNamingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NcclBench.Options.parse(new String[] {"-o", "allreduce,alltoall"}));
        assertTrue(e.getMessage().contains("alltoall"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NcclBench.Options.parse(new String[] {"-b", "1M", "-e", "1K"}));
        assertTrue(e.getMessage().contains("-b 1048576 -e 1024"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NcclBench.Options.parse(new String[] {"-f", "1"}));
        assertTrue(e.getMessage().contains("-f"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NcclBench.Options.parse(new String[] {"-n"}));
        e = assertThrows(IllegalArgumentException.class, () -> NcclBench.Options.parse(new String[] {"-j", "-1"}));
        assertTrue(e.getMessage().contains("-j") && e.getMessage().contains("-1.0"), e.getMessage());
        NcclBench.Options o = NcclBench.Options.parse(new String[] {"-b", "8", "-e", "256M", "-c"});
        assertEquals(8, o.minBytes);
        assertEquals(268_435_456L, o.maxBytes);
        assertTrue(o.check);
        assertEquals(3L << 30, NcclBench.Options.bytes("3G"));
        assertEquals(64L << 10, NcclBench.Options.bytes("64k"));
    }

    @Test
    void busBandwidthFactorsAreThoseOfNcclTests() {
        // 8 ranks: allreduce 2·7/8, allgather and reducescatter 7/8, the others 1.
        assertEquals(1.75, NcclBench.busFactor("allreduce", 8), 1e-12);
        assertEquals(0.875, NcclBench.busFactor("allgather", 8), 1e-12);
        assertEquals(0.875, NcclBench.busFactor("reducescatter", 8), 1e-12);
        for (String op : List.of("broadcast", "reduce", "sendrecv")) assertEquals(1.0, NcclBench.busFactor(op, 8), 0);
        assertEquals(1.0, NcclBench.busFactor("allreduce", 2), 1e-12);
    }

    @Test
    void checkedResultsAreWorkedOutFromRankAndSize() {
        // Input element i of rank q is q + 1 + i % 13; 3 ranks.
        assertEquals(1 + 2 + 3 + 3 * 8, NcclBench.expected("allreduce", 1, 3, 20, 8), 0);
        assertEquals(1 + 2 + 3 + 3 * 8, NcclBench.expected("reduce", 0, 3, 20, 8), 0);
        // reducescatter, blocks of 5: rank 1's element 2 is element 7 of every input.
        assertEquals(1 + 2 + 3 + 3 * 7, NcclBench.expected("reducescatter", 1, 3, 5, 2), 0);
        // allgather, blocks of 4: element 9 is rank 2's element 1.
        assertEquals(3 + 1, NcclBench.expected("allgather", 0, 3, 4, 9), 0);
        // broadcast from rank 0, element 14 (14 % 13 = 1).
        assertEquals(1 + 1, NcclBench.expected("broadcast", 2, 3, 20, 14), 0);
        // sendrecv ring: rank 0 receives rank 2's data.
        assertEquals(3 + 5, NcclBench.expected("sendrecv", 0, 3, 20, 5), 0);
    }

    @Test
    void ncclOverheadAndItsCTwinRunAgainstTheNoOpFake(@TempDir Path tmp) throws Exception {
        FakeGpu.assume("NcclOverhead smoke test");
        Map<String, String> env = new HashMap<>(FakeGpu.env(1));
        env.put("FAKE_NCCL_NOOP", "1");
        List<String> java = new ArrayList<>();
        java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        java.addAll(Jobs.jvmOptions());
        java.addAll(List.of("-cp", Jobs.classpath(), NcclOverhead.class.getName(), "2000", "3"));
        Jobs.Result r = Jobs.run(java, env, 120);
        assertEquals(0, r.exitCode, r.toString());
        List<String> javaCases = cases(r.output, "java");
        assertEquals(List.of("allreduce-raw", "allreduce", "broadcast-raw", "broadcast", "group", "sendrecv"), javaCases,
                r.toString());

        Path c = Path.of(Jobs.basedir(), "target", "bench", "nccl_overhead_c");
        // bench/CMakeLists.txt builds it whenever native code is built (the fake is, so it was).
        assertTrue(Files.isExecutable(c), c + " was not built");
        Jobs.Result rc = Jobs.run(List.of(c.toString(), "2000", "3"), env, 60);
        assertEquals(0, rc.exitCode, rc.toString());
        assertEquals(List.of("allreduce", "broadcast", "group", "sendrecv"), cases(rc.output, "c"), rc.toString());
        // Again on a non-blocking communicator, polled after each call (the group has no communicator).
        assertEquals(List.of("allreduce", "broadcast", "sendrecv"), cases(rc.output, "c-nonblocking"), rc.toString());

        // The report over both: a row per Java case, each with its C reference.
        Path raw = tmp.resolve("raw.txt");
        Files.writeString(raw, (r.output + rc.output).lines().filter(l -> l.startsWith("RESULT"))
                .map(l -> "rep=1 " + l).reduce("", (a, b) -> a + b + "\n"));
        String table = report(raw);
        for (String name : javaCases) assertTrue(table.contains("| " + name + " |"), table);
        assertFalse(table.contains("no C reference"), table);
    }

    /** The cases of {@code impl}'s RESULT lines, in order, after checking each value is a positive number. */
    private static List<String> cases(String output, String impl) {
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("^RESULT gpu-overhead " + impl + " (\\S+) (\\S+)$", Pattern.MULTILINE).matcher(output);
        while (m.find()) {
            assertTrue(Double.parseDouble(m.group(2)) > 0, m.group());
            names.add(m.group(1));
        }
        return names;
    }

    @Test
    void overheadReportTakesMediansAndJudgesEachNcclCall(@TempDir Path tmp) throws Exception {
        Path raw = tmp.resolve("raw.txt");
        Files.writeString(raw, String.join("\n",
                "rep=1 RESULT gpu-overhead c allreduce 10", "rep=2 RESULT gpu-overhead c allreduce 30",
                "rep=3 RESULT gpu-overhead c allreduce 20",
                "rep=1 RESULT gpu-overhead java allreduce 100", "rep=2 RESULT gpu-overhead java allreduce 400",
                "rep=3 RESULT gpu-overhead java allreduce 200",
                "rep=1 RESULT gpu-overhead java allreduce-raw 500",
                "rep=1 RESULT gpu-overhead c sendrecv 100", "rep=1 RESULT gpu-overhead java sendrecv 1300",
                "rep=1 RESULT gpu-overhead c-nonblocking sendrecv 1250",
                "np=2 rep=1 RESULT latency c 8 0.5", ""));
        String table = report(raw);
        // allreduce: medians 20 and 200, +180 ≤ 300; spread 400/100.
        assertTrue(table.contains("| allreduce | 1 | 20.0 | – | 200.0 | +180.0 | +180.0 | – | 4.00 | ✓ |"), table);
        // allreduce-raw against C's allreduce: +480 > 300.
        assertTrue(table.contains("| allreduce-raw | 1 | 20.0 | – | 500.0 | +480.0 | +480.0 | – | 1.00 | ✗ |"), table);
        // sendrecv is four NCCL calls: +1200 in all, +300 each, at the target; non-blocking C 1250: Java +50 over it.
        assertTrue(table.contains("| sendrecv | 4 | 100.0 | 1250.0 | 1300.0 | +1200.0 | +300.0 | +50.0 | 1.00 | ✓ |"), table);
    }

    private static String report(Path raw) throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            GpuOverheadReport.main(new String[] {raw.toString()});
        } finally {
            System.setOut(old);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
