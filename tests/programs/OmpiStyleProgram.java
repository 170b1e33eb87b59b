import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import mpi.*;

/**
 * A program written against the Open MPI Java bindings, the way their users write them:
 * camel-case calls, direct buffers from MPI.newXxxBuffer, checked exceptions declared. Every
 * result is compared with a value computed from rank and size; the program prints
 * "OMPI-STYLE OK <rank> <size>" when all checks passed and exits with 1 otherwise.
 */
public class OmpiStyleProgram {
    private static int rank;
    private static int size;
    private static int checks;

    private static void check(boolean ok, String what) {
        checks++;
        if (!ok) {
            System.out.println("OMPI-STYLE FAILED on rank " + rank + ": " + what);
            System.out.flush();
            System.exit(1);
        }
    }

    private static void check(long expected, long actual, String what) {
        check(expected == actual, what + ": expected " + expected + ", got " + actual);
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        rank = world.getRank();
        size = world.getSize();
        int next = (rank + 1) % size;
        int prev = (rank - 1 + size) % size;

        pointToPoint(world, next, prev);
        collectives(world);
        nonBlockingCollectives(world);
        groupsAndCommunicators(world);
        requestsAndPersistence(world);
        miscellany(world);

        world.barrier();
        System.out.println("OMPI-STYLE OK " + rank + " " + size + " (" + checks + " checks)");
        MPI.Finalize();
    }

    private static void pointToPoint(Intracomm world, int next, int prev) throws MPIException {
        // Ring with non-blocking calls over direct buffers.
        IntBuffer out = MPI.newIntBuffer(4);
        IntBuffer in = MPI.newIntBuffer(4);
        for (int i = 0; i < 4; i++) out.put(i, rank * 10 + i);
        Request[] reqs = {world.iRecv(in, 4, MPI.INT, prev, 7), world.iSend(out, 4, MPI.INT, next, 7)};
        Request.waitAll(reqs);
        for (int i = 0; i < 4; i++) check(prev * 10 + i, in.get(i), "ring iSend/iRecv item " + i);

        // Status of a receive from any source.
        double[] d = new double[3 + rank];
        for (int i = 0; i < d.length; i++) d[i] = rank + 0.5 * i;
        Request s = world.iSend(d, d.length, MPI.DOUBLE, next, 20 + rank);
        double[] got = new double[16];
        Status st = world.recv(got, got.length, MPI.DOUBLE, MPI.ANY_SOURCE, MPI.ANY_TAG);
        s.waitFor();
        check(prev, st.getSource(), "status source");
        check(20 + prev, st.getTag(), "status tag");
        check(3 + prev, st.getCount(MPI.DOUBLE), "status count");
        for (int i = 0; i < 3 + prev; i++) check(got[i] == prev + 0.5 * i, "recv value " + i);

        // sendRecv with a direct buffer and an array.
        DoubleBuffer sb = MPI.newDoubleBuffer(2);
        sb.put(0, rank).put(1, -rank);
        double[] rb = new double[2];
        Status srs = world.sendRecv(sb, 2, MPI.DOUBLE, next, 3, rb, 2, MPI.DOUBLE, prev, 3);
        check(prev, srs.getSource(), "sendRecv source");
        check(rb[0] == prev && rb[1] == -prev, "sendRecv values");

        // sendRecvReplace.
        int[] token = {rank};
        world.sendRecvReplace(token, 1, MPI.INT, next, 4, prev, 4);
        check(prev, token[0], "sendRecvReplace");

        // probe, then receive a message of the size the status reports.
        int len = rank % 3 + 1;
        long[] msg = new long[len];
        for (int i = 0; i < len; i++) msg[i] = 1000L * rank + i;
        Request ps = world.iSend(msg, len, MPI.LONG, next, 5);
        Status probed = world.probe(prev, 5);
        int n = probed.getCount(MPI.LONG);
        check(prev % 3 + 1, n, "probe count");
        LongBuffer lb = MPI.newLongBuffer(n);
        world.recv(lb, n, MPI.LONG, probed.getSource(), probed.getTag());
        ps.waitFor();
        for (int i = 0; i < n; i++) check(1000L * prev + i, lb.get(i), "probed message item " + i);
        check(world.iProbe(MPI.ANY_SOURCE, 5) == null, "nothing left to iProbe");

        // Synchronous, buffered and offset (slice) sends.
        int[] big = new int[10];
        for (int i = 0; i < 10; i++) big[i] = rank * 100 + i;
        int[] into = new int[10];
        Request r = world.iRecv(MPI.slice(into, 6), 4, MPI.INT, prev, 6);
        world.sSend(MPI.slice(big, 3), 4, MPI.INT, next, 6);
        r.waitFor();
        for (int i = 0; i < 4; i++) check(prev * 100 + 3 + i, into[6 + i], "slice item " + i);

        MPI.attachBuffer(new byte[4096 + MPI.BSEND_OVERHEAD]);
        int[] one = {rank + 42};
        int[] back = new int[1];
        world.bSend(one, 1, MPI.INT, next, 8);
        world.recv(back, 1, MPI.INT, prev, 8);
        byte[] detached = MPI.detachBuffer();
        check(4096 + MPI.BSEND_OVERHEAD, detached.length, "detached buffer length");
        check(prev + 42, back[0], "bSend");
    }

