package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.nio.Buffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Single-copy transfers between processes of one node: the receiver of a large message reads
 * it straight out of the sender's memory with Linux's {@code process_vm_readv} ("cross-memory
 * attach", as Open MPI's {@code vader} does), through {@code libmpi4j_dl}, instead of the
 * sender copying it into a shared-memory ring and the receiver copying it out.
 *
 * <p>The sender's memory must stay where it is until the receiver has read it, so only direct
 * buffers (and native memory) can be read: a Java array may move with the garbage collector
 * once the call that could pin it returns. The receiver's memory may be either, as an array is
 * pinned for the system call alone. Values travel as raw bytes, so typed buffers must be in
 * this machine's byte order on both sides. Where any of this does not hold, or the library is
 * not loaded, callers take the two-copy path.
 *
 * <p>Off unless {@code MPI4J_SINGLE_COPY=1}: on the 2-core machine of docs/performance.md the
 * kernel's copy (about 4 GB/s at 1 MiB, the same for Open MPI's C) was slower than the ring's
 * two copies, which the two processes make at once on their two cores (about 7 GB/s);
 * ping-pong at 1 MiB 237-282 µs against 136-149 (eleventh session). It can pay where the
 * copies cannot overlap or memory bandwidth is what runs out: many ranks a node.
 */
public final class ProcessCopy {
    private ProcessCopy() {
    }

    /** Whether single copies may be tried at all: the user turned them on and the library loads. */
    public static final boolean ENABLED = "1".equals(System.getenv("MPI4J_SINGLE_COPY")) && HostViews.available();

    /** Reads this process has made (tests check that the path runs). */
    public static final AtomicLong READS = new AtomicLong();

    /**
     * The address of byte {@code off} of {@code b}'s memory when a peer may read it there while
     * a send is in flight (a direct buffer of primitive values in native order), or 0.
     */
    public static long readableAddress(Buf b, long off) {
        if (!ENABLED || !(b.base instanceof Buffer)) return 0;
        Buffer buffer = (Buffer) b.base;
        BaseKind k = b.kind;
        if (!buffer.isDirect() || k == BaseKind.BOOLEAN || k == BaseKind.OBJECT || !NativeCopy.nativeOrder(buffer)) {
            return 0;
        }
        long address = HostViews.addressOf(buffer);
        return address == 0 ? 0 : address + (long) b.offset * k.bytes + off;
    }

    /** Whether {@link #read} can write into {@code b}: a primitive array, or a writable direct buffer in native order. */
    public static boolean canReceive(Buf b) {
        if (!ENABLED) return false;
        BaseKind k = b.kind;
        if (k == BaseKind.BOOLEAN || k == BaseKind.OBJECT) return false;
        Object base = b.base;
        if (base instanceof Buffer) {
            Buffer buffer = (Buffer) base;
            return buffer.isDirect() && !buffer.isReadOnly() && NativeCopy.nativeOrder(buffer);
        }
        return base != null && base.getClass().isArray() && base.getClass().getComponentType().isPrimitive();
    }

    /**
     * Reads {@code n} bytes at {@code remote} in process {@code pid} into {@code b}'s memory at
     * byte {@code off} (which {@link #canReceive} accepted). Returns {@code n}, or the negated
     * errno of a failed read (the peer's address not mapped, no permission to read another
     * process, no such process); then nothing is promised about the bytes at {@code off}.
     */
    public static long read(long pid, long remote, Buf b, long off, long n) {
        BaseKind k = b.kind;
        long first = (long) b.offset * k.bytes + off;
        Object base = b.base;
        if (base instanceof Buffer) {
            Buffer buffer = (Buffer) base;
            NativeCopy.check(first, n, (long) buffer.capacity() * k.bytes, "buffer");
            return counted(readIntoBuffer0((int) pid, remote, buffer, first, n));
        }
        NativeCopy.check(first, n, (long) java.lang.reflect.Array.getLength(base) * k.bytes, "array");
        return counted(readIntoArray0((int) pid, remote, base, first, n));
    }

    private static long counted(long result) {
        if (result >= 0) READS.incrementAndGet();
        return result;
    }

    private static native long readIntoBuffer0(int pid, long remote, Buffer buffer, long at, long n);

    private static native long readIntoArray0(int pid, long remote, Object array, long at, long n);
}
