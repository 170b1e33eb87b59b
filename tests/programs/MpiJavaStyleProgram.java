import java.io.Serializable;
import mpi.*;
import mpjbuf.*;  // MPJ Express programs import its internal packages without using them
import mpjdev.*;

/**
 * A program written against mpiJava 1.2 / MPJ Express, the way their users write them:
 * capitalized calls with array offsets, Status fields, MPI.OBJECT messages of Serializable
 * objects. Every result is compared with a value computed from rank and size; prints
 * "MPIJAVA-STYLE OK <rank> <size>" when all checks passed and exits with 1 otherwise.
 */
public class MpiJavaStyleProgram {
    static int me;
    static int size;
    static int checks;

    /** A user class sent as MPI.OBJECT. */
    static class Particle implements Serializable {
        private static final long serialVersionUID = 1L;
        final int owner;
        final double[] position;
        final String label;

        Particle(int owner, double x, double y, String label) {
            this.owner = owner;
            this.position = new double[] {x, y};
            this.label = label;
        }
    }

    static void check(boolean ok, String what) {
        checks++;
        if (!ok) {
            System.out.println("MPIJAVA-STYLE FAILED on rank " + me + ": " + what);
            System.out.flush();
            System.exit(1);
        }
    }

    static void check(long expected, long actual, String what) {
        check(expected == actual, what + ": expected " + expected + ", got " + actual);
    }

    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        check(rest != null, "Init returns the arguments");
        me = MPI.COMM_WORLD.Rank();
        size = MPI.COMM_WORLD.Size();
        int next = (me + 1) % size;
        int prev = (me + size - 1) % size;
        double t0 = MPI.Wtime();

        // MPJ Express's extras.
        check(Runtime.getRuntime().availableProcessors(), MPI.NUM_OF_PROCESSORS, "MPI.NUM_OF_PROCESSORS");
        check(MPI.isMainThread(), "MPI.isMainThread on the thread that called Init");
        check(4, MPI.INT.getByteSize(), "MPI.INT.getByteSize()");
        check(8, Datatype.Vector(2, 1, 3, MPI.DOUBLE).getByteSize(), "getByteSize of a vector of doubles");
        MPI.Errorhandler_set(MPI.ERRORS_RETURN);
        check(MPI.Errorhandler_get() == MPI.ERRORS_RETURN, "MPI.Errorhandler_get after Errorhandler_set");
        MPI.COMM_WORLD.Errorhandler_set(MPI.ERRORS_RETURN);

