package io.github.mpi4j.nccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.mpi4j.testing.FakeGpu;
import io.github.mpi4j.testing.Jobs;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * examples/GpuAllReduceOverlap under mpi4jrun against the fake CUDA/NCCL pair: compiled as a
 * user compiles it, run at np 2 with the fake's progress thread off (queued work runs only when
 * waited for, so a missing event wait reads stale data and the example's own check fails), and
 * at np 3 with it on. The sums each rank printed are checked here too, against the formula.
 */
class GpuAllReduceOverlapTest {
    @TempDir
    static Path classes;

    @BeforeAll
    static void compile() throws Exception {
        FakeGpu.assume("GpuAllReduceOverlap");
        Jobs.Result r = Jobs.run(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-cp",
                Jobs.classpath(), "-d", classes.toString(),
                Path.of(Jobs.basedir(), "examples", "GpuAllReduceOverlap.java").toString()), null, 120);
        assertEquals(0, r.exitCode, "the example must compile against mpi4j\n" + r);
    }

    @ParameterizedTest(name = "np={0}, FAKE_GPU_LAG_MS={1}")
    @CsvSource({"2, -1", "3, 200"})
    void sumsEveryRanksGradientsWhileOtherWorkRuns(int np, String lag) throws Exception {
        FakeGpu.assume("GpuAllReduceOverlap");
        int floats = 5000;
        Map<String, String> env = new java.util.HashMap<>(FakeGpu.env(4));
        env.put("FAKE_GPU_LAG_MS", lag);
        List<String> cmd = Jobs.mpi4jrun(np, List.of(), List.of("-cp", Jobs.classpath() + ":" + classes,
                "GpuAllReduceOverlap", Integer.toString(floats)));
        Jobs.Result r = Jobs.run(cmd, env, 180);
        assertFalse(r.timedOut, r.toString());
        assertEquals(0, r.exitCode, r.toString());
        assertEquals(1, count(r.output, "GpuAllReduceOverlap OK: " + floats + " floats summed over " + np + " ranks"),
                r.toString());
        // Element i of rank r is r + 1 + i % 7: the sum over ranks is np(np+1)/2 + np * (i % 7).
        String sums = "";
        for (int i = 0; i < 3; i++) sums += " " + (float) (np * (np + 1) / 2 + np * (i % 7));
        for (int rank = 0; rank < np; rank++) {
            Matcher m = Pattern.compile("rank " + rank + " of " + np + " \\(device (\\d+)\\): sums\\[0\\.\\.2\\] ="
                    + Pattern.quote(sums) + ", expected" + Pattern.quote(sums) + ": OK").matcher(r.output);
            assertEquals(true, m.find(), "rank " + rank + " must print the sums" + sums + "\n" + r);
            // One rank per GPU: ranks on one node take the device of their rank on the node.
            assertEquals(rank, Integer.parseInt(m.group(1)), r.toString());
        }
    }

    private static int count(String text, String literal) {
        Matcher m = Pattern.compile(Pattern.quote(literal)).matcher(text);
        int n = 0;
        while (m.find()) n++;
        return n;
    }
}
