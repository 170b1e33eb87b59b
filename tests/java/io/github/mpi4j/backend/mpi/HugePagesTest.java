package io.github.mpi4j.backend.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Large arrays a blocking MPI call pins get huge pages (native/mpi4j_huge_pages.c): on a kernel that
 * collapses on request (Linux 6.1+) with transparent huge pages in "madvise" mode, where nothing
 * else gives the JVM's heap huge pages, the process's anonymous huge pages grow by most of the
 * two 8 MiB arrays of an allreduce, a scan or an exclusive scan; with MPI4J_HUGE_PAGES=0 they do
 * not.
 */
class HugePagesTest {
    private static final Pattern LINE = Pattern.compile("(?m)^HUGE (\\d+) (-?\\d+) (-?\\d+) (\\d+)$");

    /** KiB of huge pages each rank gained; checks that every result was right. */
    private static long[] gained(String op, Map<String, String> env) throws Exception {
        List<String> args = List.of("-Xmx1g", "-cp", Jobs.classpath(), HugePagesJob.class.getName(), op);
        Jobs.Result r = Jobs.run(Jobs.mpirun(2, args, false), env, 300);
        assertEquals(0, r.exitCode, r.toString());
        long[] kib = new long[2];
        Matcher m = LINE.matcher(r.output);
        int lines = 0;
        while (m.find()) {
            assertEquals("0", m.group(4), "wrong " + op + " results\n" + r);
            kib[Integer.parseInt(m.group(1))] = Long.parseLong(m.group(3)) - Long.parseLong(m.group(2));
            lines++;
        }
        assertEquals(2, lines, r.toString());
        return kib;
    }

    @ParameterizedTest
    @ValueSource(strings = {"allreduce", "scan", "exscan"})
    void largePinnedArraysGetHugePages(String op) throws Exception {
        Requirements.assumeMpi(Jobs.Launcher.MPIRUN, "the MPI backend's pinned arrays");
        Path mode = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        assumeTrue(Files.isReadable(mode) && Files.readString(mode).contains("[madvise]"),
                "transparent huge pages not in madvise mode");
        String[] version = System.getProperty("os.version").split("[.-]");
        int major = Integer.parseInt(version[0]), minor = Integer.parseInt(version[1]);
        assumeTrue(major > 6 || (major == 6 && minor >= 1), "MADV_COLLAPSE needs Linux 6.1");

        // Each array's 2 MiB-aligned interior holds at least 3 of its 4 frames: 12 MiB of 16.
        for (long kib : gained(op, Map.of())) assertTrue(kib >= 12 * 1024, "gained " + kib + " KiB of huge pages");
        for (long kib : gained(op, Map.of("MPI4J_HUGE_PAGES", "0"))) {
            assertTrue(kib < 4 * 1024, "with MPI4J_HUGE_PAGES=0 gained " + kib + " KiB of huge pages");
        }
    }
}
