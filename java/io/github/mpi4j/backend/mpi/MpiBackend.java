package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.buffer.PackingComm;
import io.github.mpi4j.nativeload.Capabilities;
import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.Timeout;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;
import java.nio.ByteBuffer;
import mpi.MPIException;

/** The system MPI library, through {@code libmpi4j_mpi}. */
public final class MpiBackend implements Backend {
    private final String reason;
    private final int threadLevel;
    /** Whether blocking calls may pin Java arrays (not under THREAD_MULTIPLE: see docs/buffers.md). */
    final boolean pinArrays;
    private final long[] typeHandles = new long[TypeDesc.PREDEFINED_COUNT];
    /** Predefined ops, then MINLOC/MAXLOC of 4 pair types, then wrapping SUMs of byte, short, char. */
    private final long[] opHandles = new long[MpiNative.OP_TABLE_SIZE];
    private final MpiComm world;
    private final MpiComm self;
    private ByteBuffer attached;
    /** MPI_Finalize was called: freeing an op then releases only its slot. */
    private volatile boolean finished;

    /** Whether MPI takes device memory as it is (a CUDA-aware library). */
    final MpiDevice device;

    private MpiBackend(int required, String reason, double timeoutSeconds, String cudaAware, boolean asyncProgress) {
        this.reason = reason;
        MallocSettings.apply(System.getenv());
        int provided = MpiNative.init0(MpiAsyncProgress.levelToAsk(required, asyncProgress));
        this.device = MpiDevice.decide(cudaAware);
        this.threadLevel = provided;
        this.pinArrays = provided < Mpi.THREAD_MULTIPLE && !Boolean.getBoolean("mpi4j.mpi.stageArrays");
        long[] comms = new long[2];
        MpiNative.handles0(typeHandles, opHandles, comms);
        for (TypeDesc t : Predefined.ALL) {
            if (t != null && typeHandles[t.predefinedId] != 0) MpiUserOps.registerType(typeHandles[t.predefinedId], t);
        }
        this.world = new MpiComm(this, comms[0], false);
        this.self = new MpiComm(this, comms[1], false);
        this.packingWorld = PackingComm.wrap(world, false);
        this.packingSelf = PackingComm.wrap(self, false);
        MpiWatchdog.start(timeoutSeconds, world.rank(), comms[0]);
        String noHelper = MpiAsyncProgress.start(asyncProgress, provided, comms[1]);
        if (asyncProgress && noHelper != null && world.rank() == 0) {
            System.err.println("mpi4j: warning: " + MpiAsyncProgress.VARIABLE + " is set, but " + noHelper
                    + "; running without asynchronous progress");
        }
    }

    /** Initializes MPI ({@code MPI_Init_thread}) and returns the backend. */
    public static Backend create(int requiredThreadLevel, String reason) {
        if (!Capabilities.mpiAvailable()) {
            throw MPIException.of(Mpi.ERR_OTHER, "the MPI bridge is unavailable: " + Capabilities.mpiDetail());
        }
        // Read before MPI_Init, so a bad value fails without starting MPI.
        double timeout = Timeout.seconds(System.getenv(), "MPI.Init (mpi)");
        String cudaAware = MpiDevice.setting(System.getenv());
        boolean asyncProgress = MpiAsyncProgress.requested(System.getenv());
        return new MpiBackend(requiredThreadLevel, reason, timeout, cudaAware, asyncProgress);
    }

    /** MPI_Datatype of a type. */
    long type(TypeDesc t) {
        if (t.isPredefined()) {
            long h = typeHandles[t.predefinedId];
            if (h == 0) throw MPIException.of(Mpi.ERR_TYPE, t.name + " cannot be used in communication");
            return h;
        }
        if (t.derived instanceof TypeMap) return derivedType(t);
        throw MPIException.of(Mpi.ERR_TYPE, "datatype " + t.name + " has no MPI datatype");
    }

    /**
     * Starts an operation with a user op: its MPI_Op and slot, made on first use (see
     * {@link MpiUserOps}). The caller must end the use with {@code MpiUserOps.end...}.
     */
    MpiUserOps.Use beginUserOp(OpDesc op, TypeDesc t) {
        long type = type(t);
        MpiUserOps.Use u = MpiUserOps.begin(this, op);
        MpiUserOps.registerType(type, t);
        return u;
    }