    private static void collectives(Intracomm world) throws MPIException {
        // bcast from the last rank, reduce to rank 0, allReduce.
        int root = size - 1;
        DoubleBuffer b = MPI.newDoubleBuffer(3);
        if (rank == root) b.put(0, 1.5).put(1, 2.5).put(2, 3.5);
        world.bcast(b, 3, MPI.DOUBLE, root);
        check(b.get(0) == 1.5 && b.get(1) == 2.5 && b.get(2) == 3.5, "bcast");

        int[] mine = {rank, 2 * rank, 1};
        int[] sum = new int[3];
        world.reduce(mine, sum, 3, MPI.INT, MPI.SUM, 0);
        int tri = size * (size - 1) / 2;
        if (rank == 0) {
            check(tri, sum[0], "reduce sum[0]");
            check(2L * tri, sum[1], "reduce sum[1]");
            check(size, sum[2], "reduce sum[2]");
        }
        int[] max = new int[1];
        world.allReduce(new int[] {rank * 3}, max, 1, MPI.INT, MPI.MAX);
        check(3L * (size - 1), max[0], "allReduce max");
        long[] inPlace = {rank, 1};
        world.allReduce(inPlace, 2, MPI.LONG, MPI.SUM);
        check(tri, inPlace[0], "allReduce in place");

        // gatherv: rank r contributes r + 1 ints.
        int[] part = new int[rank + 1];
        for (int i = 0; i <= rank; i++) part[i] = rank * 100 + i;
        int[] counts = new int[size];
        int[] displs = new int[size];
        int total = 0;
        for (int i = 0; i < size; i++) {
            counts[i] = i + 1;
            displs[i] = total;
            total += counts[i];
        }
        int[] all = new int[total];
        world.gatherv(part, rank + 1, MPI.INT, all, counts, displs, MPI.INT, 0);
        if (rank == 0) {
            for (int i = 0; i < size; i++) {
                for (int k = 0; k <= i; k++) check(i * 100 + k, all[displs[i] + k], "gatherv block " + i);
            }
        }

        // allGather and scatter.
        int[] everyone = new int[size];
        world.allGather(new int[] {rank * rank}, 1, MPI.INT, everyone, 1, MPI.INT);
        for (int i = 0; i < size; i++) check((long) i * i, everyone[i], "allGather " + i);
        int[] toScatter = new int[2 * size];
        for (int i = 0; i < 2 * size; i++) toScatter[i] = 7 * i;
        int[] piece = new int[2];
        world.scatter(toScatter, 2, MPI.INT, piece, 2, MPI.INT, 0);
        check(14L * rank, piece[0], "scatter 0");
        check(14L * rank + 7, piece[1], "scatter 1");

        // allToAllv: rank r sends (r + j) % 3 + 1 items to rank j.
        int[] sc = new int[size], sd = new int[size], rc = new int[size], rd = new int[size];
        int st = 0, rt = 0;
        for (int j = 0; j < size; j++) {
            sc[j] = (rank + j) % 3 + 1;
            rc[j] = (j + rank) % 3 + 1;
            sd[j] = st;
            rd[j] = rt;
            st += sc[j];
            rt += rc[j];
        }
        int[] sendv = new int[st];
        for (int j = 0; j < size; j++) {
            for (int k = 0; k < sc[j]; k++) sendv[sd[j] + k] = rank * 1000 + j * 10 + k;
        }
        int[] recvv = new int[rt];
        world.allToAllv(sendv, sc, sd, MPI.INT, recvv, rc, rd, MPI.INT);
        for (int j = 0; j < size; j++) {
            for (int k = 0; k < rc[j]; k++) check(j * 1000 + rank * 10 + k, recvv[rd[j] + k], "allToAllv from " + j);
        }

        // allToAll over direct buffers.
        IntBuffer a2a = MPI.newIntBuffer(size);
        IntBuffer a2b = MPI.newIntBuffer(size);
        for (int j = 0; j < size; j++) a2a.put(j, rank * size + j);
        world.allToAll(a2a, 1, MPI.INT, a2b, 1, MPI.INT);
        for (int j = 0; j < size; j++) check(j * size + rank, a2b.get(j), "allToAll from " + j);

        // scan and exScan.
        long[] pre = new long[1];
        world.scan(new long[] {rank + 1}, pre, 1, MPI.LONG, MPI.SUM);
        check((long) (rank + 1) * (rank + 2) / 2, pre[0], "scan");
        long[] ex = new long[1];
        world.exScan(new long[] {rank + 1}, ex, 1, MPI.LONG, MPI.SUM);
        if (rank > 0) check((long) rank * (rank + 1) / 2, ex[0], "exScan");

        // reduceScatter: block i has i + 1 items; item k of the full vector gets sum of (r + k).
        int[] rsCounts = new int[size];
        int rsTotal = 0;
        for (int i = 0; i < size; i++) {
            rsCounts[i] = i + 1;
            rsTotal += i + 1;
        }
        int[] rsSend = new int[rsTotal];
        for (int k = 0; k < rsTotal; k++) rsSend[k] = rank + k;
        int[] rsRecv = new int[rank + 1];
        world.reduceScatter(rsSend, rsRecv, rsCounts, MPI.INT, MPI.SUM);
        int myStart = rank * (rank + 1) / 2;
        for (int k = 0; k <= rank; k++) check(tri + (long) size * (myStart + k), rsRecv[k], "reduceScatter " + k);

        // Bucketed allReduce of gradient-like buffers (arrays and direct buffers, one empty).
        double[] g1 = {rank, 1};
        DoubleBuffer g2 = MPI.newDoubleBuffer(3);
        for (int i = 0; i < 3; i++) g2.put(i, rank * i);
        double[] g3 = new double[0];
        world.allReduce(new Object[] {g1, g2, g3}, new int[] {2, 3, 0}, MPI.DOUBLE, MPI.SUM);
        check(g1[0] == tri && g1[1] == size, "bucketed allReduce bucket 0");
        for (int i = 0; i < 3; i++) check(g2.get(i) == (double) tri * i, "bucketed allReduce bucket 1 item " + i);

        // MINLOC over (value, index) pairs.
        int[] pair = {(rank * 7) % size, rank};
        int[] loc = new int[2];
        world.allReduce(pair, loc, 1, MPI.INT2, MPI.MINLOC);
        check(0, loc[0], "minloc value");
        check(0, loc[1], "minloc index");
    }

