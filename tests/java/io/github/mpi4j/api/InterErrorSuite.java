package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Bad input on intercommunicators (issue 10 items 4 and 9): every rank gets an MPIException
 * naming the argument, none waits; afterwards the communicator still works (a correct call's
 * result is checked against the ranks).
 */
public class InterErrorSuite {

    /** The intercommunicator still carries a correct allReduce. */
    private static void stillWorks(InterSuite.Halves h, String after) {
        int[] sum = new int[1];
        h.inter.allReduce(new int[] {h.rank}, sum, 1, MPI.INT, MPI.SUM);
        int e = 0;
        for (int i = 0; i < h.remoteSize; i++) e += h.remoteCommRank(i);
        Check.equal(e, sum[0], "allReduce after " + after);
    }

    @RankTest(minSize = 2)
    public void interRootOutOfRange(Intracomm comm) {
        InterSuite.Halves h = new InterSuite.Halves(comm);
        Intercomm ic = h.inter;
        int bad = h.remoteSize + 3;
        int[] buf = new int[4 * (h.remoteSize + 4)];
        for (int root : new int[] {bad, -7}) {
            String r = Integer.toString(root);
            Check.throwsMpi(MPI.ERR_ROOT, () -> ic.bcast(buf, 1, MPI.INT, root), "bcast", "root " + r,
                    "remote group [0, " + h.remoteSize + ")");
            Check.throwsMpi(MPI.ERR_ROOT, () -> ic.iBcast(buf, 1, MPI.INT, root), "iBcast", "root " + r);
            Check.throwsMpi(MPI.ERR_ROOT, () -> ic.reduce(new int[1], buf, 1, MPI.INT, MPI.SUM, root), "reduce",
                    "root " + r);
            Check.throwsMpi(MPI.ERR_ROOT, () -> ic.gather(new int[1], 1, MPI.INT, buf, 1, MPI.INT, root), "gather",
                    "root " + r);
            Check.throwsMpi(MPI.ERR_ROOT, () -> ic.scatter(buf, 1, MPI.INT, new int[1], 1, MPI.INT, root),
                    "scatter", "root " + r);
        }
        stillWorks(h, "roots out of range");
        h.free();
    }

    @RankTest(minSize = 2)
    public void interRootsThatDisagree(Intracomm comm) {
        InterSuite.Halves h = new InterSuite.Halves(comm);
        Intercomm ic = h.inter;
        int me = h.localRank();
        int[] buf = new int[2];
        // MPI.ROOT in both groups (rank 0 of each), the others MPI.PROC_NULL.
        int bothRoot = me == 0 ? MPI.ROOT : MPI.PROC_NULL;
        Check.throwsMpi(MPI.ERR_ROOT, () -> ic.bcast(buf, 1, MPI.INT, bothRoot), "bcast", "intercommunicator");
        stillWorks(h, "MPI.ROOT in both groups");
        // No MPI.ROOT anywhere: both groups name a remote root.
        Check.throwsMpi(MPI.ERR_ROOT, () -> ic.reduce(new int[] {1}, buf, 1, MPI.INT, MPI.SUM, 0), "reduce",
                "intercommunicator");
        stillWorks(h, "no MPI.ROOT");
        // The evens' root is their rank 0, but the odds name rank 1 (when the evens have one).
        if (h.count(0) >= 2) {
            int arg = h.color == 0 ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 1;
            Check.throwsMpi(MPI.ERR_ROOT, () -> ic.gather(new int[1], 1, MPI.INT, new int[h.remoteSize], 1, MPI.INT,
                    arg), "gather", "intercommunicator");
            stillWorks(h, "a root the other group does not name");
        }
        // One rank's bad buffer (the root's receive buffer is too small): it says why, the others
        // learn that a rank refused, and none waits.
        int arg = InterSuite.rootArg(h, 0, 0);
        MPIException e = Check.throwsMpi(arg == MPI.ROOT ? MPI.ERR_BUFFER : MPI.ERR_ROOT,
                () -> ic.gather(new int[1], 1, MPI.INT, new int[Math.max(0, h.remoteSize - 1)], 1, MPI.INT, arg),
                "gather");
        if (arg != MPI.ROOT) Check.isTrue(e.getMessage().contains("another rank"), "the others name the cause");
        stillWorks(h, "a receive buffer too small at the root");
        h.free();
    }

