package io.github.mpi4j.nccl;

import io.github.mpi4j.nativeload.GpuLibraries;

/**
 * The NCCL natives of {@code libmpi4j_gpu} (native/mpi4j_nccl.c), pointer-level: device
 * addresses, element counts, NCCL datatype and op codes, a CUDA stream handle and the device
 * that the call runs on (set on the calling thread first). Nothing here checks arguments: the
 * callers in this package validate everything first, because real NCCL does not check buffer
 * sizes. Operations return NCCL's result, {@link #SUCCESS} or {@link #IN_PROGRESS} (a
 * non-blocking communicator: poll {@link #asyncError0} with a deadline); every other result is
 * thrown as an {@link NcclException}.
 */
final class NcclNative {
    private NcclNative() {
    }

    // ncclDataType_t (pinned in native/mpi4j_nccl.c, checked against nccl.h where it is found)
    static final int INT8 = 0;
    static final int UINT8 = 1;
    static final int INT32 = 2;
    static final int UINT32 = 3;
    static final int INT64 = 4;
    static final int UINT64 = 5;
    static final int FLOAT16 = 6;
    static final int FLOAT32 = 7;
    static final int FLOAT64 = 8;
    static final int BFLOAT16 = 9;
    // ncclRedOp_t
    static final int SUM = 0;
    static final int PROD = 1;
    static final int MAX = 2;
    static final int MIN = 3;
    static final int AVG = 4;
    // ncclResult_t values the callers act on
    static final int SUCCESS = 0;
    static final int IN_PROGRESS = 7;
    static final int UNIQUE_ID_BYTES = 128;
    static final int SPLIT_NOCOLOR = -1;

    /** Opens the CUDA runtime and NCCL (once), or throws why they are unavailable. */
    static void ensure(String what) {
        GpuLibraries.CudaStatus cuda = GpuLibraries.cuda();
        if (!cuda.available) throw NcclException.unavailable(what, "no CUDA runtime: " + cuda.detail);
        GpuLibraries.NcclStatus nccl = GpuLibraries.nccl();
        if (!nccl.available) throw NcclException.unavailable(what, nccl.detail);
    }

    static native byte[] uniqueId0();

    static native long commInitRank0(byte[] uniqueId, int nranks, int rank, int device, boolean blocking);

    /**
     * ncclCommSplit, the new handle written into {@code slot} ({@link #newSlot0}): at once, or on a
     * non-blocking parent only once the parent's state is ready (NCCL writes it from its own
     * thread). Returns SUCCESS or IN_PROGRESS; NCCL 2.28 returns SUCCESS also while a non-blocking
     * split is still under way, so only the parent's state says when it is over.
     */
    static native int commSplit0(long comm, int color, int key, int device, boolean blocking, long slot);

    /** A zeroed native slot for one communicator handle; {@link #freeSlot0} frees it. */
    static native long newSlot0();

    static native long readSlot0(long slot);

    static native void freeSlot0(long slot);

    static native int commFinalize0(long comm, int device);

    static native int commDestroy0(long comm, int device);

    static native int commAbort0(long comm, int device);

    /** ncclCommGetAsyncError: SUCCESS, IN_PROGRESS or the error (returned, not thrown). */
    static native int asyncError0(long comm);

    static native int count0(long comm);

    static native int cuDevice0(long comm);

    static native int userRank0(long comm);

    static native int allReduce0(long send, long recv, long count, int type, int op, long comm, long stream, int device);

    static native int broadcast0(long send, long recv, long count, int type, int root, long comm, long stream, int device);

    static native int reduce0(long send, long recv, long count, int type, int op, int root, long comm, long stream,
                              int device);

    static native int allGather0(long send, long recv, long sendCount, int type, long comm, long stream, int device);

    static native int reduceScatter0(long send, long recv, long recvCount, int type, int op, long comm, long stream,
                                     int device);

    static native int send0(long buf, long count, int type, int peer, long comm, long stream, int device);

    static native int recv0(long buf, long count, int type, int peer, long comm, long stream, int device);

    static native int groupStart0();

    static native int groupEnd0();

    static native String errorString0(int code);

    /** ncclGetLastError of {@code comm}, or of this thread's last failure when 0. */
    static native String lastError0(long comm);
}
