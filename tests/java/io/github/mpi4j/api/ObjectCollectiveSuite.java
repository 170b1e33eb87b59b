package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Op;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import mpi.UserFunction;
import mpi.User_function;

/**
 * MPI.OBJECT wherever mpiJava 1.2 / MPJ Express allow it (issue 10 item 8): the v-collectives,
 * scans and reduce-scatters with user ops, every form of reduce/allReduce, in-place and offset
 * forms, persistent requests, and non-blocking receives completed through
 * Testall/Testsome/Waitsome/Waitany. Every value is computed from ranks and checked against a
 * reference computed here sequentially; bad input and failing objects throw on every rank that
 * must know, and the communicator stays usable.
 */
public class ObjectCollectiveSuite {

    /** A small record of who made it. */
    static final class Item implements Serializable {
        private static final long serialVersionUID = 1L;
        final int rank;
        final int index;
        final String label;
        final int[] payload;

        Item(int rank, int index) {
            this.rank = rank;
            this.index = index;
            this.label = "r" + rank + "i" + index;
            this.payload = new int[] {rank, index, rank * 1000 + index};
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Item)) return false;
            Item i = (Item) o;
            return rank == i.rank && index == i.index && label.equals(i.label) && Arrays.equals(payload, i.payload);
        }

        @Override
        public int hashCode() {
            return Objects.hash(rank, index, label);
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** Mutable, reduced by adding in place, as the complexNum of mpiJava's ObjSer tests. */
    static final class Complex implements Serializable {
        private static final long serialVersionUID = 1L;
        double re;
        double im;

        Complex(double re, double im) {
            this.re = re;
            this.im = im;
        }
    }

    /** Runs code when deserialized: mpi4j's default filter refuses it. */
    static final class Scripted implements Serializable {
        private static final long serialVersionUID = 1L;

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
        }
    }

    /** mpiJava style, non-commutative: {@code inout = in + "|" + inout}. */
    static final class Concat extends User_function {
        @Override
        public void Call(Object in, int inOff, Object inout, int inoutOff, int count, Datatype type) {
            Object[] a = (Object[]) in, b = (Object[]) inout;
            for (int i = 0; i < count; i++) b[inoutOff + i] = a[inOff + i] + "|" + b[inoutOff + i];
        }
    }

    /** Open MPI style, adds complex numbers into the inout objects (mutates them). */
    static final class ComplexAdd extends UserFunction {
        @Override
        public void call(Object in, Object inout, int count, Datatype type) {
            Object[] a = (Object[]) in, b = (Object[]) inout;
            for (int i = 0; i < count; i++) {
                ((Complex) b[i]).re += ((Complex) a[i]).re;
                ((Complex) b[i]).im += ((Complex) a[i]).im;
            }
        }
    }

    private static Item[] items(int rank, int n) {
        Item[] a = new Item[n];
        for (int i = 0; i < n; i++) a[i] = new Item(rank, i);
        return a;
    }

    /** "x0|x1|...|xk": the rank-ordered concatenation of {@code prefix + r + "_" + i} for r in [from, to]. */
    private static String chain(String prefix, int from, int to, int i) {
        StringBuilder b = new StringBuilder();
        for (int r = from; r <= to; r++) {
            if (r > from) b.append('|');
            b.append(prefix).append(r).append('_').append(i);
        }
        return b.toString();
    }

    private static final String UNTOUCHED = "untouched";

    private static Object[] filled(int n) {
        Object[] a = new Object[n];
        Arrays.fill(a, UNTOUCHED);
        return a;
    }

    // ---- v-collectives --------------------------------------------------------------------------

    /**
     * Gatherv, mpiJava style with offsets: rank r sends r % 3 + 1 items from offset 2, the root
     * (last rank) places them at displacements with gaps, which must stay untouched. Then the
     * Open MPI forms: separate buffers, and in place at the root.
     */
    @RankTest
    public void gathervObjects(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), root = size - 1;
        int[] counts = new int[size], displs = new int[size];
        int span = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r % 3 + 1;
            displs[r] = span + 1; // one untouched slot before each block
            span = displs[r] + counts[r];
        }
        Object[] send = new Object[2 + counts[rank]];
        System.arraycopy(items(rank, counts[rank]), 0, send, 2, counts[rank]);
        Object[] recv = filled(3 + span);
        comm.Gatherv(send, 2, counts[rank], MPI.OBJECT, recv, 3, counts, displs, MPI.OBJECT, root);
        if (rank == root) {
            Object[] want = filled(3 + span);
            for (int r = 0; r < size; r++) System.arraycopy(items(r, counts[r]), 0, want, 3 + displs[r], counts[r]);
            Check.arrays(want, recv, "Gatherv with offsets");
        } else {
            Check.arrays(filled(3 + span), recv, "Gatherv: a non-root's recvbuf is not written");
        }

        // Open MPI style, root 0, nested arrays; then in place at the root.
        Object[] mine = {new int[][] {{rank}, {rank, rank * rank}}, "s" + rank};
        int[] twos = new int[size], at = new int[size];
        for (int r = 0; r < size; r++) {
            twos[r] = 2;
            at[r] = 2 * (size - 1 - r); // reversed order
        }
        Object[] all = new Object[2 * size];
        comm.gatherv(mine, 2, MPI.OBJECT, all, twos, at, MPI.OBJECT, 0);
        if (rank == 0) {
            for (int r = 0; r < size; r++) {
                Check.isTrue(Arrays.deepEquals(new int[][] {{r}, {r, r * r}}, (Object[]) all[at[r]]),
                        "gatherv nested array of rank " + r);
                Check.equal("s" + r, all[at[r] + 1], "gatherv string of rank " + r);
            }
        }
        Object[] inPlace = filled(2 * size);
        if (rank == 0) {
            inPlace[at[0]] = "kept";
            inPlace[at[0] + 1] = "kept too";
            comm.gatherv(inPlace, twos, at, MPI.OBJECT, 0);
            for (int r = 1; r < size; r++) Check.equal("s" + r, inPlace[at[r] + 1], "in-place gatherv of rank " + r);
            Check.equal("kept", inPlace[at[0]], "in-place gatherv leaves the root's part");
            Check.equal("kept too", inPlace[at[0] + 1], "in-place gatherv leaves the root's part");
        } else {
            comm.gatherv(mine, 2, MPI.OBJECT, 0);
        }
        // Gather in place at the root (the uniform form shares the code).
        Object[] g = new Object[size];
        g[rank] = "own";
        if (rank == root) comm.gather(g, 1, MPI.OBJECT, root);
        else comm.gather(new Object[] {"g" + rank}, 1, MPI.OBJECT, root);
        if (rank == root) {
            for (int r = 0; r < size; r++) Check.equal(r == root ? "own" : "g" + r, g[r], "in-place gather " + r);
        }
    }

    /** Scatterv with counts 0..2 (zero counts included), offsets, and in place at the root. */
    @RankTest
    public void scattervObjects(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), root = size / 2;
        int[] counts = new int[size], displs = new int[size];
        int span = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = (r + 1) % 3;
            displs[r] = span;
            span += counts[r] + 1;
        }
        Object[] send = null;
        if (rank == root) {
            send = filled(1 + span);
            for (int r = 0; r < size; r++) System.arraycopy(items(r, counts[r]), 0, send, 1 + displs[r], counts[r]);
        }
        Object[] recv = filled(counts[rank] + 2);
        comm.Scatterv(send, 1, counts, displs, MPI.OBJECT, recv, 1, counts[rank], MPI.OBJECT, root);
        Object[] want = filled(counts[rank] + 2);
        System.arraycopy(items(rank, counts[rank]), 0, want, 1, counts[rank]);
        Check.arrays(want, recv, "Scatterv with offsets");

        // In place at the root (Open MPI form without recvbuf); the root's block stays as it is.
        if (rank == root) {
            Object[] src = filled(span);
            for (int r = 0; r < size; r++) {
                System.arraycopy(items(r + 100, counts[r]), 0, src, displs[r], counts[r]);
            }
            Object[] before = src.clone();
            comm.scatterv(src, counts, displs, MPI.OBJECT, root);
            Check.arrays(before, src, "in-place scatterv leaves the root's buffer");
        } else {
            Object[] r = new Object[counts[rank]];
            comm.scatterv(r, counts[rank], MPI.OBJECT, root);
            Check.arrays(items(rank + 100, counts[rank]), r, "scatterv to a non-root");
        }
        // Scatter in place at the root.
        Object[] s = new Object[size];
        for (int r = 0; r < size; r++) s[r] = r == root ? "mine" : "to" + r;
        Object[] one = new Object[1];
        if (rank == root) {
            comm.scatter(s, 1, MPI.OBJECT, root);
            Check.equal("mine", s[root], "in-place scatter");
        } else {
            comm.scatter(one, 1, MPI.OBJECT, root);
            Check.equal("to" + rank, one[0], "scatter in place at the root, received");
        }
    }

    /** Allgatherv: rank r contributes r % 4 items (some ranks none); also in place and non-blocking. */
    @RankTest
    public void allGathervObjects(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int[] counts = new int[size], displs = new int[size];
        int span = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r % 4;
            displs[r] = span;
            span += counts[r];
        }
        Object[] want = new Object[span];
        for (int r = 0; r < size; r++) System.arraycopy(items(r, counts[r]), 0, want, displs[r], counts[r]);
        Object[] send = new Object[1 + counts[rank]];
        System.arraycopy(items(rank, counts[rank]), 0, send, 1, counts[rank]);
        Object[] recv = new Object[span + 1];
        comm.Allgatherv(send, 1, counts[rank], MPI.OBJECT, recv, 1, counts, displs, MPI.OBJECT);
        Check.arrays(want, Arrays.copyOfRange(recv, 1, span + 1), "Allgatherv with offsets");

        Object[] inPlace = new Object[span];
        System.arraycopy(items(rank, counts[rank]), 0, inPlace, displs[rank], counts[rank]);
        comm.allGatherv(inPlace, counts, displs, MPI.OBJECT);
        Check.arrays(want, inPlace, "in-place allGatherv");

        Object[] nb = new Object[span];
        Request req = comm.iAllGatherv(items(rank, counts[rank]), counts[rank], MPI.OBJECT, nb, counts, displs,
                MPI.OBJECT);
        req.waitFor();
        Check.arrays(want, nb, "iAllGatherv");
    }

    /** Alltoallv: rank s sends (s + d) % 3 items to rank d, each naming source and destination; also in place. */
    @RankTest
    public void allToAllvObjects(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int[] sc = new int[size], sd = new int[size], rc = new int[size], rd = new int[size];
        int sSpan = 0, rSpan = 0;
        for (int r = 0; r < size; r++) {
            sc[r] = (rank + r) % 3;
            rc[r] = (r + rank) % 3;
        }
        for (int r = size - 1; r >= 0; r--) { // blocks in reverse rank order
            sd[r] = sSpan;
            sSpan += sc[r];
            rd[r] = rSpan;
            rSpan += rc[r];
        }
        Object[] send = new Object[2 + sSpan];
        for (int d = 0; d < size; d++) {
            for (int k = 0; k < sc[d]; k++) send[2 + sd[d] + k] = rank + "->" + d + "#" + k;
        }
        Object[] recv = new Object[rSpan];
        comm.Alltoallv(send, 2, sc, sd, MPI.OBJECT, recv, 0, rc, rd, MPI.OBJECT);
        for (int s = 0; s < size; s++) {
            for (int k = 0; k < rc[s]; k++) Check.equal(s + "->" + rank + "#" + k, recv[rd[s] + k], "Alltoallv");
        }
        // In place: what is sent is read from recvbuf with the receive counts (symmetric here).
        Object[] buf = new Object[rSpan];
        for (int d = 0; d < size; d++) {
            for (int k = 0; k < rc[d]; k++) buf[rd[d] + k] = rank + "=>" + d + "#" + k;
        }
        comm.allToAllv(MPI.IN_PLACE, null, null, MPI.OBJECT, buf, rc, rd, MPI.OBJECT);
        for (int s = 0; s < size; s++) {
            for (int k = 0; k < rc[s]; k++) Check.equal(s + "=>" + rank + "#" + k, buf[rd[s] + k], "in-place allToAllv");
        }
    }

    // ---- reductions with user ops -----------------------------------------------------------------

    /** Scan and Exscan with a non-commutative op, with offsets, in place and non-blocking. */
    @RankTest
    public void scanObjects(Intracomm comm) {
        int rank = comm.getRank();
        Op concat = new Op(new Concat(), false);
        Object[] send = {"pad", "a" + rank + "_0", "a" + rank + "_1"};
        Object[] recv = filled(4);
        comm.Scan(send, 1, recv, 2, 2, MPI.OBJECT, concat);
        Check.arrays(new Object[] {UNTOUCHED, UNTOUCHED, chain("a", 0, rank, 0), chain("a", 0, rank, 1)}, recv,
                "Scan with offsets");

        Object[] ex = filled(2);
        comm.Exscan(send, 1, ex, 0, 2, MPI.OBJECT, concat);
        if (rank == 0) Check.arrays(filled(2), ex, "Exscan leaves rank 0's recvbuf");
        else Check.arrays(new Object[] {chain("a", 0, rank - 1, 0), chain("a", 0, rank - 1, 1)}, ex, "Exscan");

        Object[] inPlace = {"a" + rank + "_0"};
        comm.scan(inPlace, 1, MPI.OBJECT, concat);
        Check.equal(chain("a", 0, rank, 0), inPlace[0], "in-place scan");

        Object[] nb = new Object[1];
        comm.iExScan(new Object[] {"a" + rank + "_0"}, nb, 1, MPI.OBJECT, concat).waitFor();
        if (rank > 0) Check.equal(chain("a", 0, rank - 1, 0), nb[0], "iExScan");

        // A mutating op, as mpiJava's scanO: Complex(i, -i) summed over ranks 0..rank.
        Op add = new Op(new ComplexAdd(), true);
        Object[] c = new Object[3];
        for (int i = 0; i < 3; i++) c[i] = new Complex(i + rank, -i);
        Object[] out = new Object[3];
        comm.scan(c, out, 3, MPI.OBJECT, add);
        for (int i = 0; i < 3; i++) {
            Check.near(i * (rank + 1) + rank * (rank + 1) / 2.0, ((Complex) out[i]).re, 0, "complex scan re");
            Check.near(-i * (rank + 1), ((Complex) out[i]).im, 0, "complex scan im");
            Check.near(i + rank, ((Complex) c[i]).re, 0, "the send buffer's objects are not changed");
        }
        concat.free();
        add.free();
    }

    /**
     * Reduce_scatter with varying counts (the mutating op of mpiJava's reduce_scatterO) and a
     * non-commutative op, Reduce_scatter_block, and the in-place forms.
     */
    @RankTest
    public void reduceScatterObjects(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int[] counts = new int[size];
        int total = 0, first = 0;
        for (int r = 0; r < size; r++) {
            counts[r] = r % 2 + 1;
            if (r < rank) first += counts[r];
            total += counts[r];
        }
        Op add = new Op(new ComplexAdd(), false);
        Object[] out = new Object[1 + total];
        for (int i = 0; i < total; i++) out[1 + i] = new Complex(i + rank, rank);
        Object[] in = new Object[counts[rank] + 1];
        comm.Reduce_scatter(out, 1, in, 1, counts, MPI.OBJECT, add);
        for (int k = 0; k < counts[rank]; k++) {
            int i = first + k;
            Check.near((double) size * i + size * (size - 1) / 2.0, ((Complex) in[1 + k]).re, 0, "Reduce_scatter re");
            Check.near(size * (size - 1) / 2.0, ((Complex) in[1 + k]).im, 0, "Reduce_scatter im");
        }
        Check.isTrue(in[0] == null, "Reduce_scatter writes nothing before recvoffset");

        Op concat = new Op(new Concat(), false);
        Object[] strs = new Object[total];
        for (int i = 0; i < total; i++) strs[i] = "a" + rank + "_" + i;
        comm.reduceScatter(strs, counts, MPI.OBJECT, concat); // in place: result at the start
        for (int k = 0; k < counts[rank]; k++) {
            Check.equal(chain("a", 0, size - 1, first + k), strs[k], "in-place reduceScatter");
        }

        Object[] block = new Object[2 * size];
        for (int i = 0; i < 2 * size; i++) block[i] = "a" + rank + "_" + i;
        Object[] mine = new Object[2];
        comm.Reduce_scatter_block(block, 0, mine, 0, 2, MPI.OBJECT, concat);
        Check.arrays(new Object[] {chain("a", 0, size - 1, 2 * rank), chain("a", 0, size - 1, 2 * rank + 1)}, mine,
                "Reduce_scatter_block");
        comm.reduceScatterBlock(block, 2, MPI.OBJECT, concat);
        Check.arrays(new Object[] {chain("a", 0, size - 1, 2 * rank), chain("a", 0, size - 1, 2 * rank + 1)},
                Arrays.copyOf(block, 2), "in-place reduceScatterBlock");
        add.free();
        concat.free();
    }

    /** Reduce and Allreduce with user functions in every form: offsets, in place, non-blocking, both styles. */
    @RankTest
    public void reduceAllForms(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), root = size - 1;
        Op concat = new Op(new Concat(), false);
        Op add = new Op(new ComplexAdd(), true);
        Object[] send = {null, "a" + rank + "_0", "a" + rank + "_1"};
        Object[] recv = filled(3);
        comm.Reduce(send, 1, recv, 1, 2, MPI.OBJECT, concat, root);
        if (rank == root) {
            Check.arrays(new Object[] {UNTOUCHED, chain("a", 0, size - 1, 0), chain("a", 0, size - 1, 1)}, recv,
                    "Reduce with offsets");
        }
        Object[] all = filled(3);
        comm.Allreduce(send, 1, all, 0, 2, MPI.OBJECT, concat);
        Check.arrays(new Object[] {chain("a", 0, size - 1, 0), chain("a", 0, size - 1, 1), UNTOUCHED}, all,
                "Allreduce with offsets");

        Object[] buf = {"a" + rank + "_0"};
        comm.reduce(buf, 1, MPI.OBJECT, concat, 0); // in place at the root, send buffer elsewhere
        if (rank == 0) Check.equal(chain("a", 0, size - 1, 0), buf[0], "in-place reduce");
        Object[] ar = {new Complex(rank, 1)};
        comm.allReduce(ar, 1, MPI.OBJECT, add);
        Check.near(size * (size - 1) / 2.0, ((Complex) ar[0]).re, 0, "in-place allReduce re");
        Check.near(size, ((Complex) ar[0]).im, 0, "in-place allReduce im");

        Object[] r1 = new Object[1], r2 = new Object[1];
        Request a = comm.iReduce(new Object[] {"a" + rank + "_0"}, r1, 1, MPI.OBJECT, concat, 0);
        Request b = comm.iAllReduce(new Object[] {"a" + rank + "_0"}, r2, 1, MPI.OBJECT, concat);
        Request.waitAll(new Request[] {a, b});
        if (rank == 0) Check.equal(chain("a", 0, size - 1, 0), r1[0], "iReduce");
        Check.equal(chain("a", 0, size - 1, 0), r2[0], "iAllReduce");
        concat.free();
        add.free();
    }

    // ---- point-to-point: persistent requests and multiple completions ------------------------------

    /**
     * Send_init/Recv_init (standard, synchronous and buffered) to and from every rank, this one
     * included (synchronous sends to itself before its own receive, as mpiJava's startO), started
     * twice with the send buffer refilled between starts; Waitall's statuses count objects.
     */
    @RankTest(processOnly = true)
    public void persistentObjects(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        Object[] mine = new Object[3];
        Object[] data = new Object[3 * size];
        byte[] attached = new byte[64 * 1024 * (size + 1)];
        MPI.attachBuffer(attached);
        try {
            for (int mode = 0; mode < 3; mode++) {
                Prequest[] req = new Prequest[2 * size];
                for (int r = 0; r < size; r++) {
                    req[2 * r] = mode == 0 ? comm.Send_init(mine, 1, 2, MPI.OBJECT, r, 7)
                            : mode == 1 ? comm.Ssend_init(mine, 1, 2, MPI.OBJECT, r, 7)
                            : comm.Bsend_init(mine, 1, 2, MPI.OBJECT, r, 7);
                    req[2 * r + 1] = comm.Recv_init(data, 3 * r + 1, 2, MPI.OBJECT, r, 7);
                }
                for (int round = 0; round < 2; round++) {
                    mine[1] = new Item(rank, 10 * mode + round);
                    mine[2] = "m" + mode + "r" + round + "from" + rank;
                    comm.barrier();
                    if (round == 0) {
                        for (Prequest p : req) p.Start();
                    } else {
                        Prequest.Startall(req);
                    }
                    Status[] st = Request.Waitall(req);
                    for (int r = 0; r < size; r++) {
                        Check.equal(new Item(r, 10 * mode + round), data[3 * r + 1], "persistent receive item");
                        Check.equal("m" + mode + "r" + round + "from" + r, data[3 * r + 2], "persistent receive");
                        Check.equal(2, st[2 * r + 1].Get_count(MPI.OBJECT), "Get_count(MPI.OBJECT)");
                        Check.equal(r, st[2 * r + 1].source, "status source");
                        Check.equal(7, st[2 * r + 1].tag, "status tag");
                        Check.isTrue(data[3 * r] == null, "nothing written before the offset");
                    }
                }
                for (Prequest p : req) p.Free();
            }
        } finally {
            MPI.detachBuffer();
        }
    }

    /** Persistent object requests where ranks are threads too (no attached buffer): Start, Wait, restart. */
    @RankTest
    public void persistentRing(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        Object[] out = new Object[1], in = new Object[2];
        Prequest send = comm.sendInit(out, 1, MPI.OBJECT, next, 3);
        Prequest recv = comm.recvInit(in, 2, MPI.OBJECT, prev, 3);
        for (int round = 0; round < 3; round++) {
            out[0] = new Item(rank, round);
            recv.start();
            send.start();
            Status s = recv.waitStatus();
            send.waitFor();
            Check.equal(new Item(prev, round), in[0], "persistent ring round " + round);
            Check.equal(1, s.getCount(MPI.OBJECT), "count in objects");
            Check.isTrue(recv.test(), "a completed persistent request tests true");
        }
        send.free();
        recv.free();
    }

    /**
     * Rank 0 receives one message from every rank (itself included) through Irecv and completes
     * them with Testall, then Testsome, Waitsome, Waitany and Testany; statuses carry source,
     * tag, index and the count in objects, and every completed request is inactive. A receive
     * cancelled before it matched reports a cancelled status and leaves the message for the
     * next receive.
     */
    @RankTest
    public void nonBlockingCompletions(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        for (int kind = 0; kind < 5; kind++) {
            int tag = 20 + kind;
            Request self = null;
            Request[] req = null;
            Object[] got = new Object[2 * size];
            if (rank == 0) {
                req = new Request[size + 1];
                req[0] = MPI.REQUEST_NULL;
                for (int r = 0; r < size; r++) req[r + 1] = comm.Irecv(got, 2 * r, r % 2 + 1, MPI.OBJECT, r, tag);
            }
            Object[] mine = {new Item(rank, kind), "k" + kind};
            Request s = comm.Isend(mine, 0, rank % 2 + 1, MPI.OBJECT, 0, tag);
            if (rank == 0) {
                Status[] byIndex = new Status[size + 1];
                int done = 0;
                while (done < size) {
                    Status[] st;
                    if (kind == 0) {
                        st = Request.Testall(req);
                        if (st == null) continue;
                        st = Arrays.copyOfRange(st, 1, st.length);
                        for (int i = 0; i < st.length; i++) st[i].index = i + 1;
                    } else if (kind == 1) {
                        st = Request.Testsome(req);
                    } else if (kind == 2) {
                        st = Request.Waitsome(req);
                    } else if (kind == 3) {
                        st = new Status[] {Request.Waitany(req)};
                    } else {
                        Status any = Request.Testany(req);
                        st = any == null ? new Status[0] : new Status[] {any};
                    }
                    for (Status x : st) {
                        Check.isTrue(byIndex[x.index] == null, "request " + x.index + " reported twice");
                        byIndex[x.index] = x;
                        Check.isTrue(req[x.index].isNull(), "a completed request is inactive");
                        done++;
                    }
                }
                for (int r = 0; r < size; r++) {
                    Status x = byIndex[r + 1];
                    Check.equal(r, x.source, "source of request " + (r + 1));
                    Check.equal(tag, x.tag, "tag");
                    Check.equal(r % 2 + 1, x.Get_count(MPI.OBJECT), "count in objects from rank " + r);
                    Check.equal(new Item(r, kind), got[2 * r], "item from rank " + r);
                    if (r % 2 == 1) Check.equal("k" + kind, got[2 * r + 1], "second object from rank " + r);
                }
            }
            s.Wait();
            comm.barrier();
        }
        Object[] box = new Object[1];
        Request cancelled = comm.Irecv(box, 0, 1, MPI.OBJECT, rank, 40);
        cancelled.Cancel();
        Status cs = cancelled.Wait();
        Check.isTrue(cs.isCancelled(), "a cancelled object receive reports it");
        Check.isTrue(box[0] == null, "a cancelled object receive stores nothing");
        comm.Send(new Object[] {"after cancel " + rank}, 0, 1, MPI.OBJECT, rank, 40);
        comm.Recv(box, 0, 1, MPI.OBJECT, rank, 40);
        Check.equal("after cancel " + rank, box[0], "the message is left for the next receive");
    }

    // ---- bad input and failing objects ------------------------------------------------------------

    /** Arguments are checked before anything moves; every message names the argument and its value. */
    @RankTest
    public void badArguments(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank();
        int[] ones = new int[size], displs = new int[size];
        for (int i = 0; i < size; i++) {
            ones[i] = 1;
            displs[i] = i;
        }
        Object[] one = {"x"};
        // Checks every rank makes alike (so no rank is left waiting).
        int[] negative = ones.clone();
        negative[size - 1] = -2;
        Check.throwsMpi(MPI.ERR_COUNT, () -> comm.allGatherv(one, 1, MPI.OBJECT, new Object[size], negative, displs,
                MPI.OBJECT), "recvcounts[" + (size - 1) + "] = -2");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.allGatherv(one, 1, MPI.OBJECT, new Object[size], ones,
                new int[size - 1], MPI.OBJECT), "displs has " + (size - 1));
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Allgatherv(one, 0, 1, MPI.OBJECT, new Object[size], 1, ones,
                displs, MPI.OBJECT), "offset 1", "Object[" + size + "]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Allgatherv(one, 1, 1, MPI.OBJECT, new Object[size], 0, ones,
                displs, MPI.OBJECT), "sendbuf", "offset 1");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.allToAllv(new int[size], ones, displs, MPI.OBJECT, new Object[size],
                ones, displs, MPI.OBJECT), "Object[]", "int[]");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.allToAllv(new Object[size], null, displs, MPI.OBJECT,
                new Object[size], ones, displs, MPI.OBJECT), "sendcounts is null");
        Check.throwsMpi(MPI.ERR_ARG, () -> comm.Reduce_scatter(new Object[size], 0, new Object[1], 0,
                new int[size - 1], MPI.OBJECT, new Op(new Concat(), false)),
                "recvcounts has " + (size - 1));
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Scan(new Object[2], 0, new Object[2], 1, 2, MPI.OBJECT,
                new Op(new Concat(), false)), "recvbuf", "offset 1");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Scan(null, 0, new Object[2], 0, 2, MPI.OBJECT,
                new Op(new Concat(), false)), "sendbuf is null", "2");
        Check.throwsMpi(MPI.ERR_OP, () -> comm.scan(new Object[1], new Object[1], 1, MPI.OBJECT, MPI.SUM), "OBJECT");
        Check.throwsMpi(MPI.ERR_OP, () -> comm.Reduce_scatter_block(new Object[size], 0, new Object[1], 0, 1,
                MPI.OBJECT, MPI.MAX), "OBJECT");
        if (size > 1) { // MPI.IN_PLACE where this rank is not the root (each names another root: all fail)
            Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.gatherv(MPI.IN_PLACE, 1, MPI.OBJECT, new Object[size], ones,
                    displs, MPI.OBJECT, (rank + 1) % size), "IN_PLACE", "rank " + rank);
        }
        // Persistent requests check their buffer when made.
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Send_init(new Object[2], 1, 2, MPI.OBJECT, rank, 1), "2 objects",
                "offset 1", "Object[2]");
        Check.throwsMpi(MPI.ERR_BUFFER, () -> comm.Recv_init(null, 0, 3, MPI.OBJECT, rank, 1), "buf is null", "3");
        Check.throwsMpi(MPI.ERR_TYPE, () -> comm.recvInit(new int[2], 2, MPI.OBJECT, rank, 1), "Object[]",
                "int[]");
        Check.throwsMpi(MPI.ERR_COUNT, () -> comm.Send_init(new Object[2], 0, -1, MPI.OBJECT, rank, 1), "-1");
        // Root-only arguments: every rank must fail, so each check is made by all ranks at once
        // with an argument that is bad at every rank.
        Check.throwsMpi(MPI.ERR_ROOT, () -> comm.Gatherv(one, 0, 1, MPI.OBJECT, new Object[size], 0, ones, displs,
                MPI.OBJECT, size), "root " + size);
        // Still usable.
        Object[] all = new Object[size];
        comm.allGatherv(new Object[] {"ok" + rank}, 1, MPI.OBJECT, all, ones, displs, MPI.OBJECT);
        for (int r = 0; r < size; r++) Check.equal("ok" + r, all[r], "allGatherv after the refused calls");
    }

    /**
     * A rank whose objects cannot be serialized makes the whole collective fail on every rank
     * that must know (all of them, for all-to-all patterns and reductions computed at rank 0);
     * a message the filter refuses at rank 0 fails a scan everywhere; a throwing user op too.
     * The failing rank throws the cause; the others an MPIException naming the rank that failed
     * (the size exchange tells them, or on the fabric possibly first the failed rank's notice,
     * "rank N failed its part of this collective": either way in the same call, not at a deadline).
     */
    @RankTest(minSize = 2)
    public void failuresReachEveryRank(Intracomm comm) {
        int size = comm.getSize(), rank = comm.getRank(), bad = size - 1;
        int[] ones = new int[size], displs = new int[size];
        for (int i = 0; i < size; i++) {
            ones[i] = 1;
            displs[i] = i;
        }
        Object[] part = {rank == bad ? new Object() : "ok" + rank};
        String self = "cannot serialize";
        String peer = "rank " + bad + " ";
        String named = rank == bad ? self : peer;
        failsNaming(() -> comm.allGatherv(part, 1, MPI.OBJECT, new Object[size], ones, displs, MPI.OBJECT), named);
        failsNaming(() -> comm.allToAllv(fill(size, part[0]), ones, displs, MPI.OBJECT, new Object[size], ones, displs,
                MPI.OBJECT), named);
        Op concat = new Op(new Concat(), false);
        // Rank 0 computes: the others hear of the failure from it (or from the failed rank).
        String fromRoot = rank == bad ? self : rank == 0 ? peer : "rank 0 ";
        failsNaming(() -> comm.scan(part, new Object[1], 1, MPI.OBJECT, concat), fromRoot, peer);
        failsNaming(() -> comm.reduceScatterBlock(fill(size, part[0]), new Object[1], 1, MPI.OBJECT, concat),
                fromRoot, peer);
        // Gatherv: the failed rank and the root must know; the others' part succeeded.
        Object[] g = new Object[size];
        Runnable gv = () -> comm.gatherv(part, 1, MPI.OBJECT, g, ones, displs, MPI.OBJECT, 0);
        if (rank == bad || rank == 0) failsNaming(gv, named);
        else succeedsOrNames(gv, peer);
        // Scatterv whose root cannot serialize one part: every rank throws.
        Object[] src = fill(size, "fine");
        src[size - 1] = new Object();
        failsNaming(() -> comm.scatterv(src, ones, displs, MPI.OBJECT, new Object[1], 1, MPI.OBJECT, 0),
                rank == 0 ? self : "rank 0 ");
        // Refused by the filter at rank 0 (a class with its own readObject): the scan fails everywhere.
        Object[] scripted = {rank == bad ? new Scripted() : "ok"};
        failsNaming(() -> comm.scan(scripted, new Object[1], 1, MPI.OBJECT, concat),
                rank == 0 ? "Scripted" : "rank 0 ");
        // A user op that throws at rank 0: its exception there, an MPIException naming rank 0 elsewhere.
        Op broken = new Op(new User_function() {
            @Override
            public void Call(Object in, int io, Object inout, int ioo, int count, Datatype type) {
                throw new IllegalStateException("op refuses");
            }
        }, true);
        Runnable rs = () -> comm.Reduce_scatter(fill(size, "v"), 0, new Object[1], 0, ones, MPI.OBJECT, broken);
        if (rank == 0) {
            try {
                rs.run();
                throw new AssertionError("the throwing op did not fail Reduce_scatter at rank 0");
            } catch (IllegalStateException e) {
                Check.equal("op refuses", e.getMessage(), "the user's exception at rank 0");
            }
        } else {
            failsNaming(rs, "rank 0 ");
        }
        concat.free();
        broken.free();
        // Still usable.
        Object[] all = new Object[size];
        comm.allGatherv(new Object[] {"ok" + rank}, 1, MPI.OBJECT, all, ones, displs, MPI.OBJECT);
        for (int r = 0; r < size; r++) Check.equal("ok" + r, all[r], "allGatherv after the failures");
    }

    /** {@code action} throws an MPIException whose message contains one of {@code fragments}. */
    private static void failsNaming(Runnable action, String... fragments) {
        try {
            action.run();
        } catch (mpi.MPIException e) {
            String m = String.valueOf(e.getMessage());
            for (String f : fragments) if (m.contains(f)) return;
            throw new AssertionError("message '" + m + "' mentions none of " + Arrays.toString(fragments), e);
        }
        throw new AssertionError("expected an MPIException mentioning " + Arrays.toString(fragments));
    }

    /** {@code action} completes, or throws an MPIException containing {@code fragment}. */
    private static void succeedsOrNames(Runnable action, String fragment) {
        try {
            action.run();
        } catch (mpi.MPIException e) {
            if (!String.valueOf(e.getMessage()).contains(fragment)) throw e;
        }
    }

    private static Object[] fill(int n, Object v) {
        Object[] a = new Object[n];
        Arrays.fill(a, v);
        return a;
    }
}
