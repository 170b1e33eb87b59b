package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.MemoryRules;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.MemoryKind;
import java.nio.ByteBuffer;

/**
 * One buffer argument of a native call: (object, mode, byte offset). Arrays are either pinned by
 * the native call ({@link MpiNative#ARRAY}) or staged: copied into pooled native memory before
 * the call (send side) and back after it completes (receive side). Direct buffers are passed as
 * they are; host memory given by address goes by address ({@link MpiNative#RAW}), and so does
 * device memory when the library is CUDA-aware ({@link MpiDevice}); else it is refused before
 * any native call.
 */
final class Arg {
    Object obj;
    int mode;
    long off;

    private Buf user;
    /** The memory the call uses instead of the array: a pooled slab's, or this thread's small area's. */
    private ByteBuffer staging;
    /** The pooled slab of {@link #staging} (null for the thread's small area). */
    private StagingPool.Slab slab;
    private long bytes;
    private boolean copyBack;

    /**
     * Small arrays in blocking calls are copied through per-thread native memory instead of being
     * pinned: a copy of up to this many bytes costs less than the JNI calls of pinning.
     */
    static final int SMALL = 1024;

    /**
     * Per thread: two staging areas (a call has at most a send and a receive buffer), their
     * addresses, and the records that describe them, reused by every call (a blocking call is
     * over before the thread makes another, so a small message allocates nothing).
     */
    private static final class Local {
        final ByteBuffer[] bufs = new ByteBuffer[2];
        final long[] addrs = new long[2];
        final Arg[] args = {new Arg(), new Arg()};

        Local() {
            for (int i = 0; i < 2; i++) {
                bufs[i] = ByteBuffer.allocateDirect(SMALL).order(java.nio.ByteOrder.nativeOrder());
                addrs[i] = MpiNative.address0(bufs[i]);
            }
        }
    }

    private static final ThreadLocal<Local> LOCAL = ThreadLocal.withInitial(Local::new);

    /**
     * A blocking-call argument for a small array: copied into this thread's staging area
     * {@code slot} (0 or 1), passed by address.
     */
    /**
     * A blocking-call argument for a direct buffer: this thread's record {@code slot}, passing
     * the buffer by address (nothing to stage or finish).
     */
    static Arg direct(Buf b, int slot) {
        Arg a = LOCAL.get().args[slot];
        a.obj = b.base;
        a.mode = MpiNative.RAW;
        a.off = directAddress(b);
        a.user = null;
        a.staging = null;
        a.slab = null;
        return a;
    }

    static Arg small(Buf b, long bytes, boolean read, boolean write, int slot) {
        Local l = LOCAL.get();
        Arg a = l.args[slot];
        a.obj = null;
        a.slab = null;
        a.user = b;
        a.bytes = bytes;
        a.copyBack = write;
        a.staging = l.bufs[slot];
        a.mode = MpiNative.RAW;
        a.off = l.addrs[slot];
        if (read && bytes > 0) BufAccess.get(b, 0, a.staging, 0, (int) bytes);
        return a;
    }

    private Arg() {
    }

    /**
     * @param b      the buffer (null: not significant; Buf.IN_PLACE: MPI_IN_PLACE)
     * @param bytes  bytes of {@code b} the call reads or writes (from its first element)
     * @param read   whether the call reads the buffer (copy in when staging)
     * @param write  whether the call writes it (copy back when staging)
     * @param stage  whether an array must be staged instead of pinned
     */
    static Arg of(Buf b, long bytes, boolean read, boolean write, boolean stage) {
        Arg a = new Arg();
        if (b == null) {
            a.mode = MpiNative.NONE;
        } else if (b == Buf.IN_PLACE) {
            a.mode = MpiNative.IN_PLACE;
        } else if (b.isDirect()) {
            // By address, found once per buffer: JNI's GetDirectBufferAddress on every call (an
            // IsInstanceOf, a field read and an exception check) was a seventh of a small
            // receive's time. The buffer still goes along, so it stays reachable during the call.
            a.obj = b.base;
            a.mode = MpiNative.RAW;
            a.off = directAddress(b);
        } else if (b.isNative()) {
            a.mode = MpiNative.RAW;
            a.off = nativeAddress(b);
        } else if (!stage && b.kind != BaseKind.OBJECT) {
            a.obj = b.base;
            a.mode = MpiNative.ARRAY;
            a.off = b.byteOffset();
        } else {
            a.user = b;
            a.bytes = bytes;
            a.copyBack = write;
            a.slab = StagingPool.take(bytes);
            a.staging = a.slab.buf;
            a.obj = a.staging;
            a.mode = MpiNative.RAW;
            a.off = a.slab.address;
            if (read && bytes > 0) BufAccess.get(b, 0, a.staging, 0, (int) bytes);
        }
        return a;
    }

    /** The address of a direct Buf's first element. */
    static long directAddress(Buf b) {
        return b.directAddress(MpiNative::address0) + b.byteOffset();
    }

    /**
     * The address of native memory, passed to MPI as it is (zero copy): host memory always,
     * device memory when the library is CUDA-aware ({@link MpiDevice}); else it is refused.
     */
    private static long nativeAddress(Buf b) {
        admit(b);
        return b.address();
    }

    /**
     * Throws unless this backend accepts the memory kind of {@code b} (null and IN_PLACE pass):
     * device memory only with a CUDA-aware MPI (elsewhere the device layer stages it in host
     * memory before it gets here). Calls with two buffers check both before building either
     * argument, so a refusal leaves no staging memory behind.
     */
    static void admit(Buf b) {
        if (b != null && b.memory == MemoryKind.DEVICE && !MpiDevice.accepted()) {
            throw MemoryRules.refuse(b, "the mpi backend", MpiDevice.why());
        }
    }

    /** Throws if {@code b} is device memory: {@code what} (a user op) runs Java code on the buffers. */
    static void hostOnly(Buf b, String what) {
        if (b != null && b.memory == MemoryKind.DEVICE) {
            throw MemoryRules.refuse(b, "the mpi backend with " + what, "its Java function cannot read device memory");
        }
    }

    /** Copies a send buffer into staging again (persistent requests, before each start). */
    void refresh() {
        if (staging != null && !copyBack && bytes > 0) BufAccess.get(user, 0, staging, 0, (int) bytes);
    }

    /** After completion: copies staged data back to the array (all of it). */
    void complete() {
        complete(-1);
    }

    /**
     * After completion: copies the first {@code received} bytes back to the array (a receive
     * writes only what arrived); a negative value means the whole staged range.
     */
    void complete(long received) {
        long n = received < 0 ? bytes : Math.min(received, bytes);
        if (staging != null && copyBack && n > 0) BufAccess.put(staging, 0, user, 0, (int) n);
    }

    /** Whether completion copies data back (a staged receive buffer). */
    boolean copiesBack() {
        return staging != null && copyBack;
    }

    /** Returns staging memory to the pool (the operation is over). */
    void release() {
        if (slab != null) {
            StagingPool.give(slab);
            slab = null;
        }
        staging = null;
        user = null;  // a thread's reused record keeps no array reachable
    }

    /** The request was freed while active: MPI may still use the staging, which must stay valid. */
    void orphan() {
        if (slab != null) StagingPool.orphan(slab);
        slab = null;
        staging = null;
    }

    /** complete() then release(), for blocking calls. */
    void done() {
        done(-1);
    }

    /** complete(received) then release(), for blocking receives. */
    void done(long received) {
        if (staging != null) {
            complete(received);
            release();
        }
        obj = null;  // a thread's reused record keeps no buffer reachable
    }
}
