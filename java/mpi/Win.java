package mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.buffer.NativeCopy;
import io.github.mpi4j.buffer.OpRules;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendWindow;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OneSided;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * An RMA window, {@code MPI_Win} (issue 11; see docs/onesided.md). Constructors and method
 * signatures are those of Open MPI's Java bindings. Every call is checked here before the backend
 * sees it: the target rank, the displacement against the target's window size (known from
 * creation), the epoch this process has open towards the target, lock types and assertions.
 * Windows live in memory that cannot move, so origin, result and window buffers must be direct
 * buffers ({@code MPI.newXxxBuffer}) or native memory; a Java array is refused.
 */
public final class Win implements Freeable {
    /** Flavors of {@link #Win(int, int, Info, Comm, Buffer, int)}. */
    public static final int FLAVOR_PRIVATE = 0, FLAVOR_SHARED = 1;

    private final Comm comm;
    private final int rank, size;
    private BackendWindow impl;
    /** Window bytes and displacement unit (bytes) of every rank; null for a dynamic window. */
    private final long[] bytes, dispUnits;
    private final int flavor;
    private String name = "";
    /** Starts as the communicator's handler (mpi4j's default: MPI.ERRORS_RETURN, so errors are exceptions). */
    private volatile Errhandler errhandler;
    /** User attributes (createKeyval/setAttr). */
    private java.util.Map<Integer, Object> attrs;

    // ---- this process's epochs (checked before every call) ----
    /** Between fences (not ended by MODE_NOSUCCEED). */
    private boolean fenceEpoch;
    /** RMA operations issued since the last fence: a lock or start may not follow them. */
    private boolean opsSinceFence;
    private boolean lockAll;
    /** Lock type held on each target, 0 when none. */
    private final int[] locks;
    private int lockCount;
    private int[] startGroup, postGroup;

    /**
     * Every rank's window memory when this process reaches it by loads and stores (one node's
     * shared memory; {@link BackendWindow#loadStoreMemory}), else null. Puts and gets of one
     * predefined type between a direct ByteBuffer and the window, in a passive-target epoch, are
     * then copies made right here ({@link #putHere}, {@link #getHere}), as Open MPI's osc/sm makes
     * them in C, and a flush with nothing else outstanding is a memory fence. Anything else, and
     * anything these shortcuts would refuse, takes the checked path to the backend.
     */
    private ByteBuffer[] loadStore;
    /** Targets of operations the backend has not yet been asked to complete: their flush goes to the backend. */
    private final boolean[] pending;

