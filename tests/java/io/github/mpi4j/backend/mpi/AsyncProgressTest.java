package io.github.mpi4j.backend.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mpi.MPIException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MPI4J_ASYNC_PROGRESS (MpiAsyncProgress): its values, and under mpirun that a rank's part of a
 * non-blocking allreduce moves while the rank sleeps outside MPI, which without the setting it
 * does not (the same job, run both ways, so the measurement is shown able to tell them apart).
 */
class AsyncProgressTest {
    @Test
    void theSettingIsOnOrOff() {
        assertFalse(MpiAsyncProgress.requested(Map.of()));
        assertFalse(MpiAsyncProgress.requested(Map.of("MPI4J_ASYNC_PROGRESS", " ")));
        assertTrue(MpiAsyncProgress.requested(Map.of("MPI4J_ASYNC_PROGRESS", "1")));
        assertTrue(MpiAsyncProgress.requested(Map.of("MPI4J_ASYNC_PROGRESS", " On")));
        assertTrue(MpiAsyncProgress.requested(Map.of("MPI4J_ASYNC_PROGRESS", "true")));
        assertFalse(MpiAsyncProgress.requested(Map.of("MPI4J_ASYNC_PROGRESS", "0")));
        assertFalse(MpiAsyncProgress.requested(Map.of("MPI4J_ASYNC_PROGRESS", "no")));
        MPIException e = assertThrows(MPIException.class,
                () -> MpiAsyncProgress.requested(Map.of("MPI4J_ASYNC_PROGRESS", "2")));
        assertTrue(e.getMessage().contains("MPI4J_ASYNC_PROGRESS must be 1 or 0 (true/false, yes/no, on/off), got '2'"),
                e.getMessage());
    }

    @Test
    void theHelperNeedsThreadMultiple() {
        assertEquals(Mpi.THREAD_MULTIPLE, MpiAsyncProgress.levelToAsk(Mpi.THREAD_SINGLE, true));
        assertEquals(Mpi.THREAD_FUNNELED, MpiAsyncProgress.levelToAsk(Mpi.THREAD_FUNNELED, false));
        assertEquals("the MPI library gave thread level 2, not MPI_THREAD_MULTIPLE (3)",
                MpiAsyncProgress.start(true, Mpi.THREAD_SERIALIZED, 0));
        assertEquals("MPI4J_ASYNC_PROGRESS is not set", MpiAsyncProgress.start(false, Mpi.THREAD_MULTIPLE, 0));
        assertEquals(null, MpiAsyncProgress.current(), "nothing started");
    }

    @TempDir
    Path dir;

    private Jobs.Result job(String setting) throws Exception {
        List<String> args = new ArrayList<>(List.of("-cp", Jobs.classpath(), AsyncProgressJob.class.getName(),
                dir.resolve("job-" + setting + ".dat").toString()));
        Jobs.Result r = Jobs.run(Jobs.mpirun(2, args), Map.of("MPI4J_ASYNC_PROGRESS", setting), 180);
        assertEquals(0, r.exitCode, r.toString());
        return r;
    }

    /** The values of KEY on each rank, in rank order ({@code --tag-output}: "[1,R]<stdout>:KEY value"). */
    private static List<String> values(Jobs.Result r, String key) {
        Matcher m = Pattern.compile("(?m)^\\[\\d+,(\\d+)\\]<stdout>:" + key + " (.*)$").matcher(r.output);
        String[] v = new String[2];
        while (m.find()) v[Integer.parseInt(m.group(1))] = m.group(2).trim();
        return List.of(v[0] == null ? "none" : v[0], v[1] == null ? "none" : v[1]);
    }

    private static String rank(Jobs.Result r, String key, int rank) {
        String v = values(r, key).get(rank);
        assertFalse(v.equals("none"), "no " + key + " line from rank " + rank + "\n" + r);
        return v;
    }

    @Test
    void aSleepingRanksPartMovesOnlyWithTheHelper() throws Exception {
        Requirements.assumeMpi(Jobs.Launcher.MPIRUN, "asynchronous progress under mpirun");
        Jobs.Result on = job("1");
        assertEquals(List.of("3", "3"), values(on, "LEVEL"), "THREAD_MULTIPLE for the helper\n" + on);
        assertTrue(rank(on, "HELPER", 0).startsWith("true"), on.toString());
        assertEquals(List.of("true", "true"), values(on, "SUM_OK"), on.toString());
        long peerWait = Long.parseLong(rank(on, "PEER_WAIT_MS", 1));
        assertTrue(peerWait < AsyncProgressJob.SLEEP_MS / 2,
                "rank 1 waited " + peerWait + " ms while rank 0 slept " + AsyncProgressJob.SLEEP_MS + " ms\n" + on);
        assertTrue(Long.parseLong(rank(on, "POLLS_DURING_SLEEP", 0)) > 0, on.toString());
        assertEquals("mpi4j-mpi-progress", rank(on, "OP_THREAD", 0), "the helper ran rank 0's user reduction\n" + on);
        assertEquals("true", rank(on, "OP_SUM_OK", 0), on.toString());
        assertTrue(rank(on, "OP_FAILURE", 0).contains("user op failed on purpose"),
                "a failure on the helper surfaces at waitFor\n" + on);
        assertEquals(List.of("0", "0"), values(on, "POLLS_WITH_FILE_OPEN"), "the helper pauses while a file is open\n" + on);
        assertEquals(List.of("true", "true"), values(on, "IO_OK"), on.toString());
        assertEquals(List.of("0", "0"), values(on, "OUTSTANDING"), "every request ended\n" + on);
        for (int rank = 0; rank < 2; rank++) {
            long idle = Long.parseLong(rank(on, "IDLE_CPU_MS", rank));
            assertTrue(idle < AsyncProgressJob.QUIET_MS / 10, "rank " + rank + ": the helper used " + idle
                    + " ms of CPU in " + AsyncProgressJob.QUIET_MS + " ms with nothing outstanding\n" + on);
        }
        assertEquals(List.of("false", "false"), values(on, "ALIVE_AFTER_FINALIZE"), on.toString());

        Jobs.Result off = job("0");
        assertEquals(List.of("false", "false"), values(off, "HELPER"), off.toString());
        assertEquals(List.of("true", "true"), values(off, "SUM_OK"), off.toString());
        assertEquals(List.of("true", "true"), values(off, "IO_OK"), off.toString());
        assertEquals("main", rank(off, "OP_THREAD", 0), "without the helper, waitFor runs it\n" + off);
        assertTrue(rank(off, "OP_FAILURE", 0).contains("user op failed on purpose"), off.toString());
        long without = Long.parseLong(rank(off, "PEER_WAIT_MS", 1));
        assertTrue(without >= AsyncProgressJob.SLEEP_MS * 9 / 10,
                "without the helper rank 1 waits for rank 0 to wake: " + without + " ms\n" + off);
    }

    @Test
    void aBadValueFailsMpiInitNamingIt() throws Exception {
        Requirements.assumeMpi(Jobs.Launcher.MPIRUN, "MPI4J_ASYNC_PROGRESS under mpirun");
        List<String> cmd = Jobs.mpirun(1, List.of("-cp", Jobs.classpath(), AsyncProgressJob.class.getName()));
        Jobs.Result r = Jobs.run(cmd, Map.of("MPI4J_ASYNC_PROGRESS", "maybe"), 120);
        assertTrue(r.exitCode != 0, "the job failed\n" + r);
        assertTrue(r.output.contains("MPI4J_ASYNC_PROGRESS must be 1 or 0 (true/false, yes/no, on/off), got 'maybe'"),
                r.toString());
    }
}
