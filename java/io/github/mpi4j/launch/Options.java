package io.github.mpi4j.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of {@code mpi4jrun}:
 * <pre>
 * mpi4jrun -np N [--hosts h1:2,h2:2 | --hostfile F] [--agent CMD] [--timeout S] [--tag-output]
 *          [--tcp] [--mpi] [--warmup auto|on|off] [-x NAME=VALUE]... [java options]
 *          (Main | -jar app.jar | Prog.java) [args]
 * </pre>
 * Launcher options come first; everything from the first other token on is for java: options
 * up to the program (a class name, {@code -jar file}, or a {@code .java} source file), then the
 * program's arguments.
 */
public final class Options {
    public int np = -1;
    public final List<Hosts.Host> hosts = new ArrayList<>();
    /** ssh without prompts and with a bounded connect: an unreachable host fails in seconds, with ssh's reason. */
    public static final String DEFAULT_AGENT = io.github.mpi4j.fabric.bootstrap.RemoteStart.DEFAULT_AGENT;
    public String agent = System.getenv().getOrDefault("MPI4J_AGENT", DEFAULT_AGENT);
    public double timeoutSeconds = 0;
    /** Seconds every rank has to reach the rendezvous store (call MPI.Init) before the job is ended. */
    public double connectTimeoutSeconds = 100;
    /** --help was asked for: print {@link #USAGE} on standard output and exit 0. */
    public boolean help;
    public boolean tagOutput;
    public boolean forceTcp;
    public boolean mpi;
    public boolean oversubscribe;
    public boolean verbose;
    public String rendezvousHost = System.getenv("MPI4J_RENDEZVOUS_HOST");
    /** --warmup's value (null: not given); every rank's MPI4J_WARMUP is in {@link #exports}. */
    public String warmup;
    public String mpi4jJar;
    public final Map<String, String> exports = new LinkedHashMap<>();
    /** java options before the program (-cp, -Xmx...), classpath kept apart. */
    public final List<String> javaOptions = new ArrayList<>();
    public String classpath;
    /** The program: a class name, a .java file, or the jar of -jar. */
    public String program;
    public boolean programIsJar;
    public final List<String> args = new ArrayList<>();

