package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, item 1: a small blocking send over shared memory allocates nothing, and a blocking
 * receive allocates only the {@code Status} the API returns (48 bytes; the JIT drops it where
 * the caller ignores it and the call inlines), for arrays and direct buffers alike; a window of
 * non-blocking sends or receives (osu_mbw_mr's loop) allocates only the requests the API returns, and a window
 * of persistent sends and receives allocates nothing on either side. Two fabric processes on
 * this node, checked message by message.
 */
class SmallMessageAllocationTest {
    /** Bytes of one mpi.Status on a 64-bit HotSpot with compressed class pointers, rounded up. */
    private static final double STATUS_BYTES = 56;
    /**
     * A non-blocking send completed at the call: only the mpi.Request the API returns (40 bytes).
     * No buffer descriptor, no backend request, no operation object, no status, no array per
     * waitAll (it allocated 216 bytes before the ninth session, 88-98 before the sixteenth).
     */
    private static final double ISEND_BYTES = 48;
    /**
     * A window of non-blocking receives: the same, since the eighteenth session. A completed
     * receive's backend request and operation go back to the communicator when the API lets go
     * of them and the next iRecv posts them again (192 bytes a message before).
     */
    private static final double IRECV_BYTES = 48;

    @Test
    void smallSendsAndReceivesDoNotAllocate() throws Exception {
        List<String> cmd = Jobs.mpi4jrun(2, List.of(), List.of("-cp", Jobs.classpath(),
                SmallMessageAllocationProgram.class.getName()));
        Jobs.Result r = Jobs.run(cmd, null, 120);
        assertEquals(0, r.exitCode, r.toString());
        Pattern line = Pattern.compile("ALLOC (\\w+) send=([\\d.]+) recv=([\\d.]+)");
        int found = 0;
        for (String kind : new String[] {"array", "direct"}) {
            // The second (warm) round of each kind is the one that counts: the last match.
            Matcher m = line.matcher(r.output);
            String send = null, recv = null;
            while (m.find()) {
                if (m.group(1).equals(kind)) {
                    send = m.group(2);
                    recv = m.group(3);
                }
            }
            assertTrue(send != null, "no ALLOC line for " + kind + ": " + r);
            found++;
            assertTrue(Double.parseDouble(send) < 1.0, kind + ": a send allocated " + send + " bytes per call: " + r);
            assertTrue(Double.parseDouble(recv) <= STATUS_BYTES, kind + ": a receive allocated " + recv
                    + " bytes per call, more than its Status: " + r);
        }
        assertEquals(2, found);
        Matcher w = Pattern.compile("WINDOW isend=([\\d.]+)").matcher(r.output);
        String isend = null;
        while (w.find()) isend = w.group(1);  // the warm round
        assertTrue(isend != null, "no WINDOW line: " + r);
        assertTrue(Double.parseDouble(isend) <= ISEND_BYTES, "a window of non-blocking sends allocated " + isend
                + " bytes per message, more than its Request: " + r);
        Matcher v = Pattern.compile("WINDOW irecv=([\\d.]+)").matcher(r.output);
        String irecv = null;
        while (v.find()) irecv = v.group(1);
        assertTrue(irecv != null, "no WINDOW irecv line: " + r);
        assertTrue(Double.parseDouble(irecv) <= IRECV_BYTES, "a window of non-blocking receives allocated " + irecv
                + " bytes per message, more than its Request: " + r);
        // Persistent requests on both sides: nothing at all per message, on the sender and on
        // the receiver (the last, warm, line of each rank).
        for (int rank = 0; rank < 2; rank++) {
            Matcher p = Pattern.compile("PERSISTENT " + rank + " bytes=([\\d.]+)").matcher(r.output);
            String bytes = null;
            while (p.find()) bytes = p.group(1);
            assertTrue(bytes != null, "no PERSISTENT line of rank " + rank + ": " + r);
            assertTrue(Double.parseDouble(bytes) < 1.0, "rank " + rank + ": a window of persistent requests allocated "
                    + bytes + " bytes per message: " + r);
        }
    }
}
