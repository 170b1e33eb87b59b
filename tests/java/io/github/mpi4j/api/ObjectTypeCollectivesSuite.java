package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.util.Arrays;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.Request;

/**
 * Derived datatypes over MPI.OBJECT in the collectives other than bcast (issue 10): gather,
 * scatter, allgather, alltoall and their v-forms (with offsets, reversed displacements, in place,
 * and MPI.OBJECT on one side), and the reductions with a non-commutative user op (reduce,
 * allreduce, scan, exscan, reduce_scatter, reduce_scatter_block). The elements each type selects
 * are computed here by plain loops from the type's parameters, values come from ranks and
 * element indices, and every element a call does not write must stay untouched.
 *
 * <p>Two types with the same number of objects (4) and extent (5) but different orders:
 * {@code V = Vector(2, 2, 3)} selects 0, 1, 3, 4 of each item and {@code X = Indexed({1, 3},
 * {4, 0})} selects 4, 0, 1, 2.
 */
public class ObjectTypeCollectivesSuite {
    private static final String UNTOUCHED = "untouched";
    private static final int EXTENT = 5;
    private static final int PER = 4;

    /** {@code len} fill elements with rank i's two values at {@code off - step * i} and two further on. */
    private static Object[] itemsGoingDown(int len, int off, int step, int size) {
        Object[] want = filled(len);
        for (int i = 0; i < size; i++) {
            want[off - step * i] = value(i, 0);
            want[off - step * i + 2] = value(i, 1);
        }
        return want;
    }

    private static Object[] filled(int n) {
        Object[] a = new Object[n];
        Arrays.fill(a, UNTOUCHED);
        return a;
    }

    private static String value(int rank, int i) {
        return "r" + rank + "_" + i;
    }

    private static Object[] values(int rank, int n) {
        Object[] a = new Object[n];
        for (int i = 0; i < n; i++) a[i] = value(rank, i);
        return a;
    }

    private static Datatype vType() {
        Datatype t = Datatype.Vector(2, 2, 3, MPI.OBJECT);
        t.commit();
        return t;
    }

    private static Datatype xType() {
        Datatype t = Datatype.Indexed(new int[] {1, 3}, new int[] {4, 0}, MPI.OBJECT);
        t.commit();
        return t;
    }

    /** What {@code count} items of V select from {@code offset}, in type-map order. */
    private static int[] v(int offset, int count) {
        int[] idx = new int[count * PER];
        int n = 0;
        for (int k = 0; k < count; k++) {
            for (int b = 0; b < 2; b++) {
                for (int j = 0; j < 2; j++) idx[n++] = offset + k * EXTENT + b * 3 + j;
            }
        }
        return idx;
    }

    /** What {@code count} items of X select from {@code offset}, in type-map order. */
    private static int[] x(int offset, int count) {
        int[] idx = new int[count * PER];
        int n = 0;
        for (int k = 0; k < count; k++) {
            idx[n++] = offset + k * EXTENT + 4;
            for (int j = 0; j < 3; j++) idx[n++] = offset + k * EXTENT + j;
        }
        return idx;
    }

    private static int[] range(int offset, int count) {
        int[] idx = new int[count];
        for (int i = 0; i < count; i++) idx[i] = offset + i;
        return idx;
    }

    /** Writes {@code value(src, from[m])} to {@code want[to[m]]}. */
    private static void land(Object[] want, int src, int[] from, int[] to) {
        Check.equal(from.length, to.length, "reference selections agree");
        for (int m = 0; m < to.length; m++) want[to[m]] = value(src, from[m]);
    }

    private static int[] reversed(int count, int n) {
        int[] d = new int[n];
        for (int r = 0; r < n; r++) d[r] = (n - 1 - r) * count;
        return d;
    }

    private static int[] uniform(int count, int n) {
        int[] a = new int[n];
        Arrays.fill(a, count);
        return a;
    }

    // ---- gather --------------------------------------------------------------------------------

    @RankTest
    public void gatherAndGatherv(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), root = size - 1;
        Datatype vt = vType(), xt = xType();
        Object[] send = values(rank, 12);
        int[] sel = v(1, 2); // 2 items of V from offset 1: 8 objects
        int len = 2 + size * 2 * EXTENT + 1;

