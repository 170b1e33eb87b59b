package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.StatusData;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Per thread, native memory where a blocking receive or a single wait writes its MPI_Status
 * (source, tag, error and cancelled as ints at 0, 4, 8 and 12; the byte count as a long at 16),
 * read back here into a {@link StatusData}. Filling the StatusData from C took five JNI field
 * writes plus a handle per receive; plain stores and one read here cost a fraction of that.
 */
final class NativeStatus {
    /** Bytes of the area; the layout is native/mpi4j_mpi_p2p.c's put_status. */
    static final int BYTES = 24;

    private final ByteBuffer area = ByteBuffer.allocateDirect(BYTES).order(ByteOrder.nativeOrder());
    /** Where C writes. */
    final long address = MpiNative.address0(area);

    private static final ThreadLocal<NativeStatus> LOCAL = ThreadLocal.withInitial(NativeStatus::new);

    private NativeStatus() {
    }

    /** This thread's area. */
    static NativeStatus mine() {
        return LOCAL.get();
    }

    /** Copies what the last call wrote into {@code d}. */
    void copyTo(StatusData d) {
        d.set(area.getInt(0), area.getInt(4), area.getInt(8), area.getInt(12) != 0, area.getLong(16));
    }
}
