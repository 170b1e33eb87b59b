package io.github.mpi4j.api;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;

/**
 * The program {@link SpawnSuite} spawns. {@code args[0]} says what to do; every value it sends
 * to its parents is computed from its ranks, and the parents check it against their own
 * computation. A check that fails here ends this process with status 3 and a message, which
 * the parents see as a missing or wrong value.
 */
public final class SpawnChild {
    private SpawnChild() {
    }

    static void require(boolean ok, String what) {
        if (!ok) {
            System.err.println("SpawnChild " + MPI.COMM_WORLD.getRank() + ": check failed: " + what);
            System.err.flush();
            Runtime.getRuntime().halt(3);
        }
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intercomm parent = Intercomm.getParent();
        require(!parent.isNull(), "getParent() is not null in a spawned process");
        require(parent == Intercomm.getParent(), "getParent() returns the same object");
        int rank = MPI.COMM_WORLD.getRank(), size = MPI.COMM_WORLD.getSize();
        require(parent.getRank() == rank && parent.getSize() == size, "parent's local group is COMM_WORLD");
        int[] mine = new int[size];
        for (int i = 0; i < size; i++) mine[i] = i;
        require(java.util.Arrays.equals(mine, mpi.Group.translateRanks(parent.getGroup(), mine,
                MPI.COMM_WORLD.getGroup())), "parent's local group translates to COMM_WORLD");
        switch (args[0]) {
            case "basic":
                basic(parent, rank, size, Integer.parseInt(args[1]));
                break;
            case "multi":
                multi(parent, rank, args[1]);
                break;
            case "spawner":
                spawner(parent, rank);
                break;
            case "leaf":
                leaf(parent, rank);
                break;
            case "noDisconnect":
                // Sends, then goes straight to MPI.Finalize: the parents' Finalize ends the link.
                leaf(parent, rank);
                MPI.Finalize();
                return;
            case "wait":
                // Waits for a message its parent never sends: only the parent's end ends it.
                parent.recv(new int[1], 1, MPI.INT, 0, 99);
                break;
            default:
                require(false, "unknown mode " + args[0]);
        }
        parent.disconnect();
        require(parent.isNull(), "disconnected parent is null");
        require(Intercomm.getParent().isNull(), "getParent() after disconnect is null");
        MPI.Finalize();
    }

    /**
     * Receives 100*p + rank from every parent p, then: allReduce (children give 10*(rank+1),
     * parents rank+1), merge (parents first) and allGather, and sends rank*rank back to parent 0.
     */
    static void basic(Intercomm parent, int rank, int size, int parents) {
        require(parent.getRemoteSize() == parents, "remote size " + parent.getRemoteSize() + " == " + parents);
        for (int p = 0; p < parents; p++) {
            int[] v = new int[1];
            parent.recv(v, 1, MPI.INT, p, 1);
            require(v[0] == 100 * p + rank, "value from parent " + p + ": " + v[0]);
        }
        int[] sum = new int[1];
        parent.allReduce(new int[] {10 * (rank + 1)}, sum, 1, MPI.INT, MPI.SUM);
        require(sum[0] == parents * (parents + 1) / 2, "allReduce over the parents: " + sum[0]);
        Intracomm merged = parent.merge(true);
        require(merged.getSize() == parents + size && merged.getRank() == parents + rank, "merged rank");
        int[] all = new int[parents + size];
        merged.allGather(new int[] {100 + rank}, 1, MPI.INT, all, 1, MPI.INT);
        for (int i = 0; i < parents + size; i++) {
            require(all[i] == (i < parents ? i : 100 + i - parents), "merged allGather entry " + i + ": " + all[i]);
        }
        merged.free();
        parent.send(new int[] {rank * rank, size}, 2, MPI.INT, 0, 2);
    }

    /** Sends its command's letter and its rank to parent 0. */
    static void multi(Intercomm parent, int rank, String letter) {
        parent.send(new int[] {letter.charAt(0), rank, MPI.COMM_WORLD.getSize()}, 3, MPI.INT, 0, 4);
    }

    /** Spawns two leaves, sums what they send, and sends the sum and their count to parent 0. */
    static void spawner(Intercomm parent, int rank) {
        int[] codes = new int[2];
        Intercomm leaves = MPI.COMM_WORLD.spawn("java", new String[] {SpawnChild.class.getName(), "leaf"}, 2,
                MPI.INFO_NULL, 0, codes);
        require(codes[0] == MPI.SUCCESS && codes[1] == MPI.SUCCESS, "grandchildren's errcodes");
        int total = 0;
        for (int i = 0; i < leaves.getRemoteSize(); i++) {
            int[] v = new int[1];
            leaves.recv(v, 1, MPI.INT, i, 5);
            total += v[0];
        }
        parent.send(new int[] {total, leaves.getRemoteSize()}, 2, MPI.INT, 0, 6);
        leaves.disconnect();
    }

    static void leaf(Intercomm parent, int rank) {
        parent.send(new int[] {7 * (rank + 1)}, 1, MPI.INT, 0, 5);
    }
}
