package io.github.mpi4j.fileio;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.TypeMapCopy;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendFile;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
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
import java.util.Arrays;
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
    /** The view as set (replaced whole by setView; accesses take it at the call). */
    private volatile View current = new View(0, 1, new ViewMap(0, io.github.mpi4j.spi.Predefined.T_BYTE), true);
    private volatile boolean atomic;
    private volatile Hints hints = Hints.DEFAULT;
    private final FileLanes lanes;
    /**
     * The channel's descriptor for {@link NativeFileIo} reads and writes, each -1 where the
     * channel does them (no library, or an access mode that refuses them: the channel then
     * throws what the API reports).
     */
    private final int readFd, writeFd;

    private static final class View {
        final long disp;
        final long etypeSize;
        final ViewMap map;
        /**
         * Whether every rank's view is made of runs longer than {@link TwoPhase#SMALL_RUNS} bytes
         * on average (agreed at setView): then "automatic" collective buffering never pays, and
         * collective accesses skip the planning exchange (one collective a call fewer).
         */
        final boolean longRunsEverywhere;

        View(long disp, long etypeSize, ViewMap map, boolean longRunsEverywhere) {
            this.disp = disp;
            this.etypeSize = etypeSize;
            this.map = map;
            this.longRunsEverywhere = longRunsEverywhere;
        }
    }

    private ChannelFile(FileComm comm, Path path, int amode, FileChannel channel, SharedPointer shared) {
        this.comm = comm;
        this.path = path;
        this.amode = amode;
        this.channel = channel;
        this.shared = shared;
        this.atomicLock = ATOMIC_LOCKS.computeIfAbsent(path, p -> new ReentrantLock());
        this.lanes = new FileLanes(path.toString());
        int fd = NativeFileIo.descriptorOf(channel);
        this.readFd = (amode & FileIO.MODE_WRONLY) == 0 ? fd : -1;
        this.writeFd = (amode & FileIO.MODE_RDONLY) == 0 ? fd : -1;
    }

    /** The file capability of a communicator whose backend does its file I/O in Java. */
    public static FileIO over(BackendComm parent) {
        return new FileIO() {
            @Override
            public BackendFile open(String path, int amode) {
                return ChannelFile.open(parent, path, amode);
            }

            @Override
            public BackendFile open(String path, int amode, java.util.Map<String, String> hints) {
                ChannelFile f = ChannelFile.open(parent, path, amode);
                if (hints != null && !hints.isEmpty()) {
                    try {
                        f.setHints(hints);
                    } catch (RuntimeException e) {
                        f.close();
                        throw e;
                    }
                }
                return f;
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
            lanes.close("File.close");
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            channel.close();
        } catch (IOException e) {
            if (failure == null) failure = ioFailure("File.close", e);
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
        lanes.blocking(call, () -> resizeNow(call, bytes, shrink));
    }

    private void resizeNow(String call, long bytes, boolean shrink) {
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
        lanes.blocking("File.sync", this::syncNow);
    }

    private void syncNow() {
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
        lanes.blocking("File.setView", () -> {
            ViewMap map = new ViewMap(disp, filetype);
            long[] shortRuns = comm.allGatherLongs("File.setView",
                    new long[] {map.averageRun() > TwoPhase.SMALL_RUNS ? 0 : 1});
            this.current = new View(disp, Math.max(1, etype.size), map, Arrays.stream(shortRuns).sum() == 0);
            // The shared pointer starts again at the view's first etype (MPI_File_set_view).
            if (comm.rank() == 0) shared.set(0);
            comm.barrier("File.setView");
        });
    }

    @Override
    public void setAtomicity(boolean atomic) {
        lanes.blocking("File.setAtomicity", () -> {
            this.atomic = atomic;
            comm.barrier("File.setAtomicity");
        });
    }

    /**
     * Hints are collective: every rank takes rank 0's, so that the collective-buffering ones
     * (which decide how a collective call exchanges data) are the same everywhere.
     */
    @Override
    public void setHints(java.util.Map<String, String> given) {
        lanes.blocking("File.setInfo", () -> {
            StringBuilder b = new StringBuilder();
            for (java.util.Map.Entry<String, String> e : given.entrySet()) {
                b.append(e.getKey()).append('\0').append(e.getValue() == null ? "" : e.getValue()).append('\0');
            }
            byte[] mine = b.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            String all = new String(comm.bcastBytes("File.setInfo", mine), java.nio.charset.StandardCharsets.UTF_8);
            String[] parts = all.split("\0", -1);
            java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
            for (int i = 0; i + 1 < parts.length; i += 2) m.put(parts[i], parts[i + 1]);
            hints = hints.with(m);
        });
    }

    @Override
    public java.util.Map<String, String> hints() {
        return hints.inEffect(comm.size());
    }

    // ---- explicit offsets -----------------------------------------------------------------

    @Override
    public void readAt(long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        View v = current;
        done(status, read(v, offset * v.etypeSize, buf, count, type));
    }

    @Override
    public void writeAt(long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        View v = current;
        done(status, write(v, offset * v.etypeSize, buf, count, type));
    }

    @Override
    public void readAtAll(long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        View v = current;
        done(status, lanes.blocking("File.readAtAll", () -> collective("File.readAtAll", v, false, offset, buf, count,
                type)));
    }

    @Override
    public void writeAtAll(long offset, Buf buf, int count, TypeDesc type, StatusData status) {
        View v = current;
        done(status, lanes.blocking("File.writeAtAll", () -> collective("File.writeAtAll", v, true, offset, buf, count,
                type)));
    }

    /**
     * Accesses that complete later: independent ones (explicit offset, shared pointer) run on the
     * file's I/O threads, collective ones (and split collectives, whose end is the wait) on its
     * collective lane in call order. The view is the one in effect at the call.
     */
    @Override
    public BackendRequest start(int where, boolean write, boolean split, long offset, Buf buf, int count,
                                TypeDesc type) {
        View v = current;
        String rw = write ? "Write" : "Read";
        switch (where) {
            case AT:
                return lanes.independent("File.i" + rw + "At", () -> write ? write(v, offset * v.etypeSize, buf, count,
                        type) : read(v, offset * v.etypeSize, buf, count, type));
            case SHARED:
                return lanes.independent("File.i" + rw + "Shared", () -> {
                    long at = shared.fetchAdd(count * type.size / v.etypeSize);
                    return write ? write(v, at * v.etypeSize, buf, count, type)
                            : read(v, at * v.etypeSize, buf, count, type);
                });
            case AT_ALL: {
                String call = split ? "File." + rw.toLowerCase(java.util.Locale.ROOT) + "AtAllBegin"
                        : "File.i" + rw + "AtAll";
                return lanes.collective(call, () -> collective(call, v, write, offset, buf, count, type));
            }
            default: {
                String call = "File." + rw.toLowerCase(java.util.Locale.ROOT) + "OrderedBegin";
                return lanes.collective(call, () -> orderedNow(call, v, buf, count, type, write));
            }
        }
    }

    /**
     * Whether a collective access of this kind starts with the planning exchange (a failure word
     * and {@link TwoPhase#WORDS} a rank) rather than doing its own I/O and agreeing: collective
     * buffering not disabled, not atomic mode, more than one rank.
     */
    private boolean planned(View v, boolean write) {
        String mode = write ? hints.cbWrite : hints.cbRead;
        if (mode.equals("automatic") && v.longRunsEverywhere) return false; // TwoPhase.plan would say no
        return !mode.equals("disable") && !atomic && comm.size() > 1;
    }

    /** readAtAll / writeAtAll: two-phase when it pays (see {@link TwoPhase}), else each rank's own I/O. */
    private long collective(String call, View v, boolean write, long offset, Buf buf, int count, TypeDesc type) {
        long p = offset * v.etypeSize;
        if (!planned(v, write)) {
            Throwable failure = null;
            long n = 0;
            try {
                n = write ? write(v, p, buf, count, type) : read(v, p, buf, count, type);
            } catch (RuntimeException e) {
                failure = e;
            }
            agree(call, comm, failure);
            return n;
        }
        long bytes = count * type.size;
        RuntimeException failure = null;
        TwoPhase.Access a = null;
        try {
            Math.toIntExact(bytes); // the exchange below carries the data in one array
            a = TwoPhase.Access.of(v.map, p, bytes);
        } catch (RuntimeException e) {
            failure = e;
        }
        int w = TwoPhase.WORDS;
        long[] mine = new long[w + 1];
        mine[0] = failure == null ? 0 : -errorClass(failure);
        if (failure == null) System.arraycopy(TwoPhase.describe(a), 0, mine, 1, w);
        long[] all = comm.allGatherLongs(call, mine);
        if (failure != null) throw failure;
        long[] desc = new long[w * comm.size()];
        for (int r = 0; r < comm.size(); r++) {
            if (all[(w + 1) * r] < 0) {
                throw MPIException.of((int) -all[(w + 1) * r], call + ": failed at rank " + r + " (error class "
                        + -all[(w + 1) * r] + "; that rank's exception says why)");
            }
            System.arraycopy(all, (w + 1) * r + 1, desc, w * r, w);
        }
        TwoPhase.Plan plan = TwoPhase.plan(desc, comm.size(), hints, write ? hints.cbWrite : hints.cbRead);
        if (plan == null) {
            // Each rank's own access, straight from (into) the user's memory where it is bytes in
            // order (a direct buffer or byte[] with a contiguous type): packed only when it is not.
            long n = 0;
            Throwable f = null;
            try {
                n = write ? write(v, p, buf, count, type) : read(v, p, buf, count, type);
            } catch (RuntimeException e) {
                f = e;
            }
            agree(call, comm, f);
            return n;
        }
        // Two-phase: the data travels as one stream of the view's bytes in order.
        byte[] stream = new byte[(int) bytes];
        RuntimeException packing = null;
        if (write && bytes > 0) {
            try {
                TypeMapCopy.pack(BufAccess.forJava(buf), type, count, new Buf(stream, BaseKind.BYTE, 0, stream.length),
                        0);
            } catch (RuntimeException e) {
                packing = e; // the exchange still runs (the others wait for it); every rank then fails
            }
        }
        RuntimeException f = write
                ? TwoPhase.write(call, comm, channel, writeFd, plan, a, stream)
                : TwoPhase.read(call, comm, channel, readFd, plan, a, stream);
        if (f == null) f = packing;
        long n = bytes;
        if (f == null && !write) {
            try {
                n = TwoPhase.readable(a, channel.size());
                TypeMapCopy.unpack(new Buf(stream, BaseKind.BYTE, 0, stream.length), 0, BufAccess.forJava(buf), type,
                        count, n);
            } catch (IOException | RuntimeException e) {
                f = ioFailure(call, e);
            }
        }
        agree(call, comm, f == null ? null : ioFailure(call, f));
        return n;
    }

    private static int errorClass(Throwable failure) {
        return failure instanceof MPIException ? Math.max(1, ((MPIException) failure).getErrorClass()) : Mpi.ERR_IO;
    }

    // ---- the shared file pointer ------------------------------------------------------------

    @Override
    public void readShared(Buf buf, int count, TypeDesc type, StatusData status) {
        View v = current;
        long at = shared.fetchAdd(count * type.size / v.etypeSize);
        done(status, read(v, at * v.etypeSize, buf, count, type));
    }

    @Override
    public void writeShared(Buf buf, int count, TypeDesc type, StatusData status) {
        View v = current;
        long at = shared.fetchAdd(count * type.size / v.etypeSize);
        done(status, write(v, at * v.etypeSize, buf, count, type));
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
        View v = current;
        done(status, lanes.blocking(call, () -> orderedNow(call, v, buf, count, type, write)));
    }

    private long orderedNow(String call, View v, Buf buf, int count, TypeDesc type, boolean write) {
        long etypeSize = v.etypeSize;
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
            n = write ? write(v, at * etypeSize, buf, count, type) : read(v, at * etypeSize, buf, count, type);
            if (comm.rank() == 0) shared.set(base + total);
        } catch (RuntimeException e) {
            failure = e;
        }
        agree(call, comm, failure);
        return n;
    }

    @Override
    public void seekShared(long offset, int whence) {
        lanes.blocking("File.seekShared", () -> seekSharedNow(offset, whence));
    }

    private void seekSharedNow(long offset, int whence) {
        View v = current;
        long disp = v.disp, etypeSize = v.etypeSize;
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
        String name = call.startsWith("File.") ? call.substring(5) : call;
        boolean write = name.startsWith("write") || name.startsWith("iWrite");
        // The first exchange of every data collective: a negative entry means "failed here".
        lanes.blocking(call, () -> {
            if (!name.contains("Ordered") && planned(current, write)) {
                long[] mine = new long[TwoPhase.WORDS + 1];
                mine[0] = -Math.max(1, errorClass);
                comm.allGatherLongs(call, mine);
            } else {
                comm.allGather(call, -Math.max(1, errorClass));
            }
        });
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
    private long read(View v, long p, Buf buf, int count, TypeDesc type) {
        long bytes = count * type.size;
        if (bytes == 0) return 0;
        ByteBuffer own = bytesOf(buf, type, bytes);
        if (own != null) return readInto(v, p, own);
        return readStream(v, p, new byte[Math.toIntExact(bytes)], buf, count, type);
    }

    /** Reads the view's bytes from {@code p} into {@code stream}, then unpacks what came into {@code buf}. */
    private long readStream(View v, long p, byte[] stream, Buf buf, int count, TypeDesc type) {
        if (stream.length == 0) return 0;
        long got = readInto(v, p, ByteBuffer.wrap(stream));
        try {
            TypeMapCopy.unpack(new Buf(stream, BaseKind.BYTE, 0, stream.length), 0, BufAccess.forJava(buf), type,
                    count, got);
        } catch (RuntimeException e) {
            throw ioFailure("File.read", e);
        }
        return got;
    }

    /** Reads the view's bytes from {@code p} into {@code into} (from its position 0); returns the bytes read. */
    private long readInto(View v, long p, ByteBuffer into) {
        long bytes = into.capacity();
        long[] got = {0};
        FileLock lock = lockIfAtomic(v.map.fileByte(p), false);
        try {
            if (readFd >= 0 && NativeFileIo.applies(into)) {
                long[] runs = runsOf(v.map, p, bytes);
                return NativeFileIo.runs(readFd, into, runs, runs.length / 2, false);
            }
            v.map.runs(p, bytes, (filePos, done, length) -> {
                ByteBuffer b = into.duplicate();
                b.limit((int) (done + length)).position((int) done);
                while (b.hasRemaining()) {
                    int r = channel.read(b, filePos + b.position() - done);
                    if (r < 0) break;
                }
                got[0] = b.position();
                return !b.hasRemaining();
            });
            return got[0];
        } catch (IOException | RuntimeException e) {
            throw ioFailure("File.read", e);
        } finally {
            unlockIfAtomic(lock);
        }
    }

    /** Writes {@code count} items of {@code type} from {@code buf} at view data byte {@code p}. */
    private long write(View v, long p, Buf buf, int count, TypeDesc type) {
        long bytes = count * type.size;
        if (bytes == 0) return 0;
        ByteBuffer own = bytesOf(buf, type, bytes);
        if (own != null) return writeFrom(v, p, own);
        byte[] stream = new byte[Math.toIntExact(bytes)];
        TypeMapCopy.pack(BufAccess.forJava(buf), type, count, new Buf(stream, BaseKind.BYTE, 0, stream.length), 0);
        return writeStream(v, p, stream);
    }

    private long writeStream(View v, long p, byte[] stream) {
        if (stream.length == 0) return 0;
        return writeFrom(v, p, ByteBuffer.wrap(stream));
    }

    /** Writes {@code from}'s bytes (from its position 0) at view data byte {@code p}. */
    private long writeFrom(View v, long p, ByteBuffer from) {
        long bytes = from.capacity();
        FileLock lock = lockIfAtomic(v.map.fileByte(p), true);
        try {
            if (writeFd >= 0 && NativeFileIo.applies(from)) {
                long[] runs = runsOf(v.map, p, bytes);
                long n = NativeFileIo.runs(writeFd, from, runs, runs.length / 2, true);
                if (n != bytes) throw new IOException("wrote " + n + " of " + bytes + " bytes");
                return bytes;
            }
            v.map.runs(p, bytes, (filePos, done, length) -> {
                ByteBuffer b = from.duplicate();
                b.limit((int) (done + length)).position((int) done);
                while (b.hasRemaining()) channel.write(b, filePos + b.position() - done);
                return true;
            });
            return bytes;
        } catch (IOException | RuntimeException e) {
            throw ioFailure("File.write", e);
        } finally {
            unlockIfAtomic(lock);
        }
    }

    /** The file runs of view data bytes {@code [p, p + bytes)}: (position, length) pairs, in order. */
    private static long[] runsOf(ViewMap map, long p, long bytes) throws IOException {
        long[][] runs = {new long[16]};
        int[] n = {0};
        map.runs(p, bytes, (filePos, done, length) -> {
            if (2 * n[0] + 2 > runs[0].length) runs[0] = Arrays.copyOf(runs[0], runs[0].length * 2);
            runs[0][2 * n[0]] = filePos;
            runs[0][2 * n[0] + 1] = length;
            n[0]++;
            return true;
        });
        return Arrays.copyOf(runs[0], 2 * n[0]);
    }

    /**
     * The user's bytes themselves when no packing is needed (a contiguous type over a byte array
     * or a direct ByteBuffer): the access then reads or writes them in place, with no copy in
     * Java (none at all for a direct buffer). Null otherwise.
     */
    private static ByteBuffer bytesOf(Buf buf, TypeDesc type, long bytes) {
        if (type.derived instanceof io.github.mpi4j.spi.TypeMap || type.extent != type.size || buf == null) return null;
        if (bytes > buf.byteLength()) return null;
        if (buf.base instanceof byte[]) {
            return ByteBuffer.wrap((byte[]) buf.base, buf.offset, (int) bytes).slice();
        }
        if (buf.base instanceof ByteBuffer && ((ByteBuffer) buf.base).isDirect()) {
            ByteBuffer d = ((ByteBuffer) buf.base).duplicate();
            d.clear();
            d.position(buf.offset).limit(buf.offset + (int) bytes);
            return d.slice();
        }
        return null;
    }

    /**
     * Atomic mode: one access at a time in this JVM, and a lock from the access's first byte to
     * the end of the file against other processes (a view's runs may spread past the data
     * length). Returns the lock to release, or null outside atomic mode.
     */
    private FileLock lockIfAtomic(long pos, boolean write) {
        if (!atomic) return null;
        atomicLock.lock();
        try {
            boolean canWrite = (amode & FileIO.MODE_RDONLY) == 0;
            boolean canRead = (amode & FileIO.MODE_WRONLY) == 0;
            return channel.lock(pos, Long.MAX_VALUE - pos, !canWrite || (!write && canRead));
        } catch (IOException | RuntimeException e) {
            atomicLock.unlock();
            throw ioFailure("File (atomic mode)", e);
        }
    }

    private void unlockIfAtomic(FileLock lock) {
        if (lock == null) return;
        try {
            lock.release();
        } catch (IOException e) {
            // The channel is still open; a lock that cannot be released goes with the channel.
        } finally {
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
