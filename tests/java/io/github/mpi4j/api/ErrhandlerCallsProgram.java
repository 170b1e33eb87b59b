package io.github.mpi4j.api;

import mpi.Intracomm;
import mpi.MPI;

/**
 * MPI.ERRORS_ARE_FATAL applied to a failing call, in real processes (issue 10 item 7). Every
 * rank checks that COMM_WORLD and COMM_SELF start with ERRORS_RETURN (else exits 97), sets ERRORS_ARE_FATAL on COMM_WORLD and duplicates it (the duplicate inherits the
 * handler); then, by mode:
 * <ul>
 *   <li>{@code send}: the last rank sends on the duplicate to rank {@code size} (MPI.ERR_RANK)
 *       while the others wait in a receive that never completes;</li>
 *   <li>{@code bcast}: every rank calls bcast on the duplicate with root {@code size}
 *       (MPI.ERR_ROOT).</li>
 * </ul>
 * The job must end with the error code as exit status; printing {@code @@STILL RUNNING} or
 * {@code @@RECEIVED} means the handler was not applied.
 */
public final class ErrhandlerCallsProgram {
    private ErrhandlerCallsProgram() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        if (MPI.COMM_WORLD.getErrhandler() != MPI.ERRORS_RETURN || MPI.COMM_SELF.getErrhandler() != MPI.ERRORS_RETURN) {
            System.out.println("@@DEFAULT is not ERRORS_RETURN");
            System.exit(97);
        }
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
        Intracomm dup = MPI.COMM_WORLD.dup();
        if (mode.equals("bcast")) {
            System.out.println("@@FAILING rank " + rank);
            try {
                dup.bcast(new int[1], 1, MPI.INT, size);
            } catch (RuntimeException e) {
                System.out.println("@@STILL RUNNING after " + e);
            }
            System.exit(99);
        }
        if (rank == size - 1) {
            Thread.sleep(300); // the others are blocked in their receives by now
            System.out.println("@@FAILING rank " + rank);
            try {
                dup.send(new int[1], 1, MPI.INT, size, 3);
            } catch (RuntimeException e) {
                System.out.println("@@STILL RUNNING after " + e);
            }
            System.exit(99);
        } else {
            dup.recv(new int[1], 1, MPI.INT, size - 1, 3); // never sent
            System.out.println("@@RECEIVED what was never sent");
            System.exit(98);
        }
    }
}
