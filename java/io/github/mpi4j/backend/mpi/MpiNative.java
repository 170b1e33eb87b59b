package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.SendMode;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;

/**
 * The JNI entry points of the MPI bridge ({@code libmpi4j_mpi_ompi} or {@code libmpi4j_mpi_mpich}, loaded
 * by {@code nativeload.MpiBridge} for the libmpi found). One native call per MPI call; all arguments are
 * validated by the {@code mpi} layer before they get here.
 *
 * <p>Buffers are passed as (object, mode, byte offset): mode {@link #ARRAY} pins a Java array for
 * the duration of the call, {@link #DIRECT} uses a direct buffer's address, {@link #IN_PLACE}
 * means MPI_IN_PLACE and {@link #NONE} a buffer that is not significant (NULL). Handles
 * (communicators, datatypes, ops, requests) are C pointers (Open MPI) or ints (MPICH) carried as longs;
 * request 0 is
 * MPI_REQUEST_NULL. Counts and displacements of the v-collectives travel in direct IntBuffers so
 * they stay valid until a non-blocking call completes.
 */
final class MpiNative {
    private MpiNative() {
    }

    static final int ARRAY = 0, DIRECT = 1, IN_PLACE = 2, NONE = 3;
    /** The offset is an absolute address (thread-local staging memory whose address is cached). */
    static final int RAW = 4;

    /** Address of a direct buffer. */
    static native long address0(java.nio.Buffer buf);

    /** {@code bytes} of malloc'ed memory as a direct buffer (big-endian: set the order). */
    static native ByteBuffer allocateStaging0(long bytes);

    /** Frees memory from {@link #allocateStaging0}; the buffer must not be used afterwards. */
    static native void freeStaging0(ByteBuffer buf);

    /** Selectors of {@link #coll0} and {@link #vcoll0}. */
    static final int GATHER = 0, SCATTER = 1, ALLGATHER = 2, ALLTOALL = 3;

    // Codes that cross JNI are spelled out here, never an enum's ordinal(): javac -h writes them
    // into the generated header and the C files _Static_assert their own values against them, so
    // reordering either side fails the build instead of mapping MPI_SUM to another op.

    /** Send modes of {@link #send0} and {@link #isend0}. */
    static final int SEND_STANDARD = 0, SEND_SYNCHRONOUS = 1, SEND_BUFFERED = 2, SEND_READY = 3;

    /**
     * Slots of the op table {@link #handles0} fills: the predefined ops; from {@link #OP_PAIR_BASE}
     * MINLOC/MAXLOC of the four pair types, then the wrapping SUMs of byte, short and char.
     */
    static final int OP_MAX = 0, OP_MIN = 1, OP_SUM = 2, OP_PROD = 3, OP_LAND = 4, OP_BAND = 5, OP_LOR = 6,
            OP_BOR = 7, OP_LXOR = 8, OP_BXOR = 9, OP_MINLOC = 10, OP_MAXLOC = 11, OP_REPLACE = 12, OP_NO_OP = 13,
            OP_PAIR_BASE = 15, OP_TABLE_SIZE = OP_PAIR_BASE + 11;

    /** Slots of the type table {@link #handles0} fills: the ids of {@link Predefined}. */
    static final int TYPE_BYTE = Predefined.BYTE, TYPE_CHAR = Predefined.CHAR, TYPE_SHORT = Predefined.SHORT,
            TYPE_BOOLEAN = Predefined.BOOLEAN, TYPE_INT = Predefined.INT, TYPE_LONG = Predefined.LONG,
            TYPE_FLOAT = Predefined.FLOAT, TYPE_DOUBLE = Predefined.DOUBLE, TYPE_PACKED = Predefined.PACKED,
            TYPE_SHORT2 = Predefined.SHORT2, TYPE_INT2 = Predefined.INT2, TYPE_LONG2 = Predefined.LONG2,
            TYPE_FLOAT2 = Predefined.FLOAT2, TYPE_DOUBLE2 = Predefined.DOUBLE2, TYPE_SHORT_INT = Predefined.SHORT_INT,
            TYPE_LONG_INT = Predefined.LONG_INT, TYPE_FLOAT_INT = Predefined.FLOAT_INT,
            TYPE_DOUBLE_INT = Predefined.DOUBLE_INT, TYPE_FLOAT_COMPLEX = Predefined.FLOAT_COMPLEX,
            TYPE_DOUBLE_COMPLEX = Predefined.DOUBLE_COMPLEX;

    static int sendMode(SendMode m) {
        switch (m) {
            case STANDARD: return SEND_STANDARD;
            case SYNCHRONOUS: return SEND_SYNCHRONOUS;
            case BUFFERED: return SEND_BUFFERED;
            case READY: return SEND_READY;
            default: throw new IllegalArgumentException("send mode " + m);
        }
    }

    /** The op table's slot of a predefined op. */
    static int opSlot(OpCode c) {
        switch (c) {
            case MAX: return OP_MAX;
            case MIN: return OP_MIN;
            case SUM: return OP_SUM;
            case PROD: return OP_PROD;
            case LAND: return OP_LAND;
            case BAND: return OP_BAND;
            case LOR: return OP_LOR;
            case BOR: return OP_BOR;
            case LXOR: return OP_LXOR;
            case BXOR: return OP_BXOR;
            case MINLOC: return OP_MINLOC;
            case MAXLOC: return OP_MAXLOC;
            case REPLACE: return OP_REPLACE;
            case NO_OP: return OP_NO_OP;
            default: throw new IllegalArgumentException("op " + c + " has no predefined handle");
        }
    }

    // ---- environment ----------------------------------------------------------------------
    static native int init0(int required);

