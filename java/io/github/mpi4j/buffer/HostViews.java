package io.github.mpi4j.buffer;

import io.github.mpi4j.nativeload.NativeLoader;
import io.github.mpi4j.spi.Buf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Host memory given by address seen as a direct {@link ByteBuffer}, so that Java code (the
 * fabric's transports, reductions, staging) reads and writes it with the same bulk operations as
 * any direct buffer, without a copy.
 *
 * <p>Why JNI's {@code NewDirectByteBuffer}: Java 17 (the release mpi4j targets) has no supported
 * pure-Java way to wrap an address (the foreign-memory API is final only from Java 22; the
 * private {@code DirectByteBuffer} constructor needs {@code --add-opens}; {@code sun.misc.Unsafe}
 * gives copies, not a buffer, and its memory access is being removed). The function lives in
 * {@code libmpi4j_dl}, the small library with no MPI inside, so the fabric can view host memory
 * without any MPI installed; when that library is absent (a build with
 * {@code -Dmpi4j.native.skip=true}, or {@code -Dmpi4j.native.disable=true}), host memory is
 * refused with the loader's reason.
 */
public final class HostViews {
    private HostViews() {
    }

    private static final String LIBRARY = "mpi4j_dl";

    /** Loaded once, when this class is first used (MPI.slice and large copies ask on every call). */
    private static final boolean LOADED = NativeLoader.load(LIBRARY);

    /** Whether host memory can be viewed (and the library's other helpers called: NativeCopy, addresses). */
    public static boolean available() {
        return LOADED;
    }

    /** Why host memory cannot be viewed, or null when it can. */
    public static String unavailableReason() {
        return available() ? null : "lib" + LIBRARY + " is not loaded: " + NativeLoader.detail(LIBRARY);
    }

    /**
     * A native-order direct buffer over the {@code length} bytes of a host-memory Buf. Called by
     * {@link Buf#directView}, which keeps the view for the Buf's lifetime.
     */
    static ByteBuffer view(Buf b) {
        if (!available()) throw MemoryRules.refuse(b, BufAccess.JAVA_MOVERS, unavailableReason());
        if (b.length == 0) return ByteBuffer.allocateDirect(0).order(ByteOrder.nativeOrder());
        return view0(b.address(), b.length).order(ByteOrder.nativeOrder());
    }

    /** The address of direct buffer {@code b}'s element 0 (the library must be loaded: {@link #available}). */
    static long addressOf(java.nio.Buffer b) {
        return address0(b);
    }

    /**
     * The bytes of direct buffer {@code b} from its element 0 to its capacity as a native-order
     * ByteBuffer (the library must be loaded: {@link #available}).
     */
    static ByteBuffer bytesOf(java.nio.Buffer b, int elementBytes) {
        long bytes = (long) b.capacity() * elementBytes;
        if (bytes == 0) return ByteBuffer.allocateDirect(0).order(ByteOrder.nativeOrder());
        return view0(address0(b), bytes).order(ByteOrder.nativeOrder());
    }

    private static native ByteBuffer view0(long address, long bytes);

    private static native long address0(java.nio.Buffer b);
}
