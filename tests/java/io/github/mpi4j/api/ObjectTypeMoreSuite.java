package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.util.Arrays;
import mpi.CartComm;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * MPI.OBJECT and derived types over it in the calls that refused them before (issue 10):
 * persistent requests, pack/unpack, allToAllw, the neighbour collectives and the collectives of
 * an intercommunicator. Values are strings made of the sending rank (in the communicator under
 * test) and the element index; the elements each type selects are computed here by plain loops
 * from the types' parameters, and every element a call does not select must stay untouched.
 *
 * <p>{@code V = Vector(2, 2, 3)} selects elements 0, 1, 3, 4 of each item and {@code X =
 * Indexed({1, 3}, {4, 0})} selects 4, 0, 1, 2: both 4 objects per item and extent 5.
 */
public class ObjectTypeMoreSuite {
    private static final String UNTOUCHED = "untouched";
    private static final int EXTENT = 5;

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
        int[] idx = new int[count * 4];
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
        int[] idx = new int[count * 4];
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

    private static int[] reversed(int n) {
        int[] d = new int[n];
        for (int r = 0; r < n; r++) d[r] = n - 1 - r;
        return d;
    }

    private static int[] ones(int n) {
        int[] a = new int[n];
        Arrays.fill(a, 1);
        return a;
    }

    // ---- persistent requests -------------------------------------------------------------------