        // Send/Recv with offsets: rank 0 sends every rank (itself included) a piece of its array.
        int tag = 99;
        if (me == 0) {
            int[] data = new int[4 * size];
            for (int i = 0; i < data.length; i++) data[i] = i * 3;
            Request[] sends = new Request[size];
            for (int dest = 0; dest < size; dest++) {
                sends[dest] = MPI.COMM_WORLD.Isend(data, 4 * dest, 4, MPI.INT, dest, tag);
            }
            int[] mine = new int[6];
            Status s = MPI.COMM_WORLD.Recv(mine, 2, 4, MPI.INT, 0, tag);
            Request.Waitall(sends);
            check(0, s.source, "status.source");
            check(tag, s.tag, "status.tag");
            check(4, s.Get_count(MPI.INT), "Get_count");
            for (int i = 0; i < 4; i++) check(i * 3, mine[2 + i], "own piece " + i);
        } else {
            int[] mine = new int[6];
            Status s = MPI.COMM_WORLD.Recv(mine, 2, 4, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            check(0, s.source, "status.source");
            check(tag, s.tag, "status.tag");
            check(4, s.Get_count(MPI.INT), "Get_count");
            for (int i = 0; i < 4; i++) check((4 * me + i) * 3, mine[2 + i], "piece " + i);
        }
        // Every piece is in before the ring starts: otherwise the wildcard receive above may
        // match the previous rank's ring message, which MPI allows (no order between senders).
        MPI.COMM_WORLD.Barrier();

        // Ring with Isend/Irecv and Wait / Waitall / Waitany.
        double[] out = {me, me * 0.5};
        double[] in = new double[4];
        Request rr = MPI.COMM_WORLD.Irecv(in, 1, 2, MPI.DOUBLE, prev, 1);
        Request sr = MPI.COMM_WORLD.Isend(out, 0, 2, MPI.DOUBLE, next, 1);
        Status ws = rr.Wait();
        sr.Wait();
        check(prev, ws.source, "Wait status source");
        check(2, ws.Get_count(MPI.DOUBLE), "Wait Get_count");
        check(in[1] == prev && in[2] == prev * 0.5, "ring values");

        int[] x = new int[1];
        int[] y = new int[1];
        Request[] reqs = {
            MPI.COMM_WORLD.Irecv(x, 0, 1, MPI.INT, prev, 2),
            MPI.COMM_WORLD.Isend(new int[] {me * 11}, 0, 1, MPI.INT, next, 2),
        };
        Status[] all = Request.Waitall(reqs);
        check(prev, all[0].source, "Waitall status source");
        check(prev * 11, x[0], "Waitall value");

        Request[] any = {MPI.COMM_WORLD.Irecv(y, 0, 1, MPI.INT, me, 3)};
        MPI.COMM_WORLD.Send(new int[] {7, me + 70}, 1, 1, MPI.INT, me, 3);
        Status as = Request.Waitany(any);
        check(0, as.index, "Waitany index");
        check(me + 70, y[0], "Waitany value");

        // Sendrecv with offsets.
        long[] sbuf = {-1, me * 1000L, -1};
        long[] rbuf = new long[3];
        Status srs = MPI.COMM_WORLD.Sendrecv(sbuf, 1, 1, MPI.LONG, next, 4, rbuf, 2, 1, MPI.LONG, prev, 4);
        check(prev, srs.source, "Sendrecv source");
        check(prev * 1000L, rbuf[2], "Sendrecv value");

        // Probe then receive.
        Request probeSend = MPI.COMM_WORLD.Isend(new short[] {1, 2, 3}, 0, me % 3 + 1, MPI.SHORT, next, 5);
        Status ps = MPI.COMM_WORLD.Probe(MPI.ANY_SOURCE, 5);
        short[] sh = new short[ps.Get_count(MPI.SHORT)];
        MPI.COMM_WORLD.Recv(sh, 0, sh.length, MPI.SHORT, ps.source, 5);
        probeSend.Wait();
        check(prev % 3 + 1, sh.length, "Probe Get_count");
        check(MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, 5) == null, "Iprobe finds nothing more");

        // Collectives with offsets.
        int root = size - 1;
        float[] bc = new float[3];
        if (me == root) bc[1] = 2.5f;
        MPI.COMM_WORLD.Bcast(bc, 1, 2, MPI.FLOAT, root);
        check(bc[1] == 2.5f && bc[2] == 0f, "Bcast");

        int[] contrib = {0, me + 1, 2 * me};
        int[] total = new int[2];
        MPI.COMM_WORLD.Reduce(contrib, 1, total, 0, 2, MPI.INT, MPI.SUM, 0);
        if (me == 0) {
            check((long) size * (size + 1) / 2, total[0], "Reduce[0]");
            check((long) size * (size - 1), total[1], "Reduce[1]");
        }
        double[] mx = new double[1];
        MPI.COMM_WORLD.Allreduce(new double[] {me * 1.5}, 0, mx, 0, 1, MPI.DOUBLE, MPI.MAX);
        check(mx[0] == (size - 1) * 1.5, "Allreduce MAX");

        int[] gathered = new int[1 + size];
        MPI.COMM_WORLD.Gather(new int[] {me * me}, 0, 1, MPI.INT, gathered, 1, 1, MPI.INT, 0);
        if (me == 0) {
            for (int i = 0; i < size; i++) check((long) i * i, gathered[1 + i], "Gather " + i);
        }

        int[] scatterSrc = new int[2 * size];
        for (int i = 0; i < scatterSrc.length; i++) scatterSrc[i] = 5 * i;
        int[] piece = new int[2];
        MPI.COMM_WORLD.Scatter(scatterSrc, 0, 2, MPI.INT, piece, 0, 2, MPI.INT, 0);
        check(10L * me, piece[0], "Scatter 0");
        check(10L * me + 5, piece[1], "Scatter 1");

        long[] everyone = new long[size];
        MPI.COMM_WORLD.Allgather(new long[] {me + 100L}, 0, 1, MPI.LONG, everyone, 0, 1, MPI.LONG);
        for (int i = 0; i < size; i++) check(i + 100L, everyone[i], "Allgather " + i);

        int[] a2aOut = new int[size];
        int[] a2aIn = new int[size];
        for (int j = 0; j < size; j++) a2aOut[j] = me * 100 + j;
        MPI.COMM_WORLD.Alltoall(a2aOut, 0, 1, MPI.INT, a2aIn, 0, 1, MPI.INT);
        for (int j = 0; j < size; j++) check(j * 100 + me, a2aIn[j], "Alltoall from " + j);