    /** glibc's mallopt of the three settings (see {@link MallocSettings}); false where not glibc or refused. */
    static native boolean tuneMalloc0(long mmapThreshold, long trimThreshold, long topPad);

    /** Fills predefined datatype handles (by Predefined id), op handles (by OpCode ordinal, then
     *  MINLOC/MAXLOC for SHORT2, LONG2, FLOAT2, DOUBLE2) and {world, self} communicators. */
    static native void handles0(long[] types, long[] ops, long[] comms);

    static native void finalize0();

    static native void abort0(long comm, int code);

    static native double wtime0();

    static native double wtick0();

    static native String processorName0();

    static native int version0();

    static native String libVersion0();

    static native String errorString0(int code);

    static native int errorClass0(int code);

    static native boolean isThreadMain0();

    static native void bufferAttach0(ByteBuffer buf, int size);

    static native void bufferDetach0();

    // ---- communicators ----------------------------------------------------------------------
    static native int rank0(long comm);

    static native int size0(long comm);

    static native int tagUb0(long comm);

    static native int[] worldRanks0(long comm);

    static native long dup0(long comm);

    /** Returns 0 (MPI_COMM_NULL) for ranks that passed color < 0. */
    static native long split0(long comm, int color, int key);

    static native long splitShared0(long comm, boolean undefined, int key);

    static native long create0(long comm, int[] ranks);

    static native void free0(long comm);

    // ---- point-to-point ----------------------------------------------------------------------
    static native void send0(long comm, Object buf, int mode, long off, int count, long type, int dest, int tag,
                             int sendMode);

    /** MPI_Recv; its status goes to {@code statusArea} ({@link NativeStatus}; 0: ignored). */
    static native void recv0(long comm, Object buf, int mode, long off, int count, long type, int source, int tag,
                             long statusArea);

    static native long isend0(long comm, Object buf, int mode, long off, int count, long type, int dest, int tag,
                              int sendMode, boolean persistent);

    static native long irecv0(long comm, Object buf, int mode, long off, int count, long type, int source, int tag,
                              boolean persistent);

    static native void sendRecv0(long comm, Object sbuf, int smode, long soff, int scount, long stype, int dest,
                                 int stag, Object rbuf, int rmode, long roff, int rcount, long rtype, int source,
                                 int rtag, long statusArea);

    static native void sendRecvReplace0(long comm, Object buf, int mode, long off, int count, long type, int dest,
                                        int stag, int source, int rtag, long statusArea);

    static native void probe0(long comm, int source, int tag, long statusArea);

    static native boolean iprobe0(long comm, int source, int tag, long statusArea);

    // ---- requests ----------------------------------------------------------------------------
    static native void start0(long request);

    /** MPI_Wait; the status goes to {@code statusArea} ({@link NativeStatus}; 0: ignored). */
    static native void wait0(long request, long statusArea);

    /** MPI_Test; on completion the status goes to {@code statusArea} ({@link NativeStatus}; 0: ignored). */
    static native boolean test0(long request, long statusArea);

    static native void cancel0(long request);

    static native void requestFree0(long request);

    /**
     * Handles of completed non-persistent requests are set to 0 in {@code requests}. The
     * multi-completions write their statuses to {@code statusArea} ({@link NativeStatus}, one per
     * request, or per completed one for the "some" calls; 0: none wanted).
     */
    static native void waitAll0(long[] requests, long statusArea);

    static native boolean testAll0(long[] requests, long statusArea);

    /** Index completed, or -1 if every request is null. */
    static native int waitAny0(long[] requests, long statusArea);

    /** Index completed, -1 if every request is null, Integer.MIN_VALUE if none completed. */
    static native int testAny0(long[] requests, long statusArea);

    /** Number completed (indices in {@code indices}), or -1 if every request is null. */
    static native int waitSome0(long[] requests, int[] indices, long statusArea);

    static native int testSome0(long[] requests, int[] indices, long statusArea);

    // ---- collectives (nb: non-blocking, returns the request; blocking returns 0) ------------------
    static native long barrier0(long comm, boolean nb);

    static native long bcast0(long comm, Object buf, int mode, long off, int count, long type, int root,
                              boolean nb);

    static native long reduce0(long comm, Object sbuf, int smode, long soff, Object rbuf, int rmode, long roff,
                               int count, long type, long op, int root, boolean all, boolean nb);

    static native long coll0(int kind, long comm, Object sbuf, int smode, long soff, int scount, long stype,
                             Object rbuf, int rmode, long roff, int rcount, long rtype, int root, boolean nb);

    static native long vcoll0(int kind, long comm, Object sbuf, int smode, long soff, int scount, IntBuffer scounts,
                              IntBuffer sdispls, long stype, Object rbuf, int rmode, long roff, int rcount,
                              IntBuffer rcounts, IntBuffer rdispls, long rtype, int root, boolean nb);

    static native long reduceScatter0(long comm, Object sbuf, int smode, long soff, Object rbuf, int rmode,
                                      long roff, IntBuffer rcounts, int rcount, long type, long op, boolean block,
                                      boolean nb);

    static native long scan0(long comm, Object sbuf, int smode, long soff, Object rbuf, int rmode, long roff,
                             int count, long type, long op, boolean exclusive, boolean nb);

    // ---- user-defined reduction operations ----------------------------------------------------
    /** Trampolines of the native library: the most user ops alive at once (checked in C). */
    static final int USER_OP_SLOTS = 128;

    /** Creates an MPI_Op whose calls land in {@code MpiUserOps.call(slot, ...)}. */
    static native long opCreate0(int slot, boolean commute);

    /** MPI_Op_free: operations still using the op complete normally. */
    static native void opFree0(long op);
}
