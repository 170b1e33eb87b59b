package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mpi.MPI;
import mpi.MPIException;

/**
 * Java user reductions on the MPI backend. Each op gets one of the native library's trampoline
 * slots; MPI calls the trampoline, which calls {@link #call}. A failure of the user's function is
 * kept and rethrown once the MPI call returns, since it must never unwind through MPI.
 */
final class MpiUserOps {
    private MpiUserOps() {
    }

    static final int SLOTS = 32;
    private static final OpDesc[] OPS = new OpDesc[SLOTS];
    private static final Throwable[] FAILURES = new Throwable[SLOTS];
    private static final Map<Long, TypeDesc> TYPES = new ConcurrentHashMap<>();

    /** The MPI_Op of a user op, created on first use; returns its slot in {@code slotOut[0]}. */
    static synchronized long handle(OpDesc op, int[] slotOut) {
        for (int i = 0; i < SLOTS; i++) {
            if (OPS[i] == op) {
                slotOut[0] = i;
                return op.backendHandle;
            }
        }
        for (int i = 0; i < SLOTS; i++) {
            if (OPS[i] == null) {
                long h = MpiNative.opCreate0(i, op.commutative);
                op.backendHandle = h;
                OPS[i] = op;
                slotOut[0] = i;
                return h;
            }
        }
        throw MPIException.of(MPI.ERR_OP, "user op: at most " + SLOTS + " user-defined operations can be used "
                + "with the MPI backend");
    }

    /** Remembers which TypeDesc an MPI datatype handle stands for. */
    static void registerType(long handle, TypeDesc type) {
        TYPES.putIfAbsent(handle, type);
    }

    /** Called from native code inside MPI: must not throw. */
    static void call(int slot, ByteBuffer in, ByteBuffer inout, int count, long typeHandle) {
        try {
            OpDesc op = OPS[slot];
            TypeDesc type = TYPES.get(typeHandle);
            if (op == null || type == null) {
                throw new IllegalStateException("no user op or datatype registered for this reduction");
            }
            Buf a = new Buf(in.order(java.nio.ByteOrder.nativeOrder()), BaseKind.BYTE, 0, in.capacity());
            Buf b = new Buf(inout.order(java.nio.ByteOrder.nativeOrder()), BaseKind.BYTE, 0, inout.capacity());
            op.function.reduce(a, b, count, type);
        } catch (Throwable t) {
            synchronized (FAILURES) {
                if (FAILURES[slot] == null) FAILURES[slot] = t;
            }
        }
    }

    /** Throws the failure recorded for {@code slot} during the last call, if any. */
    static void rethrow(int slot) {
        if (slot < 0) return;
        Throwable t;
        synchronized (FAILURES) {
            t = FAILURES[slot];
            FAILURES[slot] = null;
        }
        if (t instanceof MPIException) throw (MPIException) t;
        if (t != null) throw new MPIException("user reduction failed: " + t, t);
    }
}
