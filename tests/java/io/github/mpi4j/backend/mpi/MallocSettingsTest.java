package io.github.mpi4j.backend.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import io.github.mpi4j.testing.Requirements;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** glibc's malloc settings before MPI_Init (MallocSettings): when they apply, and what they prevent. */
class MallocSettingsTest {
    @Test
    void appliedUnlessTheUserChose() {
        assertNull(MallocSettings.reasonToSkip(Map.of()));
        assertNull(MallocSettings.reasonToSkip(Map.of("MPI4J_MALLOC", "1")));
        assertNull(MallocSettings.reasonToSkip(Map.of("GLIBC_TUNABLES", "glibc.pthread.rseq=0")));
        assertEquals("MPI4J_MALLOC=0", MallocSettings.reasonToSkip(Map.of("MPI4J_MALLOC", "0")));
        assertEquals("MPI4J_MALLOC= Off", MallocSettings.reasonToSkip(Map.of("MPI4J_MALLOC", " Off")));
        assertEquals("the user set MALLOC_TOP_PAD_", MallocSettings.reasonToSkip(Map.of("MALLOC_TOP_PAD_", "0")));
        assertEquals("the user set MALLOC_ARENA_MAX", MallocSettings.reasonToSkip(Map.of("MALLOC_ARENA_MAX", "2")));
        assertEquals("the user set MALLOC_MMAP_THRESHOLD_",
                MallocSettings.reasonToSkip(Map.of("MALLOC_MMAP_THRESHOLD_", "131072")));
        assertEquals("the user set glibc.malloc tunables",
                MallocSettings.reasonToSkip(Map.of("GLIBC_TUNABLES", "glibc.malloc.trim_threshold=1")));
    }

    /** Osu's heap settings (bench/run.sh) after the test ranks' options, the GC excepted. */
    private static final List<String> OSU_JVM = List.of("-Xms1g", "-Xmx2g", "-XX:MaxDirectMemorySize=2g");

    private static Jobs.Result job(Map<String, String> env) throws Exception {
        List<String> args = new ArrayList<>(OSU_JVM);
        args.addAll(List.of("-cp", Jobs.classpath(), MallocSettingsJob.class.getName()));
        Jobs.Result r = Jobs.run(Jobs.mpirun(2, args, false), env, 300);
        assertEquals(0, r.exitCode, r.toString());
        return r;
    }

    private static String line(Jobs.Result r, String key) {
        Matcher m = Pattern.compile("(?m)^" + key + " (.*)$").matcher(r.output);
        assertTrue(m.find(), "no " + key + " line\n" + r);
        return m.group(1).trim();
    }

    private static double micros(Jobs.Result r, int bytes) {
        return Double.parseDouble(line(r, "RESULT allreduce direct " + bytes));
    }

    /**
     * With the settings, a 16 MiB allreduce of direct buffers takes about twice an 8 MiB one (each
     * byte is moved and added once more). Without them (MPI4J_MALLOC=0), 8 runs of this job in 10
     * took 42-66 ms for 16 MiB against 2-3 ms for 8 MiB: each call faulted in a fresh 16 MiB
     * temporary (perf: the faults are in process_vm_readv copying into it). That job is run
     * only to see the setting left alone, as its time is a matter of chance.
     */
    @Test
    void a16MiBAllreduceTakesAboutTwiceAn8MiBOne() throws Exception {
        Requirements.assumeMpi(Jobs.Launcher.MPIRUN, "Open MPI's large allreduce");
        Jobs.Result r = job(Map.of());
        assertEquals("mmap_threshold=33554432 trim_threshold=268435456 top_pad=67108864", line(r, "MALLOC"), r.toString());
        double t8 = micros(r, 8 << 20), t16 = micros(r, 16 << 20);
        assertTrue(t16 < 6 * t8, "16 MiB: " + t16 + " µs, 8 MiB: " + t8 + " µs\n" + r);

        Jobs.Result off = job(Map.of("MPI4J_MALLOC", "0"));
        assertEquals("left alone: MPI4J_MALLOC=0", line(off, "MALLOC"), off.toString());
    }
}
