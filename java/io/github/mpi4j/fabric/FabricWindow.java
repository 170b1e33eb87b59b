package io.github.mpi4j.fabric;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.buffer.Reductions;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BackendWindow;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OneSided;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.SendMode;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.Timeout;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.StampedLock;
import mpi.MPIException;

/**
 * A fabric RMA window between ranks that share one JVM (ranks as threads): every rank's window
 * memory is a direct buffer the others load and store directly. Accumulates, fetch-and-op and
 * compare-and-swap hold the target's monitor, so they are atomic with respect to each other;
 * fences are barriers; locks are one {@link StampedLock} per target (passive target: the target
 * calls nothing); post/start/complete/wait are zero-byte messages on a private duplicate of the
 * communicator. Ranks in different processes get a clear MPIException (docs/onesided.md).
 */
final class FabricWindow implements BackendWindow {
    /** Windows being made or in use in this JVM, by a key rank 0 draws. */
    private static final Map<Long, Shared> WINDOWS = new ConcurrentHashMap<>();

    private static final int TAG_POST = 1, TAG_DONE = 2;
    /** mpi.MPI's lock types. */
    private static final int LOCK_EXCLUSIVE = 1, LOCK_SHARED = 2;
    private static final Buf EMPTY = new Buf(new byte[0], BaseKind.BYTE, 0, 0);

    /** What the ranks of one window share. */
    private static final class Shared {
        final Buf[] parts;
        final int[] dispUnits;
        final StampedLock[] locks;

        Shared(int n) {
            parts = new Buf[n];
            dispUnits = new int[n];
            locks = new StampedLock[n];
            for (int i = 0; i < n; i++) locks[i] = new StampedLock();
        }
    }

    /** The capability a fabric communicator hands out. */
    static final class Factory implements OneSided {
        private final FabricComm comm;

        Factory(FabricComm comm) {
            this.comm = comm;
        }

        @Override
        public BackendWindow createWindow(Buf base, long bytes, int dispUnit) {
            return new FabricWindow(comm, base, dispUnit);
        }

        @Override
        public BackendWindow allocateWindow(long bytes, int dispUnit, boolean shared) {
            if (bytes > Integer.MAX_VALUE) {
                throw MPIException.of(Mpi.ERR_SIZE, "Win.allocate: " + bytes + " bytes exceed the fabric's limit of "
                        + Integer.MAX_VALUE + " bytes per rank");
            }
            ByteBuffer mem = ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
            return new FabricWindow(comm, new Buf(mem, BaseKind.BYTE, 0, (int) bytes), dispUnit);
        }

