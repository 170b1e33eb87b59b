package io.github.mpi4j.api;

import io.github.mpi4j.testing.Check;
import io.github.mpi4j.testing.RankTest;
import java.nio.ByteBuffer;
import mpi.Datatype;
import mpi.DoubleComplex;
import mpi.DoubleInt;
import mpi.FloatInt;
import mpi.Int2;
import mpi.Intracomm;
import mpi.LongInt;
import mpi.MPI;
import mpi.Op;
import mpi.ShortInt;
import mpi.Struct;
import mpi.UserFunction;

/**
 * The struct helpers of the Open MPI bindings (issue 10, item 2) and user reductions on derived
 * and pair types (item 8b). References are sequential computations over the values every rank
 * derives from its rank.
 */
public class StructSuite {

    /** A value rank {@code r} holds at item {@code i}: few distinct values, so ranks tie. */
    private static int v(int r, int i) {
        return ((r * 7 + i * 3) % 5) * (i % 2 == 0 ? 1 : -1);
    }

    /** (value, index) of MINLOC or MAXLOC over the ranks at item {@code i}, ties to the smaller rank. */
    private static int[] loc(int size, int i, boolean min) {
        int best = v(0, i), at = 0;
        for (int r = 1; r < size; r++) {
            int x = v(r, i);
            if (min ? x < best : x > best) {
                best = x;
                at = r;
            }
        }
        return new int[] {best, at};
    }

    /**
     * Units of the predefined composite types' queries, as the Open MPI bindings give them:
     * the {value, int} structs and INT2 in bytes (C layout on LP64), the complex types in their
     * floats or doubles, the mpiJava pairs in their elements. Programs size ByteBuffers with them.
     */
    @RankTest
    public void predefinedCompositeUnits(Intracomm comm) {
        Check.equal(8, MPI.SHORT_INT.getExtent(), "SHORT_INT extent (bytes)");
        Check.equal(6, MPI.SHORT_INT.getSize(), "SHORT_INT size (bytes)");
        Check.equal(16, MPI.LONG_INT.getExtent(), "LONG_INT extent (bytes)");
        Check.equal(12, MPI.LONG_INT.getSize(), "LONG_INT size (bytes)");
        Check.equal(8, MPI.FLOAT_INT.getExtent(), "FLOAT_INT extent (bytes)");
        Check.equal(16, MPI.DOUBLE_INT.getExtent(), "DOUBLE_INT extent (bytes)");
        Check.equal(8, MPI.INT2.getExtent(), "INT2 extent (bytes, base MPI.BYTE in the Open MPI bindings)");
        Check.equal(2, MPI.DOUBLE_COMPLEX.getExtent(), "DOUBLE_COMPLEX extent (doubles)");
        Check.equal(2, MPI.FLOAT_COMPLEX.getSize(), "FLOAT_COMPLEX size (floats)");
        Check.equal(2, MPI.SHORT2.getExtent(), "SHORT2 extent (shorts)");
        Check.equal(1, MPI.INT.getExtent(), "INT extent");
        // A buffer sized the bindings' way holds its records.
        java.nio.ByteBuffer b = MPI.newByteBuffer(MPI.SHORT_INT.getExtent() * 3);
        mpi.ShortInt.Data last = MPI.shortInt.getData(b, 2);
        last.putValue((short) comm.getRank());
        last.putIndex(7);
        Check.equal(comm.getRank(), last.getValue(), "last record's value");
        Check.equal(7, last.getIndex(), "last record's index");
    }

    /** MINLOC and MAXLOC over records viewed through MPI.int2 ... MPI.doubleInt. */
    @RankTest
    public void pairRecords(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), n = 6;
        Check.equal(8, MPI.int2.getExtent(), "int2 extent");
        Check.equal(8, MPI.shortInt.getExtent(), "shortInt extent");
        Check.equal(16, MPI.longInt.getExtent(), "longInt extent");
        Check.equal(8, MPI.floatInt.getExtent(), "floatInt extent");
        Check.equal(16, MPI.doubleInt.getExtent(), "doubleInt extent");