    /** MPI_Op of an operation applied to {@code t}: {@code user}'s for a user op. */
    long op(OpDesc op, TypeDesc t, MpiUserOps.Use user) {
        if (user != null) return user.handle;
        if (t.derived instanceof TypeMap) t = leafOf(op, t);
        if (op.code.isLocOp()) {
            int pair = pairIndex(t.predefinedId);
            if (pair >= 0) return opHandles[MpiNative.OP_PAIR_BASE + 2 * pair + (op.code == OpCode.MINLOC ? 0 : 1)];
        }
        if (op.code == OpCode.SUM && t.isPredefined()) {
            int wrap = wrapSumIndex(t.predefinedId);
            if (wrap >= 0) return opHandles[MpiNative.OP_PAIR_BASE + 8 + wrap];
        }
        return opHandles[MpiNative.opSlot(op.code)];
    }

    /** The handle is the op's {@link MpiUserOps.Use}: its MPI_Op and callback slot. */
    @Override
    public void freeOp(OpDesc op, Object handle) {
        MpiUserOps.free((MpiUserOps.Use) handle, finished);
    }

    @Override
    public int liveUserOps() {
        return MpiUserOps.live();
    }

    /**
     * Java's 8- and 16-bit integer sums wrap; Open MPI 4.1's AVX component saturates them, so
     * those three types sum with our own op (and every other reduction keeps MPI's fast ones).
     */
    private static int wrapSumIndex(int id) {
        switch (id) {
            case Predefined.BYTE: return 0;
            case Predefined.SHORT: return 1;
            case Predefined.CHAR: return 2;
            default: return -1;
        }
    }

    private static int pairIndex(int id) {
        switch (id) {
            case Predefined.SHORT2: return 0;
            case Predefined.LONG2: return 1;
            case Predefined.FLOAT2: return 2;
            case Predefined.DOUBLE2: return 3;
            default: return -1;
        }
    }

    @Override
    public String name() {
        return "mpi";
    }

    @Override
    public String reason() {
        return reason;
    }

    @Override
    public int threadLevel() {
        return threadLevel;
    }

    @Override
    public boolean isThreadMain() {
        return MpiNative.isThreadMain0();
    }

    @Override
    public BackendComm world() {
        return packingWorld;
    }

    @Override
    public BackendComm self() {
        return packingSelf;
    }

    @Override
    public double wtime() {
        return MpiNative.wtime0();
    }

    @Override
    public double wtick() {
        return MpiNative.wtick0();
    }

    @Override
    public String processorName() {
        return MpiNative.processorName0();
    }

    @Override
    public int[] version() {
        int v = MpiNative.version0();
        return new int[] {v / 100, v % 100};
    }

    @Override
    public String libVersion() {
        return MpiNative.libVersion0();
    }

    @Override
    public String errorString(int errorCode) {
        return MpiNative.errorString0(errorCode);
    }

    @Override
    public int errorClass(int errorCode) {
        return MpiNative.errorClass0(errorCode);
    }

    @Override
    public void abort(BackendComm comm, int code) {
        System.out.flush();
        System.err.flush();
        MpiNative.abort0(((MpiComm) PackingComm.unwrap(comm)).handle, code);
    }

    @Override
    public void finish() {
        finished = true;
        MpiAsyncProgress.stop();
        MpiWatchdog.stop();
        MpiNative.finalize0();
    }

    @Override
    public synchronized void attachBuffer(ByteBuffer buffer) {
        if (attached != null) throw MPIException.of(Mpi.ERR_BUFFER, "MPI.attachBuffer: a buffer is already attached");
        MpiNative.bufferAttach0(buffer, buffer.capacity());
        attached = buffer;
    }

    @Override
    public synchronized ByteBuffer detachBuffer() {
        if (attached == null) throw MPIException.of(Mpi.ERR_BUFFER, "MPI.detachBuffer: no buffer is attached");
        MpiNative.bufferDetach0();
        ByteBuffer b = attached;
        attached = null;
        return b;
    }

    // ---- completion of several requests: one MPI call when all are ours ------------------------

    private static long[] handles(BackendRequest[] requests) {
        long[] h = new long[requests.length];
        for (int i = 0; i < requests.length; i++) {
            BackendRequest r = requests[i];
            if (r == null) continue;
            if (!(r instanceof MpiRequest)) return null;
            h[i] = ((MpiRequest) r).handle;
        }
        return h;
    }

