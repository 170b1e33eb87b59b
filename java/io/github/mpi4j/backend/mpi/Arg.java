package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.core.BufAccess;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.nio.ByteBuffer;

/**
 * One buffer argument of a native call: (object, mode, byte offset). Arrays are either pinned by
 * the native call ({@link MpiNative#ARRAY}) or staged: copied into pooled native memory before
 * the call (send side) and back after it completes (receive side).
 */
final class Arg {
    Object obj;
    int mode;
    long off;

    private Buf user;
    private ByteBuffer staging;
    private long bytes;
    private boolean copyBack;

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
        } else if (!b.isArray()) {
            a.obj = b.base;
            a.mode = MpiNative.DIRECT;
            a.off = b.byteOffset();
        } else if (!stage && b.kind != BaseKind.OBJECT) {
            a.obj = b.base;
            a.mode = MpiNative.ARRAY;
            a.off = b.byteOffset();
        } else {
            a.user = b;
            a.bytes = bytes;
            a.copyBack = write;
            a.staging = StagingPool.take(bytes);
            a.obj = a.staging;
            a.mode = MpiNative.DIRECT;
            if (read && bytes > 0) BufAccess.get(b, 0, a.staging, 0, (int) bytes);
        }
        return a;
    }

    /** Copies a send buffer into staging again (persistent requests, before each start). */
    void refresh() {
        if (staging != null && !copyBack && bytes > 0) BufAccess.get(user, 0, staging, 0, (int) bytes);
    }

    /** After completion: copies staged data back to the array. */
    void complete() {
        if (staging != null && copyBack && bytes > 0) BufAccess.put(staging, 0, user, 0, (int) bytes);
    }

    /** Returns staging memory to the pool (the operation is over). */
    void release() {
        if (staging != null) {
            StagingPool.give(staging);
            staging = null;
        }
    }

    /** complete() then release(), for blocking calls. */
    void done() {
        if (staging != null) {
            complete();
            release();
        }
    }
}
