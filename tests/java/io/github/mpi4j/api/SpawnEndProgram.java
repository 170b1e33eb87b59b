package io.github.mpi4j.api;

import mpi.Intercomm;
import mpi.MPI;

/**
 * A parent that spawns two children which wait for it forever, prints their pids
 * ({@code CHILDREN pid pid}), and then ends without MPI.Finalize the way {@code args[0]} says:
 * {@code abort} (MPI.COMM_WORLD.abort), {@code exit} (System.exit: shutdown hooks run) or
 * {@code halt} (Runtime.halt: nothing runs, like a crash). {@link SpawnTest} checks that the
 * children do not outlive it.
 */
public final class SpawnEndProgram {
    private SpawnEndProgram() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        Intercomm ic = MPI.COMM_WORLD.spawn("java", new String[] {SpawnChild.class.getName(), "wait"}, 2,
                MPI.INFO_NULL, 0, null);
        if (ic.getRemoteSize() != 2) throw new AssertionError("remote size " + ic.getRemoteSize());
        StringBuilder pids = new StringBuilder("CHILDREN");
        ProcessHandle.current().children().forEach(p -> pids.append(' ').append(p.pid()));
        System.out.println(pids);
        System.out.flush();
        switch (args[0]) {
            case "abort":
                MPI.COMM_WORLD.abort(5);
                break;
            case "exit":
                System.exit(9);
                break;
            default:
                Runtime.getRuntime().halt(7);
        }
    }
}
