package io.github.mpi4j.fabric;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.CompletedRequest;
import io.github.mpi4j.spi.BackendWindow;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OneSided;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.Timeout;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import mpi.MPIException;

/**
 * A fabric RMA window in memory every rank loads and stores directly: between ranks of one JVM
 * (ranks as threads) the ranks' own direct buffers; between processes of one node, files in
 * shared memory that every rank maps ({@link ShmWindow}; windows the library allocates only).
 * Accumulates, fetch-and-op and compare-and-swap hold the target's mutex, so they are atomic with
 * respect to each other; fences are barriers; passive-target locks are reader/writer locks the
 * origin takes without the target calling anything; post/start/complete/wait are zero-byte
 * messages on a private duplicate of the communicator (docs/onesided.md).
 */
final class FabricWindow implements BackendWindow {
    /** Windows being made or in use in this JVM, by a key rank 0 draws. */
    private static final Map<Long, Shared> WINDOWS = new ConcurrentHashMap<>();

    /** mpi.MPI's lock types. */
    private static final int LOCK_EXCLUSIVE = 1, LOCK_SHARED = 2;

    /** What the ranks of one window share. */
    private static final class Shared {
        final Buf[] parts;
        final int[] dispUnits;
        final StampedLock[] locks;
        final ReentrantLock[] mutexes;

        Shared(int n) {
            parts = new Buf[n];
            dispUnits = new int[n];
            locks = new StampedLock[n];
            mutexes = new ReentrantLock[n];
            for (int i = 0; i < n; i++) {
                locks[i] = new StampedLock();
                mutexes[i] = new ReentrantLock();
            }
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
            return open(comm, base, bytes, dispUnit, false, false);
        }

        @Override
        public BackendWindow allocateWindow(long bytes, int dispUnit, boolean shared) {
            if (bytes > Integer.MAX_VALUE) {
                throw MPIException.of(Mpi.ERR_SIZE, "Win.allocate: " + bytes + " bytes exceed the fabric's limit of "
                        + Integer.MAX_VALUE + " bytes per rank");
            }
            ByteBuffer mem = ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
            return open(comm, new Buf(mem, BaseKind.BYTE, 0, (int) bytes), bytes, dispUnit, true, shared);
        }

        @Override
        public BackendWindow createDynamicWindow() {
            FabricComm sync = (FabricComm) comm.dup();
            try {
                return new TransportWindow(sync, null, -1, 1, Timeout.seconds(System.getenv(), "Win (fabric)"));
            } catch (RuntimeException | Error e) {
                sync.free();
                throw e;
            }
        }
    }

    /** How the ranks of a window reach each other's memory, best first (the ranks agree on the least). */
    private static final int THROUGH_TRANSPORT = 0, SHARED_FILES = 1, SAME_JVM = 2;

    private static String setting(String name) {
        String v = System.getProperty(name.toLowerCase().replace('_', '.'));
        if (v == null) v = System.getenv(name);
        return v == null ? "" : v.trim();
    }

