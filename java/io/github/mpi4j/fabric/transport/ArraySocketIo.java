package io.github.mpi4j.fabric.transport;

import io.github.mpi4j.buffer.HostViews;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Socket reads and writes straight from and into Java arrays, through {@code libmpi4j_dl}
 * (which needs no MPI). A {@code SocketChannel} takes only byte buffers, so an array's bytes
 * would otherwise be copied through a staging direct buffer on the way out and again on the
 * way in: one more pass over every byte, which on loopback TCP costs about as much as the
 * kernel's own copy. The array is pinned for one non-blocking {@code read} or {@code write}
 * alone. Where the library is not loaded, or the JDK's channel has no descriptor field
 * ({@link #descriptorOf} says -1), or {@code MPI4J_TCP_ARRAY_IO=0}, the transport stages as
 * before.
 */
final class ArraySocketIo {
    private ArraySocketIo() {
    }

    private static final boolean ENABLED = !"0".equals(setting());

    private static String setting() {
        String v = System.getProperty("mpi4j.tcp.array.io");
        return v != null ? v.trim() : System.getenv("MPI4J_TCP_ARRAY_IO") == null ? null
                : System.getenv("MPI4J_TCP_ARRAY_IO").trim();
    }

    /** The channel's file descriptor where arrays can be moved directly; -1 where they cannot. */
    static int descriptorOf(SocketChannel channel) {
        if (!ENABLED || !HostViews.available()) return -1;
        try {
            return fdOf0(channel);
        } catch (UnsatisfiedLinkError e) {
            return -1; // a libmpi4j_dl from an older build: stage
        }
    }

    /** Whether {@code b} is memory these calls move: a primitive array (booleans are staged, to keep them 0 or 1). */
    static boolean applies(Buf b) {
        return b.isArray() && b.kind != BaseKind.BOOLEAN && b.kind != BaseKind.OBJECT;
    }

    /** Writes up to {@code n} bytes of array Buf {@code b} from its byte {@code off}; returns how many (0: socket full). */
    static int write(int fd, Buf b, long off, int n) throws IOException {
        long at = (long) b.offset * b.kind.bytes + off;
        check(b.base, b.kind, at, n);
        return write0(fd, b.base, at, n);
    }

    /**
     * Writes {@code headLen} bytes of direct buffer {@code head} from index {@code headAt} and
     * then up to {@code n} bytes of array Buf {@code b} from its byte {@code off}, in one
     * gathering write; returns how many bytes went in all (header first; 0: socket full).
     */
    static int writeWithHeader(int fd, ByteBuffer head, int headAt, int headLen, Buf b, long off, int n)
            throws IOException {
        if (!head.isDirect() || headAt < 0 || headLen < 0 || headAt > head.capacity() - headLen) {
            throw new IndexOutOfBoundsException(headLen + " header bytes at " + headAt + " of a buffer of "
                    + head.capacity());
        }
        long at = (long) b.offset * b.kind.bytes + off;
        check(b.base, b.kind, at, n);
        return writev0(fd, head, headAt, headLen, b.base, at, n);
    }

    /**
     * Reads up to {@code n} bytes into {@code array} (elements of {@code kind}) at byte
     * {@code at}; returns how many, 0 when nothing is waiting, -1 at the end of the stream.
     */
    static int read(int fd, Object array, BaseKind kind, long at, int n) throws IOException {
        check(array, kind, at, n);
        return read0(fd, array, at, n);
    }

    private static void check(Object array, BaseKind kind, long at, int n) {
        long room = (long) Array.getLength(array) * kind.bytes;
        if (at < 0 || n < 0 || at > room - n) {
            throw new IndexOutOfBoundsException(n + " bytes at byte " + at + " of an array of " + room + " bytes");
        }
    }

    private static native int fdOf0(SocketChannel channel);

    private static native int write0(int fd, Object array, long at, int n) throws IOException;

    private static native int writev0(int fd, ByteBuffer head, int headAt, int headLen, Object array, long at,
                                      int n) throws IOException;

    private static native int read0(int fd, Object array, long at, int n) throws IOException;
}
