package io.github.mpi4j.spi;

/**
 * One RMA window as a backend implements it (issue 11). Target displacements are in units of
 * the target's {@code dispUnit}; the {@code mpi} layer checks them against the window and the
 * epoch state before calling. Assertions ({@code assertion}) and lock types use MPI's values.
 */
public interface BackendWindow {

    /**
     * Whether puts and gets may be loads and stores where every rank's window memory is reachable
     * ({@link #loadStoreMemory}); {@code -Dmpi4j.rmaLoadStore=false} or {@code MPI4J_RMA_LOADSTORE=0}
     * sends every call through the backend instead (to compare, or to rule the shortcut out).
     */
    boolean LOAD_STORE = !"false".equalsIgnoreCase(System.getProperty("mpi4j.rmaLoadStore", ""))
            && !"0".equals(System.getenv("MPI4J_RMA_LOADSTORE"));

    /** The window's memory at this rank (null for a dynamic window). */
    Buf base();

    void put(Buf origin, int originCount, TypeDesc originType,
             int target, long targetDisp, int targetCount, TypeDesc targetType);

    void get(Buf origin, int originCount, TypeDesc originType,
             int target, long targetDisp, int targetCount, TypeDesc targetType);

    void accumulate(Buf origin, int originCount, TypeDesc originType,
                    int target, long targetDisp, int targetCount, TypeDesc targetType, OpDesc op);

    void getAccumulate(Buf origin, int originCount, TypeDesc originType, Buf result, int resultCount,
                       TypeDesc resultType, int target, long targetDisp, int targetCount, TypeDesc targetType,
                       OpDesc op);

    void fetchAndOp(Buf origin, Buf result, TypeDesc type, int target, long targetDisp, OpDesc op);

    void compareAndSwap(Buf origin, Buf compare, Buf result, TypeDesc type, int target, long targetDisp);

    /** MPI_Rput: complete locally when the request does. */
    BackendRequest rPut(Buf origin, int originCount, TypeDesc originType,
                        int target, long targetDisp, int targetCount, TypeDesc targetType);

    /** MPI_Rget. */
    BackendRequest rGet(Buf origin, int originCount, TypeDesc originType,
                        int target, long targetDisp, int targetCount, TypeDesc targetType);

    // ---- synchronization -------------------------------------------------------------

    void fence(int assertion);

    /** MPI_Win_post to the ranks (of the window's communicator) in {@code group}. */
    void post(int[] group, int assertion);

    /** MPI_Win_start towards the ranks in {@code group}. */
    void start(int[] group, int assertion);

    void complete();

    /** MPI_Win_wait. */
    void waitForExposure();

    /** MPI_Win_test: true when the exposure epoch has ended. */
    boolean testExposure();

    void lock(int lockType, int target, int assertion);

    void unlock(int target);

    void lockAll(int assertion);

    void unlockAll();

    void flush(int target);

    void flushAll();

    void flushLocal(int target);

    void sync();

    // ---- memory ----------------------------------------------------------------------

    /** MPI_Win_shared_query: rank {@code target}'s part of a shared window, and its dispUnit in {@code dispUnit[0]}. */
    Buf sharedQuery(int target, int[] dispUnit);

    /**
     * MPI_Win_attach (dynamic windows): returns the address other ranks use as the target
     * displacement of the memory's first byte (MPI's absolute address, or the backend's own).
     */
    long attach(Buf memory, long bytes);

    /** MPI_Win_detach (dynamic windows). */
    void detach(Buf memory);

    /** MPI_Win_free; collective. */
    void free();

    /**
     * Every rank's window memory, in rank order, when this process reaches all of it by loads and
     * stores (one node's shared memory, or ranks of one JVM); null otherwise. The {@code mpi}
     * layer then makes puts and gets of predefined types in passive-target epochs plain copies
     * itself ({@code mpi.Win}): the backend must treat such a store as it treats its own put of
     * the same bytes, complete once a memory fence follows it (MPI's unified memory model, as
     * MPI-3 allows loads and stores on shared-memory windows under a lock).
     */
    default java.nio.ByteBuffer[] loadStoreMemory() {
        return null;
    }

    /** {@code parts} as native-order byte buffers, or null unless each is a direct ByteBuffer's bytes. */
    static java.nio.ByteBuffer[] byteViews(Buf[] parts) {
        java.nio.ByteBuffer[] views = new java.nio.ByteBuffer[parts.length];
        for (int r = 0; r < parts.length; r++) {
            Buf p = parts[r];
            if (p == null || !(p.base instanceof java.nio.ByteBuffer) || !p.isDirect() || p.kind != BaseKind.BYTE) {
                return null;
            }
            views[r] = ((java.nio.ByteBuffer) p.base).slice(p.offset, p.length).order(java.nio.ByteOrder.nativeOrder());
        }
        return views;
    }

    // ---- issue 11 (h23): request-based accumulates ----

    /** MPI_Raccumulate: complete locally when the request does. By default done at the call. */
    default BackendRequest rAccumulate(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                                       int targetCount, TypeDesc targetType, OpDesc op) {
        accumulate(origin, originCount, originType, target, targetDisp, targetCount, targetType, op);
        return new CompletedRequest(null);
    }

    /** MPI_Rget_accumulate: complete when the old target data is in {@code result}. By default done at the call. */
    default BackendRequest rGetAccumulate(Buf origin, int originCount, TypeDesc originType, Buf result,
                                          int resultCount, TypeDesc resultType, int target, long targetDisp,
                                          int targetCount, TypeDesc targetType, OpDesc op) {
        getAccumulate(origin, originCount, originType, result, resultCount, resultType, target, targetDisp,
                targetCount, targetType, op);
        return new CompletedRequest(null);
    }
}
