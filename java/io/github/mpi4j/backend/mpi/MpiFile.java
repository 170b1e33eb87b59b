package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.fileio.FileComm;
import io.github.mpi4j.spi.BackendFile;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.FileIO;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.util.LinkedHashMap;
import java.util.Map;
import mpi.MPIException;

/**
 * An MPI file of the MPI backend: MPI_File_* of the system MPI (ROMIO or OMPIO underneath), so
 * the bytes on disk are MPI's "native" representation, the same bytes the fabric writes. Arrays
 * are staged in direct memory around each call. Non-blocking accesses are MPI's own
 * (MPI_File_iread_at ..., MPI-3.1) and split collectives MPI's begin/end; hints go to MPI as
 * an MPI_Info. After each collective data access the ranks agree on
 * its outcome over a duplicate of the communicator, so that a failure at one rank (a bad
 * argument there) is an exception at every rank, as on the fabric.
 */
final class MpiFile implements BackendFile {
    private final MpiBackend backend;
    private final String path;
    private final FileComm agreement;
    private long fh;
    /** This open file pauses asynchronous progress until it is closed ({@link MpiAsyncProgress#fileOpening}). */
    private boolean pausesProgress;

    private MpiFile(MpiBackend backend, String path, FileComm agreement, long fh, boolean pausesProgress) {
        this.backend = backend;
        this.path = path;
        this.agreement = agreement;
        this.fh = fh;
        this.pausesProgress = pausesProgress;
    }