    /** Thrown for a bad command line; the message says what is wrong. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }

    public static final String USAGE = String.join("\n",
            "usage: mpi4jrun -np N [options] [java options] (Main | -jar app.jar | Prog.java) [args]",
            "  -np, -n N            number of ranks",
            "  --hosts h1:2,h2:2    hosts and their slots (default: this host, N slots)",
            "  --hostfile F         one host per line: 'name', 'name:slots' or 'name slots=S'",
            "  --agent CMD          how to start a rank on a remote host; {host} is replaced",
            "                       (default '" + DEFAULT_AGENT + "',",
            "                       or $MPI4J_AGENT; e.g. 'ip netns exec {host}')",
            "  --oversubscribe      allow more ranks than slots",
            "  --timeout S          kill the job after S seconds (exit 124)",
            "  --connect-timeout S  end the job if a rank has not reached the rendezvous store",
            "                       (called MPI.Init) within S seconds, naming it (default 100)",
            "  --tag-output         prefix every output line with [rank]",
            "  --tcp                use TCP between ranks of one host too (no shared memory)",
            "  --mpi                run under the system mpirun instead (MPI backend)",
            "  --warmup MODE        compile mpi4j's paths inside MPI.Init, before the program's",
            "                       first message: auto (default: where every node has a",
            "                       processor per rank), on or off; or $MPI4J_WARMUP",
            "  -x NAME=VALUE        set an environment variable in every rank",
            "  --verbose            say what is started where",
            "  -h, --help           this text",
            "Also: java -jar mpi4j.jar run [these options] (see README).");

    public static Options parse(String[] argv) throws UsageException {
        return parse(argv, System.getenv());
    }

    /** Parses {@code argv}; {@code env} is the launcher's environment (for the defaults it gives). */
    public static Options parse(String[] argv, Map<String, String> env) throws UsageException {
        Options o = new Options();
        int i = 0;
        // Launcher options.
        for (; i < argv.length; i++) {
            String a = argv[i];
            switch (a) {
                case "-np":
                case "-n":
                case "--np":
                    o.np = positiveInt(a, value(argv, ++i, a));
                    continue;
                case "--hosts":
                case "--host":
                case "-H":
                    o.hosts.addAll(Hosts.parseList(value(argv, ++i, a)));
                    continue;
                case "--hostfile":
                case "-hostfile": {
                    String f = value(argv, ++i, a);
                    try {
                        o.hosts.addAll(Hosts.parseFile(Files.readAllLines(Path.of(f))));
                    } catch (IOException e) {
                        throw new UsageException("cannot read hostfile " + f + ": " + e.getMessage());
                    }
                    continue;
                }
                case "--agent":
                    o.agent = value(argv, ++i, a);
                    continue;
                case "--timeout":
                    try {
                        o.timeoutSeconds = Double.parseDouble(value(argv, ++i, a));
                    } catch (NumberFormatException e) {
                        throw new UsageException("--timeout needs a number of seconds");
                    }
                    continue;
                case "--connect-timeout":
                    try {
                        o.connectTimeoutSeconds = Double.parseDouble(value(argv, ++i, a));
                    } catch (NumberFormatException e) {
                        throw new UsageException("--connect-timeout needs a number of seconds");
                    }
                    if (!(o.connectTimeoutSeconds > 0)) throw new UsageException("--connect-timeout must be > 0");
                    continue;
                case "--tag-output":
                    o.tagOutput = true;
                    continue;
                case "--tcp":
                    o.forceTcp = true;
                    continue;
                case "--mpi":
                    o.mpi = true;
                    continue;
                case "--oversubscribe":
                    o.oversubscribe = true;
                    continue;
                case "--verbose":
                case "-v":
                    o.verbose = true;
                    continue;
                case "--rendezvous-host":
                    o.rendezvousHost = value(argv, ++i, a);
                    continue;
                case "--warmup": {
                    String mode = value(argv, ++i, a).trim().toLowerCase(java.util.Locale.ROOT);
                    if (!mode.equals("auto") && !mode.equals("on") && !mode.equals("off")) {
                        throw new UsageException("--warmup needs auto, on or off, got '" + argv[i] + "'");
                    }
                    o.warmup = mode;
                    continue;
                }
                case "--mpi4j-jar":
                    o.mpi4jJar = value(argv, ++i, a);
                    continue;
                case "-x": {
                    String kv = value(argv, ++i, a);
                    int eq = kv.indexOf('=');
                    if (eq <= 0) throw new UsageException("-x needs NAME=VALUE, got '" + kv + "'");
                    o.exports.put(kv.substring(0, eq), kv.substring(eq + 1));
                    continue;
                }
                case "-h":
                case "--help":
                    o.help = true;
                    return o;
                default:
            }
            break;
        }
        // java options, then the program.
        for (; i < argv.length; i++) {
            String a = argv[i];
            if (a.equals("-cp") || a.equals("-classpath") || a.equals("--class-path")) {
                o.classpath = value(argv, ++i, a);
            } else if (a.equals("-jar")) {
                o.program = value(argv, ++i, a);
                o.programIsJar = true;
                i++;
                break;
            } else if (a.startsWith("-")) {
                o.javaOptions.add(a);
            } else {
                o.program = a;
                i++;
                break;
            }
        }
        o.args.addAll(Arrays.asList(argv).subList(Math.min(i, argv.length), argv.length));
        if (o.np < 1) throw new UsageException("missing -np N\n" + USAGE);
        if (o.program == null) throw new UsageException("missing the program to run\n" + USAGE);
        if (o.timeoutSeconds < 0) throw new UsageException("--timeout must be >= 0");
        o.settleWarmup(env.get("MPI4J_WARMUP"));
        return o;
    }

    /**
     * Every rank gets the same MPI4J_WARMUP, written into the exports (so remote ranks and
     * mpirun's get it too, and no rank warms up alone): --warmup wins, then -x, then the
     * launcher's own environment, then auto.
     */
    private void settleWarmup(String inherited) {
        if (warmup != null) exports.put("MPI4J_WARMUP", warmup);
        else if (!exports.containsKey("MPI4J_WARMUP")) {
            exports.put("MPI4J_WARMUP", inherited != null && !inherited.isBlank() ? inherited : "auto");
        }
    }

    private static String value(String[] argv, int i, String option) throws UsageException {
        if (i >= argv.length) throw new UsageException(option + " needs a value");
        return argv[i];
    }

    private static int positiveInt(String option, String v) throws UsageException {
        try {
            int n = Integer.parseInt(v);
            if (n < 1) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " needs a positive number, got '" + v + "'");
        }
    }
}
