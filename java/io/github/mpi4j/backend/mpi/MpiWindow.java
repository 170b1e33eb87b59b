package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BackendWindow;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OneSided;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import mpi.MPIException;

/**
 * An MPI window (issue 11): each call is one MPI_Win_* call through {@link MpiWinNative}. The
 * window's memory and every origin and result buffer are direct buffers or native memory (the
 * {@code mpi} layer refuses arrays), passed by address; the window keeps the memory it was made
 * over (and attached memory) reachable until it is freed.
 */
final class MpiWindow implements BackendWindow {

    /** The capability an MPI communicator hands out. */
    static final class Factory implements OneSided {
        private final MpiComm comm;
        private final MpiBackend backend;

        Factory(MpiComm comm, MpiBackend backend) {
            this.comm = comm;
            this.backend = backend;
        }

        @Override
        public BackendWindow createWindow(Buf base, long bytes, int dispUnit) {
            long h = MpiWinNative.create0(comm.handle, address(base), bytes, dispUnit);
            return new MpiWindow(comm, backend, h, base);
        }

        /**
         * MPI_Win_allocate, or MPI_Win_allocate_shared when every rank is on this node: the same
         * window for MPI (Open MPI's osc/sm serves both alike), plus every rank's memory within
         * reach of loads and stores ({@link #loadStoreMemory}), so small puts and gets need no
         * JNI crossing. The {@code mpi} layer keeps the flavor the program asked for. Not where
         * the user's Open MPI osc selection leaves out sm (shared windows would fail there).
         */
        @Override
        public BackendWindow allocateWindow(long bytes, int dispUnit, boolean shared) {
            boolean asShared = shared || (LOAD_STORE
                    && OmpiOscGuard.sharedWindowsMayRun(backend.libVersion(), System.getenv()) && oneNode());
            ByteBuffer[] out = new ByteBuffer[1];
            long h = MpiWinNative.allocate0(comm.handle, bytes, dispUnit, asShared, out);
            ByteBuffer mem = out[0] != null ? out[0] : ByteBuffer.allocateDirect(0);
            mem.order(ByteOrder.nativeOrder());
            MpiWindow w = new MpiWindow(comm, backend, h, new Buf(mem, BaseKind.BYTE, 0, mem.capacity()));
            if (asShared && LOAD_STORE) w.loadStore = w.queryAll();
            return w;
        }

        /** Collective: whether every rank of the communicator shares this node's memory. */
        private boolean oneNode() {
            io.github.mpi4j.spi.BackendComm node = comm.splitShared(true, 0);
            try {
                return node.size() == comm.size();
            } finally {
                node.free();
            }
        }

        @Override
        public BackendWindow createDynamicWindow() {
            return new MpiWindow(comm, backend, MpiWinNative.createDynamic0(comm.handle), null);
        }
    }

    private final MpiComm comm;
    private final MpiBackend backend;
    private long handle;
    /** Every rank's memory of a shared window (MPI_Win_shared_query), or null. */
    private ByteBuffer[] loadStore;
    private final Buf base;
    /** Attached memory (dynamic windows), kept reachable while attached. */
    private final List<Buf> attached = new ArrayList<>();

    private MpiWindow(MpiComm comm, MpiBackend backend, long handle, Buf base) {
        this.comm = comm;
        this.backend = backend;
        this.handle = handle;
        this.base = base;
    }

    /** Address of the first element of direct or native memory; 0 for null. */
    static long address(Buf b) {
        if (b == null) return 0;
        if (b.isNative()) {
            Arg.admit(b);
            return b.address();
        }
        if (b.isDirect()) return MpiWinNative.address0((Buffer) b.base) + b.byteOffset();
        throw MPIException.of(Mpi.ERR_BUFFER, "the MPI backend's windows take direct buffers or native memory, not "
                + b);
    }

    private long op(OpDesc op, TypeDesc t) {
        if (op.code == OpCode.USER) {
            throw MPIException.of(Mpi.ERR_OP, "user-defined operations cannot be used in RMA accumulates");
        }
        return backend.op(op, t, null);
    }

    @Override
    public Buf base() {
        return base;
    }

    private long rma(int kind, Buf origin, int ocount, TypeDesc otype, Buf result, int rcount, TypeDesc rtype,
                     int target, long disp, int tcount, TypeDesc ttype, OpDesc op, boolean request) {
        return MpiWinNative.rma0(kind, handle, cachedAddress(origin), ocount, otype == null ? 0 : backend.type(otype),
                cachedAddress(result), rcount, rtype == null ? 0 : backend.type(rtype), target, disp, tcount,
                backend.type(ttype), op == null ? 0 : op(op, ttype), request);
    }

    @Override
    public void put(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp, int targetCount,
                    TypeDesc targetType) {
        rma(MpiWinNative.PUT, origin, originCount, originType, null, 0, null, target, targetDisp, targetCount,
                targetType, null, false);
    }

