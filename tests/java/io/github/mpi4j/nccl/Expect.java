package io.github.mpi4j.nccl;

import io.github.mpi4j.testing.Check;

/**
 * The few assertions the rank suites use, without JUnit: ranks run with only mpi4j's and the
 * test classes on their class path.
 */
final class Expect {
    private Expect() {
    }

    static void assertEquals(long expected, long actual) {
        Check.equal(expected, actual, "value");
    }

    static void assertEquals(long expected, long actual, String what) {
        Check.equal(expected, actual, what);
    }

    static void assertArrayEquals(Object expected, Object actual) {
        Check.arrays(expected, actual, "array");
    }

    static void assertArrayEquals(Object expected, Object actual, String what) {
        Check.arrays(expected, actual, what);
    }

    static void assertTrue(boolean condition, String what) {
        Check.isTrue(condition, what);
    }

    static void assertNull(Object o) {
        Check.isTrue(o == null, "expected null, got " + o);
    }

    static <T extends Throwable> T assertThrows(Class<T> type, Runnable action) {
        return assertThrows(type, action, "");
    }

    /** Runs {@code action}, which must throw a {@code type}; returns it. */
    static <T extends Throwable> T assertThrows(Class<T> type, Runnable action, String what) {
        try {
            action.run();
        } catch (Throwable t) {
            if (type.isInstance(t)) return type.cast(t);
            throw new AssertionError(what + ": expected " + type.getSimpleName() + " but got " + t, t);
        }
        throw new AssertionError(what + ": expected " + type.getSimpleName() + " but nothing was thrown");
    }
}