    private static void nonBlockingCollectives(Intracomm world) throws MPIException {
        IntBuffer ib = MPI.newIntBuffer(2);
        if (rank == 0) ib.put(0, 11).put(1, 22);
        Request bc = world.iBcast(ib, 2, MPI.INT, 0);
        DoubleBuffer s = MPI.newDoubleBuffer(1);
        DoubleBuffer r = MPI.newDoubleBuffer(1);
        s.put(0, rank + 1.0);
        Request ar = world.iAllReduce(s, r, 1, MPI.DOUBLE, MPI.SUM);
        Request bar = world.iBarrier();
        Request.waitAll(new Request[] {bc, ar, bar});
        check(11, ib.get(0), "iBcast 0");
        check(22, ib.get(1), "iBcast 1");
        check(r.get(0) == size * (size + 1) / 2.0, "iAllReduce");

        int[] gath = new int[size];
        Request g = world.iAllGather(new int[] {rank + 5}, 1, MPI.INT, gath, 1, MPI.INT);
        g.waitFor();
        for (int i = 0; i < size; i++) check(i + 5, gath[i], "iAllGather " + i);
    }

    private static void groupsAndCommunicators(Intracomm world) throws MPIException {
        Group wg = world.getGroup();
        check(size, wg.getSize(), "group size");
        check(rank, wg.getRank(), "group rank");
        int evens = (size + 1) / 2;
        int[] evenRanks = new int[evens];
        for (int i = 0; i < evens; i++) evenRanks[i] = 2 * i;
        Group even = wg.incl(evenRanks);
        Group odd = wg.excl(evenRanks);
        check(evens, even.getSize(), "incl size");
        check(size - evens, odd.getSize(), "excl size");
        check(rank % 2 == 0 ? rank / 2 : MPI.UNDEFINED, even.getRank(), "rank in even group");
        int[] tr = Group.translateRanks(even, new int[] {0, evens - 1}, wg);
        check(0, tr[0], "translateRanks 0");
        check(2L * (evens - 1), tr[1], "translateRanks last");
        Group u = Group.union(even, odd);
        check(size, u.getSize(), "union size");
        check(0, Group.intersection(even, odd).getSize(), "intersection size");
        check(evens, Group.difference(wg, odd).getSize(), "difference size");
        check(size <= 2 ? MPI.IDENT : MPI.SIMILAR, Group.compare(u, wg), "compare union with world");
        check(MPI.IDENT, Group.compare(wg, world.getGroup()), "compare world groups");

        Intracomm dup = world.dup();
        check(MPI.CONGRUENT, Comm.compare(world, dup), "compare dup");
        check(rank, dup.getRank(), "dup rank");
        int[] v = {rank};
        dup.allReduce(v, 1, MPI.INT, MPI.SUM);
        check(size * (size - 1) / 2, v[0], "allReduce on dup");
        dup.setName("my dup");
        check("my dup".equals(dup.getName()), "setName/getName");

        // Split by parity, reversed order inside each half.
        Intracomm half = world.split(rank % 2, -rank);
        int halfSize = rank % 2 == 0 ? evens : size - evens;
        check(halfSize, half.getSize(), "split size");
        int members = 0;
        for (int r = rank + 2; r < size; r += 2) members++;
        check(members, half.getRank(), "split rank (reversed)");
        int[] hs = {1};
        half.allReduce(hs, 1, MPI.INT, MPI.SUM);
        check(halfSize, hs[0], "allReduce on split");
        half.free();
        check(half.isNull(), "split freed");

        Intracomm none = world.split(rank == 0 ? 0 : MPI.UNDEFINED, 0);
        check(rank == 0 ? !none.isNull() : none.isNull(), "split with UNDEFINED");
        if (!none.isNull()) none.free();

        Intracomm evenComm = world.create(even);
        check(rank % 2 == 0 ? !evenComm.isNull() : evenComm.isNull(), "create from group");
        if (!evenComm.isNull()) {
            check(rank / 2, evenComm.getRank(), "rank in created comm");
            evenComm.free();
        }
        Intracomm node = world.splitType(Comm.TYPE_SHARED, rank, MPI.INFO_NULL);
        check(node.getSize() >= 1 && node.getSize() <= size, "splitType size");
        node.free();

        Intracomm idup = world.iDup();
        idup.getRequest().waitFor();
        check(size, idup.getSize(), "iDup size");
        idup.free();
        dup.free();
        wg.free();
    }

