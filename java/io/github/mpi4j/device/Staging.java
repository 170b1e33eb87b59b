package io.github.mpi4j.device;

import io.github.mpi4j.buffer.MemoryRules;
import io.github.mpi4j.cuda.Cuda;
import io.github.mpi4j.cuda.DeviceBuffer;
import io.github.mpi4j.cuda.PinnedMemory;
import io.github.mpi4j.memory.NativeMemory;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.DeviceMemory;
import io.github.mpi4j.spi.MemoryKind;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import java.util.ArrayList;
import java.util.List;
import mpi.MPIException;

/**
 * The device buffers of one call, each replaced by pinned host memory: copied device to host
 * before the backend runs (what the call reads), host to device after it completed (what it
 * writes). Buffers that are not device memory pass unchanged, and so do device buffers the
 * backend moves itself (a CUDA-aware MPI). One instance per call; a
 * non-blocking call keeps it in its request until completion.
 */
final class Staging {
    private static final class Entry {
        final Buf user;
        final PinnedMemory pinned;
        final long bytes;
        final boolean copyIn;
        final boolean copyBack;

        Entry(Buf user, PinnedMemory pinned, long bytes, boolean copyIn, boolean copyBack) {
            this.user = user;
            this.pinned = pinned;
            this.bytes = bytes;
            this.copyIn = copyIn;
            this.copyBack = copyBack;
        }
    }

    /** What a call that moves no byte of a device buffer gets instead. */
    private static final byte[] NOTHING = new byte[0];

    private final String call;
    /** The backend's name, for refusals ("fabric", "mpi"). */
    private final String backend;
    /** The backend's own device-memory capability when it may take this call's device buffers as they are. */
    private final DeviceMemory direct;
    private final List<Entry> entries = new ArrayList<>(2);

    /**
     * @param direct the communicator's {@link DeviceMemory} capability (a CUDA-aware MPI), or null
     * @param op     the call's reduction, or null: a user op is Java code, which cannot read
     *               device memory, so its buffers are always staged
     */
    Staging(String call, String backend, DeviceMemory direct, OpDesc op) {
        this.call = call;
        this.backend = backend;
        this.direct = op != null && op.code == OpCode.USER ? null : direct;
    }

    /** Whether {@code b} is device memory (null and IN_PLACE are not). */
    static boolean isDevice(Buf b) {
        return b != null && b != Buf.IN_PLACE && b.memory == MemoryKind.DEVICE;
    }

    /** Whether a type fills every byte of its span (no gaps a receive would leave untouched). */
    static boolean dense(TypeDesc t) {
        return t != null && t.lb == 0 && t.size == t.extent;
    }

    /** A buffer the call only reads. */
    Buf in(Buf b, long bytes) {
        return stage(b, bytes, true, false);
    }

    /**
     * A buffer the call writes. When it writes every byte of the span ({@code whole}) nothing is
     * copied in; otherwise the device contents are copied in first, so that bytes the call leaves
     * alone (gaps, blocks of other ranks) are written back unchanged.
     */
    Buf out(Buf b, long bytes, boolean whole) {
        return stage(b, bytes, !whole, true);
    }

    /** A buffer the call reads and writes (in place). */
    Buf inOut(Buf b, long bytes) {
        return stage(b, bytes, true, true);
    }

    /** Whether any buffer was staged (a call without device memory has nothing to finish). */
    boolean isEmpty() {
        return entries.isEmpty();
    }

