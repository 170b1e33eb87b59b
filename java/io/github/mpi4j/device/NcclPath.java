package io.github.mpi4j.device;

import io.github.mpi4j.buffer.MemoryRules;
import io.github.mpi4j.cuda.Cuda;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.nccl.NcclTypes;
import io.github.mpi4j.nccl.RawNcclComm;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.MemoryKind;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import mpi.MPIException;

/**
 * The NCCL path of one communicator in NCCL mode ({@link CollectiveMode#NCCL}): the collectives
 * NCCL can do run through NCCL on every rank, whatever each rank's buffers are. Whether a call
 * is eligible depends only on the call, its type, op and count ({@link #reduction},
 * {@link #movable}), which MPI makes the same on every rank, so ranks never disagree on the path.
 *
 * <p>Buffers: device memory of the communicator's device is used in place; a host buffer (array,
 * direct buffer, host memory) or memory of another device goes through a pooled device
 * temporary ({@link DevicePool}): copied in before the operation, back after it completed.
 * Blocking: every call waits for NCCL's stream with the deadline before it returns.
 *
 * <p>The NCCL communicator is made at the first eligible call (every rank reaches it in the same
 * order, so creating it there is collective-safe): every rank first learns whether all can take
 * part (an all-reduce of the first rank that cannot, over the backend's own communicator), then
 * rank 0's unique id travels by the backend's bcast. A failure is an exception on every rank,
 * remembered: later calls throw it again at once, on every rank alike.
 */
final class NcclPath {
    /** NCCL-mode operations started in this process (tests check that NCCL really ran). */
    private static final AtomicLong CALLS = new AtomicLong();

    private final BackendComm comm;
    private final String backend;
    private RawNcclComm nccl;
    /** Why the NCCL communicator could not be made (the same on every rank), or null. */
    private String failed;

    /** @param comm the backend's own communicator (not the staging layer's): creation traffic goes there */
    NcclPath(BackendComm comm, String backend) {
        this.comm = comm;
        this.backend = backend;
    }

    static long calls() {
        return CALLS.get();
    }

    // ---- eligibility: from the call's type, op and count only ----------------------------

    /** Whether NCCL reduces {@code type} with {@code op}: MPI.BYTE, INT, LONG, FLOAT, DOUBLE; SUM, PROD, MAX, MIN. */
    static boolean reducible(TypeDesc type, OpDesc op) {
        return NcclTypes.findReduction(type) != null && NcclTypes.findOp(op) >= 0;
    }

    /** Whether NCCL moves {@code t} as bytes: a predefined type of fixed size without gaps. */
    static boolean movable(TypeDesc t) {
        return NcclTypes.findMovement(t) != null;
    }

    // ---- the collectives ---------------------------------------------------------------------

    void allReduce(String call, Buf send, Buf recv, int count, TypeDesc type, OpDesc op) {
        NcclTypes.Mapped t = NcclTypes.findReduction(type);
        int o = NcclTypes.findOp(op);
        long bytes = count * type.size;
        run(call, (ops, nc) -> {
            long s, r;
            if (send == Buf.IN_PLACE) {
                s = r = ops.inOut(recv, bytes);
            } else {
                s = ops.in(send, bytes);
                r = ops.out(recv, bytes);
            }
            return () -> nc.allReduce(call, s, r, count, t, o);
        });
    }

    void reduce(String call, Buf send, Buf recv, int count, TypeDesc type, OpDesc op, int root) {
        NcclTypes.Mapped t = NcclTypes.findReduction(type);
        int o = NcclTypes.findOp(op);
        long bytes = count * type.size;
        boolean atRoot = comm.rank() == root;
        run(call, (ops, nc) -> {
            long s, r;
            if (atRoot && send == Buf.IN_PLACE) {
                s = r = ops.inOut(recv, bytes);
            } else {
                s = ops.in(send, bytes);
                r = atRoot ? ops.out(recv, bytes) : 0; // NCCL reads recvbuff at the root only
            }
            return () -> nc.reduce(call, s, r, count, t, o, root);
        });
    }

    void bcast(String call, Buf buf, int count, TypeDesc type, int root) {
        long bytes = count * type.size;
        boolean atRoot = comm.rank() == root;
        run(call, (ops, nc) -> {
            long b = atRoot ? ops.in(buf, bytes) : ops.out(buf, bytes);
            return () -> nc.broadcast(call, b, b, bytes, NcclTypes.bytes(), root);
        });
    }

