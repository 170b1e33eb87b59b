package io.github.mpi4j.launch;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A class-data sharing archive of mpi4j's own classes for the ranks' JVMs (the JDK's dynamic
 * CDS archives): the classes come parsed and verified out of a file every rank maps, instead of
 * being loaded from the jar by each JVM (MPI.Init at np 4 on 2 cores: 1.07-1.20 s with it,
 * 1.39-1.49 s without).
 *
 * <p>The first job on a machine (for this jar and JDK) runs without it and meanwhile writes it:
 * a separate JVM runs {@code io.github.mpi4j.bench.ClassDataWarmup} with only the jar on its
 * class path and dumps the classes it loaded at exit; the launcher waits for it when the job
 * ends and moves it into the
 * cache ({@code MPI4J_CDS_DIR}, else {@code $XDG_CACHE_HOME/mpi4j} or {@code ~/.cache/mpi4j};
 * at most {@link #KEEP} archives, the least recently used go). Later jobs map it. The JVM checks
 * an archive against the jar and refuses (silently here) one that does not match.
 *
 * <p>A JVM uses an archive only when the class path it was made with starts the ranks' class
 * path, so with it mpi4j's jar comes first on the ranks' class path (before the program's).
 * Off with {@code MPI4J_CDS=0}, or when the JVM options already choose class-data sharing
 * ({@code -Xshare:...}, {@code -XX:SharedArchiveFile}, {@code -XX:ArchiveClassesAtExit}), for
 * ranks on other hosts, under mpirun or srun, and when mpi4j is not a jar.
 */
final class ClassDataArchive {
    /** The program whose loaded classes make the archive (an API user, so it lives with the benchmarks). */
    private static final String WARMUP = "io.github.mpi4j.bench.ClassDataWarmup";
    /** Archives kept in the cache directory. */
    static final int KEEP = 8;
    /** How long the launcher waits, after the job, for the JVM writing the archive. */
    private static final long DUMP_WAIT_SECONDS = 30;

    private static final ClassDataArchive OFF = new ClassDataArchive(null, null);

    private final Path jar;
    private final Path archive;
    /** Ends the writer if the launcher is killed first: no process outlives the launcher. */
    private Thread writerGuard;

    private ClassDataArchive(Path jar, Path archive) {
        this.jar = jar;
        this.archive = archive;
    }

    /** The archive for a fabric job of {@code o} (the only kind that asks) with mpi4j's {@code jar}, or one that is off. */
    static ClassDataArchive forJob(Options o, String jar, boolean allRanksHere) {
        if (!allRanksHere || "0".equals(System.getenv("MPI4J_CDS"))) return OFF;
        for (String opt : o.javaOptions) {
            if (opt.startsWith("-Xshare") || opt.contains("SharedArchiveFile") || opt.contains("ArchiveClassesAtExit")) {
                return OFF;
            }
        }
        Path j = Path.of(jar).toAbsolutePath();
        if (!j.toString().endsWith(".jar") || !Files.isRegularFile(j)) return OFF;
        Path dir = cacheDir();
        try {
            Files.createDirectories(dir);
            if (!Files.isWritable(dir)) return OFF;
            return new ClassDataArchive(j, dir.resolve("mpi4j-" + key(j) + ".jsa"));
        } catch (IOException | RuntimeException e) {
            return OFF;
        }
    }

    /** mpi4j's jar, as the archive's class path names it. */
    String jar() {
        return jar.toString();
    }

    boolean enabled() {
        return archive != null;
    }

    /** Whether the archive exists (this job's ranks map it). */
    boolean ready() {
        return archive != null && Files.isRegularFile(archive);
    }

    /** The options that make a rank map the archive (none while there is none). */
    List<String> rankOptions() {
        if (!ready()) return List.of();
        try {
            Files.setLastModifiedTime(archive, FileTime.fromMillis(System.currentTimeMillis()));  // recently used
        } catch (IOException ignored) {
            // read-only cache: the order of eviction matters little
        }
        // -Xlog: a JVM that cannot use the archive (other options) says so on stdout otherwise.
        return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off");
    }

    /** Starts the JVM that writes the archive when there is none yet; null otherwise. */
    Process startWriting() {
        if (!enabled() || ready()) return null;
        Path partial = partial();
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-XX:ArchiveClassesAtExit=" + partial);
        cmd.add(Launcher.NATIVE_ACCESS);  // as the ranks run
        cmd.add("-Xlog:cds*=off");
        cmd.add("-cp");
        cmd.add(jar.toString());
        cmd.add(WARMUP);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        // A world of one, whatever this launcher was given.
        pb.environment().keySet().removeIf(k -> k.startsWith("MPI4J_") || k.startsWith("OMPI_") || k.startsWith("PMI"));
        try {
            Process p = pb.start();
            writerGuard = new Thread(p::destroyForcibly);
            Runtime.getRuntime().addShutdownHook(writerGuard);
            return p;
        } catch (IOException | IllegalStateException e) {
            return null;
        }
    }

    /** After the job: waits for {@code writer} (bounded), keeps a complete archive, removes the rest. */
    void finishWriting(Process writer) {
        if (writer == null) return;
        Path partial = partial();
        try {
            boolean ended = writer.waitFor(DUMP_WAIT_SECONDS, TimeUnit.SECONDS);
            if (!ended) writer.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            if (ended && writer.exitValue() == 0 && Files.isRegularFile(partial)) {
                Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                evictOld();
            }
        } catch (IOException | RuntimeException e) {
            // no archive this time; the next job tries again
        } catch (InterruptedException e) {
            writer.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(writerGuard);
            } catch (IllegalStateException | IllegalArgumentException ignored) {
                // shutting down already: the guard ends the writer
            }
            try {
                Files.deleteIfExists(partial);
            } catch (IOException ignored) {
                // a stray partial file is overwritten by the next writer of this name
            }
        }
    }

    /** Where this launcher's writer puts the archive until it is complete (one name per launcher). */
    private Path partial() {
        return archive.resolveSibling(archive.getFileName() + "." + ProcessHandle.current().pid() + ".partial");
    }

    private void evictOld() throws IOException {
        List<Path> all = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(archive.getParent(), "mpi4j-*.jsa")) {
            for (Path p : ds) all.add(p);
        }
        if (all.size() <= KEEP) return;
        all.sort((a, b) -> Long.compare(lastModified(b), lastModified(a)));
        for (Path p : all.subList(KEEP, all.size())) Files.deleteIfExists(p);
    }

    private static long lastModified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    static Path cacheDir() {
        String set = System.getenv("MPI4J_CDS_DIR");
        if (set != null && !set.isBlank()) return Path.of(set);
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("mpi4j");
    }

    /** The JDK and the jar (path, size, time): an archive is good for exactly these. */
    private static String key(Path jar) throws IOException {
        String id = System.getProperty("java.home") + File.pathSeparator + System.getProperty("java.vm.version")
                + File.pathSeparator + jar + File.pathSeparator + Files.size(jar) + File.pathSeparator
                + Files.getLastModifiedTime(jar).toMillis();
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder();
            for (int i = 0; i < 12; i++) hex.append(String.format("%02x", d[i]));
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
