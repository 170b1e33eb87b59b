package io.github.mpi4j.fileio;

import io.github.mpi4j.buffer.HostViews;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The runs of one file access written or read by {@code pwrite}/{@code pread} in C, in one JNI
 * call (through {@code libmpi4j_dl}, which needs no MPI). Why: through {@link FileChannel} each
 * run costs 20-45 µs of interpreted JDK code until the JIT has compiled the JDK's I/O path, and
 * a program makes far too few collective file calls for that (a 64 KiB run then takes 9 µs
 * compiled, most of it the kernel's copy); a heap array also crosses a temporary direct buffer
 * there. Where the library is not loaded, the JDK's channel has no descriptor field
 * ({@link #descriptorOf} says -1), or {@code MPI4J_FILE_NATIVE_IO=0}, files go through the
 * channel as before.
 */
final class NativeFileIo {
    private NativeFileIo() {
    }

    private static final boolean ENABLED = !"0".equals(setting());

    private static String setting() {
        String v = System.getProperty("mpi4j.file.native.io");
        if (v == null) v = System.getenv("MPI4J_FILE_NATIVE_IO");
        return v == null ? null : v.trim();
    }

    /** The channel's file descriptor where runs can be moved in C; -1 where they cannot. */
    static int descriptorOf(FileChannel channel) {
        if (!ENABLED || !HostViews.available()) return -1;
        try {
            return fdOf0(channel);
        } catch (UnsatisfiedLinkError e) {
            return -1; // a libmpi4j_dl from an older build: the channel does the I/O
        }
    }

    /** Whether {@code b}'s memory can be handed to C: a direct buffer, or a heap one with its array. */
    static boolean applies(ByteBuffer b) {
        return b.isDirect() || b.hasArray();
    }

    /**
     * Moves {@code b}'s bytes from index 0 on, in order, to ({@code write}) or from the file
     * runs {@code runs[2i]} (position), {@code runs[2i + 1]} (length), {@code i < count}.
     * Returns the bytes moved: all of them, or for a read those before the first run the end
     * of the file cuts.
     */
    static long runs(int fd, ByteBuffer b, long[] runs, int count, boolean write) throws IOException {
        if (count < 0 || count > runs.length / 2) {
            throw new IndexOutOfBoundsException(count + " runs in an array of " + runs.length + " numbers");
        }
        long total = 0;
        for (int i = 0; i < count; i++) {
            if (runs[2 * i] < 0 || runs[2 * i + 1] < 0) {
                throw new IndexOutOfBoundsException("run " + i + ": " + runs[2 * i + 1] + " bytes at " + runs[2 * i]);
            }
            total += runs[2 * i + 1];
        }
        if (total > b.capacity()) {
            throw new IndexOutOfBoundsException("runs of " + total + " bytes for a buffer of " + b.capacity());
        }
        boolean array = !b.isDirect();
        Object memory = array ? b.array() : b;
        long at = array ? b.arrayOffset() : 0;
        return write ? writeRuns0(fd, memory, array, at, runs, count) : readRuns0(fd, memory, array, at, runs, count);
    }

    private static native int fdOf0(FileChannel channel);

    private static native long writeRuns0(int fd, Object memory, boolean isArray, long at, long[] runs, int count)
            throws IOException;

    private static native long readRuns0(int fd, Object memory, boolean isArray, long at, long[] runs, int count)
            throws IOException;
}
