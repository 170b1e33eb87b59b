package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.fileio.FileComm;
import io.github.mpi4j.spi.BackendFile;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.CompletedRequest;
import io.github.mpi4j.spi.FileIO;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import mpi.MPIException;

/**
 * An MPI file of the MPI backend: MPI_File_* of the system MPI (ROMIO or OMPIO underneath), so
 * the bytes on disk are MPI's "native" representation, the same bytes the fabric writes. Arrays
 * are staged in direct memory around each call. Non-blocking accesses are done at the call (the
 * request is complete when returned). After each collective data access the ranks agree on
 * its outcome over a duplicate of the communicator, so that a failure at one rank (a bad
 * argument there) is an exception at every rank, as on the fabric.
 */
final class MpiFile implements BackendFile {
    private final MpiBackend backend;
    private final String path;
    private final FileComm agreement;
    private long fh;

    private MpiFile(MpiBackend backend, String path, FileComm agreement, long fh) {
        this.backend = backend;
        this.path = path;
        this.agreement = agreement;
        this.fh = fh;
    }

    /** The file capability of {@code comm}, a communicator of this backend. */
    static FileIO over(MpiComm comm, MpiBackend backend) {
        return new FileIO() {
            @Override
            public BackendFile open(String path, int amode) {
                FileComm agreement = new FileComm(comm.dup());
                try {
                    return new MpiFile(backend, path, agreement, MpiFileNative.open0(comm.handle, path, amode));
                } catch (MPIException e) {
                    agreement.free();
                    throw named("open", path, e);
                }
            }

            @Override
            public void delete(String path) {
                try {
                    MpiFileNative.delete0(path);
                } catch (MPIException e) {
                    throw named("delete", path, e);
                }
            }
        };
    }

    /** MPI's exception with the call and the file named. */
    private static MPIException named(String call, String path, MPIException e) {
        MPIException n = new MPIException(e.getErrorCode(), e.getErrorClass(), "File." + call + ": " + path + ": "
                + e.getMessage());
        n.initCause(e);
        return n;
    }

    @Override
    public void close() {
        long h = fh;
        fh = 0;
        try {
            MpiFileNative.close0(h);
        } catch (MPIException e) {
            throw named("close", path, e);
        } finally {
            agreement.free();
        }
    }

    @Override
    public long size() {
        return MpiFileNative.size0(fh);
    }

    @Override
    public void setSize(long bytes) {
        MpiFileNative.setSize0(fh, bytes);
    }

    @Override
    public void preallocate(long bytes) {
        MpiFileNative.preallocate0(fh, bytes);
    }

    @Override
    public void sync() {
        MpiFileNative.sync0(fh);
    }

    @Override
    public void setView(long disp, TypeDesc etype, TypeDesc filetype, String datarep) {
        MpiFileNative.setView0(fh, disp, backend.type(etype), backend.type(filetype), datarep);
    }

    @Override
    public void setAtomicity(boolean atomic) {
        MpiFileNative.setAtomicity0(fh, atomic);
    }

    @Override
    public void readAt(long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        access(MpiFileNative.READ_AT, offset, buf, count, type, status);
    }

    @Override
    public void writeAt(long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        access(MpiFileNative.WRITE_AT, offset, buf, count, type, status);
    }

    @Override
    public void readAtAll(long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        access(MpiFileNative.READ_AT_ALL, offset, buf, count, type, status);
    }

    @Override
    public void writeAtAll(long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        access(MpiFileNative.WRITE_AT_ALL, offset, buf, count, type, status);
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

    @Override
    public void readShared(Buf buf, int count, TypeDesc type, StatusData status) {
        access(MpiFileNative.READ_SHARED, 0, buf, count, type, status);
    }

    @Override
    public void writeShared(Buf buf, int count, TypeDesc type, StatusData status) {
        access(MpiFileNative.WRITE_SHARED, 0, buf, count, type, status);
    }

    @Override
    public void readOrdered(Buf buf, int count, TypeDesc type, StatusData status) {
        access(MpiFileNative.READ_ORDERED, 0, buf, count, type, status);
    }

    @Override
    public void writeOrdered(Buf buf, int count, TypeDesc type, StatusData status) {
        access(MpiFileNative.WRITE_ORDERED, 0, buf, count, type, status);
    }

    @Override
    public void seekShared(long offset, int whence) {
        MpiFileNative.seekShared0(fh, offset, whence);
    }

    @Override
    public long sharedPosition() {
        return MpiFileNative.positionShared0(fh);
    }

    /**
     * A collective that failed its checks here: this rank takes part with nothing to move, so
     * that the others are not left waiting in MPI, and then all ranks agree that it failed here.
     */
    @Override
    public void failCollective(String call, RuntimeException failure) {
        boolean read = call.startsWith("File.read") || call.startsWith("File.iRead");
        int kind = call.contains("Ordered") ? (read ? MpiFileNative.READ_ORDERED : MpiFileNative.WRITE_ORDERED)
                : read ? MpiFileNative.READ_AT_ALL : MpiFileNative.WRITE_AT_ALL;
        try {
            MpiFileNative.access0(kind, fh, 0, null, MpiNative.NONE, 0, 0, backend.type(
                    io.github.mpi4j.spi.Predefined.T_BYTE));
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
        agreement.agree(call, failure);
    }

    private void access(int kind, long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        boolean collective = kind == MpiFileNative.READ_AT_ALL || kind == MpiFileNative.WRITE_AT_ALL
                || kind == MpiFileNative.READ_ORDERED || kind == MpiFileNative.WRITE_ORDERED;
        if (!collective) {
            try {
                move(kind, offset, buf, count, type, status);
            } catch (MPIException e) {
                throw named(NAMES[kind], path, e);
            }
            return;
        }
        RuntimeException failure = null;
        try {
            move(kind, offset, buf, count, type, status);
        } catch (MPIException e) {
            failure = named(NAMES[kind], path, e);
        }
        agreement.agree("File." + NAMES[kind], failure);
    }

    private static final String[] NAMES = {"readAt", "writeAt", "readAtAll", "writeAtAll", "readShared",
        "writeShared", "readOrdered", "writeOrdered"};

    private void move(int kind, long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        boolean read = kind == MpiFileNative.READ_AT || kind == MpiFileNative.READ_AT_ALL
                || kind == MpiFileNative.READ_SHARED || kind == MpiFileNative.READ_ORDERED;
        Arg a = Arg.of(buf, Buffers.spanBytes(count, type), !read, read, true);
        long moved = 0;
        try {
            moved = MpiFileNative.access0(kind, fh, offset, a.obj, a.mode, a.off, count, backend.type(type));
        } finally {
            a.done(moved);
        }
        if (status != null) status.set(0, 0, 0, false, moved);
    }
}