        int[] scan = new int[1];
        MPI.COMM_WORLD.Scan(new int[] {1}, 0, scan, 0, 1, MPI.INT, MPI.SUM);
        check(me + 1, scan[0], "Scan");

        // Serializable objects: point-to-point, broadcast and gather.
        Particle[] p = {new Particle(me, me, -me, "p" + me)};
        Particle[] q = new Particle[1];
        Request po = MPI.COMM_WORLD.Isend(p, 0, 1, MPI.OBJECT, next, 6);
        Status os = MPI.COMM_WORLD.Recv(q, 0, 1, MPI.OBJECT, prev, 6);
        po.Wait();
        check(prev, os.source, "object status source");
        check(6, os.tag, "object status tag");
        check(1, os.Get_count(MPI.OBJECT), "object Get_count");
        check(q[0].owner == prev && q[0].position[0] == prev && ("p" + prev).equals(q[0].label), "object content");

        Object[] shared = new Object[2];
        if (me == 0) {
            shared[0] = "hello from 0";
            shared[1] = new int[] {4, 5, 6};
        }
        MPI.COMM_WORLD.Bcast(shared, 0, 2, MPI.OBJECT, 0);
        check("hello from 0".equals(shared[0]) && ((int[]) shared[1])[2] == 6, "Bcast objects");

        Object[] names = new Object[size];
        MPI.COMM_WORLD.Gather(new Object[] {"rank-" + me}, 0, 1, MPI.OBJECT, names, 0, 1, MPI.OBJECT, 0);
        if (me == 0) {
            for (int i = 0; i < size; i++) check(("rank-" + i).equals(names[i]), "Gather objects " + i);
        }

        // Groups and communicators.
        Group world = MPI.COMM_WORLD.Group();
        Group first = world.Incl(new int[] {0});
        int[] t = Group.Translate_ranks(first, new int[] {0}, world);
        check(0, t[0], "Translate_ranks");
        check(me == 0 ? 0 : MPI.UNDEFINED, first.Rank(), "Incl rank");
        Intracomm halves = MPI.COMM_WORLD.Split(me % 2, me);
        check(me / 2, halves.Rank(), "Split rank");
        int[] hsum = new int[1];
        halves.Allreduce(new int[] {1}, 0, hsum, 0, 1, MPI.INT, MPI.SUM);
        check(halves.Size(), hsum[0], "Allreduce on Split");
        halves.Free();
        Intracomm copy = (Intracomm) MPI.COMM_WORLD.Clone();
        check(MPI.CONGRUENT, Comm.Compare(MPI.COMM_WORLD, copy), "Clone compares CONGRUENT");
        copy.Barrier();
        copy.Free();

        // Pack / Unpack.
        byte[] packBuf = new byte[MPI.COMM_WORLD.Pack_size(2, MPI.INT)];
        int pos = MPI.COMM_WORLD.Pack(new int[] {9, me, 9}, 1, 2, MPI.INT, packBuf, 0);
        int[] unpacked = new int[3];
        MPI.COMM_WORLD.Unpack(packBuf, 0, unpacked, 1, 2, MPI.INT);
        check(8, pos, "Pack position");
        check(me == unpacked[1] && unpacked[2] == 9, "Unpack");

        // A user reduction, mpiJava style.
        Op sumSquares = new Op(new User_function() {
            public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count,
                             Datatype datatype) {
                int[] a = (int[]) invec;
                int[] b = (int[]) inoutvec;
                for (int i = 0; i < count; i++) b[inoutoffset + i] += a[inoffset + i];
            }
        }, true);
        int[] us = new int[1];
        MPI.COMM_WORLD.Allreduce(new int[] {me}, 0, us, 0, 1, MPI.INT, sumSquares);
        check((long) size * (size - 1) / 2, us[0], "user function");

        try {
            MPI.COMM_WORLD.Send(new int[2], 0, 5, MPI.INT, next, 7);
            check(false, "a count beyond the array must throw");
        } catch (MPIException e) {
            check(e.getMessage().contains("count 5"), "error names the count");
        }

        check(MPI.Wtime() >= t0 && MPI.Wtick() > 0, "Wtime/Wtick");
        check(MPI.Get_processor_name().length() > 0, "Get_processor_name");
        MPI.COMM_WORLD.Barrier();
        System.out.println("MPIJAVA-STYLE OK " + me + " " + size + " (" + checks + " checks)");
        MPI.Finalize();
    }
}
