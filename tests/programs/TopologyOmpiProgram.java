import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import mpi.*;

/**
 * A topology program written against the Open MPI Java bindings: a periodic 2-D grid with a
 * halo exchange by shift + sendRecv, neighbour collectives on the grid and on a graph, and a
 * distributed graph. Every result is compared with a value computed from rank and size; prints
 * "TOPOLOGY-OMPI OK <rank> <size>" when all checks passed and exits with 1 otherwise.
 */
public class TopologyOmpiProgram {
    static int checks;

    static void check(boolean ok, String what) {
        checks++;
        if (!ok) {
            System.out.println("TOPOLOGY-OMPI FAILED: " + what);
            System.out.flush();
            System.exit(1);
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        int[] dims = new int[2];
        CartComm.createDims(size, dims);
        CartComm cart = MPI.COMM_WORLD.createCart(dims, new boolean[] {true, true}, false);
        check(cart.getTopology() == MPI.CART, "topology is CART");
        CartParms parms = cart.getTopo();
        int row = rank / dims[1], col = rank % dims[1];
        check(parms.getCoord(0) == row && parms.getCoord(1) == col, "coords of " + rank);
        check(cart.getRank(new int[] {row, col}) == rank, "rank of my coords");

        // Halo exchange: send my rank up each dimension, receive from below.
        for (int d = 0; d < 2; d++) {
            ShiftParms s = cart.shift(d, 1);
            int[] halo = new int[1];
            cart.sendRecv(new int[] {rank}, 1, MPI.INT, s.getRankDest(), d, halo, 1, MPI.INT, s.getRankSource(), d);
            int belowRow = d == 0 ? (row - 1 + dims[0]) % dims[0] : row;
            int belowCol = d == 1 ? (col - 1 + dims[1]) % dims[1] : col;
            check(halo[0] == belowRow * dims[1] + belowCol, "halo along " + d);
        }

        // Neighbour allgather on the grid into a direct buffer: down and up neighbours per dimension.
        IntBuffer all = ByteBuffer.allocateDirect(4 * 4).order(ByteOrder.nativeOrder()).asIntBuffer();
        cart.neighborAllGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
        int[] expect = {((row - 1 + dims[0]) % dims[0]) * dims[1] + col, ((row + 1) % dims[0]) * dims[1] + col,
            row * dims[1] + (col - 1 + dims[1]) % dims[1], row * dims[1] + (col + 1) % dims[1]};
        for (int i = 0; i < 4; i++) check(all.get(i) == expect[i], "grid allgather block " + i);

        // A ring as a general graph, then a non-blocking neighbour alltoall over it.
        int[] index = new int[size];
        int[] edges = new int[2 * size];
        for (int i = 0; i < size; i++) {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i - 1 + size) % size;
            edges[2 * i + 1] = (i + 1) % size;
        }
        GraphComm ring = MPI.COMM_WORLD.createGraph(index, edges, false);
        check(ring.getTopology() == MPI.GRAPH, "topology is GRAPH");
        int[] nb = ring.getNeighbors(rank);
        check(nb.length == 2 && nb[0] == edges[2 * rank] && nb[1] == edges[2 * rank + 1], "ring neighbours");
        if (size >= 3) {
            int[] out = {100 * rank, 100 * rank + 1};
            int[] in = new int[2];
            Request r = ring.iNeighborAllToAll(out, 1, MPI.INT, in, 1, MPI.INT);
            r.waitFor();
            // My left neighbour sent me its block 1 (to its right), my right one its block 0.
            check(in[0] == 100 * nb[0] + 1 && in[1] == 100 * nb[1], "ring alltoall");
        }

        // A distributed graph: everyone receives from rank 0 only.
        int[] sources = rank == 0 ? new int[0] : new int[] {0};
        int[] destinations = new int[rank == 0 ? size - 1 : 0];
        for (int i = 0; i < destinations.length; i++) destinations[i] = i + 1;
        GraphComm star = MPI.COMM_WORLD.createDistGraphAdjacent(sources, destinations, new Info(), false);
        DistGraphNeighbors dn = star.getDistGraphNeighbors();
        check(dn.getInDegree() == sources.length && dn.getOutDegree() == destinations.length, "star degrees");
        int[] got = new int[sources.length];
        star.neighborAllGather(new int[] {7 + rank}, 1, MPI.INT, got, 1, MPI.INT);
        check(rank == 0 || got[0] == 7, "star allgather");

        star.free();
        ring.free();
        cart.free();
        System.out.println("TOPOLOGY-OMPI OK " + rank + " " + size + " (" + checks + " checks)");
        MPI.Finalize();
    }
}
