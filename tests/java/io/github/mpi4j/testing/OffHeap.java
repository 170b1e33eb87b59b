package io.github.mpi4j.testing;

import io.github.mpi4j.memory.HostMemory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

/**
 * Host memory that Java did not allocate, for tests of {@link HostMemory}: a block from
 * {@code malloc} (through {@code sun.misc.Unsafe}, which needs no native library of mpi4j), read
 * and written here independently of mpi4j's own views. Freed by {@link #close()}.
 */
public final class OffHeap implements AutoCloseable {
    private static final MethodHandle ALLOCATE, FREE, PUT_INT, GET_INT, SET;

    static {
        try {
            Class<?> c = Class.forName("sun.misc.Unsafe");
            Field f = c.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            Object u = f.get(null);
            MethodHandles.Lookup l = MethodHandles.lookup();
            ALLOCATE = l.findVirtual(c, "allocateMemory", MethodType.methodType(long.class, long.class)).bindTo(u);
            FREE = l.findVirtual(c, "freeMemory", MethodType.methodType(void.class, long.class)).bindTo(u);
            PUT_INT = l.findVirtual(c, "putInt", MethodType.methodType(void.class, long.class, int.class)).bindTo(u);
            GET_INT = l.findVirtual(c, "getInt", MethodType.methodType(int.class, long.class)).bindTo(u);
            SET = l.findVirtual(c, "setMemory", MethodType.methodType(void.class, long.class, long.class, byte.class))
                    .bindTo(u);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public final long address;
    public final long bytes;

    /** {@code bytes} bytes, every one set to {@code fill}. */
    public OffHeap(long bytes, byte fill) {
        try {
            this.address = (long) ALLOCATE.invokeExact(Math.max(1, bytes));
            this.bytes = bytes;
            SET.invokeExact(address, Math.max(1, bytes), fill);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The block as mpi4j host memory. */
    public HostMemory memory() {
        return HostMemory.of(address, bytes);
    }

    public void putInt(long index, int v) {
        try {
            PUT_INT.invokeExact(address + 4 * index, v);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public int getInt(long index) {
        try {
            return (int) GET_INT.invokeExact(address + 4 * index);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Ints {@code from .. from+n-1} as an array. */
    public int[] ints(long from, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = getInt(from + i);
        return a;
    }

    @Override
    public void close() {
        try {
            FREE.invokeExact(address);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
