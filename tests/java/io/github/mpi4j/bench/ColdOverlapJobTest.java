package io.github.mpi4j.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.mpi4j.testing.Jobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * ColdStart and Overlap as real jobs with small settings: on the fabric (mpi4jrun, processes),
 * on the MPI backend (Open MPI's mpirun) and their C twins where built. The programs check
 * every reduced result against the sum computed from rank and size (a wrong sum exits non-zero);
 * here the test checks the lines: one per round / call / size, in order, with sane values.
 */
class ColdOverlapJobTest {
    private static final Pattern LAT = Pattern.compile("COLD lat (\\w+) (\\d+) ([\\d.]+) ([\\d.]+)");
    private static final Pattern ALLREDUCE = Pattern.compile("COLD allreduce (\\w+) (\\d+) ([\\d.]+) (\\d+)");
    private static final Pattern OVERLAP = Pattern.compile("OVERLAP ([\\w-]+) (\\d+) ([\\d.]+) ([\\d.]+) ([\\d.]+) ([\\d.]+)");

    private static List<String> command(String launcher, int np, List<String> program) {
        if (launcher.equals("c")) {
            assumeTrue(Jobs.mpirunAvailable(), "mpirun is not on PATH");
            Path twin = Path.of(Jobs.basedir(), "target", "bench", program.get(0));
            assumeTrue(Files.isExecutable(twin), twin + " is not built (needs Open MPI's headers)");
            List<String> cmd = new ArrayList<>(Jobs.mpirun(np, List.of(), false));
            // Jobs.mpirun ends with the java command and its options: drop them, run the twin.
            int java = cmd.indexOf(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd = new ArrayList<>(cmd.subList(0, java));
            cmd.add(twin.toString());
            cmd.addAll(program.subList(1, program.size()));
            return cmd;
        }
        // Overlap's warm-up, 3 s and 2 s without compilations per size, shortened to keep the
        // jobs short; its rules still apply.
        List<String> java = new ArrayList<>(List.of("-Dmpi4j.overlap.warmup.ms=300", "-Dmpi4j.overlap.quiet.ms=200",
                "-cp", Jobs.classpath()));
        java.add(program.get(0).equals("coldstart_c") ? ColdStart.class.getName() : Overlap.class.getName());
        java.addAll(program.subList(1, program.size()));
        if (launcher.equals("mpirun")) {
            assumeTrue(Jobs.mpirunAvailable(), "mpirun is not on PATH");
            return Jobs.mpirun(np, java, false);
        }
        return Jobs.mpi4jrun(np, List.of(), java);
    }

    private static Jobs.Result run(List<String> cmd) throws Exception {
        Jobs.Result r = Jobs.run(cmd, null, 240);
        assertFalse(r.timedOut, r.toString());
        assertEquals(0, r.exitCode, r.toString());
        return r;
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"fabric, array", "fabric, direct", "mpirun, array", "mpirun, direct", "c, c"})
    void pingPongPrintsOneLinePerRoundFromTheFirstMessage(String launcher, String kind) throws Exception {
        List<String> args = new ArrayList<>(List.of("coldstart_c", "lat"));
        if (!launcher.equals("c")) args.add(kind);
        args.addAll(List.of("3", "200"));
        Jobs.Result r = run(command(launcher, 2, args));
        Matcher m = LAT.matcher(r.output);
        int round = 0;
        while (m.find()) {
            round++;
            assertEquals(kind, m.group(1), r.toString());
            assertEquals(round, Integer.parseInt(m.group(2)), "rounds in order\n" + r);
            double avg = Double.parseDouble(m.group(3)), stall = Double.parseDouble(m.group(4));
            assertTrue(avg > 0, m.group());
            // The worst round trip / 2 is at least the average one-way time of its round.
            assertTrue(stall >= avg * 0.999, m.group());
        }
        assertEquals(3, round, "one line per round, printed by rank 0 only\n" + r);
    }

    @ParameterizedTest(name = "{0} {1} np={2}")
    @CsvSource({"fabric, array, 2", "fabric, direct, 3", "mpirun, array, 3", "mpirun, direct, 2", "c, c, 3"})
    void allreducePrintsEveryCallsTimeAndChecksTheSums(String launcher, String kind, int np) throws Exception {
        List<String> args = new ArrayList<>(List.of("coldstart_c", "allreduce"));
        if (!launcher.equals("c")) args.add(kind);
        args.addAll(List.of("4", "65536"));
        Jobs.Result r = run(command(launcher, np, args));
        Matcher m = ALLREDUCE.matcher(r.output);
        int call = 0;
        while (m.find()) {
            call++;
            assertEquals(kind, m.group(1));
            assertEquals(call, Integer.parseInt(m.group(2)), r.toString());
            assertTrue(Double.parseDouble(m.group(3)) > 0, m.group());
            assertEquals(65536, Integer.parseInt(m.group(4)));
        }
        assertEquals(4, call, r.toString());
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({"fabric, array, busy", "fabric, direct, busy", "mpirun, direct, busy", "c, c, busy",
        "fabric, array, idle", "mpirun, array, idle", "c, c, idle"})
    void overlapReportsPureComputeOverallAndOsusFormula(String launcher, String kind, String compute) throws Exception {
        List<String> args = new ArrayList<>(List.of("overlap_c"));
        if (!launcher.equals("c")) args.add(kind);
        args.addAll(List.of("65536,262144", "3", compute));
        Jobs.Result r = run(command(launcher, 2, args));
        Matcher m = OVERLAP.matcher(r.output);
        List<Integer> sizes = new ArrayList<>();
        while (m.find()) {
            assertEquals(compute.equals("idle") ? kind + "-idle" : kind, m.group(1), "the kind names the computation");
            sizes.add(Integer.parseInt(m.group(2)));
            double pure = Double.parseDouble(m.group(3)), comp = Double.parseDouble(m.group(4));
            double overall = Double.parseDouble(m.group(5)), pct = Double.parseDouble(m.group(6));
            assertTrue(pure > 0 && comp > 0, m.group());
            // The busy loop (or the sleep) runs at least as long as the slowest rank's pure
            // time, which is at least the mean over ranks, and overall contains it.
            assertTrue(comp >= pure * 0.999, "compute sized to the pure time: " + m.group());
            assertTrue(overall >= comp * 0.999, m.group());
            assertEquals(Overlap.overlap(pure, comp, overall), pct, 0.1, "overlap % by OSU's formula: " + m.group());
        }
        assertEquals(List.of(65536, 262144), sizes, r.toString());
    }
}
