package io.github.mpi4j.launch;

import mpi.MPI;
import mpi.MPIException;

/**
 * A rank program for failure tests. Modes:
 * <ul>
 *   <li>{@code exit R C}: rank R exits with status C after Init, the others wait in a barrier;</li>
 *   <li>{@code kill-allreduce R}: rank R SIGKILLs itself in the middle of a run of allreduces;</li>
 *   <li>{@code kill-p2p R}: rank R SIGKILLs itself while rank 0 waits for its messages;</li>
 *   <li>{@code sleep S}: every rank sleeps S seconds (timeouts);</li>
 *   <li>{@code init-time}: prints the time from this JVM's start to the end of MPI.Init;</li>
 *   <li>{@code no-finalize R}: after a barrier, rank R returns from main without MPI.Finalize.</li>
 * </ul>
 * Surviving ranks print "FAULT DETECTED <rank> <seconds> <message>" when an MPIException
 * ends their wait, then exit with status 3.
 */
public final class FaultProgram {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        String mode = args[0];
        switch (mode) {
            case "exit":
                if (rank == Integer.parseInt(args[1])) {
                    System.out.flush();
                    Runtime.getRuntime().halt(Integer.parseInt(args[2]));
                }
                MPI.COMM_WORLD.barrier();
                break;
            case "kill-allreduce": {
                int victim = Integer.parseInt(args[1]);
                double[] a = new double[1 << 16], b = new double[1 << 16];
                long t0 = 0;
                try {
                    for (int i = 0; i < 1_000_000; i++) {
                        if (i == 50 && rank == victim) killSelf();
                        if (i == 50) t0 = System.nanoTime();
                        MPI.COMM_WORLD.allReduce(a, b, a.length, MPI.DOUBLE, MPI.SUM);
                    }
                } catch (MPIException e) {
                    detected(rank, t0, e);
                }
                break;
            }
            case "kill-p2p": {
                int victim = Integer.parseInt(args[1]);
                int[] buf = new int[16];
                long t0 = System.nanoTime();
                try {
                    if (rank == victim) {
                        MPI.COMM_WORLD.send(buf, 16, MPI.INT, 0, 1);
                        killSelf();
                    } else if (rank == 0) {
                        MPI.COMM_WORLD.recv(buf, 16, MPI.INT, victim, 1);
                        t0 = System.nanoTime();
                        MPI.COMM_WORLD.recv(buf, 16, MPI.INT, victim, 1); // never comes
                    } else {
                        // Never comes either. Named source, not ANY_SOURCE: rank 0 exits once it has
                        // seen the failure, and a wildcard receive may then rightly report rank 0.
                        MPI.COMM_WORLD.recv(buf, 16, MPI.INT, victim, 1);
                    }
                } catch (MPIException e) {
                    detected(rank, t0, e);
                }
                break;
            }
            case "sleep":
                System.out.println("SLEEPING " + rank);
                System.out.flush();
                Thread.sleep((long) (Double.parseDouble(args[1]) * 1000));
                break;
            case "init-time": {
                long start = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
                System.out.println("INIT " + rank + " " + start + " " + System.currentTimeMillis());
                break;
            }
            case "no-finalize":
                MPI.COMM_WORLD.barrier();
                if (rank == Integer.parseInt(args[1])) {
                    System.out.println("RETURNING WITHOUT FINALIZE " + rank);
                    System.out.flush();
                    return;
                }
                break;
            default:
                throw new IllegalArgumentException(mode);
        }
        MPI.Finalize();
        if (size < 0) System.out.println();
    }

    private static void killSelf() throws Exception {
        System.out.flush();
        new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
        Thread.sleep(60_000);
    }

    private static void detected(int rank, long t0, MPIException e) {
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.println("FAULT DETECTED " + rank + " " + String.format(java.util.Locale.ROOT, "%.2f", secs) + " "
                + e.getMessage());
        System.out.flush();
        // Stay a moment: a survivor that exits at once may be noticed by the other survivors
        // before the victim is (each checks its peers every 50 ms, in rank order), and they
        // would then rightly, but not usefully for the test, name this rank.
        try {
            Thread.sleep(1000);
        } catch (InterruptedException ignored) {
            // exit now
        }
        Runtime.getRuntime().halt(3);
    }
}
