package io.github.mpi4j.fabric.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A rank's collective arena: a region of {@code S} bytes at the end of its shared-memory inbox
 * file (so it is created, mapped by every local rank and unlinked exactly like the inbox), in
 * which the collectives let the ranks of a node read each other's data directly
 * ({@code MPI4J_SHM_COLL_KB}, default 1024; 0: none).
 *
 * <p>The arena's pages are allocated by writing zeros through the file channel before anything
 * is mapped: a store to a mapped tmpfs page beyond the file system's size limit raises SIGBUS,
 * which ends the JVM, whereas a write() that finds no room fails with an IOException. Then the
 * file is cut back and the rank goes on without an arena.
 */
public final class ShmArena {
    private ShmArena() {
    }

    private static final int ZEROS = 64 * 1024;

    /**
     * Writes {@code bytes} zeros into {@code file} from {@code offset} on. Returns {@code bytes},
     * or 0 (with the file truncated back to {@code offset}) when tmpfs has no room for them.
     */
    static long allocate(FileChannel file, long offset, long bytes) throws IOException {
        if (bytes <= 0) return 0;
        ByteBuffer zeros = ByteBuffer.allocateDirect(ZEROS);
        try {
            for (long at = 0; at < bytes; ) {
                zeros.clear().limit((int) Math.min(ZEROS, bytes - at));
                at += file.write(zeros, offset + at);
            }
            return bytes;
        } catch (IOException full) {
            file.truncate(offset);
            return 0;
        }
    }

    /** The arena of a mapped inbox file whose rings take {@code offset} bytes: {@code bytes} from there. */
    public static ByteBuffer slot(MappedByteBuffer inbox, long offset, int bytes) {
        return inbox.slice((int) offset, bytes).order(ByteOrder.nativeOrder());
    }
}