    void allGather(String call, Buf send, int sendCount, TypeDesc sendType, Buf recv, int recvCount,
                   TypeDesc recvType) {
        long block = recvCount * recvType.size;
        long total = block * comm.size();
        int rank = comm.rank();
        run(call, (ops, nc) -> {
            long s, r;
            if (send == Buf.IN_PLACE) {
                r = ops.inOut(recv, total);
                s = r + rank * block; // NCCL's in-place form: this rank's block of the receive buffer
            } else {
                if (!movable(sendType) || sendCount * sendType.size != block) {
                    throw MPIException.of(Mpi.ERR_TYPE, call + ": in NCCL mode the send type must be a predefined "
                            + "type without gaps of the receive block's size (" + block + " bytes); got " + sendCount
                            + " × " + sendType);
                }
                s = ops.in(send, block);
                r = ops.out(recv, total);
            }
            return () -> nc.allGather(call, s, r, block, NcclTypes.bytes());
        });
    }

    void reduceScatterBlock(String call, Buf send, Buf recv, int recvCount, TypeDesc type, OpDesc op) {
        NcclTypes.Mapped t = NcclTypes.findReduction(type);
        int o = NcclTypes.findOp(op);
        long bytes = recvCount * type.size;
        long total = bytes * comm.size();
        run(call, (ops, nc) -> {
            long s, r;
            if (send == Buf.IN_PLACE) {
                // The input is all of recv, the result its first block: a separate result buffer,
                // since NCCL's in-place form puts it at this rank's block instead.
                s = ops.in(recv, total);
                r = ops.outTemp(recv, bytes);
            } else {
                s = ops.in(send, total);
                r = ops.out(recv, bytes);
            }
            return () -> nc.reduceScatter(call, s, r, recvCount, t, o);
        });
    }

    // ---- running one call ----------------------------------------------------------------------

    /** Prepares a call's buffers on the communicator's device and returns the NCCL operation to run. */
    private interface Body {
        Runnable prepare(Operands ops, RawNcclComm nc);
    }

    /**
     * Makes the NCCL communicator if needed (collective), prepares the buffers, queues the
     * operation, waits for it with the deadline, copies results back to host buffers.
     */
    private void run(String call, Body body) {
        RawNcclComm nc = nccl(call);
        CALLS.incrementAndGet();
        Operands ops = new Operands(call, nc.device());
        try {
            Runnable op = body.prepare(ops, nc);
            op.run();
            nc.sync(call);
            ops.copyBack();
        } finally {
            ops.release();
        }
    }

    /** The NCCL communicator, made at the first call: collective over {@link #comm}. */
    private synchronized RawNcclComm nccl(String call) {
        if (nccl != null && (nccl.isAborted() || nccl.isClosed())) {
            throw MPIException.of(Mpi.ERR_OTHER, call + ": the NCCL communicator of this communicator (NCCL mode) was "
                    + "aborted after an earlier NCCL failure or deadline; NCCL-mode calls on it cannot run any more");
        }
        if (nccl != null) return nccl;
        if (failed != null) throw unavailable(call, failed, null);
        try {
            nccl = RawNcclComm.create(call, comm, () -> {
                RawNcclComm.ensure(call);
                return Cuda.defaultDevice();
            });
        } catch (RuntimeException e) {
            // Creation agrees on failures: every rank gets here, and remembers it.
            failed = e.getMessage();
            throw unavailable(call, failed, e);
        }
        return nccl;
    }

    private MPIException unavailable(String call, String why, Throwable cause) {
        MPIException e = MPIException.of(Mpi.ERR_OTHER, call + ": the communicator is in NCCL mode ("
                + CollectiveMode.KEY + " / " + CollectiveMode.ENV + " = nccl) on the " + backend
                + " backend, but its NCCL communicator could not be made: " + why);
        if (cause != null) e.initCause(cause);
        return e;
    }

    /** Frees the NCCL communicator (with the mpi communicator, or at finalize). */
    synchronized void close() {
        RawNcclComm n = nccl;
        nccl = null;
        if (n != null) n.close();
    }

    // ---- buffers on the device ---------------------------------------------------------------

    /** The buffers of one call as device addresses on {@code device}, with their temporaries. */
    private static final class Operands {
        private final String call;
        private final int device;
        private final List<DeviceBuffer> temps = new ArrayList<>(2);
        private final List<DeviceBuffer.Hold> holds = new ArrayList<>(2);
        private final List<Runnable> backs = new ArrayList<>(1);

        Operands(String call, int device) {
            this.call = call;
            this.device = device;
        }

        long in(Buf b, long bytes) {
            return address(b, bytes, true, false, false);
        }

        long out(Buf b, long bytes) {
            return address(b, bytes, false, true, false);
        }

        long inOut(Buf b, long bytes) {
            return address(b, bytes, true, true, false);
        }

