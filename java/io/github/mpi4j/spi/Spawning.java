package io.github.mpi4j.spi;

import java.util.Map;

/**
 * Capability: starting processes (MPI_Comm_spawn, MPI_Comm_spawn_multiple) and finding the
 * processes that started this one (MPI_Comm_get_parent). A communicator of a backend that can
 * spawn returns this from {@link BackendComm#capability}.
 *
 * <p>The {@code mpi} layer has checked the arguments at the root and resolved each command to
 * the program and the arguments to run (a {@code "java"} command already carries this JVM's
 * path, options and class path, see {@code io.github.mpi4j.runtime.SpawnCommands}); the
 * backend starts them, makes the children's world and returns the intercommunicator whose local
 * group is the calling communicator's and whose remote group is the children's.
 */
public interface Spawning {

    /** One command of a spawn, as the root resolved it. */
    final class Command {
        /** The program: an absolute path, or a name the backend looks up (MPI). */
        public final String program;
        /** Its arguments, not including the program. */
        public final String[] args;
        /** How many processes run it (> 0). */
        public final int count;
        /** The info entries that apply ({@code host}, {@code wdir}, ...), never null. */
        public final Map<String, String> info;

        public Command(String program, String[] args, int count, Map<String, String> info) {
            this.program = program;
            this.args = args;
            this.count = count;
            this.info = info;
        }
    }

    /**
     * Collective over this intracommunicator: starts {@code commands} (significant at
     * {@code root} only, null elsewhere) and returns the intercommunicator to the new processes.
     * {@code errcodes} (may be null) receives one code per new process, in order, at every rank
     * that passes one, as far as it reaches; on failure it holds the failure's code and the call
     * throws at every rank. {@code multiple}: called as spawnMultiple (every rank knows it),
     * which the MPI backend maps to MPI_Comm_spawn_multiple rather than MPI_Comm_spawn.
     */
    BackendComm spawn(Command[] commands, boolean multiple, int root, int[] errcodes);

    /** The intercommunicator to the parents of this process, or null when it was not spawned. */
    BackendComm parent();
}