    /**
     * Collective. Ranks of one JVM and one node share their window memory directly; ranks of
     * one node in different processes share windows the library allocates ({@code movable})
     * through files every rank maps ({@link ShmWindow}); otherwise (user memory between
     * processes, ranks on different nodes, or {@code MPI4J_RMA=transport} /
     * {@code MPI4J_TRANSPORT=tcp}) the window goes through the transport
     * ({@link TransportWindow}). A shared window ({@code shared}) needs one node.
     */
    static BackendWindow open(FabricComm comm, Buf base, long bytes, int dispUnit, boolean movable, boolean shared) {
        double timeout = Timeout.seconds(System.getenv(), "Win (fabric)");
        FabricComm sync = (FabricComm) comm.dup();
        try {
            int n = sync.size(), rank = sync.rank();
            long[] k = {ThreadLocalRandom.current().nextLong()};
            Buf kb = new Buf(k, BaseKind.LONG, 0, 1);
            sync.bracketed("Win", () -> sync.collectives().bcast(kb, 1, Predefined.T_LONG, 0));
            long key = k[0];
            Shared s = WINDOWS.computeIfAbsent(key, x -> new Shared(n));
            s.parts[rank] = base;
            s.dispUnits[rank] = dispUnit;
            barrier(sync, "Win");
            boolean complete = true;
            for (Buf b : s.parts) complete &= b != null;
            int[] nodes = sync.nodeOf();
            boolean oneNode = true;
            for (int node : nodes) oneNode &= node == nodes[0];
            boolean forced = "transport".equalsIgnoreCase(setting("MPI4J_RMA"));
            boolean tcp = "tcp".equalsIgnoreCase(setting("MPI4J_TRANSPORT"));
            int mine = !oneNode ? THROUGH_TRANSPORT
                    : complete && !forced ? SAME_JVM
                    : shared || (movable && !forced && !tcp) ? SHARED_FILES : THROUGH_TRANSPORT;
            int way = agreeOnLeast(sync, mine);
            barrier(sync, "Win");
            if (way == SAME_JVM) return new FabricWindow(sync, key, s.parts, s.dispUnits, new JvmLocks(s), null,
                    timeout);
            WINDOWS.remove(key);
            if (shared && way != SHARED_FILES) {
                throw MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION, "Win.allocateShared: the ranks of the "
                        + "communicator are not all on one node (split it with splitType(MPI.COMM_TYPE_SHARED))");
            }
            if (way == SHARED_FILES) {
                ShmWindow w = ShmWindow.open(sync, key, base.length, dispUnit, c -> barrier(sync, c), timeout);
                return new FabricWindow(sync, key, w.parts, w.dispUnits, w, w, timeout);
            }
            return new TransportWindow(sync, base, bytes, dispUnit, timeout);
        } catch (RuntimeException | Error e) {
            sync.free();
            throw e;
        }
    }

    private static int agreeOnLeast(FabricComm sync, int mine) {
        int[] in = {mine}, out = new int[1];
        sync.bracketed("Win", () -> sync.collectives().allReduce(new Buf(in, BaseKind.INT, 0, 1),
                new Buf(out, BaseKind.INT, 0, 1), 1, Predefined.T_INT, MIN));
        return out[0];
    }

    private static final OpDesc MIN = new OpDesc("MPI.MIN", OpCode.MIN, null, true);

    private final BackendComm sync;
    private final long key;
    private final int rank;
    private final double timeout;
    private final long[] stamps;
    /** Every rank's window memory and displacement unit. */
    private final Buf[] parts;
    private final int[] dispUnits;
    /** The target's mutex (atomic operations) and passive-target lock: in this JVM, or in shared memory. */
    private final Locks locks;
    /** Between processes: the mapped files, unlinked once every rank mapped them. */
    private final ShmWindow shm;
    private final PscwEpochs pscw;

    private FabricWindow(FabricComm sync, long key, Buf[] parts, int[] dispUnits, Locks locks, ShmWindow shm,
                         double timeout) {
        this.sync = sync;
        this.pscw = new PscwEpochs(sync);
        this.key = key;
        this.rank = sync.rank();
        this.stamps = new long[sync.size()];
        this.parts = parts;
        this.dispUnits = dispUnits;
        this.locks = locks;
        this.shm = shm;
        this.timeout = timeout;
    }

    /** The per-target mutex and reader/writer lock a window needs. */
    interface Locks {
        void mutex(int target);

        void unmutex(int target);

        /** A passive-target lock; returns what {@link #release} needs. Waits at most the timeout. */
        long acquire(int target, boolean exclusive, double timeout);

        void release(int target, long stamp);
    }

    /** Locks of ranks in one JVM. */
    private static final class JvmLocks implements Locks {
        private final Shared s;

        JvmLocks(Shared s) {
            this.s = s;
        }

        @Override
        public void mutex(int target) {
            s.mutexes[target].lock();
        }

        @Override
        public void unmutex(int target) {
            s.mutexes[target].unlock();
        }

        @Override
        public long acquire(int target, boolean exclusive, double timeout) {
            StampedLock l = s.locks[target];
            long st;
            try {
                st = exclusive ? l.tryWriteLock((long) (timeout * 1e9), TimeUnit.NANOSECONDS)
                        : l.tryReadLock((long) (timeout * 1e9), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw MPIException.of(Mpi.ERR_OTHER, "Win.lock: interrupted while waiting for rank " + target
                        + "'s lock");
            }
            if (st == 0) throw ShmWindow.lockTimeout(target, timeout);
            return st;
        }

        @Override
        public void release(int target, long stamp) {
            s.locks[target].unlock(stamp);
        }
    }

    /** Runs {@code body} holding {@code target}'s mutex: atomic with respect to every other atomic operation. */
    private void atomically(int target, Runnable body) {
        locks.mutex(target);
        try {
            body.run();
        } finally {
            locks.unmutex(target);
        }
    }

    private static void barrier(BackendComm sync, String call) {
        sync.bracketed(call, () -> sync.collectives().barrier());
    }

    void barrier(String call) {
        barrier(sync, call);
    }

    // ---- data ----------------------------------------------------------------------------------

    private static boolean plain(TypeDesc a, TypeDesc b) {
        return (a == null || a.isPredefined()) && b.isPredefined();
    }

    private long at(int target, long disp) {
        return disp * dispUnits[target];
    }

    @Override
    public Buf base() {
        return parts[rank];
    }

    /** Predefined types copy directly; derived ones are packed and scattered over the target's runs (RmaRuns). */
    @Override
    public void put(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp, int targetCount,
                    TypeDesc targetType) {
        if (plain(originType, targetType)) {
            long n = Math.min(Buffers.spanBytes(originCount, originType), Buffers.spanBytes(targetCount, targetType));
            BufAccess.copy(origin, 0, parts[target], at(target, targetDisp), n);
            return;
        }
        RmaRuns.scatter(RmaRuns.pack(origin, originType, originCount), 0, parts[target], at(target, targetDisp),
                RmaRuns.of(targetType, targetCount));
    }

    @Override
    public void get(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp, int targetCount,
                    TypeDesc targetType) {
        if (plain(originType, targetType)) {
            long n = Math.min(Buffers.spanBytes(originCount, originType), Buffers.spanBytes(targetCount, targetType));
            BufAccess.copy(parts[target], at(target, targetDisp), origin, 0, n);
            return;
        }
        long[] runs = RmaRuns.of(targetType, targetCount);
        int n = (int) RmaRuns.bytes(runs);
        Buf packed = new Buf(new byte[n], BaseKind.BYTE, 0, n);
        RmaRuns.gather(parts[target], at(target, targetDisp), runs, packed, 0);
        RmaRuns.unpack(packed, 0, origin, originType, originCount);
    }

    @Override
    public void accumulate(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                           int targetCount, TypeDesc targetType, OpDesc op) {
        TypeDesc leaf = RmaRuns.accumulateLeaf("Win.accumulate", originType, targetType);
        Buf packed = RmaRuns.pack(origin, originType, originCount);
        long[] runs = RmaRuns.of(targetType, targetCount);
        Buf t = parts[target];
        long at = at(target, targetDisp);
        atomically(target, () -> RmaRuns.reduce(op, leaf, packed, 0, t, at, runs));
    }

    @Override
    public void getAccumulate(Buf origin, int originCount, TypeDesc originType, Buf result, int resultCount,
                              TypeDesc resultType, int target, long targetDisp, int targetCount, TypeDesc targetType,
                              OpDesc op) {
        TypeDesc leaf = RmaRuns.accumulateLeaf("Win.getAccumulate", origin == null ? null : originType, targetType);
        Buf packed = origin == null || op.code == OpCode.NO_OP ? null : RmaRuns.pack(origin, originType, originCount);
        long[] runs = RmaRuns.of(targetType, targetCount);
        int n = (int) RmaRuns.bytes(runs);
        Buf old = new Buf(new byte[n], BaseKind.BYTE, 0, n);
        Buf t = parts[target];
        long at = at(target, targetDisp);
        atomically(target, () -> {
            RmaRuns.gather(t, at, runs, old, 0);
            if (packed != null) RmaRuns.reduce(op, leaf, packed, 0, t, at, runs);
        });
        RmaRuns.unpack(old, 0, result, resultType, resultCount);
    }

    @Override
    public void fetchAndOp(Buf origin, Buf result, TypeDesc type, int target, long targetDisp, OpDesc op) {
        getAccumulate(origin, 1, type, result, 1, type, target, targetDisp, 1, type, op);
    }

    @Override
    public void compareAndSwap(Buf origin, Buf compare, Buf result, TypeDesc type, int target, long targetDisp) {
        Buf t = parts[target];
        long at = at(target, targetDisp);
        int n = (int) type.size;
        ByteBuffer old = ByteBuffer.allocate(n), cmp = ByteBuffer.allocate(n);
        atomically(target, () -> {
            BufAccess.get(t, at, old, 0, n);
            BufAccess.get(compare, 0, cmp, 0, n);
            if (old.equals(cmp)) BufAccess.copy(origin, 0, t, at, n);
        });
        BufAccess.put(old, 0, result, 0, n);
    }

    @Override
    public BackendRequest rPut(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                               int targetCount, TypeDesc targetType) {
        put(origin, originCount, originType, target, targetDisp, targetCount, targetType);
        return new CompletedRequest(null); // done at the call: complete
    }

    @Override
    public BackendRequest rGet(Buf origin, int originCount, TypeDesc originType, int target, long targetDisp,
                               int targetCount, TypeDesc targetType) {
        get(origin, originCount, originType, target, targetDisp, targetCount, targetType);
        return new CompletedRequest(null); // done at the call: complete
    }

    // ---- synchronization -------------------------------------------------------------------------

    @Override
    public void fence(int assertion) {
        barrier("Win.fence");
    }

    @Override
    public void post(int[] group, int assertion) {
        pscw.post(group);
    }

    @Override
    public void start(int[] group, int assertion) {
        pscw.start(group);
    }

    @Override
    public void complete() {
        pscw.complete();
    }

    @Override
    public void waitForExposure() {
        pscw.waitForExposure();
    }

    @Override
    public boolean testExposure() {
        return pscw.testExposure();
    }

    @Override
    public void lock(int lockType, int target, int assertion) {
        stamps[target] = locks.acquire(target, lockType == LOCK_EXCLUSIVE, timeout);
    }

    @Override
    public void unlock(int target) {
        locks.release(target, stamps[target]);
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

    /** Every rank's memory is mapped or in this JVM: the mpi layer may copy plain puts and gets itself. */
    @Override
    public ByteBuffer[] loadStoreMemory() {
        return BackendWindow.byteViews(parts);
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
        dispUnit[0] = dispUnits[target];
        return parts[target];
    }

    @Override
    public long attach(Buf memory, long bytes) {
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
        if (shm != null) shm.close();
        sync.free();
    }
}