        @Override
        public BackendWindow createDynamicWindow() {
            throw MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION, "Win.createDynamic: dynamic windows are not "
                    + "supported by the fabric backend yet");
        }
    }

    private final BackendComm sync;
    private final long key;
    private final Shared shared;
    private final int rank;
    private final double timeout;
    private final long[] stamps;
    private int[] startGroup, postGroup;

    private FabricWindow(FabricComm comm, Buf base, int dispUnit) {
        this.timeout = Timeout.seconds(System.getenv(), "Win (fabric)");
        this.sync = comm.dup();
        this.rank = sync.rank();
        int n = sync.size();
        long[] k = {ThreadLocalRandom.current().nextLong()};
        Buf kb = new Buf(k, BaseKind.LONG, 0, 1);
        collective("Win", () -> sync.collectives().bcast(kb, 1, Predefined.T_LONG, 0));
        this.key = k[0];
        Shared s = WINDOWS.computeIfAbsent(key, x -> new Shared(n));
        s.parts[rank] = base;
        s.dispUnits[rank] = dispUnit;
        this.stamps = new long[n];
        barrier("Win");
        boolean complete = true;
        for (Buf b : s.parts) complete &= b != null;
        if (!complete) {
            // Every rank of a process sees the same registry, so all of them refuse alike.
            barrier("Win");
            WINDOWS.remove(key);
            sync.free();
            throw MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION, "Win: the fabric backend makes windows only "
                    + "between ranks in one JVM (ranks as threads); windows between processes are not supported yet");
        }
        this.shared = s;
    }

    private void collective(String call, Runnable body) {
        sync.beginCollective(call, false);
        Throwable failure = null;
        try {
            body.run();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            sync.endCollective(failure);
        }
    }

    private void barrier(String call) {
        collective(call, () -> sync.collectives().barrier());
    }

    // ---- data ----------------------------------------------------------------------------------

    private static void contiguous(String call, TypeDesc t) {
        if (!t.isPredefined()) {
            throw MPIException.of(Mpi.ERR_TYPE, call + ": derived datatype " + t.name + " in RMA is not supported "
                    + "by the fabric backend yet");
        }
    }

    private long at(int target, long disp) {
        return disp * shared.dispUnits[target];
    }

    @Override
    public Buf base() {
        return shared.parts[rank];
    }

    @Override
    public void put(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp, int targetCount,
                    TypeDesc targetType) {
        contiguous("Win.put", originType);
        contiguous("Win.put", targetType);
        long n = Math.min(Buffers.spanBytes(originCount, originType), Buffers.spanBytes(targetCount, targetType));
        BufAccess.copy(origin, 0, shared.parts[target], at(target, targetDisp), n);
    }

    @Override
    public void get(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp, int targetCount,
                    TypeDesc targetType) {
        contiguous("Win.get", originType);
        contiguous("Win.get", targetType);
        long n = Math.min(Buffers.spanBytes(originCount, originType), Buffers.spanBytes(targetCount, targetType));
        BufAccess.copy(shared.parts[target], at(target, targetDisp), origin, 0, n);
    }

    @Override
    public void accumulate(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                           int targetCount, TypeDesc targetType, OpDesc op) {
        contiguous("Win.accumulate", targetType);
        Buf t = shared.parts[target];
        synchronized (t) {
            apply(op, targetType, origin, t, at(target, targetDisp), Math.min(originCount, targetCount));
        }
    }

    /** target[at..] = target op origin (REPLACE: origin; NO_OP: unchanged). */
    private static void apply(OpDesc op, TypeDesc type, Buf origin, Buf target, long at, int count) {
        if (op.code == OpCode.NO_OP || count == 0) return;
        if (op.code == OpCode.REPLACE) {
            BufAccess.copy(origin, 0, target, at, Buffers.spanBytes(count, type));
        } else {
            Reductions.reduce(op, type, origin, 0, target, at, count);
        }
    }

    @Override
    public void getAccumulate(Buf origin, int originCount, TypeDesc originType, Buf result, int resultCount,
                              TypeDesc resultType, int target, long targetDisp, int targetCount, TypeDesc targetType,
                              OpDesc op) {
        contiguous("Win.getAccumulate", targetType);
        Buf t = shared.parts[target];
        long at = at(target, targetDisp);
        synchronized (t) {
            BufAccess.copy(t, at, result, 0, Buffers.spanBytes(Math.min(resultCount, targetCount), targetType));
            if (origin != null) apply(op, targetType, origin, t, at, Math.min(originCount, targetCount));
        }
    }

    @Override
    public void fetchAndOp(Buf origin, Buf result, TypeDesc type, int target, long targetDisp, OpDesc op) {
        getAccumulate(origin, 1, type, result, 1, type, target, targetDisp, 1, type, op);
    }

    @Override
    public void compareAndSwap(Buf origin, Buf compare, Buf result, TypeDesc type, int target, long targetDisp) {
        Buf t = shared.parts[target];
        long at = at(target, targetDisp);
        int n = (int) type.size;
        ByteBuffer old = ByteBuffer.allocate(n), cmp = ByteBuffer.allocate(n);
        synchronized (t) {
            BufAccess.get(t, at, old, 0, n);
            BufAccess.get(compare, 0, cmp, 0, n);
            if (old.equals(cmp)) BufAccess.copy(origin, 0, t, at, n);
        }
        BufAccess.put(old, 0, result, 0, n);
    }

    /** RMA here completes when the call returns: the request is complete. */
    private static final class Done implements BackendRequest {
        @Override
        public void waitFor(StatusData status) {
        }

        @Override
        public boolean test(StatusData status) {
            return true;
        }

        @Override
        public void cancel() {
        }

        @Override
        public void free() {
        }
    }

    @Override
    public BackendRequest rPut(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                               int targetCount, TypeDesc targetType) {
        put(origin, originCount, originType, target, targetDisp, targetCount, targetType);
        return new Done();
    }

    @Override
    public BackendRequest rGet(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                               int targetCount, TypeDesc targetType) {
        get(origin, originCount, originType, target, targetDisp, targetCount, targetType);
        return new Done();
    }

    // ---- synchronization -------------------------------------------------------------------------

    @Override
    public void fence(int assertion) {
        barrier("Win.fence");
    }

    @Override
    public void post(int[] group, int assertion) {
        for (int origin : group) sync.send(EMPTY, 0, Predefined.T_BYTE, origin, TAG_POST, SendMode.STANDARD);
        postGroup = group;
    }

    @Override
    public void start(int[] group, int assertion) {
        for (int target : group) sync.recv(EMPTY, 0, Predefined.T_BYTE, target, TAG_POST, new StatusData());
        startGroup = group;
    }

    @Override
    public void complete() {
        for (int target : startGroup) sync.send(EMPTY, 0, Predefined.T_BYTE, target, TAG_DONE, SendMode.STANDARD);
        startGroup = null;
    }

    @Override
    public void waitForExposure() {
        for (int origin : postGroup) sync.recv(EMPTY, 0, Predefined.T_BYTE, origin, TAG_DONE, new StatusData());
        postGroup = null;
    }

    @Override
    public boolean testExposure() {
        for (int origin : postGroup) {
            if (!sync.iprobe(origin, TAG_DONE, new StatusData())) return false;
        }
        waitForExposure();
        return true;
    }

    @Override
    public void lock(int lockType, int target, int assertion) {
        StampedLock l = shared.locks[target];
        long s;
        try {
            s = lockType == LOCK_EXCLUSIVE ? l.tryWriteLock((long) (timeout * 1e9), TimeUnit.NANOSECONDS)
                    : l.tryReadLock((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw MPIException.of(Mpi.ERR_OTHER, "Win.lock: interrupted while waiting for rank " + target + "'s lock");
        }
        if (s == 0) {
            throw MPIException.of(Mpi.ERR_OTHER, "Win.lock: rank " + target + "'s window stayed locked by another "
                    + "rank for " + timeout + " s (MPI4J_TIMEOUT)");
        }
        stamps[target] = s;
    }

    @Override
    public void unlock(int target) {
        shared.locks[target].unlock(stamps[target]);
        stamps[target] = 0;
    }

    @Override
    public void lockAll(int assertion) {
        int locked = 0;
        try {
            for (; locked < stamps.length; locked++) lock(LOCK_SHARED, locked, assertion);
        } catch (RuntimeException e) {
            for (int i = 0; i < locked; i++) unlock(i);
            throw e;
        }
    }

    @Override
    public void unlockAll() {
        for (int i = 0; i < stamps.length; i++) unlock(i);
    }

    /** Loads and stores here are done when the call returns; the lock's release publishes them. */
    @Override
    public void flush(int target) {
        java.lang.invoke.VarHandle.fullFence();
    }

    @Override
    public void flushAll() {
        java.lang.invoke.VarHandle.fullFence();
    }

    @Override
    public void flushLocal(int target) {
    }

    @Override
    public void sync() {
        java.lang.invoke.VarHandle.fullFence();
    }

    // ---- memory ----------------------------------------------------------------------------------

    @Override
    public Buf sharedQuery(int target, int[] dispUnit) {
        dispUnit[0] = shared.dispUnits[target];
        return shared.parts[target];
    }

    @Override
    public void attach(Buf memory, long bytes) {
        throw MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION, "Win.attach: dynamic windows are not supported by the "
                + "fabric backend yet");
    }

    @Override
    public void detach(Buf memory) {
        attach(memory, 0);
    }

    @Override
    public void free() {
        barrier("Win.free");
        WINDOWS.remove(key);
        sync.free();
    }
}
