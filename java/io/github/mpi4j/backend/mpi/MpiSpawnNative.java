package io.github.mpi4j.backend.mpi;

/**
 * Natives of spawning (issue 11 item 3), in native/mpi4j_mpi_spawn.c. Arguments are checked by
 * the callers ({@code mpi.Spawner} at the root).
 */
final class MpiSpawnNative {
    private MpiSpawnNative() {
    }

    /**
     * MPI_Comm_spawn ({@code multiple} false: one command) or MPI_Comm_spawn_multiple over
     * {@code comm}. The command arrays matter at {@code root} only (null elsewhere):
     * {@code programs[i]}, its arguments {@code argv[i]}, {@code maxprocs[i]} processes and the
     * info entries {@code infoKeys[i][k] = infoValues[i][k]}. {@code errcodes} (one per process)
     * receives MPI's codes as mpi4j error classes. Returns the intercommunicator's handle.
     */
    static native long spawn0(long comm, int root, boolean multiple, String[] programs, String[][] argv,
                              int[] maxprocs, String[][] infoKeys, String[][] infoValues, int[] errcodes);

    /** MPI_Comm_get_parent: the parent intercommunicator's handle, or 0 (MPI_COMM_NULL). */
    static native long parent0();
}
