package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A receiver that is sent a stream of 64 KiB messages faster than it receives them keeps up:
 * each message waits in the shared-memory ring until its receive is posted and lands in the
 * buffer with one copy, instead of being read ahead into a heap array (65 KiB allocated per
 * message, and before the forty-first session a queue that grew to hundreds of MiB). Two fabric
 * processes, point-to-point and bcast, every message's contents checked.
 */
class StreamedSendsTest {
    /** Per message: the receive's Status and little else; a heap copy of the message is 65,552. */
    private static final double MOST_BYTES = 1024;

    @Test
    void aStreamOfLargeEagerMessagesIsReceivedWithoutHeapCopies() throws Exception {
        List<String> cmd = Jobs.mpi4jrun(2, List.of(), List.of("-cp", Jobs.classpath(),
                StreamedSendsProgram.class.getName()));
        Jobs.Result r = Jobs.run(cmd, null, 120);
        assertEquals(0, r.exitCode, r.toString());
        Matcher m = Pattern.compile("STREAM recv=([\\d.]+) bcast=([\\d.]+)").matcher(r.output);
        assertTrue(m.find(), "no STREAM line: " + r);
        assertTrue(Double.parseDouble(m.group(1)) < MOST_BYTES, "a receive allocated " + m.group(1) + " bytes: " + r);
        assertTrue(Double.parseDouble(m.group(2)) < MOST_BYTES, "a bcast allocated " + m.group(2) + " bytes: " + r);
    }
}
