package io.github.mpi4j.fabric.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.mpi4j.nativeload.NativeLoader;
import io.github.mpi4j.runtime.ThreadPolicyTest;
import java.io.File;
import java.nio.file.Files;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The progress thread runs as a batch thread where the library is there to ask for it. */
class ProgressThreadPolicyTest {
    @Test
    void theProgressThreadIsABatchThread() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        ProgressThread.add(() -> {
            ran.countDown();
            return ProgressThread.Task.Outcome.FINISHED;
        });
        assertTrue(ran.await(30, TimeUnit.SECONDS), "the progress thread did not run a task");
        String notBatch = ProgressThread.notBatch;
        assertNotEquals("not started", notBatch, "the thread ran a task before choosing its policy");
        if (!NativeLoader.load("mpi4j_dl") || "false".equals(System.getProperty("mpi4j.progress.batch"))) {
            assertNotNull(notBatch, "batch policy reported without the library or with it turned off");
            return;
        }
        assertNull(notBatch, "the progress thread stayed on the default policy");
        int policy = -1;
        File[] tasks = new File("/proc/self/task").listFiles();
        assumeTrue(tasks != null, "no /proc/self/task");
        for (File t : tasks) {
            if (Files.readString(new File(t, "comm").toPath()).trim().equals("mpi4j-progress")) {
                policy = ThreadPolicyTest.policyIn(Files.readString(new File(t, "stat").toPath()));
            }
        }
        assertEquals(3, policy, "SCHED_BATCH (3) for the thread named mpi4j-progress");
    }
}
