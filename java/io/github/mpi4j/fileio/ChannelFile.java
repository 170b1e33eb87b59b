package io.github.mpi4j.fileio;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.TypeMapCopy;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendFile;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.CompletedRequest;
import io.github.mpi4j.spi.FileIO;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonWritableChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import mpi.MPIException;

/**
 * An MPI file as Java {@link FileChannel} positional I/O: the bytes on disk are the buffer's
 * bytes in native order, exactly what MPI's "native" representation writes, with no header.
 * Collective calls agree over the file's own duplicate of the communicator, so every rank
 * leaves a failed collective with an exception (never a hang). Views tile the filetype from the
 * displacement ({@link ViewMap}); derived buffer types are packed and unpacked in Java.
 */
public final class ChannelFile implements BackendFile {
    private static final ConcurrentHashMap<Path, ReentrantLock> ATOMIC_LOCKS = new ConcurrentHashMap<>();

    private final FileComm comm;
    private final Path path;
    private final int amode;
    private final FileChannel channel;
    private final SharedPointer shared;
    private final ReentrantLock atomicLock;
    private volatile long disp;
    private volatile long etypeSize = 1;
    private volatile ViewMap view = new ViewMap(0, io.github.mpi4j.spi.Predefined.T_BYTE);
    private volatile boolean atomic;

    private ChannelFile(FileComm comm, Path path, int amode, FileChannel channel, SharedPointer shared) {
        this.comm = comm;
        this.path = path;
        this.amode = amode;
        this.channel = channel;
        this.shared = shared;
        this.atomicLock = ATOMIC_LOCKS.computeIfAbsent(path, p -> new ReentrantLock());
    }

    /** The file capability of a communicator whose backend does its file I/O in Java. */
    public static FileIO over(BackendComm parent) {
        return new FileIO() {
            @Override
            public BackendFile open(String path, int amode) {
                return ChannelFile.open(parent, path, amode);
            }

            @Override
            public void delete(String path) {
                ChannelFile.delete(path);
            }
        };
    }

    // ---- open, close, delete -------------------------------------------------------------

    /** MPI_File_open: collective over {@code parent}; the {@code mpi} layer has checked {@code amode}. */
    public static ChannelFile open(BackendComm parent, String name, int amode) {
        FileComm comm = new FileComm(parent.dup());
        Path path = Paths.get(name).toAbsolutePath().normalize();
        FileChannel channel = null;
        SharedPointer shared = null;
        try {
            // Rank 0 creates the file first: MODE_EXCL then fails at one place only, and the
            // other ranks open the file rank 0 made.
            Throwable failure = null;
            byte[] sidecar = new byte[0];
            if (comm.rank() == 0) {
                try {
                    create(path, amode);
                    long initial = (amode & FileIO.MODE_APPEND) != 0 ? Files.size(path) : 0;
                    Path side = sidecarFor(path);
                    SharedPointer.create(side, initial);
                    sidecar = side.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                } catch (IOException | RuntimeException e) {
                    failure = failure("File.open", path, amode, e);
                }
            }
            agree("File.open", comm, failure);
            Path side = Paths.get(new String(comm.bcastBytes("File.open", sidecar),
                    java.nio.charset.StandardCharsets.UTF_8));
            try {
                channel = FileChannel.open(path, options(amode));
                shared = SharedPointer.open(side);
            } catch (IOException | RuntimeException e) {
                failure = failure("File.open", path, amode, e);
            }
            agree("File.open", comm, failure);
            return new ChannelFile(comm, path, amode, channel, shared);
        } catch (RuntimeException | Error e) {
            closeQuietly(channel);
            if (shared != null) shared.close();
            comm.free();
            throw e;
        }
    }

    private static void create(Path path, int amode) throws IOException {
        if ((amode & FileIO.MODE_EXCL) != 0) {
            Files.createFile(path);
        } else if ((amode & FileIO.MODE_CREATE) != 0) {
            try {
                Files.createFile(path);
            } catch (FileAlreadyExistsException e) {
                // MODE_CREATE without MODE_EXCL opens an existing file as it is.
            }
        } else if (!Files.exists(path)) {
            throw new NoSuchFileException(path.toString());
        }
    }

    /** A fresh side file for the shared pointer: next to the file, else in the temporary directory. */
    private static Path sidecarFor(Path path) throws IOException {
        String name = "." + path.getFileName() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + ".mpi4j-sharedfp";
        Path dir = path.getParent();
        if (dir != null && Files.isWritable(dir)) return dir.resolve(name);
        return Paths.get(System.getProperty("java.io.tmpdir")).resolve(name);
    }

