package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import mpi.MPI;
import mpi.Request;

/**
 * Calls before MPI.Init and after MPI.Finalize must throw a clear MPIException, never crash.
 * Prints "LIFECYCLE OK <rank> <size> <backend>" when every check passed.
 */
public final class LifecycleProgram {
    public static void main(String[] args) {
        Check.isTrue(!MPI.isInitialized(), "not initialized yet");
        Check.throwsMpi(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.getRank(), "not initialized", "MPI.Init");
        Check.throwsMpi(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 0, 0), "not initialized");
        Check.throwsMpi(MPI.ERR_OTHER, MPI::wtime, "not initialized");
        Check.throwsMpi(MPI.ERR_ARG, () -> MPI.InitThread(args, 7), "required 7");

        int provided = MPI.InitThread(args, MPI.THREAD_FUNNELED);
        Check.isTrue(provided >= MPI.THREAD_SINGLE && provided <= MPI.THREAD_MULTIPLE, "provided level");
        Check.isTrue(MPI.isInitialized() && !MPI.isFinalized(), "initialized");
        Check.isTrue(MPI.isThreadMain(), "main thread");
        Check.throwsMpi(MPI.ERR_OTHER, () -> MPI.Init(args), "already initialized");
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        double t0 = MPI.wtime();
        Check.isTrue(t0 >= 0 && MPI.wtime() >= t0, "wtime is non-negative and does not go back");
        Check.isTrue(MPI.wtick() > 0, "wtick");
        Check.isTrue(!MPI.getProcessorName().isEmpty(), "processor name");
        Check.isTrue(MPI.getVersion().getVersion() >= 3, "MPI version");
        Check.isTrue(!MPI.getLibVersion().isEmpty(), "library version");
        Request pending = MPI.COMM_WORLD.iBarrier();
        pending.waitFor();
        String backend = io.github.mpi4j.Mpi4j.backendName();
        MPI.Finalize();

        Check.isTrue(MPI.isFinalized(), "finalized");
        Check.throwsMpi(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.getRank(), "finalized");
        Check.throwsMpi(MPI.ERR_OTHER, () -> MPI.COMM_WORLD.barrier(), "finalized");
        Check.throwsMpi(MPI.ERR_OTHER, MPI::Finalize, "finalized");
        Check.throwsMpi(MPI.ERR_OTHER, () -> MPI.Init(args), "finalized");
        System.out.println("LIFECYCLE OK " + rank + " " + size + " " + backend);
    }
}
