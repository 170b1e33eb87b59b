package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Spawning;

/**
 * The {@link Spawning} capability of an MPI communicator: MPI_Comm_spawn,
 * MPI_Comm_spawn_multiple and MPI_Comm_get_parent. The spawn waits for the children's
 * MPI_Init, so it is watched by {@link MpiWatchdog} like every blocking call of this backend.
 */
final class MpiSpawn implements Spawning {
    private final MpiBackend backend;
    private final MpiComm comm;
    /** MPI_Comm_get_parent's communicator, asked once per process. */
    private static MpiComm parent;
    private static boolean parentAsked;

    MpiSpawn(MpiBackend backend, MpiComm comm) {
        this.backend = backend;
        this.comm = comm;
    }

    @Override
    public BackendComm spawn(Command[] commands, boolean multiple, int root, int[] errcodes) {
        String[] programs = null;
        String[][] argv = null, keys = null, values = null;
        int[] maxprocs = null;
        if (commands != null) {
            int n = commands.length;
            programs = new String[n];
            argv = new String[n][];
            keys = new String[n][];
            values = new String[n][];
            maxprocs = new int[n];
            for (int i = 0; i < n; i++) {
                programs[i] = commands[i].program;
                argv[i] = commands[i].args;
                maxprocs[i] = commands[i].count;
                keys[i] = commands[i].info.keySet().toArray(new String[0]);
                values[i] = new String[keys[i].length];
                for (int k = 0; k < keys[i].length; k++) values[i][k] = commands[i].info.get(keys[i][k]);
            }
        }
        MpiWatchdog.Mark m = MpiWatchdog.enter(multiple ? "MPI_Comm_spawn_multiple" : "MPI_Comm_spawn", comm);
        try {
            long h = MpiSpawnNative.spawn0(comm.handle, root, multiple, programs, argv, maxprocs, keys, values, errcodes);
            return h == 0 ? null : new MpiComm(backend, h, true);
        } catch (mpi.MPIException e) {
            throw restated(e);
        } finally {
            m.exit();
        }
    }

    /**
     * The library's refusal, with what is known about it: MPICH built with the ucx netmod (the
     * Debian and Ubuntu packages) cannot spawn at all; a plain C program fails the same way.
     */
    private mpi.MPIException restated(mpi.MPIException e) {
        String lib = "";
        try {
            lib = backend.libVersion();
        } catch (RuntimeException ignored) {
            // the version only adds a hint
        }
        boolean mpich = lib.contains("MPICH");
        if (mpich && e.getErrorClass() == io.github.mpi4j.spi.Mpi.ERR_OTHER) {
            return mpi.MPIException.of(io.github.mpi4j.spi.Mpi.ERR_SPAWN, "spawn: this MPICH cannot spawn processes "
                    + "(MPICH built with the ucx netmod, as Debian's and Ubuntu's packages are, has no dynamic "
                    + "processes; a C program's MPI_Comm_spawn fails the same way): " + e.getMessage());
        }
        return e;
    }

    @Override
    public BackendComm parent() {
        synchronized (MpiSpawn.class) {
            if (!parentAsked) {
                long h = MpiSpawnNative.parent0();
                parent = h == 0 ? null : new MpiComm(backend, h, true);
                parentAsked = true;
            }
            return parent;
        }
    }
}