        /** A result written to a temporary of its own, then to {@code b} (even when {@code b} is device memory). */
        long outTemp(Buf b, long bytes) {
            return address(b, bytes, false, true, true);
        }

        private long address(Buf b, long bytes, boolean copyIn, boolean copyBack, boolean temp) {
            if (b == null || b == Buf.IN_PLACE) {
                throw new IllegalStateException(call + ": no buffer where the NCCL path needs one (" + b + ")");
            }
            if (bytes > b.byteLength()) {
                throw new IllegalStateException(call + ": " + bytes + " bytes of " + b + " (" + b.byteLength()
                        + " available)");
            }
            if (!temp && usableInPlace(b)) {
                if (b.nativeMemory() instanceof DeviceBuffer) holds.add(((DeviceBuffer) b.nativeMemory()).hold());
                return b.address();
            }
            DeviceBuffer t = DevicePool.take(bytes, device);
            temps.add(t);
            if (copyIn) toDevice(b, t, bytes);
            if (copyBack) backs.add(() -> fromDevice(t, b, bytes));
            return t.address();
        }

        /**
         * Whether {@code b} is device memory of this device. A framework's pointer is checked
         * first, wherever it goes (as the staging path checks it): it must be memory of the
         * device it claims.
         */
        private boolean usableInPlace(Buf b) {
            if (b.memory != MemoryKind.DEVICE) return false;
            if (!(b.nativeMemory() instanceof DeviceBuffer)) {
                String bad = Staging.checkPointer(b);
                if (bad != null) {
                    MPIException m = MemoryRules.refuse(b, "the NCCL path", bad);
                    throw MPIException.of(Mpi.ERR_BUFFER, call + ": " + m.getMessage());
                }
            }
            return b.nativeMemory().device() == device;
        }

        void copyBack() {
            for (Runnable r : backs) r.run();
        }

        void release() {
            for (DeviceBuffer.Hold h : holds) h.close();
            for (DeviceBuffer t : temps) DevicePool.give(t);
            holds.clear();
            temps.clear();
            backs.clear();
        }
    }

    /** Elements of {@code b}'s kind in {@code bytes}. */
    private static int elements(Buf b, long bytes) {
        int k = b.kind.bytes;
        if (k == 0 || bytes % k != 0) throw new IllegalStateException(bytes + " bytes are no whole number of " + b.kind);
        return (int) (bytes / k);
    }

    /** The first {@code bytes} of {@code b} to the start of {@code t}. */
    static void toDevice(Buf b, DeviceBuffer t, long bytes) {
        switch (b.memory) {
            case DEVICE:
            case HOST:
                t.copyFrom(b.nativeMemory(), b.offset, bytes);
                return;
            case DIRECT:
                t.copyFrom((Buffer) b.base, b.offset, elements(b, bytes));
                return;
            default:
                array(b, t, elements(b, bytes), true);
        }
    }

    /** The start of {@code t} to the first {@code bytes} of {@code b}. */
    static void fromDevice(DeviceBuffer t, Buf b, long bytes) {
        switch (b.memory) {
            case DEVICE:
            case HOST:
                t.copyTo(b.nativeMemory(), b.offset, bytes);
                return;
            case DIRECT:
                t.copyTo((Buffer) b.base, b.offset, elements(b, bytes));
                return;
            default:
                array(b, t, elements(b, bytes), false);
        }
    }

    private static void array(Buf b, DeviceBuffer t, int n, boolean toDevice) {
        Object a = b.base;
        int o = b.offset;
        switch (b.kind) {
            case BYTE: if (toDevice) t.copyFrom((byte[]) a, o, n); else t.copyTo((byte[]) a, o, n); return;
            case BOOLEAN: if (toDevice) t.copyFrom((boolean[]) a, o, n); else t.copyTo((boolean[]) a, o, n); return;
            case CHAR: if (toDevice) t.copyFrom((char[]) a, o, n); else t.copyTo((char[]) a, o, n); return;
            case SHORT: if (toDevice) t.copyFrom((short[]) a, o, n); else t.copyTo((short[]) a, o, n); return;
            case INT: if (toDevice) t.copyFrom((int[]) a, o, n); else t.copyTo((int[]) a, o, n); return;
            case LONG: if (toDevice) t.copyFrom((long[]) a, o, n); else t.copyTo((long[]) a, o, n); return;
            case FLOAT: if (toDevice) t.copyFrom((float[]) a, o, n); else t.copyTo((float[]) a, o, n); return;
            case DOUBLE: if (toDevice) t.copyFrom((double[]) a, o, n); else t.copyTo((double[]) a, o, n); return;
            default: throw new IllegalStateException("NCCL path: " + b + " cannot be copied to device memory");
        }
    }
}