        ByteBuffer in = MPI.newByteBuffer(16 * n), out = MPI.newByteBuffer(16 * n);
        for (int i = 0; i < n; i++) {
            DoubleInt.Data d = MPI.doubleInt.getData(in, i);
            d.putValue(v(rank, i) + 0.25);
            d.putIndex(rank);
        }
        comm.allReduce(in, out, n, MPI.DOUBLE_INT, MPI.MINLOC);
        for (int i = 0; i < n; i++) {
            DoubleInt.Data d = MPI.doubleInt.getData(out, i);
            int[] want = loc(size, i, true);
            Check.near(want[0] + 0.25, d.getValue(), 0, "doubleInt min value " + i);
            Check.equal(want[1], d.getIndex(), "doubleInt min index " + i);
        }

        for (int i = 0; i < n; i++) {
            Int2.Data a = MPI.int2.getData(in, i);
            a.putValue(v(rank, i));
            a.putIndex(rank);
        }
        comm.allReduce(in, out, n, MPI.INT2, MPI.MAXLOC);
        for (int i = 0; i < n; i++) {
            Int2.Data a = MPI.int2.getData(out, i);
            int[] want = loc(size, i, false);
            Check.equal(want[0], a.getValue(), "int2 max value " + i);
            Check.equal(want[1], a.getIndex(), "int2 max index " + i);
        }

        for (int i = 0; i < n; i++) {
            FloatInt.Data f = MPI.floatInt.getData(in, i);
            f.putValue(v(rank, i) * 0.5f);
            f.putIndex(rank);
        }
        comm.allReduce(in, out, n, MPI.FLOAT_INT, MPI.MAXLOC);
        for (int i = 0; i < n; i++) {
            FloatInt.Data f = MPI.floatInt.getData(out, i);
            int[] want = loc(size, i, false);
            Check.near(want[0] * 0.5, f.getValue(), 0, "floatInt max value " + i);
            Check.equal(want[1], f.getIndex(), "floatInt max index " + i);
        }

        for (int i = 0; i < n; i++) {
            LongInt.Data l = MPI.longInt.getData(in, i);
            l.putValue(v(rank, i) * 10_000_000_000L);
            l.putIndex(rank);
        }
        comm.allReduce(in, out, n, MPI.LONG_INT, MPI.MINLOC);
        for (int i = 0; i < n; i++) {
            LongInt.Data l = MPI.longInt.getData(out, i);
            int[] want = loc(size, i, true);
            Check.equal(want[0] * 10_000_000_000L, l.getValue(), "longInt min value " + i);
            Check.equal(want[1], l.getIndex(), "longInt min index " + i);
        }

