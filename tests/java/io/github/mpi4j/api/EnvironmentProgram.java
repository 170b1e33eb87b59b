package io.github.mpi4j.api;

import mpi.MPI;

/**
 * Whole-program checks of issue 10 item 7, one mode per run:
 * <ul>
 *   <li>{@code version}: getLibVersion/getVersion before Init, while running and after Finalize
 *       give the same text; prints it and exits 0 (3 if they differ);</li>
 *   <li>{@code abort CODE}: the last rank calls COMM_WORLD.Abort(CODE) while the others wait in a
 *       receive that never completes; the job must end with exit status CODE;</li>
 *   <li>{@code fatal CODE}: the last rank sets MPI.ERRORS_ARE_FATAL and calls callErrhandler(CODE):
 *       the same outcome as abort.</li>
 * </ul>
 */
public final class EnvironmentProgram {
    private EnvironmentProgram() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        if (mode.equals("version")) {
            String before = MPI.getLibVersion();
            String versionBefore = MPI.getVersion().toString();
            MPI.Init(args);
            String during = MPI.getLibVersion();
            String versionDuring = MPI.getVersion().toString();
            MPI.Finalize();
            String after = MPI.getLibVersion();
            System.out.println("@@LIB before=[" + before + "] during=[" + during + "] after=[" + after + "] version "
                    + versionBefore + " / " + versionDuring);
            System.exit(before.equals(during) && during.equals(after) && !before.isBlank() ? 0 : 3);
        }
        int code = Integer.parseInt(args[1]);
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        if (rank == size - 1) {
            Thread.sleep(300); // the others are blocked in their receives by now
            System.out.println("@@ABORTING rank " + rank);
            if (mode.equals("abort")) {
                MPI.COMM_WORLD.Abort(code);
            } else {
                MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
                MPI.COMM_WORLD.callErrhandler(code);
            }
            System.out.println("@@STILL RUNNING after abort");
            System.exit(99);
        } else {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, size - 1, 77); // never sent
            System.out.println("@@RECEIVED what was never sent");
            System.exit(98);
        }
    }
}
