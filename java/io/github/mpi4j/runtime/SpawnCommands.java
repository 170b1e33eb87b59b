package io.github.mpi4j.runtime;

import io.github.mpi4j.spi.Mpi;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import mpi.MPIException;

/**
 * What a spawned command really runs, decided at the spawning root for every backend.
 *
 * <p>{@code "java"} (the way Java programs spawn Java programs with Open MPI's bindings:
 * {@code spawn("java", {"Worker", "arg"}, ...)} or {@code {"-cp", cp, "Worker"}}) runs this
 * JVM's own {@code java} with this JVM's options (heap, system properties, {@code -Xcheck:jni}; not
 * a debugger agent, whose port would clash), then the given arguments, which come later and so
 * win where they repeat an option. Without a class path option ({@code -cp},
 * {@code -classpath}, {@code --class-path}, {@code -jar}, {@code -m}/{@code --module}) the
 * parent's class path is added; with one that lacks mpi4j, mpi4j's jar (or classes directory)
 * is appended so that the child can call {@code MPI.Init}.
 *
 * <p>Any other command is a program: a path (which must be an executable file) or a name looked
 * up on {@code PATH}. A command that is not found is an {@code MPI.ERR_SPAWN} before anything is
 * started (Open MPI's mpirun would otherwise end the whole job).
 */
public final class SpawnCommands {
    private SpawnCommands() {
    }

    /** The program and its arguments for {@code command argv...}; throws ERR_SPAWN naming the command. */
    public static String[] resolve(String call, String command, String[] argv, Map<String, String> env) {
        String[] args = argv == null ? new String[0] : argv;
        if (isJava(command)) return java(args);
        String program = program(call, command, env);
        String[] out = new String[args.length + 1];
        out[0] = program;
        System.arraycopy(args, 0, out, 1, args.length);
        return out;
    }

    /** Whether {@code command} means "a JVM like this one". */
    public static boolean isJava(String command) {
        if (command.equals("java")) return true;
        Path own = Path.of(System.getProperty("java.home"), "bin", "java");
        try {
            return Path.of(command).isAbsolute() && Files.isSameFile(Path.of(command), own);
        } catch (Exception e) {
            return false;
        }
    }

    private static String program(String call, String command, Map<String, String> env) {
        if (command.indexOf('/') >= 0) {
            Path p = Path.of(command);
            if (!Files.isRegularFile(p)) {
                throw MPIException.of(Mpi.ERR_SPAWN, call + ": command '" + command + "' does not exist");
            }
            if (!Files.isExecutable(p)) {
                throw MPIException.of(Mpi.ERR_SPAWN, call + ": command '" + command + "' is not executable");
            }
            return p.toAbsolutePath().toString();
        }
        String path = env.getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            Path p = Path.of(dir, command);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return p.toString();
        }
        throw MPIException.of(Mpi.ERR_SPAWN, call + ": command '" + command + "' is not found on PATH (" + path + ")");
    }

    private static String[] java(String[] args) {
        List<String> out = new ArrayList<>();
        out.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String o : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (o.contains("jdwp") || o.equals("-Xdebug") || o.startsWith("-Djava.class.path=")) continue;
            out.add(o);
        }
        int cpAt = -1;
        boolean other = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if ((a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path")) && i + 1 < args.length) {
                cpAt = i + 1;
                break;
            }
            if (a.startsWith("--class-path=") || a.equals("-jar") || a.equals("-m") || a.equals("--module")
                    || a.startsWith("--module=")) {
                other = true; // the command says where the classes are: used as written
                break;
            }
            if (!a.startsWith("-")) break; // the main class, with no class path before it
        }
        String[] given = args.clone();
        if (cpAt >= 0) {
            given[cpAt] = withMpi4j(given[cpAt]);
        } else if (!other) {
            out.add("-cp");
            out.add(absolute(System.getProperty("java.class.path")));
        }
        out.addAll(Arrays.asList(given));
        return out.toArray(new String[0]);
    }

    /** {@code cp} with relative entries made absolute (a child may run in another directory: info 'wdir'). */
    private static String absolute(String cp) {
        List<String> out = new ArrayList<>();
        for (String e : cp.split(File.pathSeparator)) {
            if (!e.isEmpty()) out.add(Path.of(e).toAbsolutePath().toString());
        }
        return String.join(File.pathSeparator, out);
    }

    /** {@code cp} with mpi4j's own location appended when it is not there. */
    private static String withMpi4j(String cp) {
        String own;
        try {
            // This class ships in the same jar (or classes folder) as package mpi.
            own = Path.of(SpawnCommands.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (Exception e) {
            return cp;
        }
        for (String e : cp.split(File.pathSeparator)) {
            try {
                if (!e.isEmpty() && Files.isSameFile(Path.of(e), Path.of(own))) return cp;
            } catch (Exception ignored) {
                // an entry that does not exist is not mpi4j
            }
        }
        return cp.isEmpty() ? own : cp + File.pathSeparator + own;
    }
}
