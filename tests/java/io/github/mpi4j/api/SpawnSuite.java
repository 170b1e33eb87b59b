package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import mpi.Info;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Spawning processes (issue 11 item 3), from the parents' side; the children run
 * {@link SpawnChild}. Every value exchanged is computed from ranks on both sides. Spawning is
 * process-wide (real JVMs start), so the suite runs in processes only.
 */
public class SpawnSuite {
    static final String CHILD = SpawnChild.class.getName();

    /** Root: the communicator's last rank, so that roots other than 0 are exercised. */
    @RankTest(processOnly = true)
    public void spawnTwoChildren(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), root = size - 1;
        int[] codes = {-1, -1, -1};
        // "java" with no class path: the parent's class path, JVM and options.
        Intercomm ic = comm.spawn("java", new String[] {CHILD, "basic", Integer.toString(size)}, 2, MPI.INFO_NULL,
                root, codes);
        Check.arrays(new int[] {MPI.SUCCESS, MPI.SUCCESS, -1}, codes, "errcodes (two processes)");
        Check.isTrue(ic.isInter(), "isInter");
        Check.equal(size, ic.getSize(), "local size");
        Check.equal(rank, ic.getRank(), "local rank");
        Check.equal(2, ic.getRemoteSize(), "remote size");
        int[] mine = new int[size], undefined = new int[2];
        for (int i = 0; i < size; i++) mine[i] = i;
        java.util.Arrays.fill(undefined, MPI.UNDEFINED);
        Check.arrays(mine, mpi.Group.translateRanks(ic.getGroup(), mine, comm.getGroup()), "local group = comm's");
        Check.arrays(undefined, mpi.Group.translateRanks(ic.getRemoteGroup(), new int[] {0, 1}, comm.getGroup()),
                "the children are not in the parents' communicator");
        for (int c = 0; c < 2; c++) ic.send(new int[] {100 * rank + c}, 1, MPI.INT, c, 1);
        int[] sum = new int[1];
        ic.allReduce(new int[] {rank + 1}, sum, 1, MPI.INT, MPI.SUM);
        Check.equal(10 * 1 + 10 * 2, sum[0], "allReduce over the children");
        Intracomm merged = ic.merge(false);
        Check.equal(size + 2, merged.getSize(), "merged size");
        Check.equal(rank, merged.getRank(), "merged rank (parents first)");
        int[] all = new int[size + 2];
        merged.allGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
        for (int i = 0; i < size + 2; i++) Check.equal(i < size ? i : 100 + i - size, all[i], "merged allGather " + i);
        merged.free();
        if (rank == 0) {
            for (int c = 0; c < 2; c++) {
                int[] v = new int[2];
                ic.recv(v, 2, MPI.INT, c, 2);
                Check.arrays(new int[] {c * c, 2}, v, "child " + c + "'s reply (rank squared, its world size)");
            }
        }
        ic.disconnect();
        Check.isTrue(ic.isNull(), "disconnected");
        Check.isTrue(Intercomm.getParent().isNull(), "the parents have no parent");
    }

    /** Two commands (one with an explicit -cp), 1 + 2 processes, in one world of three. */
    @RankTest(processOnly = true, worldOnly = true)
    public void spawnMultipleTwoCommands(Intracomm comm) {
        String cp = System.getProperty("java.class.path");
        int[] codes = new int[3];
        java.util.Arrays.fill(codes, -1);
        Intercomm ic = comm.spawnMultiple(new String[] {"java", "java"},
                new String[][] {{"-cp", cp, CHILD, "multi", "A"}, {CHILD, "multi", "B"}}, new int[] {1, 2},
                new Info[] {MPI.INFO_NULL, null}, 0, codes);
        Check.arrays(new int[3], codes, "errcodes (three processes)");
        Check.equal(3, ic.getRemoteSize(), "remote size");
        if (comm.getRank() == 0) {
            for (int c = 0; c < 3; c++) {
                int[] v = new int[3];
                ic.recv(v, 3, MPI.INT, c, 4);
                Check.arrays(new int[] {c == 0 ? 'A' : 'B', c, 3}, v, "child " + c);
            }
        }
        ic.disconnect();
    }

    /** A child that spawns two grandchildren from its own world and reports what they sent. */
    @RankTest(processOnly = true, worldOnly = true)
    public void childrenSpawnAgain(Intracomm comm) {
        Intercomm ic = comm.spawn("java", new String[] {CHILD, "spawner"}, 1, null, 0, null);
        if (comm.getRank() == 0) {
            int[] v = new int[2];
            ic.recv(v, 2, MPI.INT, 0, 6);
            Check.arrays(new int[] {7 * 1 + 7 * 2, 2}, v, "grandchildren's sum and count");
        }
        ic.disconnect();
    }

    /** MPI.UNIVERSE_SIZE: the fabric's is the world size; an MPI's covers at least the world. */
    @RankTest(processOnly = true)
    public void universeSize(Intracomm comm) {
        Object u = MPI.COMM_WORLD.getAttr(MPI.UNIVERSE_SIZE);
        int world = MPI.COMM_WORLD.getSize();
        if ("fabric".equals(io.github.mpi4j.Mpi4j.backendName())) {
            Check.equal(world, ((Integer) u).longValue(), "fabric UNIVERSE_SIZE");
        } else {
            Check.isTrue(u instanceof Integer && (Integer) u >= world, "MPI UNIVERSE_SIZE " + u + " >= " + world);
        }
    }

    /** Arguments refused before anything starts, at every rank, with errcodes filled; then a good call works. */
    @RankTest(processOnly = true)
    public void badArguments(Intracomm comm) {
        int size = comm.getSize();
        int[] codes = {-1, -1};
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.spawn("java", new String[] {CHILD}, 0, null, 0, codes));
        Check.arrays(new int[] {MPI.ERR_ARG, MPI.ERR_ARG}, codes, "errcodes after maxprocs 0");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.spawn("java", new String[] {CHILD}, -3, null, 0, null));
        Check.throwsMpi(MPI.ERR_ROOT, () -> comm.spawn("java", new String[] {CHILD}, 1, null, size, null),
                "root " + size);
        Check.throwsMpi(MPI.ERR_ROOT, () -> comm.spawn("java", new String[] {CHILD}, 1, null, -1, null));
        Check.throwsMpi(MPI.ERR_SPAWN, () -> comm.spawn(null, null, 1, null, 0, null));
        codes[0] = codes[1] = -1;
        Check.throwsMpi(MPI.ERR_SPAWN, () -> comm.spawn("/nonexistent/mpi4j-no-such-program", null, 2, null, 0,
                codes));
        Check.arrays(new int[] {MPI.ERR_SPAWN, MPI.ERR_SPAWN}, codes, "errcodes after a missing program");
        Check.throwsMpi(MPI.ERR_SPAWN, () -> comm.spawn("mpi4j-no-such-program-on-path", null, 1, null, 0, null));
        Info wdir = new Info();
        wdir.set("wdir", "/nonexistent/mpi4j-no-such-dir");
        Check.throwsMpi(MPI.ERR_SPAWN, () -> comm.spawn("java", new String[] {CHILD}, 1, wdir, 0, null));
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.spawnMultiple(new String[] {"java", "java"},
                new String[][] {{CHILD}}, new int[] {1, 1}, null, 0, null));
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.spawnMultiple(new String[] {"java"}, null, new int[] {1, 1}, null,
                0, null));
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.spawnMultiple(null, null, new int[] {1}, null, 0, null));
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.spawn("java", new String[] {CHILD}, 2, null, 0, new int[1]));
        // The communicator still works, and so does a real spawn with the info keys honoured.
        comm.barrier();
        Info here = new Info();
        here.set("wdir", System.getProperty("java.io.tmpdir"));
        here.set("host", "localhost");
        Intercomm ic = comm.spawn("java", new String[] {CHILD, "leaf"}, 1, here, 0, null);
        if (comm.getRank() == 0) {
            int[] v = new int[1];
            ic.recv(v, 1, MPI.INT, 0, 5);
            Check.equal(7, v[0], "leaf's value after the refusals");
        }
        ic.disconnect();
    }

    /**
     * Neither side disconnects: the child calls MPI.Finalize right after sending, and the
     * connection ends at the parents' MPI.Finalize at the end of the job (the job must end cleanly).
     */
    @RankTest(processOnly = true, worldOnly = true)
    public void spawnWithoutDisconnect(Intracomm comm) {
        Intercomm ic = comm.spawn("java", new String[] {CHILD, "noDisconnect"}, 1, null, 0, null);
        if (comm.getRank() == 0) {
            int[] v = new int[1];
            ic.recv(v, 1, MPI.INT, 0, 5);
            Check.equal(7, v[0], "child's value");
        }
    }
}
