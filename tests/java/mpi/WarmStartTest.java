package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.mpi4j.testing.Jobs;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The warm start (issue 12, item 1b): how the setting is read, mpi4jrun's default (auto) and
 * its overrides, and real jobs that ask for it on the fabric (even and odd sizes: the odd rank
 * has no partner) and on the MPI backend.
 * The program checks the world after Init against values from rank and size; the warm start's
 * own report (MPI4J_VERBOSE) says it ran its round trips and collectives and had the young
 * generation collected, without a full collection.
 */
class WarmStartTest {
    private static final String REPORT = "mpi4j: warm start: " + WarmStart.ROUND_TRIPS + " round trips, "
            + WarmStart.COLLECTIVES + " collectives";

    @Test
    void settingIsOffUnlessAskedAndThePropertyWins() {
        assertEquals(WarmStart.Setting.OFF, WarmStart.setting(null, Map.of()));
        assertEquals(WarmStart.Setting.OFF, WarmStart.setting(null, Map.of("MPI4J_WARMUP", " ")));
        for (String yes : new String[] {"1", "true", "ON", " yes "}) {
            assertEquals(WarmStart.Setting.ON, WarmStart.setting(null, Map.of("MPI4J_WARMUP", yes)), yes);
        }
        for (String no : new String[] {"0", "false", "off", "No"}) {
            assertEquals(WarmStart.Setting.OFF, WarmStart.setting(null, Map.of("MPI4J_WARMUP", no)), no);
        }
        assertEquals(WarmStart.Setting.AUTO, WarmStart.setting(null, Map.of("MPI4J_WARMUP", " Auto")));
        assertEquals(WarmStart.Setting.OFF, WarmStart.setting("0", Map.of("MPI4J_WARMUP", "1")),
                "-Dmpi4j.warmup=0 wins over the environment");
        assertEquals(WarmStart.Setting.ON, WarmStart.setting("1", Map.of("MPI4J_WARMUP", "0")),
                "-Dmpi4j.warmup=1 wins over the environment");
        assertEquals(WarmStart.Setting.OFF, WarmStart.setting(null, Map.of("MPI4J_WARMUP", "maybe")),
                "an unusable value means no warm start");
    }

    /** The collectives' direct-buffer allreduces (every k with k % 6 == 5) include large ones and small ones. */
    @Test
    void directAllreducesAreLargeAndSmall() {
        Set<Integer> counts = new TreeSet<>();
        for (int k = 5; k < WarmStart.COLLECTIVES; k += 6) counts.add(WarmStart.directCount(k));
        assertEquals(Set.of(4096, WarmStart.LARGE), counts);
    }

    /**
     * The ping-pongs keep each side of a pair waiting, in its turn, both between WaitPolicy's
     * yield limit (2 ms) and its longer park (10 ms), and past 10 ms, so both park branches are
     * in the compiled wait loop's profile; and only a few times (Init's cost).
     */
    @Test
    void eachSideWaitsLongEnoughForBothParks() {
        Set<String> seen = new TreeSet<>();
        long total = 0;
        for (int k = 0; k < WarmStart.ROUND_TRIPS; k++) {
            for (boolean first : new boolean[] {true, false}) {
                long late = WarmStart.lateNanos(k, first);
                if (late == 0) continue;
                total += late;
                String waiter = first ? "second" : "first";  // the partner of the late side waits
                if (late > 2_000_000 && late < 10_000_000) seen.add(waiter + " parks short");
                if (late > 10_000_000) seen.add(waiter + " parks long");
            }
        }
        assertEquals(Set.of("first parks short", "first parks long", "second parks short", "second parks long"), seen);
        assertTrue(total <= 60_000_000, "the long waits cost " + total / 1_000_000 + " ms of Init");
    }

    @Test
    void autoWarmsUpWhereEveryRankHasAProcessor() {
        assertTrue(WarmStart.fitsProcessors(1, 1));
        assertTrue(WarmStart.fitsProcessors(2, 2));
        assertTrue(WarmStart.fitsProcessors(2, 16));
        assertFalse(WarmStart.fitsProcessors(3, 2));
        assertFalse(WarmStart.fitsProcessors(4, 2));
    }

    private static Jobs.Result job(List<String> cmd, String warmup) throws Exception {
        Map<String, String> env = warmup == null ? Map.of("MPI4J_VERBOSE", "1")
                : Map.of("MPI4J_VERBOSE", "1", "MPI4J_WARMUP", warmup);
        Jobs.Result r = Jobs.run(cmd, env, 180);
        assertFalse(r.timedOut, r.toString());
        assertEquals(0, r.exitCode, r.toString());
        int np = Integer.parseInt(cmd.get(cmd.indexOf("-np") + 1));
        for (int rank = 0; rank < np; rank++) {
            assertTrue(r.output.contains("WARMSTART OK " + rank + " " + np), "rank " + rank + " checked the world\n" + r);
        }
        return r;
    }