    /**
     * After a native multi-completion: finish the requests whose handle MPI set to null (a
     * request's own handle is still the one it had before the call).
     */
    private static void finishCompleted(BackendRequest[] requests, long[] after, StatusData[] statuses) {
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == null || ((MpiRequest) requests[i]).handle == 0 || after[i] != 0) continue;
            ((MpiRequest) requests[i]).completed(statuses == null ? null : statuses[i]);
            requests[i] = null;
        }
    }

    /** The statuses a multi-completion must collect: the caller's, or our own when a staged receive needs them. */
    private static StatusData[] statusesFor(BackendRequest[] requests, StatusData[] statuses) {
        if (statuses != null) return statuses;
        for (BackendRequest r : requests) {
            if (r != null && ((MpiRequest) r).needsStatus()) {
                StatusData[] own = new StatusData[requests.length];
                for (int i = 0; i < own.length; i++) own[i] = new StatusData();
                return own;
            }
        }
        return null;
    }

    @Override
    public void waitAll(BackendRequest[] requests, StatusData[] statuses) {
        long[] h = handles(requests);
        if (h == null || hasPersistent(requests)) {
            Backend.super.waitAll(requests, statuses);
            return;
        }
        StatusData[] st = statusesFor(requests, statuses);
        NativeStatus ns = st == null ? null : NativeStatus.mine(h.length);
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Waitall", null);
        try {
            MpiNative.waitAll0(h, ns == null ? 0 : ns.address);
        } finally {
            m.exit();
        }
        copyStatuses(ns, st, h.length);
        finishCompleted(requests, h, st);
    }

    /** Copies the first {@code n} statuses of a multi-completion into {@code st} (ns null: none were asked for). */
    private static void copyStatuses(NativeStatus ns, StatusData[] st, int n) {
        if (ns == null) return;
        for (int i = 0; i < n; i++) if (st[i] != null) ns.copyTo(i, st[i]);
    }

    @Override
    public boolean testAll(BackendRequest[] requests, StatusData[] statuses) {
        long[] h = handles(requests);
        if (h == null || hasPersistent(requests)) return Backend.super.testAll(requests, statuses);
        StatusData[] st = statusesFor(requests, statuses);
        NativeStatus ns = st == null ? null : NativeStatus.mine(h.length);
        boolean all = MpiNative.testAll0(h, ns == null ? 0 : ns.address);
        if (all) {
            copyStatuses(ns, st, h.length);
            finishCompleted(requests, h, st);
        }
        return all;
    }

    @Override
    public int waitAny(BackendRequest[] requests, StatusData status) {
        long[] h = handles(requests);
        if (h == null || hasPersistent(requests)) return Backend.super.waitAny(requests, status);
        StatusData s = status != null ? status : new StatusData();
        NativeStatus ns = NativeStatus.mine();
        int i;
        MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Waitany", null);
        try {
            i = MpiNative.waitAny0(h, ns.address);
        } finally {
            m.exit();
        }
        if (i >= 0) {
            ns.copyTo(s);
            ((MpiRequest) requests[i]).completed(s);
        }
        return i;
    }

    @Override
    public int testAny(BackendRequest[] requests, StatusData status) {
        long[] h = handles(requests);
        if (h == null || hasPersistent(requests)) return Backend.super.testAny(requests, status);
        StatusData s = status != null ? status : new StatusData();
        NativeStatus ns = NativeStatus.mine();
        int i = MpiNative.testAny0(h, ns.address);
        if (i >= 0) {
            ns.copyTo(s);
            ((MpiRequest) requests[i]).completed(s);
        }
        return i;
    }

    @Override
    public int[] waitSome(BackendRequest[] requests, StatusData[] statuses) {
        return some(requests, statuses, true);
    }

    @Override
    public int[] testSome(BackendRequest[] requests, StatusData[] statuses) {
        return some(requests, statuses, false);
    }

    private int[] some(BackendRequest[] requests, StatusData[] statuses, boolean blocking) {
        long[] h = handles(requests);
        if (h == null || hasPersistent(requests)) {
            return blocking ? Backend.super.waitSome(requests, statuses) : Backend.super.testSome(requests, statuses);
        }
        int[] idx = new int[requests.length];
        NativeStatus ns = statuses == null ? null : NativeStatus.mine(h.length);
        long area = ns == null ? 0 : ns.address;
        int n;
        if (blocking) {
            MpiWatchdog.Mark m = MpiWatchdog.enter("MPI_Waitsome", null);
            try {
                n = MpiNative.waitSome0(h, idx, area);
            } finally {
                m.exit();
            }
        } else {
            n = MpiNative.testSome0(h, idx, area);
        }
        if (n < 0) return null;
        copyStatuses(ns, statuses, n);
        int[] out = java.util.Arrays.copyOf(idx, n);
        for (int j = 0; j < n; j++) ((MpiRequest) requests[out[j]]).completed(statuses == null ? null : statuses[j]);
        return out;
    }

    private static boolean hasPersistent(BackendRequest[] requests) {
        for (BackendRequest r : requests) if (r != null && r.isPersistent()) return true;
        return false;
    }

    // ---- environment (issue 10) ----

    /** MPI's own values, read from MPI_COMM_WORLD (MPI_Comm_get_attr). */
    @Override
    public Integer predefinedAttribute(int key) {
        long v = MpiEnvNative.worldAttr0(key);
        return v == MpiEnvNative.ABSENT ? null : (int) v;
    }

    // ---- derived datatypes (issue 10) ----

    /**
     * The communicators the API gets: {@link #world} and {@link #self} with Java arrays of derived
     * types packed and reductions on derived types given their leaf type ({@link PackingComm});
     * direct memory goes to MPI with the type's own MPI datatype.
     */
    private final BackendComm packingWorld, packingSelf;

    /** MPI_COMM_WORLD's own communicator (not the packing layer the API sees). */
    MpiComm worldComm() {
        return world;
    }

    MpiComm selfComm() {
        return self;
    }

    /**
     * The MPI datatype of a derived type: made from its type map at commit or first use, recorded
     * in the type's lifecycle (one per backend) and freed through {@link #freeType}. MPI's own
     * bounds are checked once against Java's, which answer every query.
     */
    private long derivedType(TypeDesc t) {
        Object h = t.lifecycle.handleOf(this);
        if (h != null) return (Long) h;
        synchronized (t.lifecycle) {
            h = t.lifecycle.handleOf(this);
            if (h != null) return (Long) h;
            TypeMap m = (TypeMap) t.derived;
            int n = m.blocks();
            int[] counts = new int[n];
            long[] displs = new long[n];
            long[] leaves = new long[n];
            for (int i = 0; i < n; i++) {
                counts[i] = m.count(i);
                displs[i] = m.disp(i);
                leaves[i] = type(m.leaf(i));
            }
            long handle = MpiTypeNative.create0(counts, displs, leaves, t.lb, t.extent);
            long[] mpi = MpiTypeNative.bounds0(handle);
            if (mpi[0] != t.lb || mpi[1] != t.extent || mpi[4] != t.size
                    || (n > 0 && (mpi[2] != m.trueLb || mpi[3] != m.trueExtent))) {
                MpiTypeNative.free0(handle);
                throw MPIException.of(Mpi.ERR_INTERN, "datatype " + t.name + ": MPI computed lb/extent/true lb/true "
                        + "extent/size " + java.util.Arrays.toString(mpi) + " but mpi4j " + t.lb + "/" + t.extent + "/"
                        + m.trueLb + "/" + m.trueExtent + "/" + t.size);
            }
            if (!t.lifecycle.hold(this, handle)) {
                MpiTypeNative.free0(handle);
                throw MPIException.of(Mpi.ERR_TYPE, "datatype " + t.name + " has been freed");
            }
            MpiUserOps.registerDerivedType(handle, t);
            return handle;
        }
    }

    @Override
    public void commitType(TypeDesc type) {
        if (type.derived instanceof TypeMap) derivedType(type);
    }

    @Override
    public void freeType(TypeDesc type, Object handle) {
        // After MPI_Finalize the library released everything itself.
        if (!(handle instanceof Long)) return;
        MpiUserOps.unregisterType((Long) handle, type);
        if (!finished) MpiTypeNative.free0((Long) handle);
    }

    /**
     * The leaf a predefined op works on for a derived type. MPI reduces a derived type of one
     * predefined leaf element-wise with its own ops; mpi4j's own ops (the Java pair types, the
     * wrapping small-integer sums) take contiguous items only, so a derived type over those leaves
     * is refused for them rather than given to an op that would misread it.
     */
    private static TypeDesc leafOf(OpDesc op, TypeDesc t) {
        TypeDesc leaf = ((TypeMap) t.derived).uniformLeaf;
        if (leaf == null) return t;
        if (op.code.isLocOp() && pairIndex(leaf.predefinedId) >= 0) {
            throw MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION, op.name + " on derived datatype " + t.name + " over "
                    + leaf.name + " is not supported by the MPI backend (MPI has no such pair type); use MPI.INT2 or "
                    + "MPI.DOUBLE_INT leaves, or send the pairs contiguously");
        }
        return leaf;
    }
}
