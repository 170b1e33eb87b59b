package io.github.mpi4j.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.fabric.coll.Prediction;
import io.github.mpi4j.testing.Jobs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The scaling study's programs (docs/scaling.md): the model table ({@link ScalingModel}) is
 * sane — finite positive times that grow with the size and the ranks, latency algorithms for
 * small messages and bandwidth ones for large, times equal to the alpha-beta-gamma formulas
 * worked out here — the Open MPI 4.1 table gives the rows of its decision functions at their
 * boundaries, and the benchmark ({@link Scaling}) runs with ranks as threads and as processes
 * and checks every collective's result.
 */
class ScalingModelTest {
    private static final List<ScalingModel.Link> LINKS = List.of(new ScalingModel.Link("10 Gb/s", 10, 25, 100),
            new ScalingModel.Link("100 Gb/s", 100, 10, 100));

    @Test
    void everyCellIsFiniteAndGrowsWithSizeAndRanks() {
        for (ScalingModel.Link l : LINKS) {
            Prediction m = l.model();
            for (String coll : ScalingModel.COLLS) {
                for (int p : ScalingModel.RANKS) {
                    double last = 0;
                    for (long s : ScalingModel.SIZES) {
                        ScalingModel.Cell c = ScalingModel.cell(m, coll, s, p);
                        if (c.fabric() == null) {
                            assertTrue(s / p < 8, coll + " " + s + " at " + p + ": only blocks under a double are left out");
                            continue;
                        }
                        double t = c.fabric().seconds();
                        String where = l.name() + " " + coll + " " + s + " B at " + p + ": " + c.fabric();
                        assertTrue(Double.isFinite(t) && t > 0, where);
                        assertTrue(t >= last, where + " is not below the smaller size's " + last);
                        assertNotNull(c.ompi(), where);
                        last = t;
                    }
                }
                for (long s : ScalingModel.SIZES) {
                    double last = 0;
                    for (int p : ScalingModel.RANKS) {
                        ScalingModel.Cell c = ScalingModel.cell(m, coll, s, p);
                        if (c.fabric() == null) continue;
                        // allgather and reduce-scatter keep the vector fixed: more ranks, smaller blocks, never faster.
                        assertTrue(c.fabric().seconds() >= last, l.name() + " " + coll + " " + s + " at " + p);
                        last = c.fabric().seconds();
                    }
                }
            }
        }
    }

    @Test
    void smallMessagesTakeLatencyAlgorithmsAndLargeOnesBandwidthAlgorithms() {
        for (ScalingModel.Link l : LINKS) {
            Prediction m = l.model();
            for (int p : ScalingModel.RANKS) {
                assertEquals("recursive_doubling", m.allReduce(8, p, false).algorithm());
                String big = m.allReduce(256L << 20, p, false).algorithm();
                assertTrue(Set.of("rabenseifner", "ring").contains(big), big);
                assertEquals("binomial", m.bcast(8, p).algorithm());
                assertEquals("scatter_allgather", m.bcast(256L << 20, p).algorithm());
                assertEquals("bruck", m.allGather(8L * p, p).algorithm());
                assertEquals("dissemination", m.barrier(p).algorithm());
            }
            assertEquals("ring", m.allGather(256L << 20, 64).algorithm());
        }
    }

