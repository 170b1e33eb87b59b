package io.github.mpi4j.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The jar's entry point, so that mpi4j works from the artifact alone:
 * <pre>
 * java -jar mpi4j.jar run -np 4 -cp app.jar my.Main     mpi4jrun (every option of it)
 * java -jar mpi4j.jar info                              what this JVM can use (backends, MPI)
 * java -jar mpi4j.jar launcher-script [FILE]            writes an mpi4jrun script for this jar
 * </pre>
 */
public final class Main {
    private Main() {
    }

    static final String USAGE = String.join("\n",
            "usage: java -jar mpi4j.jar COMMAND [arguments]",
            "  run [mpi4jrun options] PROGRAM [args]   start a job (see 'run --help')",
            "  info                                    what this JVM can use: backends, MPI library",
            "  launcher-script [FILE]                  write an mpi4jrun script that uses this jar",
            "                                          (to FILE, made executable; else to standard output)",
            "  help                                    this text");

    public static void main(String[] argv) {
        String command = argv.length == 0 ? "help" : argv[0];
        String[] rest = Arrays.copyOfRange(argv, Math.min(1, argv.length), argv.length);
        switch (command) {
            case "run":
                Launcher.main(withJar(rest));
                return;
            case "info":
                io.github.mpi4j.Mpi4j.main(rest);
                return;
            case "launcher-script":
                System.exit(writeScript(rest));
                return;
            case "help":
            case "-h":
            case "--help":
                System.out.println(USAGE);
                return;
            default:
                System.err.println("mpi4j: unknown command '" + command + "'\n" + USAGE);
                System.exit(2);
        }
    }

    /** The launcher is told which jar the ranks need: this one. */
    private static String[] withJar(String[] args) {
        String[] out = new String[args.length + 2];
        out[0] = "--mpi4j-jar";
        out[1] = Launcher.ownLocation();
        System.arraycopy(args, 0, out, 2, args.length);
        return out;
    }

    /** A shell script that runs this jar's launcher, as launch/mpi4jrun does in a source tree. */
    static String script(String jar) {
        String quoted = FabricJob.quote(jar);
        return String.join("\n",
                "#!/bin/sh",
                "# mpi4jrun: start an MPI job of Java programs with mpi4j (written by 'java -jar mpi4j.jar launcher-script').",
                "jar=${MPI4J_JAR:-" + quoted + "}",
                "java=${JAVA_HOME:+$JAVA_HOME/bin/}java",
                "exec \"$java\" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -cp \"$jar\" \\",
                "  io.github.mpi4j.launch.Launcher --mpi4j-jar \"$jar\" \"$@\"",
                "");
    }

    private static int writeScript(String[] args) {
        String text = script(Path.of(Launcher.ownLocation()).toAbsolutePath().toString());
        if (args.length == 0) {
            System.out.print(text);
            return 0;
        }
        Path file = Path.of(args[0]);
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
            if (!file.toFile().setExecutable(true)) throw new IOException("cannot make it executable");
            System.out.println("wrote " + file.toAbsolutePath());
            return 0;
        } catch (IOException e) {
            System.err.println("mpi4j: cannot write " + file + ": " + e.getMessage());
            return 1;
        }
    }
}
