package io.github.mpi4j.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.testing.Jobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mpi4jrun's class-data archive with the packaged jar: the first job writes it (and keeps the
 * cache to its size), the next jobs' ranks map it, and it stays off when asked to be.
 */
class ClassDataArchiveIT {
    private static final Pattern LINE = Pattern.compile("CDS (\\d) (mapped|unmapped) (OK|WRONG)");

    /** Runs a 2-rank job; returns how many ranks mapped the archive. */
    private static int job(Path cache, Map<String, String> extraEnv, String... jvmOptions) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(Jobs.basedir(), "launch", "mpi4jrun").toString(), "-np", "2"));
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of("-cp", Path.of(Jobs.basedir(), "target", "test-classes").toString(),
                ClassDataProgram.class.getName()));
        Map<String, String> env = new HashMap<>(extraEnv);
        env.put("MPI4J_CDS_DIR", cache.toString());
        env.put("MPI4J_JAR", Path.of(Jobs.basedir(), "target", "mpi4j.jar").toString());
        Jobs.Result r = Jobs.run(cmd, env, 120);
        assertEquals(0, r.exitCode, r.toString());
        assertFalse(r.output.contains("[warning]") || r.output.contains("[error]"), "JVM log lines in\n" + r);
        Matcher m = LINE.matcher(r.output);
        int ranks = 0, mapped = 0;
        while (m.find()) {
            ranks++;
            assertEquals("OK", m.group(3), r.toString());
            if (m.group(2).equals("mapped")) mapped++;
        }
        assertEquals(2, ranks, r.toString());
        return mapped;
    }

    private static List<String> archives(Path cache) throws Exception {
        try (Stream<Path> s = Files.list(cache)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    @Test
    void theFirstJobWritesItTheNextOnesMapIt(@TempDir Path cache) throws Exception {
        assertTrue(Files.isRegularFile(Path.of(Jobs.basedir(), "target", "mpi4j.jar")), "built before this test");
        // A full cache of older archives (of other jars): the oldest makes room for the new one.
        for (int i = 0; i < ClassDataArchive.KEEP; i++) {
            Path old = Files.write(cache.resolve("mpi4j-old" + i + ".jsa"), new byte[] {1});
            Files.setLastModifiedTime(old, FileTime.fromMillis(1_000_000L * (i + 1)));
        }
        assertEquals(0, job(cache, Map.of()), "the first job runs without an archive");
        List<String> after = archives(cache);
        assertEquals(ClassDataArchive.KEEP, after.size(), "the cache keeps its size: " + after);
        assertFalse(after.contains("mpi4j-old0.jsa"), "the least recently used archive went: " + after);
        assertTrue(after.stream().anyMatch(n -> !n.startsWith("mpi4j-old")), "the new archive is there: " + after);

        assertEquals(2, job(cache, Map.of()), "every rank maps the archive");
        assertEquals(0, job(cache, Map.of("MPI4J_CDS", "0")), "MPI4J_CDS=0 turns it off");
        assertEquals(0, job(cache, Map.of(), "-Xshare:off"), "the user's own -Xshare wins");
        assertEquals(after, archives(cache), "nothing else written");
    }
}
