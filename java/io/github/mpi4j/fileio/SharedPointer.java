package io.github.mpi4j.fileio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The shared file pointer of one open file: 8 bytes (etypes of the view, native order) in a
 * small side file that every rank maps to the same bytes, so that a rank moves it without the
 * others calling anything. Updates take a lock of this JVM (ranks that are threads) and then a
 * lock on the side file (ranks that are processes, on this node or on a shared file system).
 */
final class SharedPointer implements AutoCloseable {
    private static final ConcurrentHashMap<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

    final Path path;
    private final FileChannel channel;
    private final ReentrantLock jvmLock;

    private SharedPointer(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
        this.jvmLock = JVM_LOCKS.computeIfAbsent(path, p -> new ReentrantLock());
    }

    /** Makes the side file with {@code initial} (rank 0 only). */
    static void create(Path path, long initial) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            ch.write(word(initial), 0);
        }
    }

    static SharedPointer open(Path path) throws IOException {
        return new SharedPointer(path, FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE));
    }

    /** Drops this JVM's lock of a side file that has been deleted. */
    static void forget(Path path) {
        JVM_LOCKS.remove(path);
    }

    long get() {
        return update(0, false, 0);
    }

    /** Moves the pointer by {@code delta} and returns where it was. */
    long fetchAdd(long delta) {
        return update(delta, false, 0);
    }

    void set(long value) {
        update(0, true, value);
    }

    private long update(long delta, boolean absolute, long value) {
        jvmLock.lock();
        try (FileLock ignored = channel.lock(0, 8, false)) {
            ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
            int n = 0;
            while (n < 8) {
                int r = channel.read(b, n);
                if (r < 0) throw new IOException("shared file pointer " + path + " is shorter than 8 bytes");
                n += r;
            }
            long old = b.getLong(0);
            long now = absolute ? value : old + delta;
            if (now != old) channel.write(word(now), 0);
            return old;
        } catch (IOException e) {
            throw mpi.MPIException.of(io.github.mpi4j.spi.Mpi.ERR_IO, "shared file pointer " + path + ": " + e);
        } finally {
            jvmLock.unlock();
        }
    }

    private static ByteBuffer word(long v) {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
        b.putLong(0, v);
        return b;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // Nothing was pending on it: every update wrote through before returning.
        }
    }
}
