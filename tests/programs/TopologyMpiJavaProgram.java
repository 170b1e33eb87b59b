import mpi.*;

/**
 * A topology program written against mpiJava 1.2 / MPJ Express: Cartcomm from Create_cart,
 * Dims_create, Shift with Sendrecv and array offsets, the public fields of CartParms,
 * ShiftParms and GraphParms, Sub, and a Graphcomm. Every result is compared with a value
 * computed from rank and size; prints "TOPOLOGY-MPIJAVA OK <rank> <size>" when all checks
 * passed and exits with 1 otherwise.
 */
public class TopologyMpiJavaProgram {
    static int checks;

    static void check(boolean ok, String what) {
        checks++;
        if (!ok) {
            System.out.println("TOPOLOGY-MPIJAVA FAILED: " + what);
            System.out.flush();
            System.exit(1);
        }
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        int[] dims = new int[2];
        Cartcomm.Dims_create(size, dims);
        check(dims[0] * dims[1] == size && dims[0] >= dims[1], "Dims_create");
        boolean[] periods = {false, true};
        Cartcomm grid = MPI.COMM_WORLD.Create_cart(dims, periods, false);
        check(grid.Topo_test() == MPI.CART, "Topo_test");
        CartParms topo = grid.Get();
        check(topo.dims[0] == dims[0] && topo.dims[1] == dims[1], "dims field");
        check(topo.coords[0] == me / dims[1] && topo.coords[1] == me % dims[1], "coords field");
        int[] c = grid.Coords(me);
        check(grid.Rank(c) == me, "Rank(Coords(me))");

        // Dimension 0 is not periodic: the first row has no source, the last no destination.
        ShiftParms sp = grid.Shift(0, 1);
        check(sp.rank_source == (c[0] == 0 ? MPI.PROC_NULL : me - dims[1]), "rank_source");
        check(sp.rank_dest == (c[0] == dims[0] - 1 ? MPI.PROC_NULL : me + dims[1]), "rank_dest");
        int[] out = {-1, -1, me};
        int[] in = {-1, -1};
        grid.Sendrecv(out, 2, 1, MPI.INT, sp.rank_dest, 5, in, 1, 1, MPI.INT, sp.rank_source, 5);
        check(in[1] == (sp.rank_source == MPI.PROC_NULL ? -1 : sp.rank_source), "Sendrecv along dimension 0");

        // Each row as a sub-grid: the sum of its ranks.
        Cartcomm rowComm = grid.Sub(new boolean[] {false, true});
        check(rowComm.Size() == dims[1] && rowComm.Rank() == c[1], "Sub size and rank");
        int[] sum = new int[1];
        rowComm.Allreduce(new int[] {me}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        int first = c[0] * dims[1];
        check(sum[0] == dims[1] * first + dims[1] * (dims[1] - 1) / 2, "row sum");

        // A star graph around rank 0.
        int[] index = new int[size];
        int[] edges = new int[2 * (size - 1)];
        for (int i = 0; i < size; i++) index[i] = (size - 1) + i;
        for (int i = 1; i < size; i++) {
            edges[i - 1] = i;
            edges[size - 1 + i - 1] = 0;
        }
        Graphcomm star = MPI.COMM_WORLD.Create_graph(index, edges, false);
        GraphParms gp = star.Get();
        check(gp.index.length == size && gp.edges.length == edges.length, "GraphParms fields");
        int[] nb = star.Neighbours(me);
        check(nb.length == (me == 0 ? size - 1 : 1), "Neighbours count");
        check(me == 0 || nb[0] == 0, "leaf's neighbour is the centre");

        star.Free();
        rowComm.Free();
        grid.Free();
        System.out.println("TOPOLOGY-MPIJAVA OK " + me + " " + size + " (" + checks + " checks)");
        MPI.Finalize();
    }
}
