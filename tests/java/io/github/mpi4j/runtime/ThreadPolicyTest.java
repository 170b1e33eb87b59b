package io.github.mpi4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.mpi4j.nativeload.NativeLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A thread that asks for the batch policy gets it from the kernel, and no other thread does. */
public class ThreadPolicyTest {
    static final int SCHED_OTHER = 0, SCHED_BATCH = 3;

    /** The scheduling policy of the calling thread, as the kernel reports it (field 41 of its stat). */
    static int policyOfThisThread() throws IOException {
        return policyIn(Files.readString(Path.of("/proc/thread-self/stat")));
    }

    /** Field 41 of a /proc stat line; the command name (field 2) may hold spaces, so count after its ')'. */
    public static int policyIn(String stat) {
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Integer.parseInt(after[41 - 3]);
    }

    /** What a new thread got: batchThisThread's answer and the kernel's policy for it afterwards. */
    private static Object[] askOnANewThread(boolean enabled) throws InterruptedException {
        AtomicReference<String> refused = new AtomicReference<>("not run");
        AtomicReference<Integer> policy = new AtomicReference<>();
        Thread t = new Thread(() -> {
            refused.set(ThreadPolicy.batchThisThread(enabled));
            try {
                policy.set(policyOfThisThread());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        t.join();
        return new Object[] {refused.get(), policy.get()};
    }

    @Test
    void aThreadThatAsksBecomesABatchThreadAndItsCallerDoesNot() throws Exception {
        assumeTrue(NativeLoader.load("mpi4j_dl"), "libmpi4j_dl is not loaded");
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "no /proc/thread-self");
        int callerBefore = policyOfThisThread();
        Object[] got = askOnANewThread(true);
        assertNull(got[0], "batchThisThread refused");
        assertEquals(SCHED_BATCH, got[1], "the kernel's policy for the thread that asked");
        assertEquals(callerBefore, policyOfThisThread(), "the caller's policy changed");
    }

    @Test
    void turnedOffByThePropertyItLeavesThePolicyAlone() throws Exception {
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "no /proc/thread-self");
        Object[] got = askOnANewThread(false);
        assertEquals("-Dmpi4j.progress.batch=false", got[0]);
        assertEquals(SCHED_OTHER, got[1], "a thread that did not ask");
    }

    @Test
    void theStatParserCountsFieldsAfterTheCommandName() {
        StringBuilder line = new StringBuilder("123 (a b) c) S");
        for (int field = 4; field <= 52; field++) line.append(' ').append(field == 41 ? 3 : field);
        assertEquals(3, policyIn(line.toString()));
    }
}