    @Override
    public void get(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp, int targetCount,
                    TypeDesc targetType) {
        rma(MpiWinNative.GET, origin, originCount, originType, null, 0, null, target, targetDisp, targetCount,
                targetType, null, false);
    }

    @Override
    public void accumulate(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                           int targetCount, TypeDesc targetType, OpDesc op) {
        rma(MpiWinNative.ACCUMULATE, origin, originCount, originType, null, 0, null, target, targetDisp, targetCount,
                targetType, op, false);
    }

    @Override
    public void getAccumulate(Buf origin, int originCount, TypeDesc originType, Buf result, int resultCount,
                              TypeDesc resultType, int target, long targetDisp, int targetCount, TypeDesc targetType,
                              OpDesc op) {
        rma(MpiWinNative.GET_ACCUMULATE, origin, originCount, originType, result, resultCount, resultType, target,
                targetDisp, targetCount, targetType, op, false);
    }

    @Override
    public void fetchAndOp(Buf origin, Buf result, TypeDesc type, int target, long targetDisp, OpDesc op) {
        MpiWinNative.fetchAndOp0(handle, address(origin), address(result), backend.type(type), target, targetDisp,
                op(op, type));
    }

    @Override
    public void compareAndSwap(Buf origin, Buf compare, Buf result, TypeDesc type, int target, long targetDisp) {
        OmpiOscGuard.checkCompareAndSwap(backend, comm.size());
        MpiWinNative.compareAndSwap0(handle, address(origin), address(compare), address(result), backend.type(type),
                target, targetDisp);
    }

    @Override
    public BackendRequest rPut(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                               int targetCount, TypeDesc targetType) {
        long r = rma(MpiWinNative.PUT, origin, originCount, originType, null, 0, null, target, targetDisp,
                targetCount, targetType, null, true);
        return new MpiRequest(r, false, origin, null);
    }

    @Override
    public BackendRequest rGet(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                               int targetCount, TypeDesc targetType) {
        if (!targetType.isPredefined() && mpichEarlyRget()) {
            get(origin, originCount, originType, target, targetDisp, targetCount, targetType);
            flush(target);
            return new io.github.mpi4j.spi.CompletedRequest(null);
        }
        long r = rma(MpiWinNative.GET, origin, originCount, originType, null, 0, null, target, targetDisp,
                targetCount, targetType, null, true);
        return new MpiRequest(r, false, origin, null);
    }

    /** MPI_Raccumulate: the request completes when the origin buffer may be reused. */
    @Override
    public BackendRequest rAccumulate(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                                      int targetCount, TypeDesc targetType, OpDesc op) {
        long r = rma(MpiWinNative.ACCUMULATE, origin, originCount, originType, null, 0, null, target, targetDisp,
                targetCount, targetType, op, true);
        return new MpiRequest(r, false, origin, null);
    }

    /** MPI_Rget_accumulate: the request completes when the old target data is in {@code result}. */
    @Override
    public BackendRequest rGetAccumulate(Buf origin, int originCount, TypeDesc originType, Buf result,
                                         int resultCount, TypeDesc resultType, int target, long targetDisp,
                                         int targetCount, TypeDesc targetType, OpDesc op) {
        if (!targetType.isPredefined() && mpichEarlyRget()) {
            getAccumulate(origin, originCount, originType, result, resultCount, resultType, target, targetDisp,
                    targetCount, targetType, op);
            flush(target);
            return new io.github.mpi4j.spi.CompletedRequest(null);
        }
        long r = rma(MpiWinNative.GET_ACCUMULATE, origin, originCount, originType, result, resultCount, resultType,
                target, targetDisp, targetCount, targetType, op, true);
        return new MpiRequest(r, false, new Object[] {origin, result}, null);
    }

    // ---- synchronization -------------------------------------------------------------------------

    private int sync(int kind, int a, int b, int c, int[] group) {
        MpiWatchdog.Mark m = MpiWatchdog.enter(SYNC_CALLS[kind], comm); // a constant: no string per call
        try {
            return MpiWinNative.sync0(kind, handle, a, b, c, comm.handle, group);
        } finally {
            m.exit();
        }
    }

    @Override
    public void fence(int assertion) {
        sync(MpiWinNative.FENCE, assertion, 0, 0, null);
    }

    @Override
    public void post(int[] group, int assertion) {
        sync(MpiWinNative.POST, assertion, 0, 0, group);
    }

    @Override
    public void start(int[] group, int assertion) {
        sync(MpiWinNative.START, assertion, 0, 0, group);
    }

    @Override
    public void complete() {
        sync(MpiWinNative.COMPLETE, 0, 0, 0, null);
    }

    @Override
    public void waitForExposure() {
        sync(MpiWinNative.WAIT, 0, 0, 0, null);
    }

