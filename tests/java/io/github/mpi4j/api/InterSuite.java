package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Intercommunicators (issue 10 item 4): the communicator under test split into its even and
 * odd ranks, joined by createIntercomm; every expected value is computed from the ranks of the
 * communicator under test (which may be a reordered one), never read from the run.
 */
public class InterSuite {

    /** The two halves of {@code comm} and the intercommunicator between them. */
    static final class Halves {
        final Intracomm comm;
        final int rank;
        final int size;
        /** 0: the evens, 1: the odds. */
        final int color;
        final Intracomm local;
        final Intercomm inter;
        final int localSize;
        final int remoteSize;

        Halves(Intracomm comm) {
            this.comm = comm;
            this.rank = comm.getRank();
            this.size = comm.getSize();
            this.color = rank % 2;
            this.local = comm.split(color, rank);
            // The leaders are comm ranks 0 (evens) and 1 (odds), local rank 0 in each half.
            this.inter = comm.createIntercomm(local, 0, color == 0 ? 1 : 0, 77);
            this.localSize = count(color);
            this.remoteSize = count(1 - color);
        }

        int count(int c) {
            return (size - c + 1) / 2;
        }

        /** Rank in {@code comm} of rank {@code r} of group {@code c} (0 evens, 1 odds). */
        static int commRank(int c, int r) {
            return c + 2 * r;
        }

        int localRank() {
            return rank / 2;
        }

        int remoteCommRank(int r) {
            return commRank(1 - color, r);
        }

        void free() {
            inter.free();
            local.free();
        }
    }

