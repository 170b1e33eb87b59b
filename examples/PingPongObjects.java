import mpi.*;

/**
 * mpiJava 1.2 / MPJ Express style: capitalized methods, explicit offsets, MPI.OBJECT.
 * Rank 0 sends a list of strings to every other rank and gets back its length.
 */
public class PingPongObjects {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        if (me == 0) {
            Object[] message = new Object[] {new java.util.ArrayList<>(java.util.List.of("alpha", "beta", "gamma"))};
            int[] lengths = new int[size];
            for (int peer = 1; peer < size; peer++) {
                MPI.COMM_WORLD.Send(message, 0, 1, MPI.OBJECT, peer, 7);
                MPI.COMM_WORLD.Recv(lengths, peer, 1, MPI.INT, peer, 8);
            }
            boolean ok = true;
            for (int peer = 1; peer < size; peer++) ok &= lengths[peer] == 3;
            System.out.println(ok ? "objects ok" : "objects WRONG");
        } else {
            Object[] in = new Object[1];
            Status s = MPI.COMM_WORLD.Recv(in, 0, 1, MPI.OBJECT, 0, 7);
            int[] len = {((java.util.List<?>) in[0]).size()};
            MPI.COMM_WORLD.Send(len, 0, 1, MPI.INT, s.source, 8);
        }
        MPI.Finalize();
    }
}