    @Override
    public boolean testExposure() {
        return sync(MpiWinNative.TEST, 0, 0, 0, null) != 0;
    }

    @Override
    public void lock(int lockType, int target, int assertion) {
        sync(MpiWinNative.LOCK, assertion, target, lockType, null);
    }

    @Override
    public void unlock(int target) {
        sync(MpiWinNative.UNLOCK, target, 0, 0, null);
    }

    @Override
    public void lockAll(int assertion) {
        sync(MpiWinNative.LOCK_ALL, assertion, 0, 0, null);
    }

    @Override
    public void unlockAll() {
        sync(MpiWinNative.UNLOCK_ALL, 0, 0, 0, null);
    }

    @Override
    public void flush(int target) {
        sync(MpiWinNative.FLUSH, target, 0, 0, null);
    }

    @Override
    public void flushAll() {
        sync(MpiWinNative.FLUSH_ALL, 0, 0, 0, null);
    }

    @Override
    public void flushLocal(int target) {
        sync(MpiWinNative.FLUSH_LOCAL, target, 0, 0, null);
    }

    @Override
    public void sync() {
        sync(MpiWinNative.SYNC, 0, 0, 0, null);
    }

    // ---- memory ----------------------------------------------------------------------------------

    @Override
    public Buf sharedQuery(int target, int[] dispUnit) {
        ByteBuffer b = MpiWinNative.sharedQuery0(handle, target, dispUnit);
        if (b == null) b = ByteBuffer.allocateDirect(0);
        b.order(ByteOrder.nativeOrder());
        return new Buf(b, BaseKind.BYTE, 0, b.capacity());
    }

    @Override
    public ByteBuffer[] loadStoreMemory() {
        return loadStore;
    }

    private ByteBuffer[] queryAll() {
        Buf[] parts = new Buf[comm.size()];
        int[] unit = new int[1];
        for (int r = 0; r < parts.length; r++) parts[r] = sharedQuery(r, unit);
        return BackendWindow.byteViews(parts);
    }

    @Override
    public long attach(Buf memory, long bytes) {
        long at = address(memory);
        MpiWinNative.attach0(handle, at, bytes);
        attached.add(memory);
        return at;
    }

    @Override
    public void detach(Buf memory) {
        MpiWinNative.detach0(handle, address(memory));
        attached.removeIf(b -> b.base == memory.base);
    }

    @Override
    public void free() {
        sync(MpiWinNative.FREE, 0, 0, 0, null);
        handle = 0;
        attached.clear();
    }

    // ---- issue 11 (h23): per-call overhead ----

    /** A direct buffer and the address of its element 0 (immutable: one reference write publishes both). */
    private static final class Known {
        final Object buffer;
        final long address;

        Known(Object buffer, long address) {
            this.buffer = buffer;
            this.address = address;
        }
    }

    /**
     * The direct buffer last passed as an origin or result, with its address: RMA loops reuse
     * their buffers, so most calls skip the JNI crossing that asks for a direct buffer's address
     * (a direct buffer's memory never moves; holding it keeps it alive until another one is used).
     */
    private Known lastDirect;

    private long cachedAddress(Buf b) {
        if (b == null || !b.isDirect() || b.isNative()) return address(b);
        Known k = lastDirect;
        if (k == null || k.buffer != b.base) {
            k = new Known(b.base, MpiWinNative.address0((Buffer) b.base));
            lastDirect = k;
        }
        return k.address + b.byteOffset();
    }

    /** Null until asked: whether the library is MPICH (see {@link #mpichEarlyRget}). */
    private Boolean mpich;

    /**
     * MPICH 4.0.2's MPI_Wait on an MPI_Rget whose target type is derived (a vector) can return
     * before the data is in the origin buffer (a plain C program shows it; the data is there after
     * MPI_Win_unlock_all). On MPICH such request-based gets are therefore a get and a flush of
     * the target, complete when they return (WindowAsyncTest, docs/onesided.md).
     */
    private boolean mpichEarlyRget() {
        Boolean m = mpich;
        if (m == null) {
            String lib = "";
            try {
                lib = backend.libVersion();
            } catch (RuntimeException ignored) {
                // unknown library: the request-based call
            }
            m = lib.contains("MPICH");
            mpich = m;
        }
        return m;
    }

    /** What the watchdog names for each {@link MpiWinNative} sync selector (FENCE = 0 ... TEST = 15). */
    private static final String[] SYNC_CALLS = {"MPI_Win_fence", "MPI_Win_complete", "MPI_Win_wait", "MPI_Win_lock",
        "MPI_Win_unlock", "MPI_Win_lock_all", "MPI_Win_unlock_all", "MPI_Win_flush", "MPI_Win_flush_all",
        "MPI_Win_flush_local", "MPI_Win_flush_local_all", "MPI_Win_sync", "MPI_Win_free", "MPI_Win_post",
        "MPI_Win_start", "MPI_Win_test"};
}
