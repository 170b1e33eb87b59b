package io.github.mpi4j.backend.mpi;

import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * The JNI entry points of one-sided communication ({@code native/mpi4j_mpi_win.c}, in the same
 * bridge library as {@link MpiNative}). Windows and every buffer RMA touches are memory that
 * cannot move, so buffers travel as addresses; the {@code mpi} layer checked every argument
 * (ranks, displacements against the window, epochs). Lock types and assertions are mpi.MPI's
 * values; the C side translates them to the library's.
 */
final class MpiWinNative {
    private MpiWinNative() {
    }

    /** Selectors of {@link #rma0}. */
    static final int PUT = 0, GET = 1, ACCUMULATE = 2, GET_ACCUMULATE = 3;
    /** Selectors of {@link #sync0}. */
    static final int FENCE = 0, COMPLETE = 1, WAIT = 2, LOCK = 3, UNLOCK = 4, LOCK_ALL = 5, UNLOCK_ALL = 6,
            FLUSH = 7, FLUSH_ALL = 8, FLUSH_LOCAL = 9, FLUSH_LOCAL_ALL = 10, SYNC = 11, FREE = 12, POST = 13,
            START = 14, TEST = 15;

    /** Address of a direct buffer's first element. */
    static native long address0(Buffer buf);

    /** MPI_Win_create over {@code bytes} at {@code address}. */
    static native long create0(long comm, long address, long bytes, int dispUnit);

    /** MPI_Win_allocate(_shared): the window; its memory as a direct buffer in {@code base[0]}. */
    static native long allocate0(long comm, long bytes, int dispUnit, boolean shared, ByteBuffer[] base);

    static native long createDynamic0(long comm);

    /**
     * MPI_Put / MPI_Get / MPI_Accumulate / MPI_Get_accumulate (and MPI_Rput / MPI_Rget when
     * {@code request}: the request is returned). {@code result*} only for GET_ACCUMULATE; an
     * {@code origin} of 0 with op MPI_NO_OP is allowed there.
     */
    static native long rma0(int kind, long win, long origin, int ocount, long otype, long result, int rcount,
                            long rtype, int target, long disp, int tcount, long ttype, long op, boolean request);

    static native void fetchAndOp0(long win, long origin, long result, long type, int target, long disp, long op);

    static native void compareAndSwap0(long win, long origin, long compare, long result, long type, int target,
                                       long disp);

    /**
     * The synchronization calls; {@code a} is the assertion (FENCE, LOCK, LOCK_ALL, POST, START)
     * or the target rank (UNLOCK, FLUSH, FLUSH_LOCAL), {@code b} the target of LOCK, {@code c}
     * its lock type. POST and START take the ranks (of the window's communicator {@code comm})
     * in {@code group}. TEST returns 1 when the exposure epoch ended.
     */
    static native int sync0(int kind, long win, int a, int b, int c, long comm, int[] group);

    /** MPI_Win_shared_query: rank's part as a direct buffer; its disp unit in {@code dispUnit[0]}. */
    static native ByteBuffer sharedQuery0(long win, int rank, int[] dispUnit);

    static native void attach0(long win, long address, long bytes);

    static native void detach0(long win, long address);
}