        Object[] recv = filled(len);
        comm.Gather(send, 1, 2, vt, recv, 2, 2, xt, root);
        if (rank == root) {
            Object[] want = filled(len);
            for (int r = 0; r < size; r++) land(want, r, sel, x(2 + r * 2 * EXTENT, 2));
            Check.arrays(want, recv, "Gather V -> X at the root");
        } else {
            Check.arrays(filled(len), recv, "Gather leaves a non-root's recvbuf alone");
        }
        Check.arrays(values(rank, 12), send, "Gather leaves the send buffer alone");

        int[] displs = reversed(2, size);
        recv = filled(len);
        comm.Gatherv(send, 1, 2, vt, recv, 2, uniform(2, size), displs, xt, root);
        if (rank == root) {
            Object[] want = filled(len);
            for (int r = 0; r < size; r++) land(want, r, sel, x(2 + displs[r] * EXTENT, 2));
            Check.arrays(want, recv, "Gatherv V -> X with reversed displacements");
        }

        // MPI.OBJECT at the root, V at the senders: 8 objects per rank, contiguous.
        recv = filled(size * 8 + 1);
        comm.Gather(send, 1, 2, vt, recv, 1, 8, MPI.OBJECT, root);
        if (rank == root) {
            Object[] want = filled(size * 8 + 1);
            for (int r = 0; r < size; r++) land(want, r, sel, range(1 + r * 8, 8));
            Check.arrays(want, recv, "Gather V -> MPI.OBJECT");
        }