    private static List<String> program() {
        return List.of("-cp", Jobs.classpath(), WarmStartProgram.class.getName());
    }

    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {2, 3})
    void fabricJobWarmsUpAndLeavesTheWorldAsItWas(int np) throws Exception {
        Jobs.Result r = job(Jobs.mpi4jrun(np, List.of(), program()), "1");
        assertTrue(r.output.contains(REPORT), "rank 0 reports the warm start\n" + r);
        // One node: the large allreduces go through the shared-memory slots, many chunks each.
        assertTrue(r.output.contains(", " + WarmStart.SLOT_ALLREDUCES + " allreduces in shared memory"), r.toString());
        // Its garbage is gone through a young collection, and the heap was not collected (and
        // shrunk) as a whole: System.gc() took G1's 380 MB to 40 MB.
        assertTrue(r.output.contains("young generation collected"), r.toString());
        for (int rank = 0; rank < np; rank++) {
            assertTrue(r.output.contains("WARMSTART FULL COLLECTIONS " + rank + " 0"), "rank " + rank + "\n" + r);
        }
    }

    @Test
    void noWarmStartUnlessAsked() throws Exception {
        Jobs.Result r = job(Jobs.mpi4jrun(2, List.of(), program()), "0");
        assertFalse(r.output.contains("warm start"), r.toString());
        Jobs.Result bad = job(Jobs.mpi4jrun(2, List.of(), program()), "maybe");
        assertFalse(bad.output.contains(REPORT), bad.toString());
        assertTrue(bad.output.contains("ignoring MPI4J_WARMUP=maybe"), bad.toString());
    }

    /**
     * mpi4jrun's default (the build's MPI4J_WARMUP=0 removed): auto, on where every rank has a
     * processor, skipped where a node runs more ranks than it has, and for a single process. The
     * rule's inputs are this machine's: every rank runs here.
     */
    @ParameterizedTest(name = "np={0}")
    @ValueSource(ints = {1, 2, 3})
    void launcherWarmsUpByDefaultWhereRanksHaveAProcessorEach(int np) throws Exception {
        Jobs.Result r = job(Jobs.mpi4jrun(np, List.of(), program()), "");
        boolean fits = np <= Runtime.getRuntime().availableProcessors();
        boolean warms = np > 1 && fits;
        assertEquals(warms, r.output.contains(REPORT), "np " + np + " on "
                + Runtime.getRuntime().availableProcessors() + " processors\n" + r);
        String why = np == 1 ? "one process" : "a node runs more ranks than it has processors";
        assertEquals(!warms, r.output.contains("warm start: auto, skipped (" + why), r.toString());
    }

    @Test
    void launcherOptionWinsOverTheEnvironment() throws Exception {
        List<String> cmd = Jobs.mpi4jrun(3, List.of("--warmup", "on"), program());
        Jobs.Result r = job(cmd, "0");
        assertTrue(r.output.contains(REPORT), "--warmup on, MPI4J_WARMUP=0 around the launcher\n" + r);
    }

    /** auto on the MPI backend: the node split and the agreement run over Open MPI. */
    @Test
    void autoUnderMpirunDecidesByTheNode() throws Exception {
        assumeTrue(Jobs.mpirunAvailable(), "mpirun is not on PATH");
        Jobs.Result r = job(Jobs.mpirun(2, program()), "auto");
        boolean fits = 2 <= Runtime.getRuntime().availableProcessors(); // ranks unbound (--bind-to none)
        assertEquals(fits, r.output.contains(REPORT), r.toString());
        assertEquals(!fits, r.output.contains("warm start: auto, skipped"), r.toString());
    }

    @Test
    void programOutsideTheLauncherDoesNotWarmUp() throws Exception {
        assumeTrue(Jobs.mpirunAvailable(), "mpirun is not on PATH");
        Jobs.Result r = job(Jobs.mpirun(2, program()), "");
        assertFalse(r.output.contains("warm start"), "the library's own default is off\n" + r);
    }

    @Test
    void mpiBackendJobWarmsUpToo() throws Exception {
        assumeTrue(Jobs.mpirunAvailable(), "mpirun is not on PATH");
        // Open MPI starts local ranks with mpirun's environment, MPI4J_WARMUP included.
        Jobs.Result r = job(Jobs.mpirun(2, program()), "1");
        assertTrue(r.output.contains(REPORT), "rank 0 reports the warm start\n" + r);
        // Open MPI reduces in C: no slots to warm up.
        assertTrue(r.output.contains(", 0 allreduces in shared memory"), r.toString());
    }
}
