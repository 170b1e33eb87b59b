package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import mpi.MPIException;

/**
 * Java user reductions on the MPI backend. MPI calls a user function without any user data, so
 * each live op gets one of the native library's trampoline slots; MPI calls the trampoline,
 * which calls {@link #call} with the slot number.
 *
 * <p>Life of a slot: taken when the op is first used (MPI_Op_create), counted busy while an
 * operation uses the op, and returned once the op is freed ({@code Op.free()}, which calls
 * MPI_Op_free at once) and no operation still uses it: a pending {@code iAllReduce} keeps its
 * slot until it completes, so a later op can never be called in its place. A request freed
 * while still active keeps its slot for the rest of the job (MPI may still call the op). The
 * op's {@link Use} is this backend's handle in the op's {@code Lifecycle}: {@code Op.free()}
 * hands it back through {@code MpiBackend.freeOp}.
 *
 * <p>A failure of the user's function is kept and rethrown once the MPI call returns, since it
 * must never unwind through MPI.
 */
final class MpiUserOps {
    private MpiUserOps() {
    }

    static final int SLOTS = MpiNative.USER_OP_SLOTS;

    /** One live user op: its slot and MPI_Op, and the operations using it. */
    static final class Use {
        final OpDesc op;
        final int slot;
        final long handle;
        /** Operations in progress with the op (guarded by MpiUserOps.class). */
        private int inProgress;
        /** Op.free() was called (guarded by MpiUserOps.class). */
        private boolean freed;
        /** First failure of the user function during the current operations (guarded by this). */
        private Throwable failure;

        Use(OpDesc op, int slot, long handle) {
            this.op = op;
            this.slot = slot;
            this.handle = handle;
        }
    }

    /** Read without a lock from inside MPI (a lock there could deadlock with MPI's own). */
    private static final AtomicReferenceArray<Use> BY_SLOT = new AtomicReferenceArray<>(SLOTS);
    private static final Map<Long, TypeDesc> TYPES = new ConcurrentHashMap<>();
    private static int live;

    /**
     * Starts an operation with user op {@code op}: makes its MPI_Op and takes a slot on first use,
     * recording them as this backend's handle in the op's lifecycle. Every call must be matched
     * by one {@link #end}.
     */
    static synchronized Use begin(MpiBackend backend, OpDesc op) {
        Use u = (Use) op.lifecycle.handleOf(backend);
        if (u == null) {
            if (op.lifecycle.isFreed()) throw freed(op);
            int slot = freeSlot();
            if (slot < 0) {
                throw MPIException.of(Mpi.ERR_OP, "user op: " + SLOTS + " user-defined operations are live, the most "
                        + "the MPI backend supports at once; free the ones no longer needed with Op.free()");
            }
            u = new Use(op, slot, MpiNative.opCreate0(slot, op.commutative));
            if (!op.lifecycle.hold(backend, u)) {
                // Op.free() ran meanwhile on another thread: nothing may keep the new MPI_Op.
                MpiNative.opFree0(u.handle);
                throw freed(op);
            }
            BY_SLOT.set(slot, u);
            live++;
        }
        u.inProgress++;
        return u;
    }

    private static MPIException freed(OpDesc op) {
        return MPIException.of(Mpi.ERR_OP, "user op " + op.name + " has been freed");
    }

    private static int freeSlot() {
        for (int i = 0; i < SLOTS; i++) if (BY_SLOT.get(i) == null) return i;
        return -1;
    }

    /**
     * Ends an operation begun with {@link #begin}: returns the slot if the op was freed and this
     * was its last operation, and gives back the user function's failure, if any, to rethrow.
     */
    static Throwable end(Use u) {
        Throwable t;
        synchronized (u) {
            t = u.failure;
            u.failure = null;
        }
        synchronized (MpiUserOps.class) {
            u.inProgress--;
            releaseIfDone(u);
        }
        return t;
    }

    /** {@link #end}, throwing the user function's failure as an MPIException. */
    static void endAndRethrow(Use u) {
        Throwable t = end(u);
        if (t instanceof MPIException) throw (MPIException) t;
        if (t != null) throw new MPIException("user reduction failed: " + t, t);
    }

    /**
     * The backend's free hook for the op whose handle is {@code u}: frees the MPI_Op (MPI keeps
     * it for operations still using it) unless MPI is finalized, and returns the slot once
     * nothing uses it.
     */
    static synchronized void free(Use u, boolean mpiFinalized) {
        if (u.freed) return;
        u.freed = true;
        try {
            if (!mpiFinalized) MpiNative.opFree0(u.handle);
        } finally {
            releaseIfDone(u);
        }
    }

    private static void releaseIfDone(Use u) {
        if (u.freed && u.inProgress == 0 && BY_SLOT.get(u.slot) == u) {
            BY_SLOT.set(u.slot, null);
            live--;
        }
    }

    /** User ops holding a slot: not yet freed, or freed with an operation still in progress. */
    static synchronized int live() {
        return live;
    }

    /** Remembers which TypeDesc an MPI datatype handle stands for. */
    static void registerType(long handle, TypeDesc type) {
        TYPES.putIfAbsent(handle, type);
    }

    // ---- derived datatypes (issue 10): their handles are reused by MPI after a free ----

    /** Records a derived type's new MPI datatype, replacing a freed type that had the same handle. */
    static void registerDerivedType(long handle, TypeDesc type) {
        TYPES.put(handle, type);
    }

    /** Forgets a derived type's MPI datatype when it is freed. */
    static void unregisterType(long handle, TypeDesc type) {
        TYPES.remove(handle, type);
    }

    /** Called from native code inside MPI: must not throw. */
    static void call(int slot, ByteBuffer in, ByteBuffer inout, int count, long typeHandle) {
        Use u = slot >= 0 && slot < SLOTS ? BY_SLOT.get(slot) : null;
        try {
            TypeDesc type = TYPES.get(typeHandle);
            if (u == null || type == null) {
                throw new IllegalStateException("no user op or datatype registered for this reduction");
            }
            Buf a = new Buf(in.order(ByteOrder.nativeOrder()), BaseKind.BYTE, 0, in.capacity());
            Buf b = new Buf(inout.order(ByteOrder.nativeOrder()), BaseKind.BYTE, 0, inout.capacity());
            u.op.function.reduce(a, b, count, type);
        } catch (Throwable t) {
            if (u == null) {
                // Cannot happen while slots are returned only when unused; never stay silent.
                System.err.println("mpi4j: internal error: MPI called user-op slot " + slot + ", which holds no op");
                return;
            }
            synchronized (u) {
                if (u.failure == null) u.failure = t;
            }
        }
    }
}