        // In place at the root: its own part of recvbuf stays as it is.
        recv = filled(len);
        if (rank == root) {
            int[] mine = x(2 + root * 2 * EXTENT, 2);
            for (int m = 0; m < mine.length; m++) recv[mine[m]] = "own" + m;
            comm.Gather(MPI.IN_PLACE, 0, 0, vt, recv, 2, 2, xt, root);
            Object[] want = filled(len);
            for (int r = 0; r < size - 1; r++) land(want, r, sel, x(2 + r * 2 * EXTENT, 2));
            for (int m = 0; m < mine.length; m++) want[mine[m]] = "own" + m;
            Check.arrays(want, recv, "Gather in place at the root");
        } else {
            comm.Gather(send, 1, 2, vt, null, 0, 0, xt, root);
        }
        comm.Barrier();
    }

    /**
     * Contiguous and Hindexed of MPI.OBJECT (MPJ Express; byte displacements count objects, the
     * extent of MPI.OBJECT being 1): C = Contiguous(3) sends 3 objects per item, H =
     * Hindexed({2, 1}, {3, 0}) selects 3, 4, 0 of each item (extent 5); Gatherv, then Alltoall.
     */
    @RankTest
    public void contiguousAndHindexed(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), root = 0;
        Datatype ct = Datatype.Contiguous(3, MPI.OBJECT);
        ct.commit();
        Datatype ht = Datatype.Hindexed(new int[] {2, 1}, new int[] {3, 0}, MPI.OBJECT);
        ht.commit();
        Check.equal(5, ht.Extent(), "Hindexed extent in objects");
        Object[] send = values(rank, 3 * size + 2);
        int len = size * EXTENT;
        int[] d = reversed(1, size);
        Object[] recv = filled(len);
        comm.Gatherv(send, 2, 1, ct, recv, 0, uniform(1, size), d, ht, root);
        if (rank == root) {
            Object[] want = filled(len);
            for (int r = 0; r < size; r++) {
                int b = d[r] * EXTENT;
                land(want, r, range(2, 3), new int[] {b + 3, b + 4, b});
            }
            Check.arrays(want, recv, "Gatherv Contiguous -> Hindexed");
        }
        recv = filled(len);
        comm.Alltoall(send, 2, 1, ct, recv, 0, 1, ht);
        Object[] want = filled(len);
        for (int s = 0; s < size; s++) {
            int b = s * EXTENT;
            land(want, s, range(2 + rank * 3, 3), new int[] {b + 3, b + 4, b});
        }
        Check.arrays(want, recv, "Alltoall Contiguous -> Hindexed");
        ct.free();
        ht.free();
        comm.Barrier();
    }

    // ---- scatter -------------------------------------------------------------------------------

    @RankTest
    public void scatterAndScatterv(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), root = 0;
        Datatype vt = vType(), xt = xType();
        int slen = 3 + size * 2 * EXTENT;
        Object[] send = rank == root ? values(root, slen) : null;
        int[] into = v(1, 2);

        Object[] recv = filled(12);
        comm.Scatter(send, 3, 2, xt, recv, 1, 2, vt, root);
        Object[] want = filled(12);
        land(want, root, x(3 + rank * 2 * EXTENT, 2), into);
        Check.arrays(want, recv, "Scatter X -> V");
        if (rank == root) Check.arrays(values(root, slen), send, "Scatter leaves the send buffer alone");

        int[] displs = reversed(2, size);
        recv = filled(12);
        comm.Scatterv(send, 3, uniform(2, size), displs, xt, recv, 1, 2, vt, root);
        want = filled(12);
        land(want, root, x(3 + displs[rank] * EXTENT, 2), into);
        Check.arrays(want, recv, "Scatterv X -> V with reversed displacements");

        // MPI.OBJECT at the receivers.
        recv = filled(9);
        comm.Scatter(send, 3, 2, xt, recv, 1, 8, MPI.OBJECT, root);
        want = filled(9);
        land(want, root, x(3 + rank * 2 * EXTENT, 2), range(1, 8));
        Check.arrays(want, recv, "Scatter X -> MPI.OBJECT");

        // In place at the root: its send buffer is all it has, and it stays as it is.
        if (rank == root) {
            comm.Scatter(send, 3, 2, xt, MPI.IN_PLACE, 0, 0, vt, root);
            Check.arrays(values(root, slen), send, "Scatter in place leaves the root's buffer alone");
        } else {
            recv = filled(12);
            comm.Scatter(null, 0, 0, xt, recv, 1, 2, vt, root);
            want = filled(12);
            land(want, root, x(3 + rank * 2 * EXTENT, 2), into);
            Check.arrays(want, recv, "Scatter (root in place) X -> V");
        }
        comm.Barrier();
    }

    // ---- allgather -----------------------------------------------------------------------------

    @RankTest
    public void allgatherAndAllgatherv(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Datatype vt = vType(), xt = xType();
        Object[] send = values(rank, 7);
        int[] sel = v(2, 1);
        int len = 1 + size * EXTENT;

        Object[] recv = filled(len);
        comm.Allgather(send, 2, 1, vt, recv, 1, 1, xt);
        Object[] want = filled(len);
        for (int r = 0; r < size; r++) land(want, r, sel, x(1 + r * EXTENT, 1));
        Check.arrays(want, recv, "Allgather V -> X");

        int[] displs = reversed(1, size);
        recv = filled(len);
        comm.Allgatherv(send, 2, 1, vt, recv, 1, uniform(1, size), displs, xt);
        want = filled(len);
        for (int r = 0; r < size; r++) land(want, r, sel, x(1 + displs[r] * EXTENT, 1));
        Check.arrays(want, recv, "Allgatherv V -> X with reversed displacements");

        // The non-blocking Open MPI form (no offsets): complete when it returns, Wait still works.
        recv = filled(len);
        Request req = comm.iAllGatherv(send, 1, vt, recv, uniform(1, size), displs, xt);
        req.Wait();
        want = filled(len);
        for (int r = 0; r < size; r++) land(want, r, v(0, 1), x(displs[r] * EXTENT, 1));
        Check.arrays(want, recv, "iAllGatherv V -> X");

        // In place (Open MPI form): each rank's own slot holds its part.
        Object[] buf = filled(size * EXTENT);
        int[] mine = x(rank * EXTENT, 1);
        for (int m = 0; m < PER; m++) buf[mine[m]] = value(rank, 100 + m);
        comm.allGather(buf, 1, xt);
        want = filled(size * EXTENT);
        for (int r = 0; r < size; r++) {
            int[] slot = x(r * EXTENT, 1);
            for (int m = 0; m < PER; m++) want[slot[m]] = value(r, 100 + m);
        }
        Check.arrays(want, buf, "allGather in place over X");
        comm.Barrier();
    }

    // ---- alltoall ------------------------------------------------------------------------------

    @RankTest
    public void alltoallAndAlltoallv(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Datatype vt = vType(), xt = xType();
        Object[] send = values(rank, 2 + size * EXTENT);
        int len = size * EXTENT;

        Object[] recv = filled(len);
        comm.Alltoall(send, 2, 1, vt, recv, 0, 1, xt);
        Object[] want = filled(len);
        for (int s = 0; s < size; s++) land(want, s, v(2 + rank * EXTENT, 1), x(s * EXTENT, 1));
        Check.arrays(want, recv, "Alltoall V -> X");

        int[] sd = reversed(1, size);
        int[] rd = new int[size];
        for (int s = 0; s < size; s++) rd[s] = (s + 1) % size;
        recv = filled(len);
        comm.Alltoallv(send, 2, uniform(1, size), sd, vt, recv, 0, uniform(1, size), rd, xt);
        want = filled(len);
        for (int s = 0; s < size; s++) land(want, s, v(2 + (size - 1 - rank) * EXTENT, 1), x(rd[s] * EXTENT, 1));
        Check.arrays(want, recv, "Alltoallv V -> X, permuted displacements");

        // MPI.OBJECT on the send side: 4 objects per destination.
        recv = filled(len);
        comm.Alltoall(send, 0, PER, MPI.OBJECT, recv, 0, 1, xt);
        want = filled(len);
        for (int s = 0; s < size; s++) land(want, s, range(rank * PER, PER), x(s * EXTENT, 1));
        Check.arrays(want, recv, "Alltoall MPI.OBJECT -> X");

        // In place: the part for rank d is read from slot rd[d] and replaced by what d sent.
        Object[] buf = filled(len);
        for (int d = 0; d < size; d++) {
            int[] slot = x(rd[d] * EXTENT, 1);
            for (int m = 0; m < PER; m++) buf[slot[m]] = value(rank, 200 + d * PER + m);
        }
        comm.Alltoallv(MPI.IN_PLACE, 0, null, null, null, buf, 0, uniform(1, size), rd, xt);
        want = filled(len);
        for (int s = 0; s < size; s++) {
            int[] slot = x(rd[s] * EXTENT, 1);
            for (int m = 0; m < PER; m++) want[slot[m]] = value(s, 200 + rank * PER + m);
        }
        Check.arrays(want, buf, "Alltoallv in place over X");
        comm.Barrier();
    }

    // ---- reductions ----------------------------------------------------------------------------

    /** The non-commutative reference: value(0, i)|value(1, i)|...|value(last, i). */
    private static String joined(int first, int last, int i) {
        StringBuilder b = new StringBuilder();
        for (int r = first; r <= last; r++) {
            if (r > first) b.append('|');
            b.append(value(r, i));
        }
        return b.toString();
    }

    /** Records the datatype and counts the function saw, and concatenates like ObjectCollectiveSuite.Concat. */
    static final class Seen extends mpi.User_function {
        int lastCount = -1;
        Datatype lastType;

        @Override
        public void Call(Object in, int inOff, Object inout, int inoutOff, int count, Datatype type) {
            lastCount = count;
            lastType = type;
            Object[] a = (Object[]) in, b = (Object[]) inout;
            for (int i = 0; i < count; i++) b[inoutOff + i] = a[inOff + i] + "|" + b[inoutOff + i];
        }
    }

    @RankTest
    public void reductionsWithUserOp(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), root = size / 2;
        Datatype vt = vType(), xt = xType();
        Seen fn = new Seen();
        Op concat = new Op(fn, false);
        Object[] send = values(rank, 12);
        int[] sel = v(1, 2);

        // Reduce: the function sees the objects in type-map order, count in objects.
        Object[] recv = filled(11);
        comm.Reduce(send, 1, recv, 0, 2, vt, concat, root);
        Object[] want = filled(11);
        int[] at = v(0, 2);
        if (rank == root) {
            for (int m = 0; m < at.length; m++) want[at[m]] = joined(0, size - 1, sel[m]);
            if (size > 1) {
                Check.equal(8, fn.lastCount, "the user function's count is in objects");
                Check.isTrue(fn.lastType == MPI.OBJECT, "the user function's datatype is MPI.OBJECT");
            }
        }
        Check.arrays(want, recv, "Reduce over V");

        // Allreduce V -> V at another offset, and in place over X.
        recv = filled(11);
        comm.Allreduce(send, 1, recv, 1, 2, vt, concat);
        want = filled(11);
        int[] at1 = v(1, 2);
        for (int m = 0; m < at1.length; m++) want[at1[m]] = joined(0, size - 1, sel[m]);
        Check.arrays(want, recv, "Allreduce over V");

        Object[] buf = filled(10);
        int[] xs = x(0, 2);
        for (int m = 0; m < xs.length; m++) buf[xs[m]] = value(rank, 50 + m);
        comm.allReduce(buf, 2, xt, concat);
        want = filled(10);
        for (int m = 0; m < xs.length; m++) want[xs[m]] = joined(0, size - 1, 50 + m);
        Check.arrays(want, buf, "allReduce in place over X");

        // Scan and Exscan (rank 0's recvbuf stays as it is).
        recv = filled(11);
        comm.Scan(send, 1, recv, 1, 2, vt, concat);
        want = filled(11);
        for (int m = 0; m < at1.length; m++) want[at1[m]] = joined(0, rank, sel[m]);
        Check.arrays(want, recv, "Scan over V");

        recv = filled(11);
        comm.Exscan(send, 1, recv, 1, 2, vt, concat);
        want = filled(11);
        if (rank > 0) for (int m = 0; m < at1.length; m++) want[at1[m]] = joined(0, rank - 1, sel[m]);
        Check.arrays(want, recv, "Exscan over V");

        // Reduce_scatter: rank r gets r % 2 + 1 items of X; the send side holds all of them.
        int[] counts = new int[size];
        int total = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r % 2 + 1;
            total += counts[r];
        }
        int start = 0;
        for (int r = 0; r < rank; r++) start += counts[r];
        Object[] big = values(rank, total * EXTENT);
        int[] all = x(0, total);
        recv = filled(2 + counts[rank] * EXTENT);
        comm.Reduce_scatter(big, 0, recv, 2, counts, xt, concat);
        want = filled(2 + counts[rank] * EXTENT);
        int[] mine = x(2, counts[rank]);
        for (int m = 0; m < mine.length; m++) want[mine[m]] = joined(0, size - 1, all[start * PER + m]);
        Check.arrays(want, recv, "Reduce_scatter over X");

        recv = filled(EXTENT);
        comm.Reduce_scatter_block(big, 0, recv, 0, 1, xt, concat);
        want = filled(EXTENT);
        int[] one = x(0, 1);
        for (int m = 0; m < PER; m++) want[one[m]] = joined(0, size - 1, all[rank * PER + m]);
        Check.arrays(want, recv, "Reduce_scatter_block over X");
        concat.free();
        comm.Barrier();
    }

    // ---- bad input -----------------------------------------------------------------------------

    /** Refusals every rank makes alike, before anything moves; the communicator works afterwards. */
    @RankTest
    public void badInputThrows(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Datatype vt = vType(), xt = xType();
        Object[] send = values(rank, 10);
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Allgather(send, 0, 1, vt, filled(size * EXTENT - 1), 0, 1, xt),
                "Allgather", "outside", "recvbuf");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.Alltoall(new int[size], 0, 1, MPI.INT, filled(size * EXTENT), 0, 1,
                xt), "Alltoall", "MPI.INT");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.Allgather(send, 0, 1, vt, new String[size * EXTENT], 0, 1, MPI.INT),
                "Allgather");
        Check.throwsMpi(MPI.ERR_OP, () -> comm.Allreduce(send, 0, filled(10), 0, 1, vt, MPI.SUM), "Allreduce");
        Op concat = new Op(new ObjectCollectiveSuite.Concat(), false);
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.Allreduce(new int[10], 0, filled(10), 0, 1, vt, concat),
                "Allreduce", "Object[]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Scan(send, 0, filled(10), 6, 1, vt, concat), "Scan", "outside");
        concat.free();
        Object[] one = {value(rank, 0)};
        Object[] got = new Object[size];
        comm.Allgather(one, 0, 1, MPI.OBJECT, got, 0, 1, MPI.OBJECT);
        for (int r = 0; r < size; r++) Check.equal(value(r, 0), got[r], "Allgather after the errors");
    }

    /**
     * Only the selected elements are serialized: a non-serializable object in a gap of V does not
     * matter; one in the selection of the last rank makes every rank throw in the same call,
     * naming that rank, and the communicator works afterwards.
     */
    @RankTest(minSize = 2)
    public void serializationFailureReachesEveryRank(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), bad = size - 1;
        Datatype vt = vType(), xt = xType();
        Object[] send = values(rank, EXTENT);
        send[2] = new Object(); // element 2 lies in V's gap; java.lang.Object is not Serializable
        Object[] recv = filled(size * EXTENT);
        comm.Allgather(send, 0, 1, vt, recv, 0, 1, xt);
        Object[] want = filled(size * EXTENT);
        for (int r = 0; r < size; r++) land(want, r, v(0, 1), x(r * EXTENT, 1));
        Check.arrays(want, recv, "Allgather ignores what lies in the gaps");

        if (rank == bad) send[3] = new Object(); // now selected
        // On the fabric the failed rank's notice may reach a peer first; it names the same rank (objects.md).
        String[] expect = rank == bad ? new String[] {"NotSerializableException"}
                : new String[] {"rank " + bad + " could not serialize", "rank " + bad + " failed its part"};
        try {
            comm.Allgather(send, 0, 1, vt, filled(size * EXTENT), 0, 1, xt);
            throw new AssertionError("Allgather with a non-serializable selected object did not throw");
        } catch (mpi.MPIException e) {
            String m = String.valueOf(e.getMessage());
            Check.isTrue(Arrays.stream(expect).anyMatch(m::contains),
                    () -> "the exception names the cause: want one of " + Arrays.toString(expect) + " in: " + m);
        }
        Object[] one = {value(rank, 0)};
        Object[] got = new Object[size];
        comm.Allgather(one, 0, 1, MPI.OBJECT, got, 0, 1, MPI.OBJECT);
        for (int r = 0; r < size; r++) Check.equal(value(r, 0), got[r], "Allgather after the failure");
    }

    /**
     * A negative extent over MPI.OBJECT (createResized(Vector(2, 1, 2), 0, -4)): item k starts 4k
     * elements below the offset and selects its elements 0 and 2, in point-to-point, gather,
     * allgather(v) and pack/unpack; a user op over it is refused (its items are staged upward).
     */
    @RankTest
    public void negativeExtentOverObjects(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), root = size - 1;
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        Datatype vec = Datatype.Vector(2, 1, 2, MPI.OBJECT);
        Datatype t = Datatype.createResized(vec, 0, -4);
        t.commit();
        Check.equal(-4, t.getExtent(), "extent in objects");
        Check.equal(0, t.getLb(), "lb");
        Check.equal(3, t.getTrueExtent(), "true extent");
        // Two items from offset 4 select 4, 6, 0, 2.
        Object[] got = filled(4);
        comm.Sendrecv(values(rank, 7), 4, 2, t, to, 41, got, 0, 4, MPI.OBJECT, from, 41);
        Check.arrays(new Object[] {value(from, 4), value(from, 6), value(from, 0), value(from, 2)}, got,
                "two items from offset 4, received as plain objects");
        Object[] into = filled(7);
        comm.Sendrecv(values(rank, 4), 0, 4, MPI.OBJECT, to, 42, into, 4, 2, t, from, 42);
        Object[] want = filled(7);
        int[] sel = {4, 6, 0, 2};
        for (int i = 0; i < 4; i++) want[sel[i]] = value(from, i);
        Check.arrays(want, into, "received into two items from offset 4, the gaps untouched");

        // Gather and allgather: rank i's item starts 4i elements below the offset 4(size-1).
        int off = 4 * (size - 1), len = off + 3;
        Object[] wg = itemsGoingDown(len, off, 4, size);
        Object[] g = filled(len);
        comm.Gather(values(rank, 2), 0, 2, MPI.OBJECT, g, off, 1, t, root);
        if (rank == root) Check.arrays(wg, g, "Gather into the negative-extent type");
        Object[] ag = filled(len);
        comm.Allgather(values(rank, 2), 0, 2, MPI.OBJECT, ag, off, 1, t);
        Check.arrays(wg, ag, "Allgather into the negative-extent type");
        // Allgatherv: rank i's one item at displacement 2i (extents), so 8i elements below the offset.
        int[] counts = new int[size], displs = new int[size];
        for (int i = 0; i < size; i++) {
            counts[i] = 1;
            displs[i] = 2 * i;
        }
        int voff = 8 * (size - 1), vlen = voff + 3;
        Object[] wv = itemsGoingDown(vlen, voff, 8, size);
        Object[] av = filled(vlen);
        comm.Allgatherv(values(rank, 2), 0, 2, MPI.OBJECT, av, voff, counts, displs, t);
        Check.arrays(wv, av, "Allgatherv into the negative-extent type");

        // Pack and unpack follow the type map from the offset.
        byte[] packed = new byte[4096];
        int end = comm.Pack(values(rank, 7), 4, 2, t, packed, 0);
        Object[] back = filled(7);
        comm.Unpack(packed, 0, back, 4, 2, t);
        Object[] wb = filled(7);
        for (int e : sel) wb[e] = value(rank, e);
        Check.arrays(wb, back, "Pack/Unpack with the negative-extent type");
        Check.isTrue(end > 0, "Pack advanced the position");

        Op mine = new Op(new ObjectCollectiveSuite.Concat(), true);
        Check.throwsMpi(MPI.ERR_UNSUPPORTED_OPERATION, () -> comm.Allreduce(values(rank, 7), 4, filled(7), 4, 2, t,
                mine), "negative extent", "user-defined ops");
        mine.free();
        t.free();
        vec.free();
        comm.barrier();
    }
}