        for (int i = 0; i < n; i++) {
            ShortInt.Data s = MPI.shortInt.getData(in, i);
            s.putValue((short) v(rank, i));
            s.putIndex(rank);
        }
        comm.allReduce(in, out, n, MPI.SHORT_INT, MPI.MINLOC);
        for (int i = 0; i < n; i++) {
            ShortInt.Data s = MPI.shortInt.getData(out, i);
            int[] want = loc(size, i, true);
            Check.equal(want[0], s.getValue(), "shortInt min value " + i);
            Check.equal(want[1], s.getIndex(), "shortInt min index " + i);
        }
    }

    /** MINLOC over a vector of MPI.INT2 pairs (every other pair of an int[]): only the selected pairs change. */
    @RankTest
    public void minLocOverVectorOfPairs(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), pairs = 4;
        Datatype everyOther = Datatype.createVector(pairs, 1, 2, MPI.INT2);
        everyOther.commit();
        int[] mine = new int[4 * pairs], got = new int[4 * pairs];
        for (int p = 0; p < 2 * pairs; p++) {
            mine[2 * p] = v(rank, p);
            mine[2 * p + 1] = rank;
        }
        java.util.Arrays.fill(got, -5);
        comm.allReduce(mine, got, 1, everyOther, MPI.MINLOC);
        for (int p = 0; p < 2 * pairs; p++) {
            int[] want = p % 2 == 0 ? loc(size, p, true) : new int[] {-5, -5};
            Check.equal(want[0], got[2 * p], "pair " + p + " value");
            Check.equal(want[1], got[2 * p + 1], "pair " + p + " index");
        }
        everyOther.free();
    }

    /** SUM and PROD of complex numbers, viewed through DoubleComplex, against sequential arithmetic. */
    @RankTest
    public void complexReductions(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), n = 3;
        double[] z = new double[2 * n];
        for (int i = 0; i < n; i++) {
            DoubleComplex c = DoubleComplex.get(z, i);
            c.putReal(rank + i);
            c.putImag(1 - rank * 0.5);
        }
        double[] sum = new double[2 * n], prod = new double[2 * n];
        comm.allReduce(z, sum, n, MPI.DOUBLE_COMPLEX, MPI.SUM);
        comm.allReduce(z, prod, n, MPI.DOUBLE_COMPLEX, MPI.PROD);
        for (int i = 0; i < n; i++) {
            double sr = 0, si = 0, pr = 1, pi = 0;
            for (int r = 0; r < size; r++) {
                double re = r + i, im = 1 - r * 0.5;
                sr += re;
                si += im;
                double t = pr * re - pi * im;
                pi = pr * im + pi * re;
                pr = t;
            }
            DoubleComplex s = DoubleComplex.get(sum, i), p = DoubleComplex.get(prod, i);
            Check.near(sr, s.getReal(), 1e-12, "sum re " + i);
            Check.near(si, s.getImag(), 1e-12, "sum im " + i);
            Check.near(pr, p.getReal(), 1e-12, "prod re " + i);
            Check.near(pi, p.getImag(), 1e-12, "prod im " + i);
        }
    }

    /** A record of an int, two doubles and a nested Int2, point to point through getType(). */
    static final class Particle extends Struct {
        final int id = addInt();
        final int pos = addDouble(2);
        final int pair = addStruct(MPI.int2);

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int id() {
                return getInt(id);
            }

            void id(int v) {
                putInt(id, v);
            }

            double pos(int k) {
                return getDouble(pos, k);
            }

            void pos(int k, double v) {
                putDouble(pos, k, v);
            }

            Int2.Data pair() {
                return getData(MPI.int2, pair);
            }
        }
    }

    @RankTest
    public void userStructPointToPoint(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        Particle p = new Particle();
        Check.equal(0, p.id, "id offset");
        Check.equal(4, p.pos, "pos offset (packed as added)");
        Check.equal(20, p.pair, "pair offset");
        Check.equal(32, p.getExtent(), "extent: 28 bytes padded to 8");
        int n = 3;
        ByteBuffer out = MPI.newByteBuffer(n * p.getExtent()), in = MPI.newByteBuffer(n * p.getExtent());
        for (int i = 0; i < n; i++) {
            Particle.Data d = p.getData(out, i);
            d.id(rank * 10 + i);
            d.pos(0, rank + 0.5);
            d.pos(1, -i);
            d.pair().putValue(i * 3);
            d.pair().putIndex(rank);
        }
        comm.sendRecv(out, n, p.getType(), next, 8, in, n, p.getType(), prev, 8);
        for (int i = 0; i < n; i++) {
            Particle.Data d = p.getData(in, i);
            Check.equal(prev * 10 + i, d.id(), "id " + i);
            Check.near(prev + 0.5, d.pos(0), 0, "pos0 " + i);
            Check.near(-i, d.pos(1), 0, "pos1 " + i);
            Check.equal(i * 3, d.pair().getValue(), "pair value " + i);
            Check.equal(prev, d.pair().getIndex(), "pair index " + i);
        }
    }

    // ---- user reductions on derived and pair types (item 8b) ----------------------------------

    /** A user op over a vector of ints sees the vector type and its layout; result as a sequential fold. */
    @RankTest
    public void userOpOnVector(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize();
        Datatype vec = Datatype.createVector(3, 1, 2, MPI.INT); // ints 0, 2, 4 of 5
        vec.commit();
        boolean[] sawType = {true};
        Op maxAbs = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                if (type != vec) sawType[0] = false;
                int[] a = (int[]) in, b = (int[]) inOut;
                for (int item = 0; item < count; item++) {
                    for (int k = 0; k < 3; k++) {
                        int i = item * 5 + 2 * k;
                        if (Math.abs(a[i]) > Math.abs(b[i])) b[i] = a[i];
                    }
                }
            }
        }, true);
        int items = 2;
        int[] mine = new int[items * 5], got = new int[items * 5];
        for (int i = 0; i < mine.length; i++) mine[i] = v(rank, i) * (i + 1);
        java.util.Arrays.fill(got, 77);
        comm.allReduce(mine, got, items, vec, maxAbs);
        int[] want = new int[items * 5];
        java.util.Arrays.fill(want, 77);
        for (int item = 0; item < items; item++) {
            for (int k = 0; k < 3; k++) {
                int i = item * 5 + 2 * k;
                int best = v(0, i) * (i + 1);
                for (int r = 1; r < size; r++) {
                    int x = v(r, i) * (i + 1);
                    if (Math.abs(x) > Math.abs(best)) best = x;
                }
                want[i] = best;
            }
        }
        Check.arrays(want, got, "user op over vector items (gaps untouched)");
        Check.isTrue(sawType[0], "the function was given the vector datatype");
        maxAbs.free();
        vec.free();
    }

    /** A user op over MPI.INT2 pairs: the pair with the larger sum wins. */
    @RankTest
    public void userOpOnPairs(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), n = 4;
        Op biggerSum = new Op(new UserFunction() {
            @Override
            public void call(Object in, Object inOut, int count, Datatype type) {
                int[] a = (int[]) in, b = (int[]) inOut;
                for (int i = 0; i < count; i++) {
                    if (a[2 * i] + a[2 * i + 1] > b[2 * i] + b[2 * i + 1]) {
                        b[2 * i] = a[2 * i];
                        b[2 * i + 1] = a[2 * i + 1];
                    }
                }
            }
        }, true);
        int[] mine = new int[2 * n], got = new int[2 * n];
        for (int i = 0; i < n; i++) {
            mine[2 * i] = v(rank, i);
            mine[2 * i + 1] = rank * 10;
        }
        comm.allReduce(mine, got, n, MPI.INT2, biggerSum);
        for (int i = 0; i < n; i++) {
            int bestA = v(0, i), bestB = 0;
            for (int r = 1; r < size; r++) {
                if (v(r, i) + r * 10 > bestA + bestB) {
                    bestA = v(r, i);
                    bestB = r * 10;
                }
            }
            Check.equal(bestA, got[2 * i], "pair " + i + " first");
            Check.equal(bestB, got[2 * i + 1], "pair " + i + " second");
        }
        biggerSum.free();
    }

    /** A user op over Struct records in a direct ByteBuffer: int fields summed, double fields maxed. */
    @RankTest
    public void userOpOnStructRecords(Intracomm comm) {
        int rank = comm.getRank(), size = comm.getSize(), n = 3;
        Particle p = new Particle();
        int ext = p.getExtent();
        Op combine = new Op(new UserFunction() {
            @Override
            public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
                for (int i = 0; i < count; i++) {
                    Particle.Data a = p.getData(in, i), b = p.getData(inOut, i);
                    b.id(a.id() + b.id());
                    b.pos(0, Math.max(a.pos(0), b.pos(0)));
                    b.pos(1, Math.min(a.pos(1), b.pos(1)));
                }
            }
        }, true);
        ByteBuffer mine = MPI.newByteBuffer(n * ext), got = MPI.newByteBuffer(n * ext);
        for (int i = 0; i < n; i++) {
            Particle.Data d = p.getData(mine, i);
            d.id(rank + i);
            d.pos(0, v(rank, i));
            d.pos(1, v(rank, i + 1));
        }
        comm.allReduce(mine, got, n, p.getType(), combine);
        for (int i = 0; i < n; i++) {
            int ids = 0;
            double mx = Double.NEGATIVE_INFINITY, mn = Double.POSITIVE_INFINITY;
            for (int r = 0; r < size; r++) {
                ids += r + i;
                mx = Math.max(mx, v(r, i));
                mn = Math.min(mn, v(r, i + 1));
            }
            Particle.Data d = p.getData(got, i);
            Check.equal(ids, d.id(), "ids " + i);
            Check.near(mx, d.pos(0), 0, "max " + i);
            Check.near(mn, d.pos(1), 0, "min " + i);
        }
        combine.free();
    }
}
