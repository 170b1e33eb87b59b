package io.github.mpi4j.api;

import mpi.MPI;
import mpi.Op;

/**
 * Sequential reference for reductions: what rank r contributes, and the fold of those
 * contributions over ranks 0..n-1 with Java semantics (integers wrap, byte is signed, char
 * unsigned, logical ops give 1/0). Independent of any mpi4j code.
 */
public final class Reference {
    private Reference() {
    }

    /** The reducible (op, kind) pairs, as the MPI standard groups them. */
    public static final Op[] OPS = {MPI.MAX, MPI.MIN, MPI.SUM, MPI.PROD, MPI.LAND, MPI.BAND, MPI.LOR, MPI.BOR,
        MPI.LXOR, MPI.BXOR};

    public static boolean allowed(Op op, Data d) {
        boolean integer = d == Data.BYTE || d == Data.CHAR || d == Data.SHORT || d == Data.INT || d == Data.LONG;
        if (op == MPI.MAX || op == MPI.MIN || op == MPI.SUM || op == MPI.PROD) return d != Data.BOOLEAN;
        if (op == MPI.LAND || op == MPI.LOR || op == MPI.LXOR) return integer || d == Data.BOOLEAN;
        return integer;
    }

    /**
     * Contribution of {@code rank} for {@code op}: small values for PROD (so floats stay exact),
     * values that overflow 8- and 16-bit sums, and a mix of zeros for the logical ops.
     */
    public static Object contribution(Op op, Data d, int rank, int n) {
        Object a = d.newArray(n);
        for (int i = 0; i < n; i++) {
            long v;
            if (op == MPI.PROD) v = d.isFloat() ? ((rank + i) % 3) - 1 : (rank + i) % 5 + 1;
            else if (op == MPI.LAND || op == MPI.LOR || op == MPI.LXOR) v = (i + rank) % 3 == 0 ? 0 : i + 1;
            else if (d.isFloat()) v = ((rank * 7 + i * 3) % 11) - 5;
            else v = rank * 37L + i * 11L + 100 + (d == Data.LONG ? (long) i << 40 : 0);
            d.set(a, i, v);
        }
        return a;
    }

    /** Folds contributions of ranks {@code from..to} (inclusive) in rank order; null if the range is empty. */
    public static Object fold(Op op, Data d, int n, int from, int to) {
        if (to < from) return null;
        Object acc = contribution(op, d, from, n);
        for (int r = from + 1; r <= to; r++) {
            Object x = contribution(op, d, r, n);
            for (int i = 0; i < n; i++) combine(op, d, x, acc, i);
        }
        return acc;
    }

    /** acc[i] = x[i] op acc[i]. */
    private static void combine(Op op, Data d, Object x, Object acc, int i) {
        if (d.isFloat()) {
            double a = d.get(x, i), b = d.get(acc, i);
            double r;
            if (op == MPI.MAX) r = a > b ? a : b;
            else if (op == MPI.MIN) r = a < b ? a : b;
            else if (op == MPI.SUM) r = a + b;
            else r = a * b;
            d.setDouble(acc, i, r);
            return;
        }
        if (d == Data.BOOLEAN) {
            boolean a = d.get(x, i) != 0, b = d.get(acc, i) != 0;
            boolean r = op == MPI.LAND ? a && b : op == MPI.LOR ? a || b : a != b;
            d.set(acc, i, r ? 1 : 0);
            return;
        }
        long a = d.getLong(x, i), b = d.getLong(acc, i);
        long r;
        if (op == MPI.MAX) r = Math.max(a, b);
        else if (op == MPI.MIN) r = Math.min(a, b);
        else if (op == MPI.SUM) r = a + b;
        else if (op == MPI.PROD) r = a * b;
        else if (op == MPI.LAND) r = (a != 0 && b != 0) ? 1 : 0;
        else if (op == MPI.LOR) r = (a != 0 || b != 0) ? 1 : 0;
        else if (op == MPI.LXOR) r = ((a != 0) != (b != 0)) ? 1 : 0;
        else if (op == MPI.BAND) r = a & b;
        else if (op == MPI.BOR) r = a | b;
        else r = a ^ b;
        d.set(acc, i, r);
    }

    /** Elements {@code [from, from+len)} of an array. */
    public static Object slice(Data d, Object a, int from, int len) {
        Object out = d.newArray(len);
        System.arraycopy(a, from, out, 0, len);
        return out;
    }
}
