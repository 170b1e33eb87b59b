package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.StatusData;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Per thread, native memory where MPI calls write their statuses: one for a blocking receive or
 * a single completion, one per request for the multi-completions. Each status is {@link #BYTES}
 * bytes: source, tag, error and cancelled as ints at 0, 4, 8 and 12, the byte count as a long at
 * 16 (native/mpi4j_mpi_p2p.c's status_area). Filling a StatusData from C took five JNI field
 * writes and a handle per status; plain stores there and plain loads here cost a fraction.
 */
final class NativeStatus {
    static final int BYTES = 24;

    /** Room for this many statuses is kept at least (a window of 64 requests). */
    private static final int MIN_COUNT = 64;

    private ByteBuffer area;
    /** Where C writes the first status. */
    long address;

    private static final ThreadLocal<NativeStatus> LOCAL = ThreadLocal.withInitial(NativeStatus::new);

    private NativeStatus() {
        grow(MIN_COUNT);
    }

    private void grow(int count) {
        area = ByteBuffer.allocateDirect(count * BYTES).order(ByteOrder.nativeOrder());
        address = MpiNative.address0(area);
    }

    /** This thread's area, with room for one status. */
    static NativeStatus mine() {
        return LOCAL.get();
    }

    /** This thread's area, with room for {@code count} statuses. */
    static NativeStatus mine(int count) {
        NativeStatus s = LOCAL.get();
        if ((long) count * BYTES > s.area.capacity()) s.grow(count);
        return s;
    }

    /** Copies the first status the last call wrote into {@code d}. */
    void copyTo(StatusData d) {
        copyTo(0, d);
    }

    /** Copies status {@code i} of the last call into {@code d}. */
    void copyTo(int i, StatusData d) {
        int at = i * BYTES;
        d.set(area.getInt(at), area.getInt(at + 4), area.getInt(at + 8), area.getInt(at + 12) != 0,
                area.getLong(at + 16));
    }
}