    private Buf stage(Buf b, long bytes, boolean copyIn, boolean copyBack) {
        if (!isDevice(b)) return b;
        if (direct != null && direct.accepts(b.nativeMemory().device())) return b;
        if (bytes == 0) return new Buf(NOTHING, BaseKind.BYTE, 0, 0); // nothing moves: no CUDA call either
        if (bytes < 0 || bytes > b.length) {
            // The mpi layer checked the span against the memory; this would be a bug here.
            release();
            throw new IllegalStateException(call + ": staging " + bytes + " bytes of " + b + " (" + b.length + " available)");
        }
        String bad = checkPointer(b);
        if (bad != null) {
            release();
            throw refusal(b, bad, null);
        }
        PinnedMemory p;
        try {
            p = PinnedPool.take(bytes);
        } catch (MPIException | IllegalArgumentException e) {
            release();
            throw refusal(b, "it must be staged through pinned host memory, which failed: " + e.getMessage(), e);
        }
        Entry e = new Entry(b, p, bytes, copyIn, copyBack);
        entries.add(e);
        if (copyIn) {
            try {
                p.copyFromDevice(0, b.nativeMemory(), b.offset, bytes);
            } catch (RuntimeException x) {
                release();
                throw failed("copying device memory to the host", b, x);
            }
        }
        return new Buf(p, BaseKind.BYTE, 0, (int) bytes);
    }

    /**
     * Why a framework's device pointer cannot be used, or null: {@code cudaPointerGetAttributes}
     * must say it is memory of the device it claims (a host pointer where device memory is
     * required is refused before anything moves). A DeviceBuffer was allocated by mpi4j: no
     * check (a closed one has failed already when its address was taken).
     */
    static String checkPointer(Buf b) {
        NativeMemory m = b.nativeMemory();
        if (m instanceof DeviceBuffer) return null;
        int where;
        try {
            where = Cuda.deviceOf(b.address());
        } catch (MPIException | IllegalArgumentException e) {
            return "it must be staged through pinned host memory, but CUDA cannot tell where its address is: "
                    + e.getMessage();
        }
        if (where == m.device()) return null;
        return "cudaPointerGetAttributes says 0x" + Long.toHexString(b.address()) + " is "
                + (where == NativeMemory.HOST ? "host memory" : "memory of device " + where) + ", not of device "
                + m.device();
    }

    /** The wording of every refusal of a memory kind ({@link MemoryRules}), after the call's name. */
    private MPIException refusal(Buf b, String why, Throwable cause) {
        MPIException m = MemoryRules.refuse(b, "the " + backend + " backend", why);
        MPIException x = MPIException.of(Mpi.ERR_BUFFER, call + ": " + m.getMessage());
        if (cause != null) x.initCause(cause);
        return x;
    }

    private MPIException failed(String what, Buf b, RuntimeException x) {
        MPIException e = MPIException.of(Mpi.ERR_BUFFER, call + ": " + what + " failed for " + b.base + ": " + x.getMessage());
        e.initCause(x);
        return e;
    }

    /** After the call completed: copies every written buffer back to its device memory, then {@link #release}. */
    void finish() {
        finish(-1);
    }

    /**
     * As {@link #finish()}, but a receive copies back only the {@code received} bytes that arrived
     * (negative: the whole span).
     */
    void finish(long received) {
        try {
            copyBack(received);
        } finally {
            release();
        }
    }

    /** Copies in again what the call reads (a persistent request, before each start). */
    void refresh() {
        for (Entry e : entries) {
            if (!e.copyIn) continue;
            try {
                e.pinned.copyFromDevice(0, e.user.nativeMemory(), e.user.offset, e.bytes);
            } catch (RuntimeException x) {
                throw failed("copying device memory to the host", e.user, x);
            }
        }
    }

    /** As {@link #finish(long)} without giving the memory back (a persistent request runs again). */
    void copyBack(long received) {
        for (Entry e : entries) {
            if (!e.copyBack) continue;
            long n = received < 0 ? e.bytes : Math.min(received, e.bytes);
            try {
                e.pinned.copyToDevice(0, e.user.nativeMemory(), e.user.offset, n);
            } catch (RuntimeException x) {
                throw failed("copying the result back to device memory", e.user, x);
            }
        }
    }

    /** Gives the pinned memory back to the pool, without copying (the call failed or is over). */
    void release() {
        for (Entry e : entries) PinnedPool.give(e.pinned);
        entries.clear();
    }
}