    private static Set<StandardOpenOption> options(int amode) {
        if ((amode & FileIO.MODE_RDONLY) != 0) return EnumSet.of(StandardOpenOption.READ);
        if ((amode & FileIO.MODE_WRONLY) != 0) return EnumSet.of(StandardOpenOption.WRITE);
        return EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    @Override
    public void close() {
        Throwable failure = null;
        try {
            channel.close();
        } catch (IOException e) {
            failure = ioFailure("File.close", e);
        }
        shared.close();
        try {
            // Everyone has closed before rank 0 removes anything.
            comm.barrier("File.close");
            if (comm.rank() == 0) {
                try {
                    Files.deleteIfExists(shared.path);
                    SharedPointer.forget(shared.path);
                    if ((amode & FileIO.MODE_DELETE_ON_CLOSE) != 0) Files.deleteIfExists(path);
                } catch (IOException e) {
                    if (failure == null) failure = ioFailure("File.close", e);
                }
            }
            agree("File.close", comm, failure);
        } finally {
            comm.free();
        }
    }

    /** MPI_File_delete. */
    public static void delete(String name) {
        Path path = Paths.get(name).toAbsolutePath().normalize();
        try {
            Files.delete(path);
        } catch (NoSuchFileException e) {
            throw MPIException.of(Mpi.ERR_NO_SUCH_FILE, "File.delete: no file " + path);
        } catch (AccessDeniedException e) {
            throw MPIException.of(Mpi.ERR_ACCESS, "File.delete: no permission to delete " + path);
        } catch (IOException e) {
            throw MPIException.of(Mpi.ERR_IO, "File.delete: cannot delete " + path + ": " + e);
        }
    }

    // ---- size, view, consistency -----------------------------------------------------------

    @Override
    public long size() {
        try {
            return channel.size();
        } catch (IOException e) {
            throw ioFailure("File.getSize", e);
        }
    }

    @Override
    public void setSize(long bytes) {
        resize("File.setSize", bytes, true);
    }

    @Override
    public void preallocate(long bytes) {
        resize("File.preallocate", bytes, false);
    }

    /** Rank 0 changes the length (truncating only when {@code shrink}); all agree afterwards. */
    private void resize(String call, long bytes, boolean shrink) {
        Throwable failure = null;
        comm.barrier(call);
        if (comm.rank() == 0) {
            try {
                long now = channel.size();
                if (bytes < now && shrink) {
                    channel.truncate(bytes);
                } else if (bytes > now) {
                    channel.write(ByteBuffer.allocate(1), bytes - 1);
                }
            } catch (IOException | RuntimeException e) {
                failure = ioFailure(call, e);
            }
        }
        agree(call, comm, failure);
    }

    @Override
    public void sync() {
        Throwable failure = null;
        try {
            if ((amode & FileIO.MODE_RDONLY) == 0) channel.force(true);
        } catch (IOException e) {
            failure = ioFailure("File.sync", e);
        }
        agree("File.sync", comm, failure);
    }

    @Override
    public void setView(long disp, TypeDesc etype, TypeDesc filetype, String datarep) {
        this.disp = disp;
        this.etypeSize = Math.max(1, etype.size);
        this.view = new ViewMap(disp, filetype);
        // The shared pointer starts again at the view's first etype (MPI_File_set_view).
        comm.barrier("File.setView");
        if (comm.rank() == 0) shared.set(0);
        comm.barrier("File.setView");
    }

    @Override
    public void setAtomicity(boolean atomic) {
        this.atomic = atomic;
        comm.barrier("File.setAtomicity");
    }

    // ---- explicit offsets -----------------------------------------------------------------

    @Override
    public void readAt(long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        long n = read(offset * etypeSize, buf, count, type);
        done(status, n);
    }

    @Override
    public void writeAt(long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        long n = write(offset * etypeSize, buf, count, type);
        done(status, n);
    }

    @Override
    public void readAtAll(long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        Throwable failure = null;
        long n = 0;
        try {
            n = read(offset * etypeSize, buf, count, type);
        } catch (RuntimeException e) {
            failure = e;
        }
        agree("File.readAtAll", comm, failure);
        done(status, n);
    }

    @Override
    public void writeAtAll(long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        Throwable failure = null;
        long n = 0;
        try {
            n = write(offset * etypeSize, buf, count, type);
        } catch (RuntimeException e) {
            failure = e;
        }
        agree("File.writeAtAll", comm, failure);
        done(status, n);
    }

    @Override
    public BackendRequest iReadAt(long offset, Buf buf, int count, TypeDesc type) {
        StatusData s = new StatusData();
        readAt(offset, buf, count, type, s);
        return new CompletedRequest(s);
    }

    @Override
    public BackendRequest iWriteAt(long offset, Buf buf, int count, TypeDesc type) {
        StatusData s = new StatusData();
        writeAt(offset, buf, count, type, s);
        return new CompletedRequest(s);
    }

    // ---- the shared file pointer ------------------------------------------------------------

    @Override
    public void readShared(Buf buf, int count, TypeDesc type, StatusData status) {
        long bytes = count * type.size;
        long at = shared.fetchAdd(bytes / etypeSize);
        done(status, read(at * etypeSize, buf, count, type));
    }

    @Override
    public void writeShared(Buf buf, int count, TypeDesc type, StatusData status) {
        long bytes = count * type.size;
        long at = shared.fetchAdd(bytes / etypeSize);
        done(status, write(at * etypeSize, buf, count, type));
    }

    @Override
    public void readOrdered(Buf buf, int count, TypeDesc type, StatusData status) {
        ordered("File.readOrdered", buf, count, type, false, status);
    }

    @Override
    public void writeOrdered(Buf buf, int count, TypeDesc type, StatusData status) {
        ordered("File.writeOrdered", buf, count, type, true, status);
    }

    /** Ranks take consecutive pieces from the shared pointer in rank order; rank 0 moves it past them all. */
    private void ordered(String call, Buf buf, int count, TypeDesc type, boolean write, StatusData status) {
        long mine = count * type.size / etypeSize;
        long[] counts = comm.allGather(call, mine);
        for (int r = 0; r < counts.length; r++) {
            if (counts[r] < 0) {
                throw MPIException.of((int) -counts[r], call + ": failed at rank " + r + " (error class "
                        + -counts[r] + "; that rank's exception says why)");
            }
        }
        long base = comm.allGather(call, comm.rank() == 0 ? shared.get() : 0)[0];
        long at = base;
        long total = 0;
        for (int r = 0; r < counts.length; r++) {
            if (r < comm.rank()) at += counts[r];
            total += counts[r];
        }
        Throwable failure = null;
        long n = 0;
        try {
            n = write ? write(at * etypeSize, buf, count, type) : read(at * etypeSize, buf, count, type);
            if (comm.rank() == 0) shared.set(base + total);
        } catch (RuntimeException e) {
            failure = e;
        }
        agree(call, comm, failure);
        done(status, n);
    }

    @Override
    public void seekShared(long offset, int whence) {
        Throwable failure = null;
        // Every rank is done with the old pointer before rank 0 moves it.
        comm.barrier("File.seekShared");
        if (comm.rank() == 0) {
            try {
                long to = whence == FileIO.SEEK_SET ? offset
                        : whence == FileIO.SEEK_CUR ? shared.get() + offset
                        : (Math.max(0, size() - disp) + etypeSize - 1) / etypeSize + offset;
                if (to < 0) {
                    throw MPIException.of(Mpi.ERR_ARG, "File.seekShared: the shared pointer would move to " + to
                            + " (before the start of the view) in " + path);
                }
                shared.set(to);
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        agree("File.seekShared", comm, failure);
    }

    @Override
    public void failCollective(String call, RuntimeException failure) {
        int errorClass = failure instanceof MPIException ? ((MPIException) failure).getErrorClass() : Mpi.ERR_OTHER;
        // The first exchange of every data collective: a negative entry means "failed here".
        comm.allGather(call, -Math.max(1, errorClass));
        throw failure;
    }

    @Override
    public long sharedPosition() {
        return shared.get();
    }

    // ---- moving bytes ------------------------------------------------------------------------

    /**
     * Reads {@code count} items of {@code type} from view data byte {@code p} into {@code buf};
     * fewer at the end of the file. Returns the bytes read.
     */
    private long read(long p, Buf buf, int count, TypeDesc type) {
        long bytes = count * type.size;
        if (bytes == 0) return 0;
        byte[] stream = new byte[(int) bytes];
        long[] got = {0};
        lockIfAtomic(view.fileByte(p), false);
        try {
            view.runs(p, bytes, (filePos, done, length) -> {
                ByteBuffer b = ByteBuffer.wrap(stream, (int) done, (int) length);
                while (b.hasRemaining()) {
                    int r = channel.read(b, filePos + b.position() - done);
                    if (r < 0) break;
                }
                got[0] = done + (b.position() - done);
                return !b.hasRemaining();
            });
            TypeMapCopy.unpack(new Buf(stream, BaseKind.BYTE, 0, stream.length), 0, BufAccess.forJava(buf), type,
                    count, got[0]);
            return got[0];
        } catch (IOException | RuntimeException e) {
            throw ioFailure("File.read", e);
        } finally {
            unlockIfAtomic();
        }
    }

    /** Writes {@code count} items of {@code type} from {@code buf} at view data byte {@code p}. */
    private long write(long p, Buf buf, int count, TypeDesc type) {
        long bytes = count * type.size;
        if (bytes == 0) return 0;
        byte[] stream = new byte[(int) bytes];
        TypeMapCopy.pack(BufAccess.forJava(buf), type, count, new Buf(stream, BaseKind.BYTE, 0, stream.length), 0);
        lockIfAtomic(view.fileByte(p), true);
        try {
            view.runs(p, bytes, (filePos, done, length) -> {
                ByteBuffer b = ByteBuffer.wrap(stream, (int) done, (int) length);
                while (b.hasRemaining()) channel.write(b, filePos + b.position() - done);
                return true;
            });
            return bytes;
        } catch (IOException | RuntimeException e) {
            throw ioFailure("File.write", e);
        } finally {
            unlockIfAtomic();
        }
    }

    private FileLock rangeLock;

    /**
     * Atomic mode: one access at a time in this JVM, and a lock from the access's first byte to
     * the end of the file against other processes (a view's runs may spread past the data length).
     */
    private void lockIfAtomic(long pos, boolean write) {
        if (!atomic) return;
        atomicLock.lock();
        try {
            boolean canWrite = (amode & FileIO.MODE_RDONLY) == 0;
            boolean canRead = (amode & FileIO.MODE_WRONLY) == 0;
            rangeLock = channel.lock(pos, Long.MAX_VALUE - pos, !canWrite || (!write && canRead));
        } catch (IOException | RuntimeException e) {
            atomicLock.unlock();
            throw ioFailure("File (atomic mode)", e);
        }
    }

    private void unlockIfAtomic() {
        if (!atomic || rangeLock == null) return;
        try {
            rangeLock.release();
        } catch (IOException e) {
            // The channel is still open; a lock that cannot be released goes with the channel.
        } finally {
            rangeLock = null;
            atomicLock.unlock();
        }
    }

    // ---- outcomes ------------------------------------------------------------------------

    private static void done(StatusData status, long bytes) {
        if (status != null) status.set(0, 0, 0, false, bytes);
    }

    private static void agree(String call, FileComm comm, Throwable failure) {
        comm.agree(call, failure);
    }

    private static MPIException failure(String call, Path path, int amode, Throwable e) {
        if (e instanceof MPIException) return (MPIException) e;
        String what = call + ": " + path + " (amode " + amode + "): ";
        if (e instanceof FileAlreadyExistsException) {
            return MPIException.of(Mpi.ERR_FILE_EXISTS, what + "the file exists and MODE_EXCL was given");
        }
        if (e instanceof NoSuchFileException) {
            return MPIException.of(Mpi.ERR_NO_SUCH_FILE, what + "no such file (" + e.getMessage()
                    + ") and MODE_CREATE was not given or its directory is missing");
        }
        if (e instanceof AccessDeniedException) return MPIException.of(Mpi.ERR_ACCESS, what + "permission denied");
        return MPIException.of(Mpi.ERR_IO, what + e);
    }

    private MPIException ioFailure(String call, Throwable e) {
        if (e instanceof MPIException) return (MPIException) e;
        if (e instanceof NonWritableChannelException) {
            return MPIException.of(Mpi.ERR_READ_ONLY, call + ": " + path + " is not open for writing (amode "
                    + amode + ")");
        }
        return MPIException.of(Mpi.ERR_IO, call + ": " + path + ": " + e);
    }

    private static void closeQuietly(FileChannel c) {
        if (c == null) return;
        try {
            c.close();
        } catch (IOException e) {
            // Failing open already; the first error is the one reported.
        }
    }
}
