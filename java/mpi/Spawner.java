package mpi;

import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.runtime.SpawnCommands;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.Spawning;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The checks and calls behind {@link Intracomm#spawn}, {@link Intracomm#spawnMultiple} and
 * {@link Intercomm#getParent()}: the root checks every argument and resolves the commands
 * ({@link SpawnCommands}), tells the group whether they are usable before anything starts, and
 * hands them to the backend's {@link Spawning} capability. See docs/spawn.md.
 */
final class Spawner {
    private Spawner() {
    }

    /** The parent intercommunicator of each session, once asked for (the same object every time). */
    private static final Map<Session, Intercomm> PARENTS = new WeakHashMap<>();

    static Intercomm spawn(Intracomm comm, String command, String[] argv, int maxprocs, Info info, int root,
                           int[] errcodes) {
        return run(comm, "spawn", new String[] {command}, new String[][] {argv}, new int[] {maxprocs},
                new Info[] {info}, root, errcodes, true);
    }

    static Intercomm spawnMultiple(Intracomm comm, String[] commands, String[][] argv, int[] maxprocs, Info[] info,
                                   int root, int[] errcodes) {
        return run(comm, "spawnMultiple", commands, argv, maxprocs, info, root, errcodes, false);
    }

    private static Intercomm run(Intracomm comm, String call, String[] commands, String[][] argv, int[] maxprocs,
                                 Info[] info, int root, int[] errcodes, boolean single) {
        BackendComm c = comm.impl(call);
        Spawning sp = comm.capability(call, Spawning.class, "spawning processes");
        CallErrors.begin(c, call, false);
        Throwable failure = null;
        try {
            Comm.checkRoot(call, c, root);
            Spawning.Command[] resolved = null;
            MPIException bad = null;
            int total = 0;
            if (c.rank() == root) {
                try {
                    resolved = check(call, commands, argv, maxprocs, info, single);
                    for (Spawning.Command k : resolved) total += k.count;
                    if (errcodes != null && errcodes.length < total) {
                        throw MPIException.of(MPI.ERR_ARG, call + ": errcodes has " + errcodes.length
                                + " entries for " + total + " processes");
                    }
                } catch (MPIException e) {
                    bad = e;
                }
            }
            int[] verdict = {bad == null ? 0 : bad.getErrorClass(), total};
            c.collectives().bcast(new Buf(verdict, BaseKind.INT, 0, 2), 2, Predefined.T_INT, root);
            if (bad != null) {
                fill(errcodes, errcodes == null ? 0 : errcodes.length, bad.getErrorClass());
                throw bad;
            }
            if (verdict[0] != 0) {
                fill(errcodes, errcodes == null ? 0 : errcodes.length, verdict[0]);
                throw MPIException.of(verdict[0], call + ": the root (rank " + root
                        + ") refused the arguments; its exception says why");
            }
            int[] codes = new int[verdict[1]];
            BackendComm n;
            try {
                n = sp.spawn(resolved, !single, root, codes);
            } finally {
                if (errcodes != null) System.arraycopy(codes, 0, errcodes, 0, Math.min(codes.length, errcodes.length));
            }
            return CallErrors.inherit(comm, new Intercomm(comm.session, n, comm.getName() + "." + call));
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(comm, c, failure);
        }
    }

    private static void fill(int[] a, int n, int code) {
        if (a != null) Arrays.fill(a, 0, Math.min(n, a.length), code);
    }

    /** The root's checks; returns the resolved commands. */
    private static Spawning.Command[] check(String call, String[] commands, String[][] argv, int[] maxprocs,
                                            Info[] info, boolean single) {
        if (commands == null) throw MPIException.of(MPI.ERR_ARG, call + ": commands is null");
        int n = commands.length;
        if (n == 0) throw MPIException.of(MPI.ERR_ARG, call + ": commands is empty");
        if (argv != null && argv.length != n) {
            throw MPIException.of(MPI.ERR_ARG, call + ": argv has " + argv.length + " entries for " + n + " commands");
        }
        if (maxprocs == null) throw MPIException.of(MPI.ERR_ARG, call + ": maxprocs is null");
        if (maxprocs.length != n) {
            throw MPIException.of(MPI.ERR_ARG, call + ": maxprocs has " + maxprocs.length + " entries for " + n
                    + " commands");
        }
        if (info != null && info.length != n) {
            throw MPIException.of(MPI.ERR_ARG, call + ": info has " + info.length + " entries for " + n + " commands");
        }
        Map<String, String> env = System.getenv();
        Spawning.Command[] out = new Spawning.Command[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            String what = single ? "" : " " + i;
            String cmd = commands[i];
            if (cmd == null) throw MPIException.of(MPI.ERR_SPAWN, call + ": command" + what + " is null");
            if (cmd.isBlank()) throw MPIException.of(MPI.ERR_SPAWN, call + ": command" + what + " is empty");
            if (maxprocs[i] <= 0) {
                throw MPIException.of(MPI.ERR_ARG, call + ": maxprocs" + (single ? "" : "[" + i + "]") + " must be > 0, got "
                        + maxprocs[i]);
            }
            total += maxprocs[i];
            String[] args = argv == null ? null : argv[i];
            if (args != null) {
                for (int k = 0; k < args.length; k++) {
                    if (args[k] == null) {
                        throw MPIException.of(MPI.ERR_ARG, call + ": argv" + (single ? "" : "[" + i + "]") + "[" + k
                                + "] is null");
                    }
                }
            }
            Map<String, String> entries = entries(info == null ? null : info[i]);
            String wdir = entries.get("wdir");
            if (wdir != null && !Files.isDirectory(Path.of(wdir))) {
                throw MPIException.of(MPI.ERR_SPAWN, call + ": info 'wdir' of command" + what + " ('" + wdir
                        + "') is not a directory");
            }
            String[] full = SpawnCommands.resolve(call, cmd, args, env);
            out[i] = new Spawning.Command(full[0], Arrays.copyOfRange(full, 1, full.length), maxprocs[i], entries);
        }
        if (total > 4096) {
            throw MPIException.of(MPI.ERR_ARG, call + ": " + total + " processes asked for; at most 4096 at once");
        }
        return out;
    }

    private static Map<String, String> entries(Info info) {
        Map<String, String> m = new LinkedHashMap<>();
        if (info == null || info.isNull()) return m;
        for (int k = 0; k < info.size(); k++) {
            String key = info.getKey(k);
            m.put(key, info.get(key));
        }
        return m;
    }

    /** MPI_Comm_get_parent: the same intercommunicator every time; a null one without parents. */
    static Intercomm parent() {
        Session session = MPI.session();
        session.check();
        synchronized (PARENTS) {
            Intercomm p = PARENTS.get(session);
            if (p != null) return p;
            BackendComm world = MPI.COMM_WORLD.impl("getParent");
            Spawning sp = world.capability(Spawning.class);
            BackendComm b = sp == null ? null : sp.parent();
            p = new Intercomm(session, b, "MPI.COMM_PARENT");
            PARENTS.put(session, p);
            return p;
        }
    }
}
