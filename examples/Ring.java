import mpi.*;

/**
 * A token goes around the ring ten times, rank 0 decrementing it on each lap (Open MPI Java
 * bindings style).
 */
class Ring {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int tag = 201;
        int[] token = new int[1];

        if (rank == 0) {
            token[0] = 10;
            System.out.println("Rank 0 sends " + token[0] + " to " + next + " (" + size + " ranks in the ring)");
            MPI.COMM_WORLD.send(token, 1, MPI.INT, next, tag);
        }
        while (true) {
            MPI.COMM_WORLD.recv(token, 1, MPI.INT, prev, tag);
            if (rank == 0) {
                token[0]--;
                System.out.println("Rank 0 decremented the token to " + token[0]);
            }
            MPI.COMM_WORLD.send(token, 1, MPI.INT, next, tag);
            if (token[0] == 0) {
                System.out.println("Rank " + rank + " is done");
                break;
            }
        }
        // Rank 0 still has one token in flight from the last lap.
        if (rank == 0) {
            MPI.COMM_WORLD.recv(token, 1, MPI.INT, prev, tag);
        }
        MPI.Finalize();
    }
}
