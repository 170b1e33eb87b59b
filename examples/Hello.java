import mpi.*;

/** Every rank says hello (Open MPI Java bindings style). */
class Hello {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        System.out.println("Hello from rank " + rank + " of " + size);
        MPI.Finalize();
    }
}