    private static void requestsAndPersistence(Intracomm world) throws MPIException {
        // Two messages to self; waitAny returns the first that completes, then the other.
        int[] a = new int[1], b = new int[1];
        Request[] recvs = {world.iRecv(a, 1, MPI.INT, rank, 31), world.iRecv(b, 1, MPI.INT, rank, 32)};
        world.send(new int[] {rank + 32}, 1, MPI.INT, rank, 32);
        int first = Request.waitAny(recvs);
        check(1, first, "waitAny index");
        check(rank + 32, b[0], "waitAny value");
        world.send(new int[] {rank + 31}, 1, MPI.INT, rank, 31);
        while (!Request.testAll(recvs)) {
            Thread.onSpinWait();
        }
        check(rank + 31, a[0], "testAll value");

        Status[] sts;
        Request[] pair = {world.iRecv(a, 1, MPI.INT, prevOf(), 33), world.iSend(new int[] {rank}, 1, MPI.INT,
                (rank + 1) % size, 33)};
        sts = Request.waitAllStatus(pair);
        check(prevOf(), sts[0].getSource(), "waitAllStatus source");
        check(prevOf(), a[0], "waitAllStatus value");

        // Persistent requests, started three times.
        int[] ps = new int[1];
        int[] pr = new int[1];
        Prequest send = world.sendInit(ps, 1, MPI.INT, (rank + 1) % size, 40);
        Prequest recv = world.recvInit(pr, 1, MPI.INT, prevOf(), 40);
        for (int round = 0; round < 3; round++) {
            ps[0] = rank * 10 + round;
            Prequest.startAll(new Prequest[] {recv, send});
            Request.waitAll(new Request[] {recv, send});
            check(prevOf() * 10 + round, pr[0], "persistent round " + round);
        }
        send.free();
        recv.free();
    }