    /** The file capability of {@code comm}, a communicator of this backend. */
    static FileIO over(MpiComm comm, MpiBackend backend) {
        return new FileIO() {
            @Override
            public BackendFile open(String path, int amode) {
                return open(path, amode, null);
            }

            @Override
            public BackendFile open(String path, int amode, Map<String, String> hints) {
                FileComm agreement = new FileComm(comm.dup());
                boolean paused = MpiAsyncProgress.fileOpening();
                try {
                    String[][] kv = keysValues(hints);
                    return new MpiFile(backend, path, agreement, MpiFileNative.open0(comm.handle, path, amode, kv[0],
                            kv[1]), paused);
                } catch (MPIException e) {
                    agreement.free();
                    if (paused) MpiAsyncProgress.fileClosed();
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
            if (pausesProgress) {
                pausesProgress = false;
                MpiAsyncProgress.fileClosed();
            }
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
        MpiFileNative.setView0(fh, disp, backend.type(etype), backend.type(filetype), datarep, null, null);
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

    /**
     * MPI_File_iread_at ... iwrite_shared return MPI's request; split collectives call the
     * begin here and the end in the request's wait. Arrays (split collectives take them) are
     * staged in direct memory until completion; direct buffers go as they are.
     */
    @Override
    public BackendRequest start(int where, boolean write, boolean split, long offset, Buf buf, int count,
                                TypeDesc type) {
        Arg a = Arg.of(buf, Buffers.spanBytes(count, type), write, !write, true);
        long h;
        try {
            h = MpiFileNative.start0(where, write, split, fh, offset, a.obj, a.mode, a.off, count, backend.type(type));
        } catch (MPIException e) {
            a.release();
            throw named(startName(where, write, split), path, e);
        } catch (RuntimeException e) {
            a.release();
            throw e;
        }
        if (split) return new SplitEnd(where, write, a);
        MpiRequest r = new MpiRequest(h, false, buf, null, a);
        r.fileAccess = true;
        return r;
    }

    private static String startName(int where, boolean write, boolean split) {
        String rw = write ? "write" : "read";
        if (split) return rw + (where == ORDERED ? "Ordered" : "AtAll") + "Begin";
        return "i" + (write ? "Write" : "Read") + (where == AT ? "At" : where == AT_ALL ? "AtAll" : "Shared");
    }

    /** The end of a split collective: MPI_File_*_end when waited for (or tested: the end call blocks). */
    private final class SplitEnd implements BackendRequest {
        private final int where;
        private final boolean write;
        private Arg arg;

        SplitEnd(int where, boolean write, Arg arg) {
            this.where = where;
            this.write = write;
            this.arg = arg;
        }

        @Override
        public void waitFor(StatusData status) {
            Arg a = arg;
            if (a == null) {
                if (status != null) status.set(0, 0, 0, false, 0);
                return;
            }
            arg = null;
            long moved;
            try {
                moved = MpiFileNative.splitEnd0(where, write, fh, a.obj, a.mode, a.off);
            } catch (MPIException e) {
                a.release();
                throw named(startName(where, write, true).replace("Begin", "End"), path, e);
            }
            a.done();
            if (status != null) status.set(0, 0, 0, false, moved);
        }

        @Override
        public boolean test(StatusData status) {
            waitFor(status);
            return true;
        }

        @Override
        public void cancel() {
            // A split collective cannot be cancelled; its end completes it.
        }

        @Override
        public void free() {
        }
    }

    @Override
    public void setHints(Map<String, String> hints) {
        String[][] kv = keysValues(hints);
        MpiFileNative.setInfo0(fh, kv[0], kv[1]);
    }

    /** What MPI_File_get_info says: the hints in effect, as the MPI library reports them. */
    @Override
    public Map<String, String> hints() {
        String[] kv = MpiFileNative.getInfo0(fh);
        Map<String, String> m = new LinkedHashMap<>();
        if (kv != null) for (int i = 0; i + 1 < kv.length; i += 2) if (kv[i] != null) m.put(kv[i], kv[i + 1]);
        return m;
    }

    private static String[][] keysValues(Map<String, String> hints) {
        if (hints == null || hints.isEmpty()) return new String[2][0];
        String[] k = new String[hints.size()];
        String[] v = new String[hints.size()];
        int i = 0;
        for (Map.Entry<String, String> e : hints.entrySet()) {
            k[i] = e.getKey();
            v[i++] = e.getValue();
        }
        return new String[][] {k, v};
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
    /**
     * A collective that failed its checks here: this rank takes part with nothing to move, so
     * that the others are not left waiting in MPI. Blocking collectives then agree that it
     * failed here (every rank throws); the non-blocking and split forms post the matching call
     * with nothing to move and throw here only (the others' requests complete normally).
     */
    @Override
    public void failCollective(String call, RuntimeException failure) {
        String name = call.startsWith("File.") ? call.substring(5) : call;
        boolean read = name.startsWith("read") || name.startsWith("iRead");
        boolean ordered = name.contains("Ordered");
        long none = backend.type(io.github.mpi4j.spi.Predefined.T_BYTE);
        int errorClass = failure instanceof MPIException ? ((MPIException) failure).getErrorClass() : -1;
        if ((name.startsWith("i") || name.endsWith("Begin")) && (errorClass == Mpi.ERR_READ_ONLY
                || errorClass == Mpi.ERR_ACCESS || errorClass == Mpi.ERR_UNSUPPORTED_OPERATION)) {
            // Refused for the file's access mode, which is the same at every rank: every rank
            // refuses the call, so none enters MPI (a begin that MPI refuses may leave its split
            // collective marked active in OMPIO).
            throw failure;
        }
        try {
            if (name.startsWith("i") || name.endsWith("Begin")) {
                boolean split = name.endsWith("Begin");
                long h = MpiFileNative.start0(ordered ? ORDERED : AT_ALL, !read, split, fh, 0, null, MpiNative.NONE, 0,
                        0, none);
                if (split) MpiFileNative.splitEnd0(ordered ? ORDERED : AT_ALL, !read, fh, null, MpiNative.NONE, 0);
                else if (h != 0) MpiNative.wait0(h, 0);
                throw failure;
            }
            int kind = ordered ? (read ? MpiFileNative.READ_ORDERED : MpiFileNative.WRITE_ORDERED)
                    : read ? MpiFileNative.READ_AT_ALL : MpiFileNative.WRITE_AT_ALL;
            MpiFileNative.access0(kind, fh, 0, null, MpiNative.NONE, 0, 0, none);
        } catch (MPIException e) {
            if (e != failure) failure.addSuppressed(e);
            else throw failure;
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
        // Arrays are pinned for the call where blocking point-to-point pins them (docs/buffers.md),
        // else staged in pooled direct memory: a copy of every byte costs a collective write of
        // 4 MiB a rank a quarter of its time on a busy node.
        Arg a = Arg.of(buf, Buffers.spanBytes(count, type), !read, read, !backend.pinArrays);
        long moved = 0;
        try {
            moved = MpiFileNative.access0(kind, fh, offset, a.obj, a.mode, a.off, count, backend.type(type));
        } finally {
            a.done(moved);
        }
        if (status != null) status.set(0, 0, 0, false, moved);
    }
}