    @Test
    void timesAreTheAlphaBetaGammaFormulas() {
        double alpha = 25e-6, beta = 8 / 10e9, gamma = 100e-9 / 1024;
        Prediction m = Prediction.network(25, 10, 100);
        long n = 256L << 20;
        int p = 64;
        double frac = 63.0 / 64;
        // Rabenseifner: 2 log2 p messages, twice (p-1)/p of the vector moved, (p-1)/p reduced.
        double rab = 2 * 6 * alpha + 2 * n * frac * beta + n * frac * gamma;
        assertEquals("rabenseifner", m.allReduce(n, p, false).algorithm());
        assertEquals(rab, m.allReduce(n, p, false).seconds(), rab * 1e-12);
        // Recursive doubling at 8 B: log2 p whole-message steps.
        assertEquals(6 * (alpha + 8 * (beta + gamma)), m.allReduce(8, p, false).seconds(), 1e-15);
        // Barrier: ceil(log2 p) rounds; 1000 ranks take 10.
        assertEquals(10 * alpha, m.barrier(1000).seconds(), 1e-15);
        // Reduce-scatter block ring: p-1 steps.
        assertEquals(63 * alpha + n * frac * (beta + gamma), m.reduceScatterBlock(n, p).seconds(), 1e-12);
        // Binomial bcast of 8 B over 5 ranks: 3 rounds.
        assertEquals(3 * (alpha + 8 * beta), m.bcast(8, 5).seconds(), 1e-15);
        // Non-power of two: the excess-rank step adds two whole-message transfers.
        assertEquals(7 * (alpha + 8 * (beta + gamma)) + 2 * (alpha + 8 * beta), m.allReduce(8, 100, false).seconds(),
                1e-15);
        assertThrows(IllegalArgumentException.class, () -> Prediction.network(1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> Prediction.network(Double.NaN, 10, 1));
    }

    @Test
    void sharedMemorySlotsArePricedAtCopySpeed() {
        // The fabric's defaults (no MPI4J_COLL_* set in the tests): alpha 2 µs, gamma 100 ns/KiB,
        // 1 MiB slots, slots from 1 MiB. 16 MiB at 2 ranks: chunks of 2 x 128 KiB (in half a
        // slot), so 64 chunks of two one-round barriers and one barrier at the end, and per KiB
        // three copies at 20 ns and half a reduction at 100 ns.
        Prediction m = Prediction.fromSettings(2);
        long n = 16L << 20;
        Prediction.Choice c = m.allReduce(n, 2, true);
        assertEquals("shm", c.algorithm());
        double expect = (64 * 2 + 1) * 2e-6 + (n / 1024.0) * (3 * 20e-9 + 0.5 * 100e-9);
        assertEquals(expect, c.seconds(), expect * 1e-9);
        // ShmAllReduce's own measurement on this machine: 1.8 ms; the model is within 2x of it.
        assertTrue(c.seconds() > 0.9e-3 && c.seconds() < 3.6e-3, c.toString());
        // Below MPI4J_SHM_COLL_MIN_KB, and without slots, the message schedules run.
        assertEquals("rabenseifner", m.allReduce(n, 2, false).algorithm());
        assertEquals("rabenseifner", m.allReduce(512 << 10, 2, true).algorithm());
    }

    @Test
    void oversubscriptionIsRanksPerCore() {
        Prediction m = Prediction.fromSettings(2);
        assertEquals(1, m.oversubscription(1));
        assertEquals(1, m.oversubscription(2));
        assertEquals(32, m.oversubscription(64));
        // Other runnable threads take their share: 2 ranks and 6 others on 2 cores, 4 times as long.
        assertEquals(4, m.oversubscription(2, 6));
        assertEquals(1, m.oversubscription(1, 0.5));
        assertEquals(1, Prediction.network(25, 10, 100).oversubscription(1024));
        assertThrows(IllegalArgumentException.class, () -> Prediction.fromSettings(0));
        System.setProperty("mpi4j.shm.coll.kb", "lots");
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Prediction.fromSettings(2));
            assertTrue(e.getMessage().contains("MPI4J_SHM_COLL_KB") && e.getMessage().contains("lots"), e.getMessage());
            System.setProperty("mpi4j.shm.coll.kb", "0");
            assertEquals(0, Prediction.slotKiB());
            // No slots: the message schedules price a large allreduce even where the ranks could have slots.
            assertEquals("rabenseifner", Prediction.fromSettings(2).allReduce(16L << 20, 2, true).algorithm());
        } finally {
            System.clearProperty("mpi4j.shm.coll.kb");
        }
    }

    @Test
    void openMpiTableFollowsItsDecisionRows() {
        assertEquals("recursive_doubling", OmpiTuned41.allReduce(262143, 64));
        assertEquals("rabenseifner", OmpiTuned41.allReduce(262144, 127));
        assertEquals("nonoverlapping", OmpiTuned41.allReduce(131071, 128));
        assertEquals("recursive_doubling", OmpiTuned41.allReduce(131072, 255));
        assertEquals("nonoverlapping", OmpiTuned41.allReduce(4095, 256));
        assertEquals("rabenseifner", OmpiTuned41.allReduce(4096, 511));
        assertEquals("recursive_doubling", OmpiTuned41.allReduce(2048, 1024));
        assertEquals("rabenseifner", OmpiTuned41.allReduce(16384, 1024));
        assertEquals("knomial", OmpiTuned41.bcast(1 << 30, 64));
        assertEquals("binomial", OmpiTuned41.bcast(1, 128));
        assertEquals("basic_linear", OmpiTuned41.bcast(16384, 200));
        assertEquals("split_binary_tree", OmpiTuned41.bcast(16384, 256));
        assertEquals("scatter_allgather", OmpiTuned41.bcast(524288, 1024));
        assertEquals("neighbor", OmpiTuned41.allGather(512, 64));
        assertEquals("ring", OmpiTuned41.allGather(65536, 64));
        assertEquals("bruck", OmpiTuned41.allGather(32, 256));
        assertEquals("neighbor", OmpiTuned41.allGather(2048, 512));
        assertEquals("bruck", OmpiTuned41.allGather(256, 1024));
        assertEquals("basic_linear", OmpiTuned41.reduceScatterBlock(65536, 64));
        assertEquals("butterfly", OmpiTuned41.reduceScatterBlock(262144, 1024));
        assertEquals("bruck", OmpiTuned41.barrier(64));
        assertEquals("tree", OmpiTuned41.barrier(256));
        assertEquals("bruck", OmpiTuned41.barrier(512));
        assertEquals("tree", OmpiTuned41.barrier(1024));
        assertThrows(IllegalArgumentException.class, () -> OmpiTuned41.allReduce(8, 63));
        assertThrows(IllegalArgumentException.class, () -> OmpiTuned41.barrier(2048));
    }

    @Test
    void tableHasEveryRankCountAndNoNonsense() {
        String t = ScalingModel.render(LINKS);
        for (int p : ScalingModel.RANKS) assertTrue(t.contains(p + " ranks"), "column for " + p);
        for (String coll : ScalingModel.COLLS) assertTrue(t.contains("**" + coll + "**"), coll);
        assertFalse(t.contains("NaN") || t.contains("Infinity"), t);
        // 2 links x (4 collectives x (header, rule, 10 sizes) + barrier (header, rule, row)).
        long rows = t.lines().filter(s -> s.startsWith("|")).count();
        assertEquals(2 * (4 * 12 + 3), rows);
    }

    private static final Pattern RESULT = Pattern.compile(
            "RESULT mode=(\\w+) np=(\\d+) coll=(\\w+) bytes=(\\d+) alg=(\\w+) measured_us=([\\d.]+) model_us=([\\d.]+)");

    /** Case -> algorithm, checking every line's numbers; the program checked every result itself. */
    private static Map<String, String> results(String out) {
        Map<String, String> cases = new HashMap<>();
        Matcher m = RESULT.matcher(out);
        while (m.find()) {
            assertTrue(Double.parseDouble(m.group(6)) > 0, m.group());
            // One rank has nothing to do: no schedule ("none"), predicted 0.
            boolean alone = m.group(2).equals("1");
            assertEquals(alone, m.group(5).equals("none"), m.group());
            assertTrue(alone ? Double.parseDouble(m.group(7)) == 0 : Double.parseDouble(m.group(7)) > 0, m.group());
            cases.put(m.group(1) + " " + m.group(2) + " " + m.group(3) + " " + m.group(4), m.group(5));
        }
        return cases;
    }

    @Test
    void benchmarkRunsWithRanksAsThreads() throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setProperty("scaling.warm", "0");
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            Scaling.main(new String[] {"threads", "1,3,4", "", "8,40000", "1"});
        } finally {
            System.setOut(old);
            System.clearProperty("scaling.warm");
        }
        Map<String, String> cases = results(buf.toString(StandardCharsets.UTF_8));
        assertEquals("none", cases.get("threads 1 allreduce 8"), cases.toString());
        for (int np : new int[] {3, 4}) {
            for (String c : Scaling.ALL) {
                if (c.equals("barrier")) {
                    assertEquals("dissemination", cases.get("threads " + np + " barrier 0"), cases.toString());
                    continue;
                }
                long small = c.equals("allgather") || c.equals("reduce_scatter_block") ? 8L * np : 8;
                assertNotNull(cases.get("threads " + np + " " + c + " " + small), c + " at " + np + ": " + cases);
            }
        }
        assertEquals("recursive_doubling", cases.get("threads 4 allreduce 8"));
        assertNull(cases.get("threads 2 allreduce 8"));
    }

    @Test
    void benchmarkRunsWithRanksAsProcesses() throws Exception {
        List<String> cmd = Jobs.mpi4jrun(3, List.of(), List.of("-Dscaling.warm=0", "-cp", Jobs.classpath(),
                Scaling.class.getName(), "procs", "allreduce,allgather,barrier", "8,2097152", "1"));
        Jobs.Result r = Jobs.run(cmd, Map.of(), 180);
        assertFalse(r.timedOut, r.toString());
        assertEquals(0, r.exitCode, r.toString());
        Map<String, String> cases = results(r.output);
        assertEquals("recursive_doubling", cases.get("procs 3 allreduce 8"), r.toString());
        // 2 MiB reaches the shared-memory slots (from 1 MiB on) between processes.
        assertEquals("shm", cases.get("procs 3 allreduce 2097152"), r.toString());
        assertNotNull(cases.get("procs 3 allgather 24"), r.toString());
        assertEquals("dissemination", cases.get("procs 3 barrier 0"), r.toString());
    }
}
