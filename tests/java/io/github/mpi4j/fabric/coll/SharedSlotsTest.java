package io.github.mpi4j.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.fabric.transport.ShmTransport;
import io.github.mpi4j.testing.DirectJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The shared-memory slots in real processes: each rank's arena is part of its inbox file, so it
 * is mapped by every local rank and unlinked once all have mapped it (nothing of the job stays
 * in /dev/shm, not even while it runs); large allreduces and bcasts go through the slots, small ones and
 * THREAD_MULTIPLE jobs do not, and MPI4J_SHM_COLL_KB=0 turns the arenas off.
 */
class SharedSlotsTest {
    private static final int NP = 3;
    private static final int RING_KB = 64;
    /** 200003 doubles (above the default threshold) in slots of 64 KiB: 25 chunks, not divisible by 3 ranks. */
    private static final String COUNT = "200003";
    private static final Pattern LINE = Pattern.compile(
            "SLOTS (\\d+) (\\d+) (\\d+) (\\d+) (\\d+) (\\d+) (\\d+) (\\d+) (\\d+) (OK|WRONG) (\\S+)");

    private static long[][] run(Map<String, String> env, String... args) throws Exception {
        DirectJob.Outcome o = DirectJob.run(NP, env, 90, SlotsProgram.class.getName(), args);
        long[][] out = new long[NP][];
        String job = null;
        for (int r = 0; r < NP; r++) {
            assertEquals(0, o.exitCodes[r], "rank " + r + " failed\n" + o);
            Matcher m = LINE.matcher(o.outputs[r]);
            assertTrue(m.find(), "rank " + r + " printed no SLOTS line\n" + o);
            assertEquals("OK", m.group(10), "rank " + r + ": wrong allreduce or bcast result\n" + o);
            job = m.group(11);
            out[r] = new long[9];
            for (int i = 0; i < 9; i++) out[r][i] = Long.parseLong(m.group(i + 1));
            assertEquals(0, out[r][1], "rank " + r + " saw its job's files in /dev/shm after Init\n" + o);
            assertEquals(NP, out[r][2], "rank " + r + " maps every local inbox file\n" + o);
            assertEquals(NP, out[r][3], "rank " + r + ": every mapped file is unlinked\n" + o);
        }
        String prefix = "mpi4j-" + job + "-"; // only this job's: other tests may run jobs meanwhile
        try (var files = Files.list(Path.of("/dev/shm"))) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith(prefix)),
                    "a /dev/shm/" + prefix + "* file was left behind");
        }
        return out;
    }

    private static long rings() {
        return ShmTransport.inboxBytes(NP, RING_KB * 1024);
    }

    @Test
    void largeAllreducesGoThroughTheSlots() throws Exception {
        long[][] ranks = run(Map.of("MPI4J_SHM_RING_KB", "" + RING_KB, "MPI4J_SHM_COLL_KB", "64"), COUNT);
        for (long[] r : ranks) {
            assertTrue(r[4] >= rings() + 64 * 1024, "inbox files are mapped with their arena: " + r[4] + " bytes");
            assertEquals(0, r[5], "an 8-double allreduce stays below the threshold");
            assertEquals(2, r[6], "both large allreduces use the slots");
            assertEquals(0, r[7], "an 8-double bcast stays below the threshold");
            assertEquals(2, r[8], "both large bcasts use the slots");
        }
    }

    /**
     * The warm start's small parts (SlotWarmUp) cut the same vectors into many more chunks, an
     * odd count among them, with a last chunk shorter than the others: the results are still
     * exact (SlotsProgram checks them), and the parts are back to their size afterwards.
     */
    @Test
    void smallPartsGiveTheSameResults() throws Exception {
        long[][] ranks = run(Map.of("MPI4J_SHM_RING_KB", "" + RING_KB, "MPI4J_SHM_COLL_KB", "1024"), COUNT,
                "smallparts");
        for (long[] r : ranks) assertEquals(2, r[6], "both large allreduces use the slots");
    }

    /**
     * The slots (and rings) written always with plain stores (MPI4J_STREAM_SHARED=0) and always
     * with streaming ones (1), rather than chosen by timing: the same exact results.
     */
    @Test
    void plainOrStreamingStoresGiveTheSameResults() throws Exception {
        for (String stores : new String[] {"0", "1"}) {
            long[][] ranks = run(Map.of("MPI4J_SHM_RING_KB", "" + RING_KB, "MPI4J_SHM_COLL_KB", "64",
                    "MPI4J_STREAM_SHARED", stores), COUNT);
            for (long[] r : ranks) {
                assertEquals(2, r[6], "both large allreduces use the slots, MPI4J_STREAM_SHARED=" + stores);
                assertEquals(2, r[8], "both large bcasts use the slots, MPI4J_STREAM_SHARED=" + stores);
            }
        }
    }

    @Test
    void arenasCanBeTurnedOff() throws Exception {
        long[][] ranks = run(Map.of("MPI4J_SHM_RING_KB", "" + RING_KB, "MPI4J_SHM_COLL_KB", "0"), COUNT);
        for (long[] r : ranks) {
            assertTrue(r[4] < rings() + 4096, "no arena mapped: " + r[4] + " bytes");
            assertEquals(0, r[6], "no slots, no slot allreduce");
            assertEquals(0, r[8], "no slots, no slot bcast");
        }
    }

    @Test
    void noSlotsUnderThreadMultiple() throws Exception {
        long[][] ranks = run(Map.of("MPI4J_SHM_RING_KB", "" + RING_KB, "MPI4J_SHM_COLL_KB", "64"), COUNT,
                "multiple");
        for (long[] r : ranks) {
            assertEquals(0, r[6], "THREAD_MULTIPLE: no slot allreduce");
            assertEquals(0, r[8], "THREAD_MULTIPLE: no slot bcast");
        }
    }
}
