package io.github.mpi4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.mpi4j.nativeload.NativeLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A thread that asks for the batch policy gets it from the kernel, and no other thread does. */
public class ThreadPolicyTest {
    static final int SCHED_OTHER = 0, SCHED_BATCH = 3;

    /** The scheduling policy of the calling thread, as the kernel reports it (field 41 of its stat). */
    static int policyOfThisThread() throws IOException {
        return policyIn(Files.readString(Path.of("/proc/thread-self/stat")));
    }

    /** Field 41 of a /proc stat line. */
    public static int policyIn(String stat) {
        return statField(stat, 41);
    }

    /** Field {@code n} (from 1) of a /proc stat line; the command name (field 2) may hold spaces, so count after its ')'. */
    static int statField(String stat, int n) {
        String[] after = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Integer.parseInt(after[n - 3]);
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

    /** The CPU the calling thread last ran on (field 39 of its stat). */
    static int cpuOfThisThread() throws IOException {
        return statField(Files.readString(Path.of("/proc/thread-self/stat")), 39);
    }

    /** The CPUs the calling thread may run on, as the kernel lists them (Cpus_allowed_list). */
    static String allowedCpusOfThisThread() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) return line.substring(line.indexOf(':') + 1).trim();
        }
        throw new IllegalStateException("no Cpus_allowed_list in /proc/thread-self/status");
    }

    /** The CPU numbers of a list such as "0-3,8,10-11". */
    static List<Integer> cpusIn(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.split(",")) {
            String[] ends = part.split("-");
            int from = Integer.parseInt(ends[0]), to = Integer.parseInt(ends[ends.length - 1]);
            for (int c = from; c <= to; c++) cpus.add(c);
        }
        return cpus;
    }

    @Test
    void aThreadMovesToTheCpuItsIndexPicksAndMayRunEverywhereAgain() throws Exception {
        assumeTrue(NativeLoader.load("mpi4j_dl"), "libmpi4j_dl is not loaded");
        assumeTrue(Files.exists(Path.of("/proc/thread-self/status")), "no /proc/thread-self");
        String before = allowedCpusOfThisThread();
        List<Integer> cpus = cpusIn(before);
        assumeTrue(cpus.size() >= 2, "this thread may run on one CPU only: " + before);
        for (int index : new int[] {0, 1, cpus.size() + 1}) {
            AtomicReference<Object[]> got = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    // The kernel may move a thread again at any time on a busy machine (CI), so
                    // a few tries: a move that never lands on the target fails every one.
                    String refused = null;
                    int cpu = -1;
                    for (int attempt = 0; attempt < 5 && cpu != cpus.get(index % cpus.size()); attempt++) {
                        refused = ThreadPolicy.moveThisThread(index);
                        cpu = cpuOfThisThread();
                    }
                    got.set(new Object[] {refused, cpu, allowedCpusOfThisThread()});
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            t.start();
            t.join();
            assertNull(got.get()[0], "moveThisThread refused");
            assertEquals(cpus.get(index % cpus.size()), got.get()[1], "the CPU after moveThisThread(" + index + ")");
            assertEquals(before, got.get()[2], "the CPUs the thread may run on afterwards");
        }
        assertEquals(before, allowedCpusOfThisThread(), "the caller's CPUs changed");
    }

    @Test
    void cpuListsAreReadAsTheKernelWritesThem() {
        assertEquals(List.of(0, 1, 2, 3, 8, 10, 11), cpusIn("0-3,8,10-11"));
        assertEquals(List.of(5), cpusIn("5"));
    }

    @Test
    void theStatParserCountsFieldsAfterTheCommandName() {
        StringBuilder line = new StringBuilder("123 (a b) c) S");
        for (int field = 4; field <= 52; field++) line.append(' ').append(field == 41 ? 3 : field);
        assertEquals(3, policyIn(line.toString()));
    }
}