    @RankTest(minSize = 2)
    public void interBadArguments(Intracomm comm) {
        InterSuite.Halves h = new InterSuite.Halves(comm);
        Intercomm ic = h.inter;
        int m = h.remoteSize;
        Check.throwsMpi(MPI.ERR_RANK, () -> ic.send(new int[1], 1, MPI.INT, m, 0), "send", "dest " + m,
                "remote group", "size " + m);
        Check.throwsMpi(MPI.ERR_RANK, () -> ic.recv(new int[1], 1, MPI.INT, m + 1, 0), "recv", "source " + (m + 1),
                "remote group");
        Check.throwsMpi(MPI.ERR_RANK, () -> ic.iSend(new int[1], 1, MPI.INT, -5, 0), "dest -5");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> ic.allReduce(new int[1], 1, MPI.INT, MPI.SUM), "allReduce",
                "MPI.IN_PLACE");
        Check.throwsMpi(MPI.ERR_ARG, () -> ic.reduce(new int[1], 1, MPI.INT, MPI.SUM, MPI.ROOT), "reduce", "in-place");
        // MPI.OBJECT works on intercommunicators (ObjectTypeMoreSuite), but only with a user op.
        Check.throwsMpi(MPI.ERR_OP, () -> ic.allReduce(new Object[1], new Object[1], 1, MPI.OBJECT, MPI.SUM),
                "allReduce", "OBJECT");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> ic.allGather(new int[1], 1, MPI.INT, new int[m - 1], 1,
                MPI.INT), "allGather", "recvbuf");
        Check.throwsMpi(MPI.ERR_ARG, () -> ic.allToAllv(new int[m], new int[m - 1], new int[m], MPI.INT, new int[m],
                new int[m], new int[m], MPI.INT), "allToAllv", "sendcounts has " + (m - 1) + " entries");
        stillWorks(h, "bad arguments");
        Intercomm dup = ic.dup();
        dup.free();
        Check.throwsMpi(MPI.ERR_COMM, dup::getRemoteSize, "freed");
        Check.throwsMpi(MPI.ERR_COMM, () -> dup.barrier(), "freed");
        h.free();
    }

    @RankTest(minSize = 2)
    public void interCreateBadArguments(Intracomm comm) {
        int rank = comm.getRank(), color = rank % 2;
        Intracomm local = comm.split(color, rank);
        int leaderOfOther = color == 0 ? 1 : 0;
        Check.throwsMpi(MPI.ERR_COMM, () -> comm.createIntercomm(null, 0, leaderOfOther, 1), "localComm is null");
        Check.throwsMpi(MPI.ERR_RANK, () -> comm.createIntercomm(local, local.getSize(), leaderOfOther, 1),
                "localLeader " + local.getSize());
        // Arguments significant at the leader only: the leader says why, its group that it refused.
        boolean leader = local.getRank() == 0;
        int size = comm.getSize();
        Object[][] cases = {
            {size + 2, 1, MPI.ERR_RANK, "remoteLeader " + (size + 2)},
            {rank, 1, MPI.ERR_RANK, "is this process"},
            {leaderOfOther, -3, MPI.ERR_TAG, "tag -3"},
        };
        for (Object[] c : cases) {
            int remoteLeader = (Integer) c[0], tag = (Integer) c[1];
            if (leader) {
                Check.throwsMpi((Integer) c[2], () -> comm.createIntercomm(local, 0, remoteLeader, tag), (String) c[3]);
            } else {
                Check.throwsMpi(MPI.ERR_ARG, () -> comm.createIntercomm(local, 0, leaderOfOther, 1), "local leader",
                        "refused");
            }
        }
        Intercomm ic = comm.createIntercomm(local, 0, leaderOfOther, 2);
        Check.throwsMpi(MPI.ERR_COMM, () -> comm.createIntercomm(ic, 0, leaderOfOther, 3), "intercommunicator");
        Check.throwsMpi(MPI.ERR_GROUP, () -> comm.createGroup(null, 1), "createGroup", "group is null");
        int[] sum = new int[1];
        ic.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        Check.equal(ic.getRemoteSize(), sum[0], "the intercommunicator made after the refusals works");
        ic.free();
        local.free();
    }
}