    @RankTest(minSize = 2)
    public void interCreateAndQuery(Intracomm comm) {
        Halves h = new Halves(comm);
        Intercomm ic = h.inter;
        Check.isTrue(ic.isInter(), "isInter");
        Check.isTrue(!comm.isInter(), "an intracommunicator is not inter");
        Check.equal(h.localSize, ic.getSize(), "local size");
        Check.equal(h.localRank(), ic.getRank(), "local rank");
        Check.equal(h.remoteSize, ic.getRemoteSize(), "remote size");
        Check.equal(h.remoteSize, ic.Remote_size(), "Remote_size");
        Group remote = ic.getRemoteGroup();
        Check.equal(h.remoteSize, remote.getSize(), "remote group size");
        Check.equal(MPI.UNDEFINED, remote.getRank(), "this process is not in the remote group");
        int[] ranks = new int[h.remoteSize];
        int[] expect = new int[h.remoteSize];
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = i;
            expect[i] = h.remoteCommRank(i);
        }
        Check.arrays(expect, Group.translateRanks(remote, ranks, comm.getGroup()), "remote group in comm ranks");
        Check.arrays(expect, Group.translateRanks(ic.Remote_group(), ranks, comm.getGroup()), "Remote_group");
        int[] localRanks = new int[h.localSize];
        int[] expectLocal = new int[h.localSize];
        for (int i = 0; i < localRanks.length; i++) {
            localRanks[i] = i;
            expectLocal[i] = Halves.commRank(h.color, i);
        }
        Check.arrays(expectLocal, Group.translateRanks(ic.getGroup(), localRanks, comm.getGroup()), "local group");
        // mpiJava's spelling builds an equal intercommunicator.
        Intercomm other = comm.Create_intercomm(h.local, 0, h.color == 0 ? 1 : 0, 78);
        Check.equal(h.remoteSize, other.Remote_size(), "Create_intercomm remote size");
        Intercomm dup = ic.dup();
        Check.isTrue(dup.isInter(), "a duplicate is inter");
        Check.equal(h.remoteSize, dup.getRemoteSize(), "dup remote size");
        dup.disconnect();
        Check.isTrue(dup.isNull(), "a disconnected intercommunicator is null");
        // disconnect works on an intracommunicator too (MPI_Comm_disconnect).
        Intracomm intra = comm.dup();
        intra.disconnect();
        Check.isTrue(intra.isNull(), "a disconnected intracommunicator is null");
        if (MPI.isInitialized()) {
            Check.throwsMpi(MPI.ERR_COMM, () -> MPI.COMM_WORLD.disconnect(), "cannot be disconnected");
        }
        other.free();
        h.free();
    }

    @RankTest(minSize = 2)
    public void interPointToPoint(Intracomm comm) {
        Halves h = new Halves(comm);
        Intercomm ic = h.inter;
        int me = h.localRank();
        // Rank i of each group sends to rank i of the other, if there is one.
        int[] in = new int[2];
        Request r = null;
        if (me < h.remoteSize) r = ic.iRecv(in, 2, MPI.INT, me, 5);
        if (me < h.remoteSize) ic.send(new int[] {h.rank, -h.rank}, 2, MPI.INT, me, 5);
        if (r != null) {
            Status s = r.waitStatus();
            Check.equal(me, s.getSource(), "source is the remote rank");
            Check.arrays(new int[] {h.remoteCommRank(me), -h.remoteCommRank(me)}, in, "message from the remote group");
        }
        // Every rank of the odds sends to remote rank 0; evens' rank 0 receives them from ANY_SOURCE.
        if (h.color == 1) {
            ic.Send(new long[] {h.rank}, 0, 1, MPI.LONG, 0, 6);
        } else if (me == 0) {
            long sum = 0;
            boolean[] seen = new boolean[h.remoteSize];
            for (int i = 0; i < h.remoteSize; i++) {
                long[] v = new long[1];
                Status s = ic.Recv(v, 0, 1, MPI.LONG, MPI.ANY_SOURCE, 6);
                int src = s.getSource();
                Check.isTrue(src >= 0 && src < h.remoteSize && !seen[src], "ANY_SOURCE gives a new remote rank");
                seen[src] = true;
                Check.equal(h.remoteCommRank(src), v[0], "value from remote rank " + src);
                sum += v[0];
            }
            long expect = 0;
            for (int i = 0; i < h.remoteSize; i++) expect += h.remoteCommRank(i);
            Check.equal(expect, sum, "sum over the odds");
        }
        // MPI.OBJECT (mpiJava) between partners.
        if (me < h.remoteSize) {
            Object[] out = {"from " + h.rank, (long) h.rank};
            Object[] back = new Object[2];
            Request ro = ic.Irecv(back, 0, 2, MPI.OBJECT, me, 8);
            ic.Send(out, 0, 2, MPI.OBJECT, me, 8);
            ro.Wait();
            Check.equal("from " + h.remoteCommRank(me), back[0], "object message");
            Check.equal((long) h.remoteCommRank(me), back[1], "object message, second item");
        }
        // sendRecv between partners, PROC_NULL where there is none.
        int partner = me < h.remoteSize ? me : MPI.PROC_NULL;
        double[] got = {-1};
        Status s = ic.sendRecv(new double[] {h.rank + 0.5}, 1, MPI.DOUBLE, partner, 9, got, 1, MPI.DOUBLE, partner, 9);
        if (partner != MPI.PROC_NULL) {
            Check.near(h.remoteCommRank(me) + 0.5, got[0], 0, "sendRecv");
        } else {
            Check.equal(MPI.PROC_NULL, s.getSource(), "sendRecv with PROC_NULL");
        }
        h.free();
    }

    @RankTest(minSize = 2)
    public void interMergeOrdersGroups(Intracomm comm) {
        Halves h = new Halves(comm);
        // The odds say high: the evens come first.
        for (int highGroup = 0; highGroup < 2; highGroup++) {
            Intracomm merged = h.inter.merge(h.color == highGroup);
            Check.equal(h.size, merged.getSize(), "merged size");
            int evens = h.count(0), odds = h.count(1);
            int lowCount = highGroup == 0 ? odds : evens;
            int expectRank = h.color == highGroup ? lowCount + h.localRank() : h.localRank();
            Check.equal(expectRank, merged.getRank(), "rank in the merged communicator (high group " + highGroup + ")");
            int[] all = new int[h.size];
            merged.allGather(new int[] {h.rank}, 1, MPI.INT, all, 1, MPI.INT);
            int[] expect = new int[h.size];
            int k = 0;
            for (int c : new int[] {1 - highGroup, highGroup}) {
                for (int i = 0; i < h.count(c); i++) expect[k++] = Halves.commRank(c, i);
            }
            Check.arrays(expect, all, "comm ranks in merged order");
            merged.free();
        }
        // Both pass the same value: one order, the same at every rank, each group contiguous.
        Intracomm merged = h.inter.Merge(false);
        int[] all = new int[h.size];
        merged.allGather(new int[] {h.rank}, 1, MPI.INT, all, 1, MPI.INT);
        int firstColor = all[0] % 2;
        int k = 0;
        for (int c : new int[] {firstColor, 1 - firstColor}) {
            for (int i = 0; i < h.count(c); i++) {
                Check.equal(Halves.commRank(c, i), all[k++], "merged order with equal high, entry " + (k - 1));
            }
        }
        merged.free();
        h.free();
    }

    /** The root argument of a rooted call whose root is rank {@code root} of group {@code rootColor}. */
    static int rootArg(Halves h, int rootColor, int root) {
        if (h.color != rootColor) return root;
        return h.localRank() == root ? MPI.ROOT : MPI.PROC_NULL;
    }

    @RankTest(minSize = 2)
    public void interRootedCollectives(Intracomm comm) {
        Halves h = new Halves(comm);
        Intercomm ic = h.inter;
        int me = h.localRank();
        for (int rootColor = 0; rootColor < 2; rootColor++) {
            int rootCount = h.count(rootColor);
            int root = rootCount - 1; // the last rank of the root's group
            int arg = rootArg(h, rootColor, root);
            int m = h.remoteSize;
            String where = " (root " + root + " of group " + rootColor + ")";
            // bcast: the root's values reach every rank of the other group.
            int[] b = new int[3];
            if (arg == MPI.ROOT) b = new int[] {h.rank, 42, -7};
            ic.bcast(arg == MPI.PROC_NULL ? null : b, 3, MPI.INT, arg);
            if (h.color != rootColor) {
                Check.arrays(new int[] {Halves.commRank(rootColor, root), 42, -7}, b, "bcast" + where);
            }
            // reduce: the other group's values summed at the root.
            long[] red = new long[2];
            ic.reduce(new long[] {h.rank + 1, 2L * h.rank}, red, 2, MPI.LONG, MPI.SUM, arg);
            if (arg == MPI.ROOT) {
                long s1 = 0, s2 = 0;
                for (int i = 0; i < m; i++) {
                    s1 += h.remoteCommRank(i) + 1;
                    s2 += 2L * h.remoteCommRank(i);
                }
                Check.arrays(new long[] {s1, s2}, red, "reduce" + where);
            }
            // gather and gatherv: block i from remote rank i.
            int[] g = new int[2 * m];
            ic.gather(new int[] {h.rank, 10 * h.rank}, 2, MPI.INT, g, 2, MPI.INT, arg);
            if (arg == MPI.ROOT) {
                int[] expect = new int[2 * m];
                for (int i = 0; i < m; i++) {
                    expect[2 * i] = h.remoteCommRank(i);
                    expect[2 * i + 1] = 10 * h.remoteCommRank(i);
                }
                Check.arrays(expect, g, "gather" + where);
            }
            int[] counts = new int[m];
            int[] displs = new int[m];
            int total = 0;
            for (int i = 0; i < m; i++) {
                counts[i] = i + 1;
                displs[i] = total + i; // a gap of i items before block i
                total += counts[i] + i;
            }
            short[] sendv = new short[me + 1];
            java.util.Arrays.fill(sendv, (short) (h.rank + 100));
            short[] gv = new short[total];
            java.util.Arrays.fill(gv, (short) -1);
            ic.gatherv(sendv, me + 1, MPI.SHORT, gv, counts, displs, MPI.SHORT, arg);
            if (arg == MPI.ROOT) {
                short[] expect = new short[total];
                java.util.Arrays.fill(expect, (short) -1);
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < counts[i]; j++) expect[displs[i] + j] = (short) (h.remoteCommRank(i) + 100);
                }
                Check.arrays(expect, gv, "gatherv" + where);
            }
            // scatter and scatterv: block i to remote rank i.
            double[] sc = new double[2 * m];
            for (int i = 0; i < m; i++) {
                sc[2 * i] = 1000 + i + h.rank;
                sc[2 * i + 1] = -i;
            }
            double[] mine = new double[2];
            ic.scatter(sc, 2, MPI.DOUBLE, mine, 2, MPI.DOUBLE, arg);
            if (h.color != rootColor) {
                int rootRank = Halves.commRank(rootColor, root);
                Check.arrays(new double[] {1000 + me + rootRank, -me}, mine, "scatter" + where);
            }
            int[] scv = new int[total];
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < counts[i]; j++) scv[displs[i] + j] = 7 * i + j;
            }
            int[] minev = new int[me + 1];
            ic.scatterv(scv, counts, displs, MPI.INT, minev, me + 1, MPI.INT, arg);
            if (h.color != rootColor) {
                int[] expect = new int[me + 1];
                for (int j = 0; j <= me; j++) expect[j] = 7 * me + j;
                Check.arrays(expect, minev, "scatterv" + where);
            }
        }
        h.free();
    }

    @RankTest(minSize = 2)
    public void interAllCollectives(Intracomm comm) {
        Halves h = new Halves(comm);
        Intercomm ic = h.inter;
        int me = h.localRank();
        int n = h.localSize, m = h.remoteSize;
        ic.barrier();
        // allReduce: each group gets the other's sum.
        int[] ar = new int[2];
        ic.allReduce(new int[] {h.rank, 1}, ar, 2, MPI.INT, MPI.SUM);
        int remoteSum = 0;
        for (int i = 0; i < m; i++) remoteSum += h.remoteCommRank(i);
        Check.arrays(new int[] {remoteSum, m}, ar, "allReduce");
        int[] mx = new int[1];
        ic.allReduce(new int[] {h.rank}, mx, 1, MPI.INT, MPI.MAX);
        Check.equal(h.remoteCommRank(m - 1), mx[0], "allReduce MAX");
        // allGather(v): block j from remote rank j.
        long[] ag = new long[m];
        ic.allGather(new long[] {h.rank * 3L}, 1, MPI.LONG, ag, 1, MPI.LONG);
        long[] expectAg = new long[m];
        for (int j = 0; j < m; j++) expectAg[j] = h.remoteCommRank(j) * 3L;
        Check.arrays(expectAg, ag, "allGather");
        int[] counts = new int[m], displs = new int[m];
        int total = 0;
        for (int j = 0; j < m; j++) {
            counts[j] = j + 1;
            displs[j] = total;
            total += j + 1;
        }
        int[] sendv = new int[me + 1];
        java.util.Arrays.fill(sendv, h.rank);
        int[] agv = new int[total];
        ic.allGatherv(sendv, me + 1, MPI.INT, agv, counts, displs, MPI.INT);
        int[] expectAgv = new int[total];
        for (int j = 0; j < m; j++) java.util.Arrays.fill(expectAgv, displs[j], displs[j] + counts[j], h.remoteCommRank(j));
        Check.arrays(expectAgv, agv, "allGatherv");
        // allToAll(v): block j to remote rank j.
        int[] a2a = new int[m];
        for (int j = 0; j < m; j++) a2a[j] = 100 * h.rank + j;
        int[] got = new int[m];
        ic.allToAll(a2a, 1, MPI.INT, got, 1, MPI.INT);
        int[] expectA2a = new int[m];
        for (int j = 0; j < m; j++) expectA2a[j] = 100 * h.remoteCommRank(j) + me;
        Check.arrays(expectA2a, got, "allToAll");
        // v: (j+1) items to remote j; from remote j come (me+1) items.
        int[] sc = new int[m], sd = new int[m], rc = new int[m], rd = new int[m];
        int st = 0, rt = 0;
        for (int j = 0; j < m; j++) {
            sc[j] = j + 1;
            sd[j] = st;
            st += sc[j];
            rc[j] = me + 1;
            rd[j] = rt;
            rt += rc[j];
        }
        int[] sv = new int[st];
        for (int j = 0; j < m; j++) for (int k = 0; k < sc[j]; k++) sv[sd[j] + k] = h.rank * 1000 + j * 10 + k;
        int[] rv = new int[rt];
        ic.allToAllv(sv, sc, sd, MPI.INT, rv, rc, rd, MPI.INT);
        int[] expectRv = new int[rt];
        for (int j = 0; j < m; j++) for (int k = 0; k <= me; k++) expectRv[rd[j] + k] = h.remoteCommRank(j) * 1000 + me * 10 + k;
        Check.arrays(expectRv, rv, "allToAllv");
        // reduceScatterBlock: each group's vectors (n*m items, item k = rank*1000 + k) summed,
        // m items per rank of the other group... so this group's ranks get n (= remote's m) each.
        int perRank = m;
        long[] rsIn = new long[n * perRank];
        for (int k = 0; k < rsIn.length; k++) rsIn[k] = h.rank * 1000L + k;
        long[] rsOut = new long[perRank];
        ic.reduceScatterBlock(rsIn, rsOut, perRank, MPI.LONG, MPI.SUM);
        long remoteRankSum = remoteSum;
        long[] expectRs = new long[perRank];
        for (int k = 0; k < perRank; k++) expectRs[k] = 1000L * remoteRankSum + (long) m * (me * perRank + k);
        Check.arrays(expectRs, rsOut, "reduceScatterBlock");
        // reduceScatter with uneven counts of the same total (n*m): rank 0 gets 2m, rank 1 none.
        int[] rcounts = new int[n];
        java.util.Arrays.fill(rcounts, m);
        if (n >= 2) {
            rcounts[0] = 2 * m;
            rcounts[1] = 0;
        }
        int offset = 0;
        for (int i = 0; i < me; i++) offset += rcounts[i];
        long[] rsv = new long[rcounts[me]];
        ic.reduceScatter(rsIn, rsv, rcounts, MPI.LONG, MPI.SUM);
        long[] expectRsv = new long[rcounts[me]];
        for (int k = 0; k < expectRsv.length; k++) expectRsv[k] = 1000L * remoteRankSum + (long) m * (offset + k);
        Check.arrays(expectRsv, rsv, "reduceScatter");
        h.free();
    }

    @RankTest(minSize = 2)
    public void interNonBlockingCollectives(Intracomm comm) {
        Halves h = new Halves(comm);
        Intercomm ic = h.inter;
        int me = h.localRank();
        int m = h.remoteSize;
        int rootArg = rootArg(h, 0, 0);
        int[] b = h.color == 0 && me == 0 ? new int[] {h.rank + 5} : new int[1];
        int[] ar = new int[1];
        long[] ag = new long[m];
        Request[] rs = {
            ic.iBarrier(),
            ic.iBcast(rootArg == MPI.PROC_NULL ? null : b, 1, MPI.INT, rootArg),
            ic.iAllReduce(new int[] {h.rank}, ar, 1, MPI.INT, MPI.SUM),
            ic.iAllGather(new long[] {h.rank}, 1, MPI.LONG, ag, 1, MPI.LONG),
        };
        // Point-to-point on the intercommunicator while the collectives are in flight.
        int[] in = new int[1];
        if (me < m) {
            Request r = ic.iRecv(in, 1, MPI.INT, me, 3);
            ic.send(new int[] {h.rank}, 1, MPI.INT, me, 3);
            r.waitFor();
            Check.equal(h.remoteCommRank(me), in[0], "p2p during non-blocking collectives");
        }
        Request.waitAll(rs);
        if (h.color == 1) Check.equal(5, b[0], "iBcast"); // evens' rank 0 is comm rank 0
        int remoteSum = 0;
        long[] expect = new long[m];
        for (int j = 0; j < m; j++) {
            remoteSum += h.remoteCommRank(j);
            expect[j] = h.remoteCommRank(j);
        }
        Check.equal(remoteSum, ar[0], "iAllReduce");
        Check.arrays(expect, ag, "iAllGather");
        // iReduce and iGather to the odds' rank 0; iScatter from it.
        int arg = rootArg(h, 1, 0);
        int[] red = new int[1];
        int[] g = new int[m];
        int[] sc = new int[m];
        for (int j = 0; j < m; j++) sc[j] = 50 + j;
        int[] mine = new int[1];
        Request[] rooted = {
            ic.iReduce(new int[] {h.rank}, red, 1, MPI.INT, MPI.SUM, arg),
            ic.iGather(new int[] {h.rank}, 1, MPI.INT, g, 1, MPI.INT, arg),
            ic.iScatter(sc, 1, MPI.INT, mine, 1, MPI.INT, arg),
        };
        Request.waitAll(rooted);
        if (arg == MPI.ROOT) {
            Check.equal(remoteSum, red[0], "iReduce");
            int[] e = new int[m];
            for (int j = 0; j < m; j++) e[j] = h.remoteCommRank(j);
            Check.arrays(e, g, "iGather");
        }
        if (h.color == 0) Check.equal(50 + me, mine[0], "iScatter");
        h.free();
    }

    @RankTest(minSize = 2)
    public void interCreateGroup(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        // The upper half builds a communicator in reverse order; the lower half does nothing.
        int lo = size / 2;
        if (rank >= lo) {
            int[] ranks = new int[size - lo];
            for (int i = 0; i < ranks.length; i++) ranks[i] = size - 1 - i;
            Group g = comm.getGroup().incl(ranks);
            Intracomm c = comm.createGroup(g, 11);
            Check.equal(ranks.length, c.getSize(), "createGroup size");
            Check.equal(size - 1 - rank, c.getRank(), "createGroup rank (reverse order)");
            int[] sum = new int[1];
            c.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            int expect = 0;
            for (int r = lo; r < size; r++) expect += r;
            Check.equal(expect, sum[0], "allReduce over the new communicator");
            c.free();
        }
        if (rank < lo || size == 1) {
            Group other = comm.getGroup().incl(new int[] {(rank + 1) % size == rank ? rank : (rank + 1) % size});
            if (other.getRank() == MPI.UNDEFINED) {
                Check.throwsMpi(MPI.ERR_GROUP, () -> comm.createGroup(other, 1), "this process", "not in the group");
            }
        }
        comm.barrier();
    }
}
