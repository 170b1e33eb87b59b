package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.buffer.HostViews;
import io.github.mpi4j.testing.DirectJob;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Large messages between processes of one node read straight out of the sender's memory
 * (process_vm_readv) when {@code MPI4J_SINGLE_COPY=1}, with the two-copy path where the
 * sender's memory is an array or single copies are off (the default): the same values arrive
 * either way ({@link SingleCopyProgram}).
 */
class SingleCopyTest {
    private static final Pattern LINE = Pattern.compile("SINGLECOPY (\\d) (\\d+) (OK|WRONG) (\\S+)");

    private static long[] run(Map<String, String> env) throws Exception {
        DirectJob.Outcome o = DirectJob.run(2, env, 90, SingleCopyProgram.class.getName());
        long[] reads = new long[2];
        for (int r = 0; r < 2; r++) {
            assertEquals(0, o.exitCodes[r], "rank " + r + " failed\n" + o);
            Matcher m = LINE.matcher(o.outputs[r]);
            assertTrue(m.find(), "rank " + r + " printed no SINGLECOPY line\n" + o);
            assertEquals("OK", m.group(3), "rank " + r + ": wrong value at " + m.group(4) + "\n" + o);
            reads[r] = Long.parseLong(m.group(2));
        }
        return reads;
    }

    @Test
    void directBuffersAreReadOnceByTheReceiver() throws Exception {
        Assumptions.assumeTrue(HostViews.available(), "libmpi4j_dl is not loaded here");
        long[] reads = run(Map.of("MPI4J_SINGLE_COPY", "1"));
        // Rank 1 reads cases 1, 2, 4, 5, 6 and the four non-blocking ones; never case 3 (an array
        // sender). Rank 0 reads the echo.
        assertEquals(9, reads[1], "single copies on the receiving rank");
        assertEquals(1, reads[0], "single copies on the sending rank");
    }

    @Test
    void offByDefaultEverythingTakesTwoCopies() throws Exception {
        for (Map<String, String> env : List.of(Map.<String, String>of(), Map.of("MPI4J_SINGLE_COPY", "0"))) {
            long[] reads = run(env);
            assertEquals(0, reads[0], "single copies with " + env);
            assertEquals(0, reads[1], "single copies with " + env);
        }
    }
}