    /**
     * Send_init (standard, synchronous, buffered) of V to the right neighbour and Recv_init of X
     * from the left, started three times with the send buffer refilled between starts (each start
     * sends what the buffer holds then); Waitall's statuses count items of X and objects. Then the
     * Open MPI spellings with MPI.OBJECT on the receiving side.
     */
    @RankTest(processOnly = true)
    public void persistentRequests(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int right = (rank + 1) % size, left = (rank - 1 + size) % size;
        Datatype vt = vType(), xt = xType();
        Object[] send = new Object[12];
        Object[] recv = filled(14);
        byte[] attached = new byte[64 * 1024];
        MPI.attachBuffer(attached);
        try {
            for (int mode = 0; mode < 3; mode++) {
                Prequest s = mode == 0 ? comm.Send_init(send, 1, 2, vt, right, 5)
                        : mode == 1 ? comm.Ssend_init(send, 1, 2, vt, right, 5)
                        : comm.Bsend_init(send, 1, 2, vt, right, 5);
                Prequest r = comm.Recv_init(recv, 2, 2, xt, left, 5);
                for (int round = 0; round < 3; round++) {
                    for (int i = 0; i < send.length; i++) send[i] = "m" + mode + "g" + round + value(rank, i);
                    Arrays.fill(recv, UNTOUCHED);
                    comm.barrier();
                    if (round == 0) {
                        s.Start();
                        r.Start();
                    } else {
                        Prequest.Startall(new Prequest[] {s, r});
                    }
                    Status[] st = Request.Waitall(new Request[] {s, r});
                    Object[] want = filled(14);
                    int[] from = v(1, 2), to = x(2, 2);
                    for (int m = 0; m < to.length; m++) want[to[m]] = "m" + mode + "g" + round + value(left, from[m]);
                    Check.arrays(want, recv, "persistent V -> X, mode " + mode + " start " + round);
                    Check.equal(2, st[1].getCount(xt), "status count in items of X");
                    Check.equal(8, st[1].getCount(MPI.OBJECT), "status count in objects");
                    Check.equal(left, st[1].getSource(), "status source");
                }
                s.free();
                r.free();
            }
        } finally {
            MPI.detachBuffer();
        }
        // Open MPI spellings (offset 0): V sent, 8 plain objects received.
        Object[] src = values(rank, 10);
        Object[] got = filled(9);
        Prequest s = comm.sendInit(src, 2, vt, right, 6);
        Prequest r = comm.recvInit(got, 8, MPI.OBJECT, left, 6);
        Prequest.startAll(new Prequest[] {s, r});
        Request.waitAll(new Request[] {s, r});
        Object[] want = filled(9);
        land(want, left, v(0, 2), range(0, 8));
        Check.arrays(want, got, "sendInit V -> recvInit MPI.OBJECT");
        s.free();
        r.free();
        // Bad input when the request is made.
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send_init(src, 6, 1, vt, right, 6), "Send_init", "outside",
                "Object[10]");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.Recv_init(new int[20], 0, 1, xt, left, 6), "Recv_init",
                "Object[]", "int[]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.recvInit(new Object[4], 1, xt, left, 6), "recvInit", "element 4",
                "Object[4]");
        vt.free();
        xt.free();
        comm.barrier();
    }

    /** The same on ranks that are threads too (no attached buffer): standard sends, Open MPI waits. */
    @RankTest
    public void persistentAsThreads(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int right = (rank + 1) % size, left = (rank - 1 + size) % size;
        Datatype vt = vType(), xt = xType();
        Object[] send = values(rank, 12);
        Object[] recv = filled(13);
        Prequest r = comm.Recv_init(recv, 1, 2, xt, left, 3);
        Prequest s = comm.Send_init(send, 1, 2, vt, right, 3);
        for (int round = 0; round < 2; round++) {
            send[1] = "round" + round + "of" + rank;
            r.start();
            s.start();
            Request.waitAll(new Request[] {s, r});
            Object[] want = filled(13);
            land(want, left, v(1, 2), x(1, 2));
            want[x(1, 2)[0]] = "round" + round + "of" + left;
            Check.arrays(want, recv, "Send_init V -> Recv_init X, start " + round);
        }
        r.free();
        s.free();
        vt.free();
        xt.free();
        comm.barrier();
    }

    // ---- pack / unpack -------------------------------------------------------------------------

    /** A class that runs its own code when deserialized: the default filter refuses it. */
    static final class RunsCode implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
            in.defaultReadObject();
        }
    }

    /**
     * Pack (mpiJava, with offsets) and pack (Open MPI) of V and MPI.OBJECT one after the other,
     * unpacked here with X and MPI.OBJECT, and shipped as bytes to the right neighbour, which
     * unpacks them too; then the refusals.
     */
    @RankTest
    public void packAndUnpack(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int right = (rank + 1) % size, left = (rank - 1 + size) % size;
        Datatype vt = vType(), xt = xType();
        Object[] src = values(rank, 12);
        byte[] packed = new byte[4096];
        int p1 = comm.Pack(src, 1, 2, vt, packed, 3);
        int p2 = comm.pack(new Object[] {value(rank, 100), value(rank, 101), value(rank, 102)}, 3, MPI.OBJECT,
                packed, p1);
        Check.isTrue(p1 > 3 && p2 > p1, "pack advances the position");

        Object[] out = filled(14);
        Check.equal(p1, comm.Unpack(packed, 3, out, 2, 2, xt), "Unpack returns pack's position");
        Object[] want = filled(14);
        land(want, rank, v(1, 2), x(2, 2));
        Check.arrays(want, out, "Pack V -> Unpack X");
        Object[] three = filled(5);
        Check.equal(p2, comm.unpack(packed, p1, three, 4, MPI.OBJECT), "unpack returns pack's position");
        Object[] want3 = filled(5);
        land(want3, rank, range(100, 3), range(0, 3));
        Check.arrays(want3, three, "pack MPI.OBJECT -> unpack MPI.OBJECT (fewer objects than selected)");

        // The bytes travel to the right neighbour, which unpacks what its left neighbour packed.
        int[] len = new int[1];
        comm.Sendrecv(new int[] {p2}, 0, 1, MPI.INT, right, 7, len, 0, 1, MPI.INT, left, 7);
        byte[] got = new byte[len[0]];
        comm.Sendrecv(packed, 0, p2, MPI.BYTE, right, 8, got, 0, got.length, MPI.BYTE, left, 8);
        out = filled(14);
        int q = comm.Unpack(got, 3, out, 2, 2, xt);
        want = filled(14);
        land(want, left, v(1, 2), x(2, 2));
        Check.arrays(want, out, "unpacked at the receiver");
        three = filled(3);
        Check.equal(len[0], comm.Unpack(got, q, three, 0, 3, MPI.OBJECT), "position at the end");
        want3 = filled(3);
        land(want3, left, range(100, 3), range(0, 3));
        Check.arrays(want3, three, "plain objects unpacked at the receiver");

        // Refusals, each naming what is wrong.
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.packSize(2, vt), "packSize", "no fixed packed size");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.Pack_size(1, MPI.OBJECT), "Pack_size", "no fixed packed size");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Pack(src, 1, 2, vt, new byte[12], 0), "Pack", "outbuf",
                "byte[12]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Pack(src, 5, 2, vt, packed, 0), "Pack", "outside", "Object[12]");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.Pack(new int[12], 0, 1, vt, packed, 0), "Pack", "Object[]",
                "int[]");
        Check.throwsMpi(MPI.ERR_TRUNCATE, () -> comm.Unpack(packed, 3, filled(14), 2, 1, xt), "Unpack",
                "8 objects", "select 4");
        Check.throwsMpi(MPI.ERR_TRUNCATE, () -> comm.unpack(new byte[] {0, 0, 0, 9, 1, 2}, 0, filled(4), 1,
                MPI.OBJECT), "unpack", "claims 9 bytes");
        Check.throwsMpi(MPI.ERR_OTHER, () -> comm.unpack(new byte[] {0, 0, 0, 4, 1, 2, 3, 4}, 0, filled(4), 1,
                MPI.OBJECT), "unpack", "deserialize");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.Unpack(packed, 5000, filled(4), 0, 1, MPI.OBJECT), "position 5000");
        // The deserialization filter guards unpack as it guards receives.
        byte[] gadget = new byte[1024];
        int g = comm.pack(new Object[] {new RunsCode()}, 1, MPI.OBJECT, gadget, 0);
        Check.isTrue(g > 0, "a class with readObject packs");
        Check.throwsMpi(MPI.ERR_OTHER, () -> comm.unpack(gadget, 0, new Object[1], 1, MPI.OBJECT), "unpack",
                "RunsCode", "mpi4j.serialFilter");
        vt.free();
        xt.free();
        comm.barrier();
    }

    // ---- allToAllw -----------------------------------------------------------------------------

    /**
     * allToAllw with V (one item) for even peers and 4 plain objects for odd ones, at reversed
     * displacements (which count elements), received with X at element {@code 1 + 5 s}; then in
     * place, and the non-blocking form.
     */
    @RankTest
    public void allToAllwOfObjects(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Datatype vt = vType(), xt = xType();
        Datatype[] st = new Datatype[size], rt = new Datatype[size];
        int[] sc = new int[size], sd = new int[size], rc = ones(size), rd = new int[size];
        for (int i = 0; i < size; i++) {
            st[i] = i % 2 == 0 ? vt : MPI.OBJECT;
            sc[i] = i % 2 == 0 ? 1 : 4;
            sd[i] = (size - 1 - i) * EXTENT;
            rt[i] = xt;
            rd[i] = 1 + i * EXTENT;
        }
        int len = size * EXTENT + 2;
        for (int form = 0; form < 2; form++) {
            Object[] recv = filled(len);
            if (form == 0) {
                comm.allToAllw(values(rank, size * EXTENT), sc, sd, st, recv, rc, rd, rt);
            } else {
                comm.iAllToAllw(values(rank, size * EXTENT), sc, sd, st, recv, rc, rd, rt).waitFor();
            }
            Object[] want = filled(len);
            for (int s = 0; s < size; s++) {
                int d = (size - 1 - rank) * EXTENT; // where sender s keeps the block for this rank
                land(want, s, rank % 2 == 0 ? v(d, 1) : range(d, 4), x(1 + s * EXTENT, 1));
            }
            Check.arrays(want, recv, form == 0 ? "allToAllw" : "iAllToAllw");
        }
        // In place: block i of recvbuf (X at 1 + 5i) goes to rank i; what arrives replaces it.
        Object[] buf = values(rank, len);
        comm.allToAllw(MPI.IN_PLACE, null, null, null, buf, rc, rd, rt);
        Object[] want = values(rank, len);
        for (int s = 0; s < size; s++) land(want, s, x(1 + rank * EXTENT, 1), x(1 + s * EXTENT, 1));
        Check.arrays(want, buf, "allToAllw in place");
        // Objects and bytes cannot share one call; selections must fit.
        Datatype[] mixed = st.clone();
        mixed[0] = MPI.INT;
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.allToAllw(values(rank, size * EXTENT), sc, sd, mixed, filled(len),
                rc, rd, rt), "allToAllw", "sendtypes[0]", "objects and byte data");
        int[] far = rd.clone();
        far[size - 1] = len;
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.allToAllw(values(rank, size * EXTENT), sc, sd, st, filled(len),
                rc, far, rt), "allToAllw", "recvbuf", "outside");
        vt.free();
        xt.free();
        comm.barrier();
    }

    // ---- neighbour collectives -----------------------------------------------------------------

    /**
     * The neighbour collectives on a line (sources and destinations: left, then right) without and
     * with wrap-around; without it the end processes' missing neighbours are MPI.PROC_NULL and
     * their blocks stay untouched.
     */
    @RankTest
    public void neighbourCollectives(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Datatype vt = vType(), xt = xType();
        for (boolean periodic : new boolean[] {false, true}) {
            CartComm line = comm.createCart(new int[] {size}, new boolean[] {periodic}, false);
            int me = line.getRank(); // the same as rank: no reordering
            int left = me > 0 ? me - 1 : periodic ? size - 1 : -1;
            int right = me < size - 1 ? me + 1 : periodic ? 0 : -1;
            String how = periodic ? " (periodic)" : " (ends at MPI.PROC_NULL)";
            Object[] src = values(me, 10);

            Object[] recv = filled(21);
            line.neighborAllGather(src, 2, vt, recv, 2, xt);
            Object[] want = filled(21);
            if (left >= 0) land(want, left, v(0, 2), x(0, 2));
            if (right >= 0) land(want, right, v(0, 2), x(10, 2));
            Check.arrays(want, recv, "neighborAllGather V -> X" + how);

            recv = filled(16);
            line.neighborAllGatherv(src, 1, vt, recv, ones(2), new int[] {2, 0}, xt);
            want = filled(16);
            if (left >= 0) land(want, left, v(0, 1), x(10, 1));
            if (right >= 0) land(want, right, v(0, 1), x(0, 1));
            Check.arrays(want, recv, "neighborAllGatherv V -> X, reversed" + how);

            recv = filled(10);
            line.iNeighborAllToAll(src, 1, vt, recv, 1, xt).waitFor();
            want = filled(10);
            if (left >= 0) land(want, left, v(5, 1), x(0, 1)); // the left one's block for its right
            if (right >= 0) land(want, right, v(0, 1), x(5, 1));
            Check.arrays(want, recv, "iNeighborAllToAll V -> X" + how);

            recv = filled(15);
            line.neighborAllToAllv(src, ones(2), new int[] {1, 0}, vt, recv, ones(2), new int[] {0, 2}, xt);
            want = filled(15);
            if (left >= 0) land(want, left, v(0, 1), x(0, 1));
            if (right >= 0) land(want, right, v(5, 1), x(10, 1));
            Check.arrays(want, recv, "neighborAllToAllv V -> X" + how);

            Object[] plain = filled(5);
            line.neighborAllGather(new Object[] {value(me, 0), value(me, 1)}, 2, MPI.OBJECT, plain, 2, MPI.OBJECT);
            want = filled(5);
            if (left >= 0) land(want, left, range(0, 2), range(0, 2));
            if (right >= 0) land(want, right, range(0, 2), range(2, 2));
            Check.arrays(want, plain, "neighborAllGather MPI.OBJECT" + how);

            // Bad input at every process: each throws its own, naming the argument.
            Check.throwsMpi(MPI.ERR_BUFFER, () -> line.neighborAllToAll(src, 1, vt, filled(9), 1, xt),
                    "neighborAllToAll", "recvbuf", "outside");
            Check.throwsMpi(MPI.ERR_TYPE, () -> line.neighborAllGather(new int[10], 1, vt, filled(10), 1, xt),
                    "neighborAllGather", "Object[]", "int[]");
            line.free();
        }
        vt.free();
        xt.free();
        comm.barrier();
    }

    /**
     * A directed graph (each rank sends to the next two, so sources and destinations differ):
     * neighborAllToAll of V blocks received as X, block j from source j being that source's block j.
     */
    @RankTest
    public void neighbourGraph(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Datatype vt = vType(), xt = xType();
        int[] dst = {(rank + 1) % size, (rank + 2) % size};
        int[] src = {(rank - 1 + size) % size, (rank - 2 + 2 * size) % size};
        mpi.GraphComm g = comm.createDistGraphAdjacent(src, dst, new mpi.Info(), false);
        Object[] recv = filled(11);
        g.neighborAllToAll(values(rank, 10), 1, vt, recv, 4, MPI.OBJECT);
        Object[] want = filled(11);
        for (int j = 0; j < 2; j++) land(want, src[j], v(j * EXTENT, 1), range(j * 4, 4));
        Check.arrays(want, recv, "neighborAllToAll V -> MPI.OBJECT on a directed graph");
        recv = filled(12);
        g.neighborAllGatherv(values(rank, 5), 1, vt, recv, ones(2), new int[] {1, 0}, xt);
        want = filled(12);
        for (int j = 0; j < 2; j++) land(want, src[j], v(0, 1), x((1 - j) * EXTENT, 1));
        Check.arrays(want, recv, "neighborAllGatherv V -> X on a directed graph");
        g.free();
        vt.free();
        xt.free();
        comm.barrier();
    }

    // ---- intercommunicators --------------------------------------------------------------------

    /** {@code in op inout} for strings: "a|b", so the order of the ranks shows. */
    static String joined(int[] ranks, int i) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < ranks.length; k++) {
            if (k > 0) b.append('|');
            b.append(value(ranks[k], i));
        }
        return b.toString();
    }

    /**
     * The collectives of an intercommunicator between the even and the odd ranks, rooted ones with
     * each group's first rank as root in turn (the other ranks of its group pass MPI.PROC_NULL,
     * and an object type too, which is how they take part in the object exchange).
     */
    @RankTest(minSize = 2)
    public void intercommCollectives(Intracomm comm) {
        InterSuite.Halves h = new InterSuite.Halves(comm);
        Intercomm ic = h.inter;
        int me = h.localRank(), remote = h.remoteSize;
        Datatype vt = vType(), xt = xType();
        int[] remoteRanks = new int[remote];
        for (int r = 0; r < remote; r++) remoteRanks[r] = h.remoteCommRank(r);
        Op concat = new Op(new ObjectCollectiveSuite.Concat(), false);
        for (int rootColor = 0; rootColor < 2; rootColor++) {
            boolean rootGroup = h.color == rootColor;
            int arg = rootGroup ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
            int rootRank = InterSuite.Halves.commRank(rootColor, 0);
            String tag = " (root in group " + rootColor + ")";

            // bcast: V at the root, X at the receivers.
            Object[] b = arg == MPI.ROOT ? values(h.rank, 10) : filled(11);
            ic.bcast(arg == MPI.PROC_NULL ? null : b, 2, arg == MPI.ROOT ? vt : xt, arg);
            if (arg >= 0) {
                Object[] want = filled(11);
                land(want, rootRank, v(0, 2), x(0, 2));
                Check.arrays(want, b, "bcast" + tag);
            }

            // gather and gatherv: one V from each rank of the other group.
            Object[] g = filled(remote * EXTENT + 1);
            ic.gather(values(h.rank, 5), 1, vt, arg == MPI.ROOT ? g : null, 1, xt, arg);
            Object[] gv = filled(remote * EXTENT);
            int[] d = reversed(remote);
            ic.gatherv(values(h.rank, 5), 1, vt, arg == MPI.ROOT ? gv : null, ones(remote), d, xt, arg);
            if (arg == MPI.ROOT) {
                Object[] want = filled(remote * EXTENT + 1);
                for (int r = 0; r < remote; r++) land(want, remoteRanks[r], v(0, 1), x(r * EXTENT, 1));
                Check.arrays(want, g, "gather" + tag);
                want = filled(remote * EXTENT);
                for (int r = 0; r < remote; r++) land(want, remoteRanks[r], v(0, 1), x(d[r] * EXTENT, 1));
                Check.arrays(want, gv, "gatherv" + tag);
            }

            // scatter and scatterv: the root's block r (V) to rank r of the other group (X).
            Object[] sc = filled(6);
            ic.scatter(arg == MPI.ROOT ? values(h.rank, remote * EXTENT) : null, 1, vt, sc, 1, xt, arg);
            Object[] scv = filled(5);
            ic.scatterv(arg == MPI.ROOT ? values(h.rank, remote * EXTENT) : null, ones(remote), d, vt, scv, 1, xt,
                    arg);
            if (arg >= 0) {
                Object[] want = filled(6);
                land(want, rootRank, v(me * EXTENT, 1), x(0, 1));
                Check.arrays(want, sc, "scatter" + tag);
                want = filled(5);
                int myD = h.localSize - 1 - me; // the root's displacement for this rank
                land(want, rootRank, v(myD * EXTENT, 1), x(0, 1));
                Check.arrays(want, scv, "scatterv" + tag);
            }

            // reduce with a non-commutative user op: the other group's parts in rank order.
            Object[] red = filled(6);
            ic.reduce(arg >= 0 ? values(h.rank, 5) : null, arg == MPI.ROOT ? red : null, 1,
                    arg == MPI.ROOT ? xt : vt, concat, arg);
            if (arg == MPI.ROOT) {
                Object[] want = filled(6);
                int[] from = v(0, 1), to = x(0, 1);
                for (int m = 0; m < to.length; m++) want[to[m]] = joined(remoteRanks, from[m]);
                Check.arrays(want, red, "reduce" + tag);
            }
        }

        // allGather(v), allToAll(v): every rank with every rank of the other group.
        Object[] ag = filled(remote * EXTENT);
        ic.allGather(values(h.rank, 5), 1, vt, ag, 1, xt);
        Object[] want = filled(remote * EXTENT);
        for (int r = 0; r < remote; r++) land(want, remoteRanks[r], v(0, 1), x(r * EXTENT, 1));
        Check.arrays(want, ag, "allGather");
        int[] d = reversed(remote);
        Object[] agv = filled(remote * EXTENT + 2);
        ic.iAllGatherv(values(h.rank, 5), 1, vt, agv, ones(remote), d, xt).waitFor();
        want = filled(remote * EXTENT + 2);
        for (int r = 0; r < remote; r++) land(want, remoteRanks[r], v(0, 1), x(d[r] * EXTENT, 1));
        Check.arrays(want, agv, "iAllGatherv");

        Object[] a2a = filled(remote * EXTENT);
        ic.allToAll(values(h.rank, remote * EXTENT), 1, vt, a2a, 1, xt);
        want = filled(remote * EXTENT);
        for (int r = 0; r < remote; r++) land(want, remoteRanks[r], v(me * EXTENT, 1), x(r * EXTENT, 1));
        Check.arrays(want, a2a, "allToAll");
        Object[] a2av = filled(remote * EXTENT);
        ic.allToAllv(values(h.rank, remote * EXTENT), ones(remote), d, vt, a2av, ones(remote), d, xt);
        want = filled(remote * EXTENT);
        int theirs = h.localSize - 1 - me; // where each remote rank keeps its block for this rank
        for (int r = 0; r < remote; r++) land(want, remoteRanks[r], v(theirs * EXTENT, 1), x(d[r] * EXTENT, 1));
        Check.arrays(want, a2av, "allToAllv");

        // allReduce, reduceScatter(Block): the other group's parts combined in rank order.
        Object[] ar = filled(6);
        ic.allReduce(values(h.rank, 5), ar, 1, vt, concat);
        want = filled(6);
        int[] from = v(0, 1), to = v(0, 1); // one datatype: V on both sides
        for (int m = 0; m < to.length; m++) want[to[m]] = joined(remoteRanks, from[m]);
        Check.arrays(want, ar, "allReduce");

        int total = 3; // items of V, the same in both groups; split over this group's ranks
        int[] counts = new int[h.localSize];
        for (int i = 0; i < h.localSize; i++) counts[i] = total / h.localSize + (i < total % h.localSize ? 1 : 0);
        int before = 0;
        for (int i = 0; i < me; i++) before += counts[i];
        Object[] rs = filled(counts[me] * EXTENT + 1);
        ic.reduceScatter(values(h.rank, total * EXTENT), rs, counts, vt, concat);
        want = filled(counts[me] * EXTENT + 1);
        from = v(before * EXTENT, counts[me]);
        to = v(0, counts[me]);
        for (int m = 0; m < to.length; m++) want[to[m]] = joined(remoteRanks, from[m]);
        Check.arrays(want, rs, "reduceScatter");
        if (h.localSize == h.remoteSize) { // the groups' totals must agree
            Object[] rsb = filled(EXTENT);
            ic.reduceScatterBlock(values(h.rank, h.localSize * EXTENT), rsb, 1, vt, concat);
            want = filled(EXTENT);
            from = v(me * EXTENT, 1);
            to = v(0, 1);
            for (int m = 0; m < to.length; m++) want[to[m]] = joined(remoteRanks, from[m]);
            Check.arrays(want, rsb, "reduceScatterBlock");
        }

        // Bad input at every rank: each throws its own, and the intercommunicator still works.
        Check.throwsMpi(MPI.ERR_BUFFER, () -> ic.allGather(values(h.rank, 5), 1, vt, filled(remote * EXTENT - 1), 1,
                xt), "allGather", "recvbuf", "outside");
        Check.throwsMpi(MPI.ERR_TYPE, () -> ic.allToAll(new int[remote * EXTENT], 1, vt, filled(remote * EXTENT), 1,
                xt), "allToAll", "Object[]", "int[]");
        Check.throwsMpi(MPI.ERR_OP, () -> ic.allReduce(values(h.rank, 5), filled(5), 1, vt, MPI.SUM), "allReduce");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> ic.allGather(MPI.IN_PLACE, 1, vt, filled(remote * EXTENT), 1, xt),
                "allGather", "IN_PLACE");
        Object[] again = filled(remote);
        ic.allGather(new Object[] {value(h.rank, 9)}, 1, MPI.OBJECT, again, 1, MPI.OBJECT);
        want = new Object[remote];
        for (int r = 0; r < remote; r++) want[r] = value(remoteRanks[r], 9);
        Check.arrays(want, again, "allGather of plain objects after the errors");
        concat.free();
        vt.free();
        xt.free();
        h.free();
        comm.barrier();
    }

    // ---- a part that cannot be serialized ------------------------------------------------------

    /**
     * Comm rank 0 (the first rank of the even group) holds an object that is not serializable in
     * what it sends: it throws its own cause; the ranks that expected its part throw an exception
     * naming it; every other rank completes with the right data; nobody waits for a deadline, and
     * the intercommunicator works afterwards.
     */
    @RankTest(minSize = 2)
    public void intercommPartCannotBeSerialized(Intracomm comm) {
        InterSuite.Halves h = new InterSuite.Halves(comm);
        Intercomm ic = h.inter;
        int remote = h.remoteSize;
        Datatype vt = vType(), xt = xType();
        int[] remoteRanks = new int[remote];
        for (int r = 0; r < remote; r++) remoteRanks[r] = h.remoteCommRank(r);
        Object[] mine = values(h.rank, 5);
        if (h.rank == 0) mine[3] = new Object(); // selected by V (element 3); element 2, a hole, would not matter

        Object[] ag = filled(remote * EXTENT);
        Runnable allGather = () -> ic.allGather(mine, 1, vt, ag, 1, xt);
        if (h.rank == 0) {
            Check.throwsMpi(MPI.ERR_OTHER, allGather, "allGather", "cannot serialize", "java.lang.Object");
        } else if (h.color == 1) {
            Check.throwsMpi(MPI.ERR_OTHER, allGather, "allGather", "rank 0 of the remote group", "could not send");
            Check.arrays(filled(remote * EXTENT), ag, "nothing stored when a part failed");
        } else {
            allGather.run();
            Object[] want = filled(remote * EXTENT);
            for (int r = 0; r < remote; r++) land(want, remoteRanks[r], v(0, 1), x(r * EXTENT, 1));
            Check.arrays(want, ag, "allGather from the group whose parts are fine");
        }

        // gather at the odd group's first rank: the even ranks send, comm rank 0's part fails.
        int arg = h.color == 1 ? (h.localRank() == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
        Object[] g = filled(remote * EXTENT);
        Runnable gather = () -> ic.gather(mine, 1, vt, arg == MPI.ROOT ? g : null, 1, xt, arg);
        if (h.rank == 0) {
            Check.throwsMpi(MPI.ERR_OTHER, gather, "gather", "cannot serialize");
        } else if (arg == MPI.ROOT) {
            Check.throwsMpi(MPI.ERR_OTHER, gather, "gather", "rank 0 of the remote group", "could not send");
            Check.arrays(filled(remote * EXTENT), g, "the root stores nothing when a part failed");
        } else {
            gather.run();
        }

        // Still usable.
        Object[] again = filled(remote);
        ic.allGather(new Object[] {value(h.rank, 9)}, 1, MPI.OBJECT, again, 1, MPI.OBJECT);
        Object[] want = new Object[remote];
        for (int r = 0; r < remote; r++) want[r] = value(remoteRanks[r], 9);
        Check.arrays(want, again, "allGather after the failed parts");
        vt.free();
        xt.free();
        h.free();
        comm.barrier();
    }

    /**
     * On a line, process 0 cannot serialize what it sends: it throws its cause, its right
     * neighbour throws an exception naming source 0 (or, on the fabric, the notice that rank 0
     * failed its part of the call), and the line works afterwards.
     */
    @RankTest(minSize = 2)
    public void neighbourPartCannotBeSerialized(Intracomm comm) {
        int size = comm.getSize();
        Datatype vt = vType(), xt = xType();
        CartComm line = comm.createCart(new int[] {size}, new boolean[] {false}, false);
        int me = line.getRank();
        Object[] src = values(me, 5);
        if (me == 0) src[0] = new Object();
        Object[] recv = filled(10);
        Runnable call = () -> line.neighborAllGather(src, 1, vt, recv, 1, xt);
        if (me == 0) {
            Check.throwsMpi(MPI.ERR_OTHER, call, "neighborAllGather", "cannot serialize");
        } else {
            boolean threw = false;
            try {
                call.run();
            } catch (mpi.MPIException e) {
                threw = true;
                Check.isTrue(e.getMessage().contains("source 0 of this process could not send")
                        || e.getMessage().contains("rank 0"), () -> "names the failed process: " + e.getMessage());
            }
            if (me == 1) {
                Check.isTrue(threw, "the right neighbour of process 0 throws");
            } else if (!threw) {
                Object[] want = filled(10);
                land(want, me - 1, v(0, 1), x(0, 1));
                if (me + 1 < size) land(want, me + 1, v(0, 1), x(5, 1));
                Check.arrays(want, recv, "processes away from process 0 complete");
            }
        }
        comm.barrier();
        Object[] plain = filled(2);
        line.neighborAllGather(new Object[] {value(me, 0)}, 1, MPI.OBJECT, plain, 1, MPI.OBJECT);
        Object[] want = filled(2);
        if (me > 0) want[0] = value(me - 1, 0);
        if (me + 1 < size) want[1] = value(me + 1, 0);
        Check.arrays(want, plain, "the line works afterwards");
        line.free();
        vt.free();
        xt.free();
        comm.barrier();
    }

    // ---- still refused -------------------------------------------------------------------------

    /** Windows have no MPI.OBJECT in either API family: refused with a clear message, nothing moves. */
    @RankTest
    public void windowsRefuseObjects(Intracomm comm) {
        Datatype vt = vType();
        java.nio.IntBuffer local = MPI.newIntBuffer(4);
        mpi.Win win = new mpi.Win(local, 4, 4, MPI.INFO_NULL, comm);
        win.fence(0);
        Check.throwsMpi(MPI.ERR_TYPE, () -> win.put(MPI.newIntBuffer(10), 1, vt, comm.getRank(), 0, 1, vt), "put",
                "MPI.OBJECT", "windows");
        Check.throwsMpi(MPI.ERR_TYPE, () -> win.get(MPI.newIntBuffer(10), 1, MPI.OBJECT, comm.getRank(), 0, 1,
                MPI.OBJECT), "get", "OBJECT");
        win.fence(MPI.MODE_NOSUCCEED);
        win.free();
        vt.free();
        comm.barrier();
    }
}
