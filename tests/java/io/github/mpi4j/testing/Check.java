package io.github.mpi4j.testing;

import java.util.Arrays;
import java.util.function.Supplier;
import mpi.MPIException;

/**
 * Assertions for code running inside ranks (no JUnit on the ranks' class path). Messages say
 * what was expected, what came, and where.
 */
public final class Check {
    private Check() {
    }

    public static void isTrue(boolean condition, String what) {
        if (!condition) throw new AssertionError(what);
    }

    public static void equal(long expected, long actual, String what) {
        if (expected != actual) throw new AssertionError(what + ": expected " + expected + " but got " + actual);
    }

    public static void equal(Object expected, Object actual, String what) {
        if (expected == null ? actual != null : !expected.equals(actual)) {
            throw new AssertionError(what + ": expected " + expected + " but got " + actual);
        }
    }

    public static void near(double expected, double actual, double relTol, String what) {
        double scale = Math.max(1.0, Math.abs(expected));
        if (!(Math.abs(expected - actual) <= relTol * scale)) {
            throw new AssertionError(what + ": expected " + expected + " but got " + actual);
        }
    }

    /** Element-wise equality of two arrays of the same primitive type (or Object[]). */
    public static void arrays(Object expected, Object actual, String what) {
        boolean same;
        if (expected instanceof int[]) same = Arrays.equals((int[]) expected, (int[]) actual);
        else if (expected instanceof long[]) same = Arrays.equals((long[]) expected, (long[]) actual);
        else if (expected instanceof double[]) same = Arrays.equals((double[]) expected, (double[]) actual);
        else if (expected instanceof float[]) same = Arrays.equals((float[]) expected, (float[]) actual);
        else if (expected instanceof short[]) same = Arrays.equals((short[]) expected, (short[]) actual);
        else if (expected instanceof char[]) same = Arrays.equals((char[]) expected, (char[]) actual);
        else if (expected instanceof byte[]) same = Arrays.equals((byte[]) expected, (byte[]) actual);
        else if (expected instanceof boolean[]) same = Arrays.equals((boolean[]) expected, (boolean[]) actual);
        else same = Arrays.deepEquals((Object[]) expected, (Object[]) actual);
        if (!same) {
            throw new AssertionError(what + ": arrays differ\n  expected " + show(expected) + "\n  actual   "
                    + show(actual));
        }
    }

    /** Doubles within a relative tolerance. */
    public static void arraysNear(double[] expected, double[] actual, double relTol, String what) {
        equal(expected.length, actual.length, what + " length");
        for (int i = 0; i < expected.length; i++) near(expected[i], actual[i], relTol, what + "[" + i + "]");
    }

    private static String show(Object a) {
        String s;
        if (a instanceof int[]) s = Arrays.toString((int[]) a);
        else if (a instanceof long[]) s = Arrays.toString((long[]) a);
        else if (a instanceof double[]) s = Arrays.toString((double[]) a);
        else if (a instanceof float[]) s = Arrays.toString((float[]) a);
        else if (a instanceof short[]) s = Arrays.toString((short[]) a);
        else if (a instanceof char[]) s = Arrays.toString((char[]) a);
        else if (a instanceof byte[]) s = Arrays.toString((byte[]) a);
        else if (a instanceof boolean[]) s = Arrays.toString((boolean[]) a);
        else s = Arrays.deepToString((Object[]) a);
        return s.length() > 600 ? s.substring(0, 600) + "..." : s;
    }

    /**
     * Runs {@code action}, which must throw an MPIException of {@code errorClass} whose message
     * contains every one of {@code fragments}; returns it.
     */
    public static MPIException throwsMpi(int errorClass, Runnable action, String... fragments) {
        try {
            action.run();
        } catch (MPIException e) {
            if (e.getErrorClass() != errorClass) {
                throw new AssertionError("expected error class " + errorClass + " but got " + e.getErrorClass()
                        + ": " + e.getMessage(), e);
            }
            String m = String.valueOf(e.getMessage());
            for (String f : fragments) {
                if (!m.contains(f)) throw new AssertionError("message '" + m + "' does not mention '" + f + "'", e);
            }
            return e;
        }
        throw new AssertionError("expected an MPIException (class " + errorClass + ") but nothing was thrown");
    }

    /** Lazily built message variant, for loops. */
    public static void isTrue(boolean condition, Supplier<String> what) {
        if (!condition) throw new AssertionError(what.get());
    }
}