    private static int prevOf() {
        return (rank - 1 + size) % size;
    }

    private static void miscellany(Intracomm world) throws MPIException {
        double t = MPI.wtime();
        check(t >= 0 && MPI.wtick() > 0, "wtime/wtick");
        check(!MPI.getProcessorName().isEmpty(), "processor name");
        check(MPI.getVersion().getVersion() >= 3, "version");
        check(MPI.VERSION >= 3, "MPI.VERSION");
        check(MPI.isInitialized() && !MPI.isFinalized(), "initialized");
        check(world.getTopology() == MPI.UNDEFINED, "no topology");
        Object ub = world.getAttr(MPI.TAG_UB);
        check(ub instanceof Integer && (Integer) ub >= 32767, "TAG_UB attribute");

        int key = Comm.createKeyval();
        world.setAttr(key, "value " + rank);
        check(("value " + rank).equals(world.getAttr(key)), "user attribute");
        world.deleteAttr(key);
        check(world.getAttr(key) == null, "deleted attribute");
        Comm.freeKeyval(key);

        // pack / unpack an int and two doubles, then send the packed bytes.
        byte[] packed = new byte[world.packSize(1, MPI.INT) + world.packSize(2, MPI.DOUBLE)];
        int pos = world.pack(new int[] {rank}, 1, MPI.INT, packed, 0);
        pos = world.pack(new double[] {rank + 0.25, -rank}, 2, MPI.DOUBLE, packed, pos);
        byte[] arrived = new byte[packed.length];
        world.sendRecv(packed, pos, MPI.PACKED, (rank + 1) % size, 50, arrived, arrived.length, MPI.PACKED,
                prevOf(), 50);
        int[] pi = new int[1];
        double[] pd = new double[2];
        int at = world.unpack(arrived, 0, pi, 1, MPI.INT);
        world.unpack(arrived, at, pd, 2, MPI.DOUBLE);
        check(prevOf(), pi[0], "unpacked int");
        check(pd[0] == prevOf() + 0.25 && pd[1] == -prevOf(), "unpacked doubles");

        // A user-defined reduction (array form).
        Op absMax = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                int[] x = (int[]) in, y = (int[]) inOut;
                for (int i = 0; i < count; i++) y[i] = Math.max(Math.abs(x[i]), Math.abs(y[i]));
            }
        }, true);
        int[] am = new int[1];
        world.allReduce(new int[] {rank % 2 == 0 ? -rank : rank}, am, 1, MPI.INT, absMax);
        check(size - 1, am[0], "user op");
        absMax.free();

        // Errors come back as exceptions (MPIException is caught the way Open MPI users do).
        try {
            world.send(new int[1], 1, MPI.INT, size + 5, 0);
            check(false, "send to a bad rank must throw");
        } catch (MPIException e) {
            check(MPI.ERR_RANK, e.getErrorClass(), "error class of a bad rank");
        }
        // A derived type: column 0 of a 3 x 2 row-major matrix goes around the ring.
        Datatype column = Datatype.createVector(3, 1, 2, MPI.INT);
        column.commit();
        int[] matrix = new int[6];
        for (int i = 0; i < 6; i++) matrix[i] = 100 * rank + i;
        int[] got = new int[3];
        world.sendRecv(matrix, 1, column, (rank + 1) % size, 9, got, 3, MPI.INT, prevOf(), 9);
        for (int i = 0; i < 3; i++) check(100 * prevOf() + 2 * i, got[i], "column element " + i);
        column.free();
        ByteBuffer bb = MPI.newByteBuffer(8);
        check(bb.isDirect(), "newByteBuffer is direct");
    }
}
