package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.launch.FaultProgram;
import io.github.mpi4j.testing.DirectJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rank SIGKILLed in the middle of an allreduce or of a point-to-point exchange: every other
 * rank fails with an MPIException naming it within 10 s, over shared memory (also while the
 * allreduce works in the shared-memory slots) and over TCP, and no /dev/shm segment remains.
 */
class FaultDetectionTest {
    private static final Pattern DETECTED = Pattern.compile("FAULT DETECTED (\\d+) ([0-9.]+) (.*)");

    private static void check(DirectJob.Outcome o, int np, int victim) throws Exception {
        assertEquals(137, o.exitCodes[victim], "the victim was SIGKILLed\n" + o);
        for (int r = 0; r < np; r++) {
            if (r == victim) continue;
            assertEquals(3, o.exitCodes[r], "rank " + r + " should have detected the failure\n" + o);
            Matcher m = DETECTED.matcher(o.outputs[r]);
            assertTrue(m.find(), "rank " + r + " printed no detection\n" + o);
            assertTrue(Double.parseDouble(m.group(2)) < 10.0, "detection took " + m.group(2) + " s\n" + o);
            assertTrue(m.group(3).contains("rank " + victim), "the message names the dead rank: " + m.group(3));
        }
        try (var files = Files.list(Path.of("/dev/shm"))) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("mpi4j-")),
                    "a /dev/shm/mpi4j-* segment was left behind");
        }
    }

    /** "slots": over shared memory, with every allreduce through the shared-memory slots. */
    @ParameterizedTest
    @ValueSource(strings = {"auto", "tcp", "slots"})
    void killedDuringAllreduce(String transport) throws Exception {
        Map<String, String> env = transport.equals("slots") ? Map.of("MPI4J_SHM_COLL_MIN_KB", "0")
                : Map.of("MPI4J_TRANSPORT", transport);
        DirectJob.Outcome o = DirectJob.run(3, env, 60, FaultProgram.class.getName(), "kill-allreduce", "1");
        check(o, 3, 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "tcp"})
    void killedDuringPointToPoint(String transport) throws Exception {
        DirectJob.Outcome o = DirectJob.run(3, Map.of("MPI4J_TRANSPORT", transport), 60,
                FaultProgram.class.getName(), "kill-p2p", "2");
        check(o, 3, 2);
    }
}
