package io.github.mpi4j.memory;

import io.github.mpi4j.testing.OffHeap;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/** A world of one sends host memory to itself and says whether it moved or why it was refused. */
public final class HostMemoryProbe {
    private HostMemoryProbe() {
    }

    public static void main(String[] args) {
        MPI.Init(args);
        try (OffHeap out = new OffHeap(16, (byte) 0); OffHeap in = new OffHeap(16, (byte) 0)) {
            for (int i = 0; i < 4; i++) out.putInt(i, 40 + i);
            try {
                Request r = MPI.COMM_WORLD.iSend(out.memory(), 4, MPI.INT, 0, 1);
                MPI.COMM_WORLD.recv(in.memory(), 4, MPI.INT, 0, 1);
                r.waitFor();
                System.out.println("MOVED " + in.getInt(0) + " " + in.getInt(3));
            } catch (MPIException e) {
                System.out.println("REFUSED " + e.getMessage());
            }
            int[] a = {7};
            MPI.COMM_WORLD.allReduce(a, 1, MPI.INT, MPI.SUM);
            System.out.println("ARRAYS STILL WORK " + a[0]);
        }
        MPI.Finalize();
    }
}