    /** MPI_Win_create over {@code base}; {@code size} and {@code dispUnit} count elements of the buffer, as in Open MPI. */
    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
        this(comm, "Win", MPI.WIN_FLAVOR_CREATE, base, size, dispUnit);
        hints(info);
    }

    /**
     * Open MPI's MPI_Win_allocate / MPI_Win_allocate_shared constructor. {@code FLAVOR_PRIVATE}
     * allocates window memory of {@code size} elements of {@code base}'s kind (MPI_Win_allocate,
     * as Open MPI's bindings do; reach it with {@link #getBase}); {@code FLAVOR_SHARED} allocates shared memory
     * of {@code size} elements of {@code base}'s kind (reach it with {@link #getBase} and
     * {@link #sharedQuery}; {@code base} is left untouched).
     */
    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) throws MPIException {
        this(comm, "Win", flavorOf(flavor), base, size, dispUnit);
        hints(info);
    }

    /** MPI_Win_create_dynamic: memory is attached with {@link #attach}. */
    public Win(Info info, Comm comm) throws MPIException {
        this(comm, "Win", MPI.WIN_FLAVOR_DYNAMIC, null, 0, 1);
        hints(info);
    }

    /** MPI_Win_allocate: {@code bytes} of window memory owned by the window ({@link #getBase}). */
    public static Win allocate(int bytes, int dispUnit, Info info, Comm comm) {
        return new Win(comm, "Win.allocate", MPI.WIN_FLAVOR_ALLOCATE, null, bytes, dispUnit).hints(info);
    }

    /** MPI_Win_allocate_shared: as {@link #allocate}, in memory the ranks of a node share ({@link #sharedQuery}). */
    public static Win allocateShared(int bytes, int dispUnit, Info info, Comm comm) {
        return new Win(comm, "Win.allocateShared", MPI.WIN_FLAVOR_SHARED, null, bytes, dispUnit).hints(info);
    }

    /** MPI_Win_create_dynamic. */
    public static Win createDynamic(Info info, Comm comm) {
        return new Win(info, comm);
    }

    private static int flavorOf(int flavor) {
        if (flavor == FLAVOR_PRIVATE) return MPI.WIN_FLAVOR_ALLOCATE; // MPI_Win_allocate, as in Open MPI's bindings
        if (flavor == FLAVOR_SHARED) return MPI.WIN_FLAVOR_SHARED;
        throw MPIException.of(MPI.ERR_ARG, "Win: flavor " + flavor + " is neither Win.FLAVOR_PRIVATE (0) nor "
                + "Win.FLAVOR_SHARED (1)");
    }

    /**
     * Collective creation. {@code base} (create) or its element size (shared flavor) gives the
     * unit of {@code size} and {@code dispUnit}; without a buffer they count bytes.
     */
    private Win(Comm comm, String call, int flavor, Buffer base, int size, int dispUnit) {
        if (comm == null) throw MPIException.of(MPI.ERR_COMM, call + ": comm is null");
        if (!(comm instanceof Intracomm)) {
            throw MPIException.of(MPI.ERR_COMM, call + ": windows over an intercommunicator are not supported");
        }
        OneSided os = comm.capability(call, OneSided.class, "one-sided windows");
        BackendComm c = comm.impl(call);
        this.comm = comm;
        Errhandler inherited = comm.errhandlerOrNull();
        this.errhandler = inherited != null ? inherited : MPI.ERRORS_RETURN;
        this.rank = c.rank();
        this.size = c.size();
        this.flavor = flavor;
        this.locks = new int[this.size];
        this.pending = new boolean[this.size];
        int unit = 1;
        if (base != null || flavor == MPI.WIN_FLAVOR_CREATE) {
            if (base == null) throw MPIException.of(MPI.ERR_BUFFER, call + ": base is null");
            if (!base.isDirect()) {
                throw MPIException.of(MPI.ERR_BUFFER, call + ": base must be a direct buffer (MPI.newXxxBuffer): "
                        + "a window's memory must not move, and a heap buffer's may");
            }
            unit = Buffers.kindOf(base).bytes;
        }
        if (size < 0) throw MPIException.of(MPI.ERR_SIZE, call + ": size must be >= 0, got " + size);
        if (dispUnit <= 0) throw MPIException.of(MPI.ERR_DISP, call + ": dispUnit must be > 0, got " + dispUnit);
        long myBytes = (long) size * unit;
        if (flavor == MPI.WIN_FLAVOR_CREATE && base != null && size > base.capacity()) {
            throw MPIException.of(MPI.ERR_SIZE, call + ": size " + size + " exceeds the buffer's capacity "
                    + base.capacity());
        }
        long myUnit = (long) dispUnit * unit;
        // Every rank learns every rank's window size, to check displacements before any call.
        long[] all = new long[2 * this.size];
        if (flavor != MPI.WIN_FLAVOR_DYNAMIC) {
            ((Intracomm) comm).allGather(new long[] {myBytes, myUnit}, 2, MPI.LONG, all, 2, MPI.LONG);
            bytes = new long[this.size];
            dispUnits = new long[this.size];
            for (int r = 0; r < this.size; r++) {
                bytes[r] = all[2 * r];
                dispUnits[r] = all[2 * r + 1];
            }
        } else {
            bytes = null;
            dispUnits = null;
        }
        switch (flavor) {
            case MPI.WIN_FLAVOR_CREATE:
                impl = os.createWindow(new Buf(base, Buffers.kindOf(base), 0, size), myBytes, (int) myUnit);
                break;
            case MPI.WIN_FLAVOR_ALLOCATE:
                impl = os.allocateWindow(myBytes, (int) myUnit, false);
                break;
            case MPI.WIN_FLAVOR_SHARED:
                impl = os.allocateWindow(myBytes, (int) myUnit, true);
                break;
            default:
                impl = os.createDynamicWindow();
        }
        if (BackendWindow.LOAD_STORE && flavor != MPI.WIN_FLAVOR_DYNAMIC) loadStore = impl.loadStoreMemory();
    }

    // =====================================================================================
    // Checks
    // =====================================================================================

    private BackendWindow impl(String call) {
        comm.session.check();
        BackendWindow w = impl;
        if (w == null) throw MPIException.of(MPI.ERR_WIN, call + ": the window has been freed");
        return w;
    }

    private void checkRank(String call, String arg, int target) {
        if (target < 0 || target >= size) {
            throw MPIException.of(MPI.ERR_RANK, call + ": " + arg + " " + target + " is not a rank of the window's "
                    + "group (size " + size + "; MPI.PROC_NULL is also allowed)");
        }
    }

    /** Throws unless an access epoch towards {@code target} is open here. */
    private void checkAccess(String call, int target) {
        if (fenceEpoch || passiveOpen(target) || contains(startGroup, target)) return;
        throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": no access epoch towards rank " + target
                + " is open; call fence, lock(" + target + "), lockAll or start first");
    }

    /** Throws unless {@code count} items of {@code type} at {@code disp} lie inside {@code target}'s window. */
    private void checkTarget(String call, int target, long disp, int count, TypeDesc type) {
        if (disp < 0) throw MPIException.of(MPI.ERR_DISP, call + ": targetDisp must be >= 0, got " + disp);
        Comm.checkCount(call, "targetCount", count);
        if (bytes == null) return; // dynamic: addresses are the target's to check
        long start = disp * dispUnits[target];
        long span = Buffers.spanBytes(count, type);
        if (start + span > bytes[target]) {
            throw MPIException.of(MPI.ERR_DISP, call + ": targetDisp " + disp + " (x dispUnit " + dispUnits[target]
                    + " bytes) + " + count + " x " + type.name + " = bytes [" + start + ", " + (start + span)
                    + ") lie outside rank " + target + "'s window of " + bytes[target] + " bytes");
        }
    }

    /** MPI requires the origin (or result) and target sides of an operation to carry the same data. */
    private static void checkMatch(String call, String side, int count, TypeDesc t, int targetCount, TypeDesc tt) {
        Buffers.noNegativeExtent(call, "one-sided windows", MPI.ERR_UNSUPPORTED_OPERATION, t, tt); // docs/datatypes.md
        long a = (long) count * t.size, b = (long) targetCount * tt.size;
        if (a != b) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": the " + side + " carries " + a + " bytes (" + count + " x "
                    + t.name + ") but the target " + b + " (" + targetCount + " x " + tt.name + ")");
        }
    }

    /** A Buf over a direct buffer or native memory, after checking {@code count} items of {@code t} fit. */
    private static Buf memory(String call, String arg, Object buf, int count, TypeDesc t, boolean written) {
        if (buf == null) throw MPIException.of(MPI.ERR_BUFFER, call + ": " + arg + " is null");
        boolean movable = buf.getClass().isArray() || (buf instanceof Buffer && !((Buffer) buf).isDirect());
        if (movable) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": " + arg + " must be a direct buffer (MPI.newXxxBuffer) "
                    + "or native memory, not " + (buf.getClass().isArray() ? "a Java array" : "a heap buffer")
                    + ": RMA may touch it after the call returns");
        }
        Comm.checkCount(call, arg + " count", count);
        return Buffers.resolve(call, arg, buf, 0, count, t, written);
    }

    private static OpDesc accumulateOp(String call, Op op, TypeDesc t) {
        if (op == null) throw MPIException.of(MPI.ERR_OP, call + ": op is null");
        OpDesc o = op.desc(call);
        if (o.code == OpCode.USER) {
            throw MPIException.of(MPI.ERR_OP, call + ": user-defined operations cannot be used in RMA accumulates "
                    + "(MPI allows predefined operations, MPI.REPLACE and MPI.NO_OP)");
        }
        if (o.code != OpCode.REPLACE && o.code != OpCode.NO_OP) OpRules.check(call, o, t);
        return o;
    }

    private static void checkAssert(String call, int assertion, int allowed) {
        if ((assertion & ~allowed) != 0) {
            throw MPIException.of(MPI.ERR_ASSERT, call + ": assertion " + assertion + " has bits that are not "
                    + "allowed here (allowed: " + allowed + ")");
        }
    }

    private static boolean contains(int[] group, int r) {
        if (group == null) return false;
        for (int g : group) if (g == r) return true;
        return false;
    }

    private void noPassiveEpoch(String call) {
        if (lockAll || lockCount > 0) {
            throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": a passive-target epoch is open (lock or lockAll); "
                    + "end it with unlock or unlockAll first");
        }
    }

    /** A lock or start may begin where a fence opened an epoch that no operation used. */
    private void leaveIdleFenceEpoch(String call) {
        if (fenceEpoch && opsSinceFence) {
            throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": RMA operations were issued in the current fence "
                    + "epoch; end it with fence(MPI.MODE_NOSUCCEED) first");
        }
        fenceEpoch = false;
    }

    /** Request-based operations (rPut, rGet, ...) are valid only in a passive-target epoch (MPI-3 11.3.5). */
    private void checkPassive(String call, int target) {
        if (target == MPI.PROC_NULL || passiveOpen(target)) return;
        throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": request-based RMA needs a passive-target epoch towards rank "
                + target + " (lock(" + target + ") or lockAll), not a fence or start epoch");
    }

    /** Common checks of an operation towards {@code target}; false for MPI.PROC_NULL (nothing to do). */
    private boolean towards(String call, int target) {
        impl(call);
        if (target == MPI.PROC_NULL) return false;
        checkRank(call, "targetRank", target);
        checkAccess(call, target);
        opsSinceFence = true;
        pending[target] = true;
        return true;
    }

    private int[] ranksOf(String call, Group group) {
        if (group == null) throw MPIException.of(MPI.ERR_GROUP, call + ": group is null");
        int n = group.getSize();
        int[] mine = new int[n];
        for (int i = 0; i < n; i++) mine[i] = i;
        int[] r = Group.translateRanks(group, mine, getGroup());
        for (int i = 0; i < n; i++) {
            if (r[i] == MPI.UNDEFINED) {
                throw MPIException.of(MPI.ERR_GROUP, call + ": member " + i + " of group is not in the window's group");
            }
        }
        return r;
    }

    // =====================================================================================
    // Communication
    // =====================================================================================

    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
                    Datatype targetType) throws MPIException {
        put(origin, orgCount, orgType, targetRank, (long) targetDisp, targetCount, targetType);
    }

    /** As the int form; {@code targetDisp} may be an address of a dynamic window (the value of {@link #attach}). */
    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp, int targetCount,
                    Datatype targetType) throws MPIException {
        if (putHere(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType)) return;
        int[] raised = Raised.enter();
        try {
            putImpl("Win.put", origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, false);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public Request rPut(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                        int targetCount, Datatype targetType) throws MPIException {
        return rPut(origin, orgCount, orgType, targetRank, (long) targetDisp, targetCount, targetType);
    }

    /** As the int form; {@code targetDisp} may be an address of a dynamic window (the value of {@link #attach}). */
    public Request rPut(Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp,
                        int targetCount, Datatype targetType) throws MPIException {
        int[] raised = Raised.enter();
        try {
            return putImpl("Win.rPut", origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, true);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    // ---- loads and stores (see loadStore) ----

    /**
     * Bytes that {@code count} items of {@code type} and of {@code targetType} move at
     * {@code disp} of {@code target} when the shortcut applies: a passive-target epoch towards it,
     * the same predefined type on both sides, every byte inside {@code origin} and the target's
     * window; otherwise -1, and the caller takes the checked path (which also names any error).
     */
    private int hereBytes(Buffer origin, int count, Datatype type, int target, long disp, int targetCount,
                          Datatype targetType) {
        if (!shortcutTowards(target) || type != targetType || count != targetCount
                || !(origin instanceof ByteBuffer)) {
            return -1;
        }
        TypeDesc t = type.descIfPrimitive();
        if (t == null || count < 0 || disp < 0 || disp > bytes[target] || !origin.isDirect()) return -1;
        long n = (long) count * t.size, start = disp * dispUnits[target];
        if (n > origin.capacity() || start + n > bytes[target]) return -1;
        return (int) n;
    }

    /** Whether the load/store shortcut may serve {@code target} now: memory mapped, a passive epoch, a live window. */
    private boolean shortcutTowards(int target) {
        return loadStore != null && target >= 0 && target < size && passiveOpen(target) && impl != null
                && comm.session.active();
    }

    /** Whether this process holds a passive-target epoch (lock or lockAll) towards {@code target}. */
    private boolean passiveOpen(int target) {
        return lockAll || locks[target] != 0;
    }

    /** A put as a store into the target's memory, when {@link #hereBytes} allows it. */
    private boolean putHere(Buffer origin, int count, Datatype type, int target, long disp, int targetCount,
                            Datatype targetType) {
        int n = hereBytes(origin, count, type, target, disp, targetCount, targetType);
        if (n < 0) return false;
        NativeCopy.copy(loadStore[target], (int) (disp * dispUnits[target]), (ByteBuffer) origin, 0, n);
        opsSinceFence = true;
        return true;
    }

    /** A get as a load from the target's memory, when {@link #hereBytes} allows it. */
    private boolean getHere(Buffer origin, int count, Datatype type, int target, long disp, int targetCount,
                            Datatype targetType) {
        int n = hereBytes(origin, count, type, target, disp, targetCount, targetType);
        if (n < 0 || origin.isReadOnly()) return false;
        NativeCopy.copy((ByteBuffer) origin, 0, loadStore[target], (int) (disp * dispUnits[target]), n);
        opsSinceFence = true;
        return true;
    }

    /** A flush that only loads and stores need: a full memory fence, as osc/sm's. */
    private boolean flushHere(int target) {
        if (!shortcutTowards(target) || pending[target]) return false;
        VarHandle.fullFence();
        return true;
    }

    private Request putImpl(String call, Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp,
                            int targetCount, Datatype targetType, boolean request) {
        TypeDesc ot = Comm.type(call, "orgType", orgType), tt = Comm.type(call, "targetType", targetType);
        Buf o = memory(call, "origin", origin, orgCount, ot, false);
        if (request) checkPassive(call, targetRank);
        if (!towards(call, targetRank)) return request ? Request.completed(comm.session) : null;
        checkTarget(call, targetRank, targetDisp, targetCount, tt);
        checkMatch(call, "origin", orgCount, ot, targetCount, tt);
        if (!request) {
            impl.put(o, orgCount, ot, targetRank, targetDisp, targetCount, tt);
            return null;
        }
        return comm.request(impl.rPut(o, orgCount, ot, targetRank, targetDisp, targetCount, tt), origin);
    }

    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
                    Datatype targetType) throws MPIException {
        get(origin, orgCount, orgType, targetRank, (long) targetDisp, targetCount, targetType);
    }

    /** As the int form; {@code targetDisp} may be an address of a dynamic window (the value of {@link #attach}). */
    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp, int targetCount,
                    Datatype targetType) throws MPIException {
        if (getHere(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType)) return;
        int[] raised = Raised.enter();
        try {
            getImpl("Win.get", origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, false);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                        int targetCount, Datatype targetType) throws MPIException {
        return rGet(origin, orgCount, orgType, targetRank, (long) targetDisp, targetCount, targetType);
    }

    /** As the int form; {@code targetDisp} may be an address of a dynamic window (the value of {@link #attach}). */
    public Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp,
                        int targetCount, Datatype targetType) throws MPIException {
        int[] raised = Raised.enter();
        try {
            return getImpl("Win.rGet", origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, true);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    private Request getImpl(String call, Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp,
                            int targetCount, Datatype targetType, boolean request) {
        TypeDesc ot = Comm.type(call, "orgType", orgType), tt = Comm.type(call, "targetType", targetType);
        Buf o = memory(call, "origin", origin, orgCount, ot, true);
        if (request) checkPassive(call, targetRank);
        if (!towards(call, targetRank)) return request ? Request.completed(comm.session) : null;
        checkTarget(call, targetRank, targetDisp, targetCount, tt);
        checkMatch(call, "origin", orgCount, ot, targetCount, tt);
        if (!request) {
            impl.get(o, orgCount, ot, targetRank, targetDisp, targetCount, tt);
            return null;
        }
        return comm.request(impl.rGet(o, orgCount, ot, targetRank, targetDisp, targetCount, tt), origin);
    }

    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                           int targetCount, Datatype targetType, Op op) throws MPIException {
        accumulate(origin, orgCount, orgType, targetRank, (long) targetDisp, targetCount, targetType, op);
    }

    /** As the int form; {@code targetDisp} may be an address of a dynamic window (the value of {@link #attach}). */
    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp,
                           int targetCount, Datatype targetType, Op op) throws MPIException {
        int[] raised = Raised.enter();
        try {
            accumulateImpl("Win.accumulate", origin, orgCount, orgType, targetRank, targetDisp, targetCount,
                    targetType, op, false);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    /**
     * MPI_Raccumulate; the request completes when the origin buffer may be reused (on the fabric
     * through the transport at once: the data is copied into the request message).
     */
    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                               int targetCount, Datatype targetType, Op op) throws MPIException {
        return rAccumulate(origin, orgCount, orgType, targetRank, (long) targetDisp, targetCount, targetType, op);
    }

    /** As the int form; {@code targetDisp} may be an address of a dynamic window (the value of {@link #attach}). */
    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, long targetDisp,
                               int targetCount, Datatype targetType, Op op) throws MPIException {
        int[] raised = Raised.enter();
        try {
            return accumulateImpl("Win.rAccumulate", origin, orgCount, orgType, targetRank, targetDisp, targetCount,
                    targetType, op, true);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    private Request accumulateImpl(String call, Buffer origin, int orgCount, Datatype orgType, int targetRank,
                                   long targetDisp, int targetCount, Datatype targetType, Op op, boolean request) {
        if (request) impl(call);
        TypeDesc ot = Comm.type(call, "orgType", orgType), tt = Comm.type(call, "targetType", targetType);
        OpDesc o = accumulateOp(call, op, tt);
        Buf b = memory(call, "origin", origin, orgCount, ot, false);
        if (request) checkPassive(call, targetRank < 0 || targetRank >= size ? MPI.PROC_NULL : targetRank);
        if (!towards(call, targetRank)) return request ? Request.completed(comm.session) : null;
        checkTarget(call, targetRank, targetDisp, targetCount, tt);
        checkMatch(call, "origin", orgCount, ot, targetCount, tt);
        if (!request) {
            impl.accumulate(b, orgCount, ot, targetRank, targetDisp, targetCount, tt, o);
            return null;
        }
        return comm.request(impl.rAccumulate(b, orgCount, ot, targetRank, targetDisp, targetCount, tt, o), origin);
    }

    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
                              Datatype resultType, int targetRank, int targetDisp, int targetCount,
                              Datatype targetType, Op op) throws MPIException {
        getAccumulate(origin, orgCount, orgType, resultAddr, resultCount, resultType, targetRank, (long) targetDisp, targetCount, targetType, op);
    }

    /** As the int form; {@code targetDisp} may be an address of a dynamic window (the value of {@link #attach}). */
    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
                              Datatype resultType, int targetRank, long targetDisp, int targetCount,
                              Datatype targetType, Op op) throws MPIException {
        int[] raised = Raised.enter();
        try {
            getAccumulateImpl("Win.getAccumulate", origin, orgCount, orgType, resultAddr, resultCount, resultType,
                    targetRank, targetDisp, targetCount, targetType, op, false);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    /** MPI_Rget_accumulate; complete when the old target data is in {@code resultAddr}. */
    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
                                  Datatype resultType, int targetRank, int targetDisp, int targetCount,
                                  Datatype targetType, Op op) throws MPIException {
        return rGetAccumulate(origin, orgCount, orgType, resultAddr, resultCount, resultType, targetRank, (long) targetDisp, targetCount, targetType, op);
    }

    /** As the int form; {@code targetDisp} may be an address of a dynamic window (the value of {@link #attach}). */
    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
                                  Datatype resultType, int targetRank, long targetDisp, int targetCount,
                                  Datatype targetType, Op op) throws MPIException {
        int[] raised = Raised.enter();
        try {
            return getAccumulateImpl("Win.rGetAccumulate", origin, orgCount, orgType, resultAddr, resultCount,
                    resultType, targetRank, targetDisp, targetCount, targetType, op, true);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    private Request getAccumulateImpl(String call, Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr,
                                      int resultCount, Datatype resultType, int targetRank, long targetDisp,
                                      int targetCount, Datatype targetType, Op op, boolean request) {
        if (request) impl(call);
        TypeDesc ot = Comm.type(call, "orgType", orgType), rt = Comm.type(call, "resultType", resultType),
                tt = Comm.type(call, "targetType", targetType);
        OpDesc o = accumulateOp(call, op, tt);
        Buf b = o.code == OpCode.NO_OP ? null : memory(call, "origin", origin, orgCount, ot, false);
        Buf r = memory(call, "resultAddr", resultAddr, resultCount, rt, true);
        if (request) checkPassive(call, targetRank < 0 || targetRank >= size ? MPI.PROC_NULL : targetRank);
        if (!towards(call, targetRank)) return request ? Request.completed(comm.session) : null;
        checkTarget(call, targetRank, targetDisp, targetCount, tt);
        if (b != null) checkMatch(call, "origin", orgCount, ot, targetCount, tt);
        checkMatch(call, "result", resultCount, rt, targetCount, tt);
        if (!request) {
            impl.getAccumulate(b, orgCount, ot, r, resultCount, rt, targetRank, targetDisp, targetCount, tt, o);
            return null;
        }
        return comm.request(impl.rGetAccumulate(b, orgCount, ot, r, resultCount, rt, targetRank, targetDisp,
                targetCount, tt, o), new Object[] {origin, resultAddr});
    }

    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank, int targetDisp, Op op)
            throws MPIException {
        fetchAndOp(origin, resultAddr, dataType, targetRank, (long) targetDisp, op);
    }

    /** As the int form; {@code targetDisp} may be an address of a dynamic window (the value of {@link #attach}). */
    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank, long targetDisp, Op op)
            throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.fetchAndOp";
            TypeDesc t = Comm.type(call, "dataType", dataType);
            OpDesc o = accumulateOp(call, op, t);
            Buf b = o.code == OpCode.NO_OP ? null : memory(call, "origin", origin, 1, t, false);
            Buf r = memory(call, "resultAddr", resultAddr, 1, t, true);
            if (!towards(call, targetRank)) return;
            checkTarget(call, targetRank, targetDisp, 1, t);
            impl.fetchAndOp(b, r, t, targetRank, targetDisp, o);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype targetType,
                               int targetRank, int targetDisp) throws MPIException {
        compareAndSwap(origin, compareAddr, resultAddr, targetType, targetRank, (long) targetDisp);
    }

    /** As the int form; {@code targetDisp} may be an address of a dynamic window (the value of {@link #attach}). */
    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype targetType,
                               int targetRank, long targetDisp) throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.compareAndSwap";
            TypeDesc t = Comm.type(call, "targetType", targetType);
            if (!t.isPredefined() || !(t.valueKind.isInteger() || t.valueKind == io.github.mpi4j.spi.BaseKind.BOOLEAN)) {
                throw MPIException.of(MPI.ERR_TYPE, call + ": targetType " + t.name + " is not an integer, "
                        + "boolean or byte type");
            }
            Buf b = memory(call, "origin", origin, 1, t, false);
            Buf cmp = memory(call, "compareAddr", compareAddr, 1, t, false);
            Buf r = memory(call, "resultAddr", resultAddr, 1, t, true);
            if (!towards(call, targetRank)) return;
            checkTarget(call, targetRank, targetDisp, 1, t);
            impl.compareAndSwap(b, cmp, r, t, targetRank, targetDisp);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    // =====================================================================================
    // Synchronization
    // =====================================================================================

    public void fence(int assertion) throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.fence";
            BackendWindow w = impl(call);
            checkAssert(call, assertion, MPI.MODE_NOSTORE | MPI.MODE_NOPUT | MPI.MODE_NOPRECEDE | MPI.MODE_NOSUCCEED);
            noPassiveEpoch(call);
            if (startGroup != null || postGroup != null) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": a start/post epoch is open; end it with complete "
                        + "or waitFor first");
            }
            w.fence(assertion);
            fenceEpoch = (assertion & MPI.MODE_NOSUCCEED) == 0;
            opsSinceFence = false;
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void start(Group group, int assertion) throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.start";
            BackendWindow w = impl(call);
            checkAssert(call, assertion, MPI.MODE_NOCHECK);
            int[] g = ranksOf(call, group);
            if (startGroup != null) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": an access epoch from start is "
                    + "already open; call complete first");
            noPassiveEpoch(call);
            leaveIdleFenceEpoch(call);
            w.start(g, assertion);
            startGroup = g;
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void complete() throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.complete";
            BackendWindow w = impl(call);
            if (startGroup == null) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": no access epoch was started "
                    + "(call start first)");
            w.complete();
            startGroup = null;
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void post(Group group, int assertion) throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.post";
            BackendWindow w = impl(call);
            checkAssert(call, assertion, MPI.MODE_NOCHECK | MPI.MODE_NOSTORE | MPI.MODE_NOPUT);
            int[] g = ranksOf(call, group);
            if (postGroup != null) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": an exposure epoch is already "
                    + "open; call waitFor or test first");
            leaveIdleFenceEpoch(call);
            w.post(g, assertion);
            postGroup = g;
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void waitFor() throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.waitFor";
            BackendWindow w = impl(call);
            if (postGroup == null) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": no exposure epoch was posted "
                    + "(call post first)");
            w.waitForExposure();
            postGroup = null;
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public boolean test() throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.test";
            BackendWindow w = impl(call);
            if (postGroup == null) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": no exposure epoch was posted "
                    + "(call post first)");
            boolean done = w.testExposure();
            if (done) postGroup = null;
            return done;
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void lock(int lockType, int rank, int assertion) throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.lock";
            BackendWindow w = impl(call);
            noLocksCheck(call);
            if (lockType != MPI.LOCK_EXCLUSIVE && lockType != MPI.LOCK_SHARED) {
                throw MPIException.of(MPI.ERR_LOCKTYPE, call + ": lockType " + lockType + " is neither "
                        + "MPI.LOCK_EXCLUSIVE (" + MPI.LOCK_EXCLUSIVE + ") nor MPI.LOCK_SHARED (" + MPI.LOCK_SHARED + ")");
            }
            checkAssert(call, assertion, MPI.MODE_NOCHECK);
            if (rank == MPI.PROC_NULL) return;
            checkRank(call, "rank", rank);
            if (lockAll) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": lockAll is in effect; call unlockAll first");
            if (locks[rank] != 0) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": rank " + rank
                    + " is already locked by this process; call unlock(" + rank + ") first");
            if (startGroup != null) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": an access epoch from start is "
                    + "open; call complete first");
            leaveIdleFenceEpoch(call);
            w.lock(lockType, rank, assertion);
            locks[rank] = lockType;
            lockCount++;
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void unlock(int rank) throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.unlock";
            BackendWindow w = impl(call);
            if (rank == MPI.PROC_NULL) return;
            checkRank(call, "rank", rank);
            if (locks[rank] == 0) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": rank " + rank
                    + " is not locked by this process (call lock first)");
            w.unlock(rank);
            pending[rank] = false;
            locks[rank] = 0;
            lockCount--;
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void lockAll(int assertion) throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.lockAll";
            BackendWindow w = impl(call);
            noLocksCheck(call);
            checkAssert(call, assertion, MPI.MODE_NOCHECK);
            noPassiveEpoch(call);
            if (startGroup != null) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": an access epoch from start is "
                    + "open; call complete first");
            leaveIdleFenceEpoch(call);
            w.lockAll(assertion);
            lockAll = true;
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void unlockAll() throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.unlockAll";
            BackendWindow w = impl(call);
            if (!lockAll) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": lockAll was not called");
            w.unlockAll();
            Arrays.fill(pending, false);
            lockAll = false;
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    private void passiveTowards(String call, int target) {
        impl(call);
        if (target == MPI.PROC_NULL) return;
        checkRank(call, "targetRank", target);
        if (!passiveOpen(target)) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": rank " + target
                + " is not locked by this process (flush needs lock or lockAll)");
    }

    private void passiveAny(String call) {
        impl(call);
        if (!lockAll && lockCount == 0) throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": no passive-target epoch "
                + "is open (call lock or lockAll first)");
    }

    public void flush(int targetRank) throws MPIException {
        if (flushHere(targetRank)) return;
        int[] raised = Raised.enter();
        try {
            passiveTowards("Win.flush", targetRank);
            if (targetRank != MPI.PROC_NULL) {
                impl.flush(targetRank);
                pending[targetRank] = false;
            }
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void flushAll() throws MPIException {
        int[] raised = Raised.enter();
        try {
            passiveAny("Win.flushAll");
            impl.flushAll();
            Arrays.fill(pending, false);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void flushLocal(int targetRank) throws MPIException {
        int[] raised = Raised.enter();
        try {
            passiveTowards("Win.flushLocal", targetRank);
            if (targetRank != MPI.PROC_NULL) impl.flushLocal(targetRank);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void flushLocalAll() throws MPIException {
        int[] raised = Raised.enter();
        try {
            passiveAny("Win.flushLocalAll");
            impl.flushAll();
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    /** MPI_Win_sync: the public and private copies of this process's window agree. */
    public void sync() throws MPIException {
        int[] raised = Raised.enter();
        try {
            impl("Win.sync").sync();
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    // =====================================================================================
    // Memory, group, names, error handlers, free
    // =====================================================================================

    /** This process's window memory as a native-order ByteBuffer (null for a dynamic window). */
    public ByteBuffer getBase() {
        int[] raised = Raised.enter();
        try {
            Buf b = impl("Win.getBase").base();
            if (b == null) return null;
            return b.base instanceof ByteBuffer ? ((ByteBuffer) b.base).duplicate().order(ByteOrder.nativeOrder()) : null;
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    /**
     * MPI_Win_shared_query on a window from {@link #allocateShared} or the shared flavor: rank
     * {@code rank}'s part, which this process can load and store, as a native-order ByteBuffer.
     */
    public ByteBuffer sharedQuery(int rank) {
        int[] raised = Raised.enter();
        try {
            String call = "Win.sharedQuery";
            BackendWindow w = impl(call);
            if (flavor != MPI.WIN_FLAVOR_SHARED) {
                throw MPIException.of(MPI.ERR_WIN, call + ": the window was not allocated shared (use Win.allocateShared)");
            }
            checkRank(call, "rank", rank);
            Buf b = w.sharedQuery(rank, new int[1]);
            return ((ByteBuffer) b.base).duplicate().order(ByteOrder.nativeOrder());
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    /** Rank {@code rank}'s displacement unit in bytes (MPI_Win_shared_query's disp_unit). */
    public int getDispUnit(int rank) {
        checkRank("Win.getDispUnit", "rank", rank);
        return dispUnits == null ? 1 : (int) dispUnits[rank];
    }

    /**
     * MPI_Win_attach: {@code size} elements of {@code base} become reachable through this dynamic
     * window. Returns the address other ranks pass as {@code targetDisp} (the long forms of
     * put/get/...) to reach the first element: MPI's absolute address on the MPI backend, a
     * window-private address on the fabric. Send it to them (Open MPI's binding returns nothing).
     */
    public long attach(Buffer base, int size) throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.attach";
            BackendWindow w = impl(call);
            if (flavor != MPI.WIN_FLAVOR_DYNAMIC) throw MPIException.of(MPI.ERR_WIN, call + ": not a dynamic window");
            if (base == null || !base.isDirect()) throw MPIException.of(MPI.ERR_BUFFER, call + ": base must be a direct "
                    + "buffer");
            if (size < 0 || size > base.capacity()) throw MPIException.of(MPI.ERR_SIZE, call + ": size " + size
                    + " is not in [0, " + base.capacity() + "]");
            return w.attach(new Buf(base, Buffers.kindOf(base), 0, size), (long) size * Buffers.kindOf(base).bytes);
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public void detach(Buffer base) throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.detach";
            BackendWindow w = impl(call);
            if (flavor != MPI.WIN_FLAVOR_DYNAMIC) throw MPIException.of(MPI.ERR_WIN, call + ": not a dynamic window");
            if (base == null || !base.isDirect()) throw MPIException.of(MPI.ERR_BUFFER, call + ": base must be a direct "
                    + "buffer");
            w.detach(new Buf(base, Buffers.kindOf(base), 0, base.capacity()));
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    /** The group of the window's communicator. */
    public Group getGroup() throws MPIException {
        int[] raised = Raised.enter();
        try {
            impl("Win.getGroup");
            return comm.getGroup();
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    /** How the window was made: MPI.WIN_FLAVOR_CREATE, _ALLOCATE, _DYNAMIC or _SHARED. */
    public int getFlavor() {
        impl("Win.getFlavor");
        return flavor;
    }

    /**
     * Window attributes MPI defines: MPI.WIN_BASE (the buffer the window was made over), MPI.WIN_SIZE (Integer
     * bytes), MPI.WIN_DISP_UNIT, MPI.WIN_CREATE_FLAVOR, MPI.WIN_MODEL; or the value a user key
     * ({@link #createKeyval}) was given with {@link #setAttr}, null when none.
     */
    public Object getAttr(int keyval) throws MPIException {
        int[] raised = Raised.enter();
        try {
            impl("Win.getAttr");
            switch (keyval) {
                case MPI.WIN_BASE: return baseAttr();
                case MPI.WIN_SIZE: return sizeAttr();
                case MPI.WIN_DISP_UNIT: return dispUnits == null ? 1 : (int) dispUnits[rank];
                case MPI.WIN_CREATE_FLAVOR: return flavor;
                case MPI.WIN_MODEL: return MPI.WIN_UNIFIED;
                default:
                    WinKeyvals.check("Win.getAttr", keyval);
                    synchronized (this) {
                        return attrs == null ? null : attrs.get(keyval);
                    }
            }
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    public String getName() throws MPIException {
        impl("Win.getName");
        return name;
    }

    public void setName(String name) throws MPIException {
        impl("Win.setName");
        if (name == null) throw MPIException.of(MPI.ERR_ARG, "Win.setName: name is null");
        this.name = name;
    }

    /**
     * The handler for this window's failing calls: {@code MPI.ERRORS_RETURN} lets the
     * MPIException propagate; {@code MPI.ERRORS_ARE_FATAL}/{@code ERRORS_ABORT} end the job; a
     * user handler ({@link Comm#createErrhandler}) is called with the window's communicator and
     * the error code, then the call throws.
     */
    public void setErrhandler(Errhandler errhandler) throws MPIException {
        impl("Win.setErrhandler");
        if (errhandler == null) throw MPIException.of(MPI.ERR_ARG, "Win.setErrhandler: errhandler is null");
        this.errhandler = errhandler;
    }

    public Errhandler getErrhandler() throws MPIException {
        impl("Win.getErrhandler");
        return errhandler;
    }

    /**
     * MPI_Win_call_errhandler: applies this window's handler to {@code errorCode} (a user handler
     * is called; the fatal ones end the job; MPI.ERRORS_RETURN does nothing), as
     * {@link Comm#callErrhandler} does for a communicator.
     */
    public void callErrhandler(int errorCode) throws MPIException {
        impl("Win.callErrhandler");
        Raised.apply(comm, errhandler, MPIException.of(errorCode, "Win.callErrhandler: error code " + errorCode));
    }

    /** MPI_Win_free (collective); refused while this process has an epoch open. */
    @Override
    public void free() throws MPIException {
        int[] raised = Raised.enter();
        try {
            String call = "Win.free";
            BackendWindow w = impl(call);
            noPassiveEpoch(call);
            if (startGroup != null || postGroup != null) {
                throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": a start/post epoch is open; end it with complete or "
                        + "waitFor first");
            }
            w.free();
            impl = null;
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    /** MPI_Win_create_keyval: a new key for {@link #setAttr} (window keys are their own, apart from communicators'). */
    public static int createKeyval() throws MPIException {
        return WinKeyvals.create();
    }

    /** MPI_Win_free_keyval. */
    public static void freeKeyval(int keyval) throws MPIException {
        WinKeyvals.free(keyval);
    }

    /** MPI_Win_set_attr: the value is kept as it is (not copied). */
    public void setAttr(int keyval, Object value) throws MPIException {
        int[] raised = Raised.enter();
        try {
            impl("Win.setAttr");
            WinKeyvals.check("Win.setAttr", keyval);
            synchronized (this) {
                if (attrs == null) attrs = new java.util.HashMap<>();
                attrs.put(keyval, value);
            }
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    /** MPI_Win_delete_attr. */
    public void deleteAttr(int keyval) throws MPIException {
        int[] raised = Raised.enter();
        try {
            impl("Win.deleteAttr");
            WinKeyvals.check("Win.deleteAttr", keyval);
            synchronized (this) {
                if (attrs != null) attrs.remove(keyval);
            }
        } catch (MPIException e) {
            throw Raised.on(this, comm, errhandler, e);
        } finally {
            raised[0]--;
        }
    }

    @Override
    public String toString() {
        return "Win[" + (name.isEmpty() ? "" : name + ", ") + "rank " + rank + " of " + size
                + (bytes == null ? ", dynamic" : ", " + bytes[rank] + " bytes") + "]"
                + (impl == null ? " (freed)" : "");
    }

    /** For tests and messages: every rank's window size in bytes. */
    long[] sizes() {
        return bytes == null ? null : Arrays.copyOf(bytes, bytes.length);
    }

    // ---- third-party compatibility (h21): the no_locks hint, WIN_BASE / WIN_SIZE attribute values ----

    /** The window was made with info {@code no_locks=true}: MPI lets the implementation assume no passive target. */
    private boolean noLocks;

    private Win hints(Info info) {
        String v = null;
        if (info != null) {
            try {
                v = info.get("no_locks");
            } catch (MPIException e) {
                v = null; // a freed info carries no hints
            }
        }
        noLocks = v != null && v.trim().equalsIgnoreCase("true");
        return this;
    }

    private void noLocksCheck(String call) {
        if (noLocks) {
            throw MPIException.of(MPI.ERR_RMA_SYNC, call + ": the window was created with info no_locks=true, "
                    + "which promises that passive-target synchronization (lock, lockAll) is not used on it");
        }
    }

    /** WIN_BASE: the buffer the window was made over (a ByteBuffer for allocated windows); null for dynamic windows. */
    private Object baseAttr() {
        ByteBuffer b = getBase();
        if (b != null) return b;
        Buf m = impl("Win.getAttr").base();
        return m == null ? null : m.base;
    }

    /** WIN_SIZE in bytes: an Integer as in Open MPI's bindings, a Long only when it does not fit an int. */
    private Object sizeAttr() {
        long n = bytes == null ? 0L : bytes[rank];
        return n <= Integer.MAX_VALUE ? (Object) (int) n : (Object) n;
    }
}
