package mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.fileio.ViewMap;
import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.BackendFile;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.FileIO;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.Buffer;

/**
 * An open file (MPI_File), with the methods of Open MPI's Java bindings. Opening and the
 * collective calls involve every rank of the communicator. The individual file pointer is kept
 * here, in etypes of the view, and turned into explicit offsets; the shared pointer lives in the
 * backend. Data go to disk as the buffer's bytes in native order ("native" representation).
 * Non-blocking calls (direct buffers only, as in the bindings) and split collectives go on after
 * the call: the request's wait, or the end call, completes them. See docs/io.md.
 */
public final class File {
    private static final int ACCESS_BITS = MPI.MODE_RDONLY | MPI.MODE_WRONLY | MPI.MODE_RDWR;
    private static final int ALL_BITS = MPI.MODE_CREATE | ACCESS_BITS | MPI.MODE_DELETE_ON_CLOSE
            | MPI.MODE_UNIQUE_OPEN | MPI.MODE_EXCL | MPI.MODE_APPEND | MPI.MODE_SEQUENTIAL;

    private final Session session;
    private final Comm comm;
    private final String filename;
    private final int amode;
    private final Group group;
    private BackendFile impl;
    private FileView view = new FileView(0, MPI.BYTE, MPI.BYTE, "native");
    private long etypeSize = 1;
    /** Where the view's data lie in the file (for getByteOffset). */
    private ViewMap viewMap = new ViewMap(0, io.github.mpi4j.spi.Predefined.T_BYTE);
    /** The individual file pointer, in etypes of the view. */
    private long position;
    private boolean atomicity;
    private Info info = new Info();
    private Errhandler errhandler = MPI.ERRORS_RETURN;
    /** The split collective begun and not yet ended, and its name; null when none. */
    private BackendRequest splitRequest;
    private String splitCall;

    /** MPI_File_open with no hints; collective over {@code comm}. */
    public File(Comm comm, String filename, int amode) {
        this(comm, filename, amode, null);
    }

    /** MPI_File_open; collective over {@code comm}. Hints in {@code info} are kept for {@link #getInfo}. */
    public File(Comm comm, String filename, int amode, Info info) {
        String call = "File.open";
        if (comm == null) throw MPIException.of(MPI.ERR_COMM, call + ": comm is null");
        if (filename == null) throw MPIException.of(MPI.ERR_ARG, call + ": filename is null");
        checkAmode(call, filename, amode);
        FileIO io = comm.capability(call, FileIO.class, "MPI-IO (File)");
        this.session = comm.session;
        this.comm = comm;
        this.filename = filename;
        this.amode = amode;
        this.group = comm.getGroup();
        this.impl = io.open(filename, amode, hints(info));
        if (info != null) this.info = info.dup();
        if ((amode & MPI.MODE_APPEND) != 0) position = impl.size();
    }

    /** MPI's rules for access modes: exactly one of RDONLY, WRONLY, RDWR, and no contradictions. */
    private static void checkAmode(String call, String filename, int amode) {
        String why = null;
        int access = amode & ACCESS_BITS;
        if ((amode & ~ALL_BITS) != 0) {
            why = "has bits that are no MPI.MODE_* value: " + (amode & ~ALL_BITS);
        } else if (Integer.bitCount(access) != 1) {
            why = "must have exactly one of MODE_RDONLY, MODE_WRONLY, MODE_RDWR";
        } else if (access == MPI.MODE_RDONLY && (amode & (MPI.MODE_CREATE | MPI.MODE_EXCL)) != 0) {
            why = "combines MODE_RDONLY with MODE_CREATE or MODE_EXCL";
        } else if (access == MPI.MODE_RDWR && (amode & MPI.MODE_SEQUENTIAL) != 0) {
            why = "combines MODE_RDWR with MODE_SEQUENTIAL";
        }
        if (why != null) {
            throw MPIException.of(MPI.ERR_AMODE, call + ": amode " + amode + " for " + filename + " " + why);
        }
    }

    /** MPI_File_close; collective. Closing twice throws. */
    public void close() {
        BackendFile f = impl("close");
        impl = null;
        f.close();
    }

    /** MPI_File_delete: removes a file that no rank has open. */
    public static void delete(String filename) {
        delete(filename, null);
    }

    public static void delete(String filename, Info info) {
        if (filename == null) throw MPIException.of(MPI.ERR_ARG, "File.delete: filename is null");
        MPI.COMM_WORLD.capability("File.delete", FileIO.class, "MPI-IO (File)").delete(filename);
    }

    // ---- size, group, mode, hints, view ----------------------------------------------------

    /** MPI_File_set_size; collective. */
    public void setSize(long size) {
        BackendFile f = writable("setSize");
        if (size < 0) throw MPIException.of(MPI.ERR_ARG, "File.setSize: size must be >= 0, got " + size);
        f.setSize(size);
    }

    /** MPI_File_preallocate; collective. */
    public void preallocate(long size) {
        BackendFile f = writable("preallocate");
        if (size < 0) throw MPIException.of(MPI.ERR_ARG, "File.preallocate: size must be >= 0, got " + size);
        f.preallocate(size);
    }

    /** Size of the file in bytes. */
    public long getSize() {
        return impl("getSize").size();
    }

    /** The group of the communicator the file was opened on. */
    public Group getGroup() {
        impl("getGroup");
        return group;
    }

    public int getAMode() {
        impl("getAMode");
        return amode;
    }

    public void setInfo(Info info) {
        impl("setInfo");
        if (info == null) throw MPIException.of(MPI.ERR_INFO, "File.setInfo: info is null");
        impl("setInfo").setHints(hints(info));
        for (int i = 0; i < info.size(); i++) {
            String key = info.getKey(i);
            this.info.set(key, info.get(key));
        }
    }

    /**
     * The hints in effect: what the backend reports (MPI_File_get_info on the MPI backend; the
     * fabric's collective-buffering values and the other hints given), else those given.
     */
    public Info getInfo() {
        java.util.Map<String, String> inEffect = impl("getInfo").hints();
        if (inEffect == null) return info.dup();
        Info i = new Info();
        for (java.util.Map.Entry<String, String> e : inEffect.entrySet()) i.set(e.getKey(), e.getValue());
        return i;
    }

    private static java.util.Map<String, String> hints(Info info) {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        if (info == null) return m;
        for (int i = 0; i < info.size(); i++) {
            String key = info.getKey(i);
            m.put(key, info.get(key));
        }
        return m;
    }

    public void setView(long disp, Datatype etype, Datatype filetype, String datarep) {
        setView(disp, etype, filetype, datarep, null);
    }

    /**
     * MPI_File_set_view; collective. Resets the individual and shared pointers to the view's
     * start. The filetype may be derived (a vector striping the file among ranks, say); its data
     * must be whole etypes.
     */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info) {
        String call = "File.setView";
        BackendFile f = impl("setView");
        TypeDesc e = Comm.type(call, "etype", etype);
        TypeDesc t = Comm.type(call, "filetype", filetype);
        if (e.layout == Layout.OBJECT || t.layout == Layout.OBJECT
                || ObjectTypes.isObjectDerived(e) || ObjectTypes.isObjectDerived(t)) { // and types over it (issue 10)
            throw MPIException.of(MPI.ERR_TYPE, call + ": MPI.OBJECT cannot describe file data");
        }
        if (e.size <= 0 || t.size <= 0) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": etype " + etype + " and filetype " + filetype
                    + " must hold data (sizes " + e.size + " and " + t.size + " bytes)");
        }
        if (t.size % e.size != 0) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": filetype " + filetype + " (" + t.size
                    + " bytes) is not made of etype " + etype + " (" + e.size + " bytes)");
        }
        noDataBefore(call, "etype", etype, e);
        noDataBefore(call, "filetype", filetype, t);
        // MPI-3.1 13.3: filetype displacements must not decrease, so tiles cannot go downward.
        Buffers.noNegativeExtent(call, "file views (etype and filetype)", MPI.ERR_TYPE, e, t);
        if (datarep == null) throw MPIException.of(MPI.ERR_ARG, call + ": datarep is null");
        if (!datarep.equals("native") && !datarep.equals("internal") && !datarep.equals(External32.NAME)) {
            throw MPIException.of(MPI.ERR_UNSUPPORTED_DATAREP, call + ": datarep \"" + datarep
                    + "\" is not supported (\"native\", \"internal\" and \"external32\" are)");
        }
        if (datarep.equals(External32.NAME)) {
            External32.check(call, "etype", e);
            External32.check(call, "filetype", t);
        }
        if (disp == MPI.DISPLACEMENT_CURRENT) {
            if ((amode & MPI.MODE_SEQUENTIAL) == 0) {
                throw MPIException.of(MPI.ERR_ARG, call + ": MPI.DISPLACEMENT_CURRENT needs a file opened with "
                        + "MODE_SEQUENTIAL");
            }
            disp = view.getDisp() + f.sharedPosition() * etypeSize;
        } else if (disp < 0) {
            throw MPIException.of(MPI.ERR_ARG, call + ": disp must be >= 0, got " + disp);
        }
        // external32 is converted in the API (External32): the backend sees native data.
        f.setView(disp, e, t, datarep.equals(External32.NAME) ? "native" : datarep);
        view = new FileView(disp, etype, filetype, datarep);
        viewMap = new ViewMap(disp, t);
        etypeSize = Math.max(1, e.size);
        position = 0;
        if (info != null) setInfo(info);
    }

    public FileView getView() {
        return view;
    }

    // ---- explicit offsets ---------------------------------------------------------------------

    public Status readAt(long offset, Object buf, int count, Datatype type) {
        return access("readAt", Kind.AT, false, offset, buf, count, type);
    }

    public Status readAtAll(long offset, Object buf, int count, Datatype type) {
        return access("readAtAll", Kind.AT_ALL, false, offset, buf, count, type);
    }

    public Status writeAt(long offset, Object buf, int count, Datatype type) {
        return access("writeAt", Kind.AT, true, offset, buf, count, type);
    }

    public Status writeAtAll(long offset, Object buf, int count, Datatype type) {
        return access("writeAtAll", Kind.AT_ALL, true, offset, buf, count, type);
    }

    public Request iReadAt(long offset, Buffer buf, int count, Datatype type) {
        return nonBlocking("iReadAt", Kind.AT, false, offset, buf, count, type);
    }

    public Request iReadAtAll(long offset, Buffer buf, int count, Datatype type) {
        return nonBlocking("iReadAtAll", Kind.AT_ALL, false, offset, buf, count, type);
    }

    public Request iWriteAt(long offset, Buffer buf, int count, Datatype type) {
        return nonBlocking("iWriteAt", Kind.AT, true, offset, buf, count, type);
    }

    public Request iWriteAtAll(long offset, Buffer buf, int count, Datatype type) {
        return nonBlocking("iWriteAtAll", Kind.AT_ALL, true, offset, buf, count, type);
    }

    // ---- the individual file pointer --------------------------------------------------------------

    public Status read(Object buf, int count, Datatype type) {
        return access("read", Kind.INDIVIDUAL, false, 0, buf, count, type);
    }

    public Status readAll(Object buf, int count, Datatype type) {
        return access("readAll", Kind.INDIVIDUAL_ALL, false, 0, buf, count, type);
    }

    public Status write(Object buf, int count, Datatype type) {
        return access("write", Kind.INDIVIDUAL, true, 0, buf, count, type);
    }

    public Status writeAll(Object buf, int count, Datatype type) {
        return access("writeAll", Kind.INDIVIDUAL_ALL, true, 0, buf, count, type);
    }

    public Request iRead(Buffer buf, int count, Datatype type) {
        return nonBlocking("iRead", Kind.INDIVIDUAL, false, 0, buf, count, type);
    }

    public Request iReadAll(Buffer buf, int count, Datatype type) {
        return nonBlocking("iReadAll", Kind.INDIVIDUAL_ALL, false, 0, buf, count, type);
    }

    public Request iWrite(Buffer buf, int count, Datatype type) {
        return nonBlocking("iWrite", Kind.INDIVIDUAL, true, 0, buf, count, type);
    }

    public Request iWriteAll(Buffer buf, int count, Datatype type) {
        return nonBlocking("iWriteAll", Kind.INDIVIDUAL_ALL, true, 0, buf, count, type);
    }

    /** MPI_File_seek: moves the individual pointer (SEEK_SET, SEEK_CUR, SEEK_END; etypes of the view). */
    public void seek(long offset, int whence) {
        BackendFile f = impl("seek");
        notSequential("seek");
        position = target("File.seek", offset, whence, position, f);
    }

    /** The individual pointer, in etypes of the view. */
    public long getPosition() {
        impl("getPosition");
        notSequential("getPosition");
        return position;
    }

    /** Absolute byte position of {@code offset} (etypes of the view). */
    public long getByteOffset(long offset) {
        impl("getByteOffset");
        if (offset < 0) throw MPIException.of(MPI.ERR_ARG, "File.getByteOffset: offset must be >= 0, got " + offset);
        return viewMap.fileByte(offset * etypeSize);
    }

    // ---- the shared file pointer ----------------------------------------------------------------

    public Status readShared(Object buf, int count, Datatype type) {
        return access("readShared", Kind.SHARED, false, 0, buf, count, type);
    }

    public Status writeShared(Object buf, int count, Datatype type) {
        return access("writeShared", Kind.SHARED, true, 0, buf, count, type);
    }

    public Request iReadShared(Buffer buf, int count, Datatype type) {
        return nonBlocking("iReadShared", Kind.SHARED, false, 0, buf, count, type);
    }

    public Request iWriteShared(Buffer buf, int count, Datatype type) {
        return nonBlocking("iWriteShared", Kind.SHARED, true, 0, buf, count, type);
    }

    /** MPI_File_read_ordered; collective: ranks read consecutive pieces in rank order. */
    public Status readOrdered(Object buf, int count, Datatype type) {
        return access("readOrdered", Kind.ORDERED, false, 0, buf, count, type);
    }

    /** MPI_File_write_ordered; collective: ranks write consecutive pieces in rank order. */
    public Status writeOrdered(Object buf, int count, Datatype type) {
        return access("writeOrdered", Kind.ORDERED, true, 0, buf, count, type);
    }

    /** MPI_File_seek_shared; collective. */
    public void seekShared(long offset, int whence) {
        BackendFile f = impl("seekShared");
        checkWhence("File.seekShared", whence);
        if (whence == MPI.SEEK_END && !viewMap.isContiguous()) {
            // The end through the view, from the largest size any rank sees (after every rank's
            // writes before this collective call), as a SEEK_SET position.
            long[] size = {f.size()};
            if (comm instanceof Intracomm) ((Intracomm) comm).allReduce(size, 1, MPI.LONG, MPI.MAX);
            long to = endInEtypes(size[0]) + offset;
            if (to < 0) {
                throw MPIException.of(MPI.ERR_ARG, "File.seekShared: offset " + offset + " from the end of the view ("
                        + endInEtypes(size[0]) + " etypes) moves the pointer before the start of the view");
            }
            f.seekShared(to, MPI.SEEK_SET);
            return;
        }
        if (whence == MPI.SEEK_SET && offset < 0) {
            throw MPIException.of(MPI.ERR_ARG, "File.seekShared: offset must be >= 0 with SEEK_SET, got " + offset);
        }
        f.seekShared(offset, whence);
    }

    /** The shared pointer, in etypes of the view. */
    public long getPositionShared() {
        return impl("getPositionShared").sharedPosition();
    }

    // ---- split collectives: begin starts the access, end completes it ---------------------------

    public void readAtAllBegin(long offset, Object buf, int count, Datatype type) {
        split("readAtAllBegin", Kind.AT_ALL, false, offset, buf, count, type);
    }

    public Status readAtAllEnd(Object buf) {
        return end("readAtAllEnd", "readAtAllBegin");
    }

    public void writeAtAllBegin(long offset, Object buf, int count, Datatype type) {
        split("writeAtAllBegin", Kind.AT_ALL, true, offset, buf, count, type);
    }

    public Status writeAtAllEnd(Object buf) {
        return end("writeAtAllEnd", "writeAtAllBegin");
    }

    public void readAllBegin(Object buf, int count, Datatype type) {
        split("readAllBegin", Kind.INDIVIDUAL_ALL, false, 0, buf, count, type);
    }

    public Status readAllEnd(Object buf) {
        return end("readAllEnd", "readAllBegin");
    }

    public void writeAllBegin(Object buf, int count, Datatype type) {
        split("writeAllBegin", Kind.INDIVIDUAL_ALL, true, 0, buf, count, type);
    }

    public Status writeAllEnd(Object buf) {
        return end("writeAllEnd", "writeAllBegin");
    }

    public void readOrderedBegin(Object buf, int count, Datatype type) {
        split("readOrderedBegin", Kind.ORDERED, false, 0, buf, count, type);
    }

    public Status readOrderedEnd(Object buf) {
        return end("readOrderedEnd", "readOrderedBegin");
    }

    public void writeOrderedBegin(Object buf, int count, Datatype type) {
        split("writeOrderedBegin", Kind.ORDERED, true, 0, buf, count, type);
    }

    public Status writeOrderedEnd(Object buf) {
        return end("writeOrderedEnd", "writeOrderedBegin");
    }

    // ---- consistency, extents, error handlers ----------------------------------------------------

    /** Extent of {@code type} in the file, in units of its base type (as Datatype.getExtent). */
    public int getTypeExtent(Datatype type) {
        impl("getTypeExtent");
        Comm.type("File.getTypeExtent", "type", type);
        return type.getExtent();
    }

    /** MPI_File_set_atomicity; collective. */
    public void setAtomicity(boolean atomicity) {
        impl("setAtomicity").setAtomicity(atomicity);
        this.atomicity = atomicity;
    }

    public boolean getAtomicity() {
        impl("getAtomicity");
        return atomicity;
    }

    /** MPI_File_sync; collective. */
    public void sync() {
        impl("sync").sync();
    }

    public void setErrhandler(Errhandler errhandler) {
        impl("setErrhandler");
        if (errhandler == null) throw MPIException.of(MPI.ERR_ARG, "File.setErrhandler: errhandler is null");
        this.errhandler = errhandler;
    }

    /** The file's error handler: MPI.ERRORS_RETURN unless set (MPI's default for files). */
    public Errhandler getErrhandler() {
        impl("getErrhandler");
        return errhandler;
    }

    /** Applies the file's error handler to {@code errorCode} (throws for MPI.ERRORS_RETURN). */
    public void callErrhandler(int errorCode) {
        impl("callErrhandler");
        Errhandlers.call(comm, errhandler, errorCode);
    }

    // ---- the one path of every data access ----------------------------------------------------------

    private enum Kind {
        AT(false), AT_ALL(true), INDIVIDUAL(false), INDIVIDUAL_ALL(true), SHARED(false), ORDERED(true);

        final boolean collective;

        Kind(boolean collective) {
            this.collective = collective;
        }
    }

    private Status access(String name, Kind kind, boolean write, long offset, Object buf, int count, Datatype type) {
        StatusData d = new StatusData();
        start(name, kind, write, offset, buf, count, type, d, Mode.BLOCKING);
        return new Status(d);
    }

    /** How an access completes: at the call, through a request (MPI_File_i*), at the end call of a split collective. */
    private enum Mode {
        BLOCKING, NON_BLOCKING, SPLIT
    }

    private Request nonBlocking(String name, Kind kind, boolean write, long offset, Buffer buf, int count,
                                Datatype type) {
        BackendRequest r = start(name, kind, write, offset, buf, count, type, null, Mode.NON_BLOCKING);
        return new Request(session, r, buf, null);
    }

    /**
     * Checks the arguments, then does the access (blocking: fills {@code d}) or starts it
     * (returns the backend's request).
     */
    private BackendRequest start(String name, Kind kind, boolean write, long offset, Object buf, int count,
                                 Datatype type, StatusData d, Mode mode) {
        String call = "File." + name;
        BackendFile f = impl(name);
        Buf b;
        TypeDesc t;
        if (mode == Mode.SPLIT && splitCall != null) {
            // Every rank has the same split collective active: all refuse, none waits.
            throw MPIException.of(MPI.ERR_OTHER, call + ": split collective " + splitCall
                    + " is still active on " + filename + " (end it first)");
        }
        try {
            if (mode == Mode.NON_BLOCKING && buf != null && !((Buffer) buf).isDirect()) {
                throw MPIException.of(MPI.ERR_BUFFER, call + ": buf must be a direct buffer (the access goes on after "
                        + "the call), got a heap " + buf.getClass().getSimpleName());
            }
            t = Comm.type(call, "datatype", type);
            // The file layers stage the memory span from the offset upward (docs/datatypes.md).
            Buffers.noNegativeExtent(call, "file data accesses", MPI.ERR_UNSUPPORTED_OPERATION, t);
            if (t.layout == Layout.OBJECT) {
                throw MPIException.of(MPI.ERR_TYPE, call + ": MPI.OBJECT cannot be read or written to a file");
            }
            if (t.size % etypeSize != 0) {
                throw MPIException.of(MPI.ERR_TYPE, call + ": datatype " + type + " (" + t.size
                        + " bytes) is not made of the view's etype " + view.getEType() + " (" + etypeSize + " bytes)");
            }
            if (write && (amode & MPI.MODE_RDONLY) != 0) {
                throw MPIException.of(MPI.ERR_READ_ONLY, call + ": " + filename
                        + " was opened with MPI.MODE_RDONLY (amode " + amode + "); it cannot be written");
            }
            if (!write && (amode & MPI.MODE_WRONLY) != 0) {
                throw MPIException.of(MPI.ERR_ACCESS, call + ": " + filename
                        + " was opened with MPI.MODE_WRONLY (amode " + amode + "); it cannot be read");
            }
            if ((kind == Kind.AT || kind == Kind.AT_ALL || kind == Kind.INDIVIDUAL || kind == Kind.INDIVIDUAL_ALL)
                    && (amode & MPI.MODE_SEQUENTIAL) != 0) {
                throw MPIException.of(MPI.ERR_UNSUPPORTED_OPERATION, call + ": " + filename
                        + " was opened with MPI.MODE_SEQUENTIAL: only the shared-pointer calls may access it");
            }
            if (offset < 0) throw MPIException.of(MPI.ERR_ARG, call + ": offset must be >= 0, got " + offset);
            b = Buffers.resolve(call, "buf", buf, 0, count, t, !write);
            if (external32(t)) {
                External32.check(call, "datatype", t);
                External32.checkMemory(call, b);
            }
        } catch (MPIException e) {
            if (kind.collective) f.failCollective(call, e);
            throw e;
        }
        long etypes = count * t.size / etypeSize;
        long at = offset;
        if (kind == Kind.INDIVIDUAL || kind == Kind.INDIVIDUAL_ALL) {
            at = position;
            // The pointer moves by what was asked for, whatever the access returns.
            position = at + etypes;
        }
        // Through an external32 view the backend works on a converted copy (External32).
        Buf user = null;
        if (external32(t) && count > 0) {
            user = b;
            b = write ? External32.forWrite(call, b, count, t) : External32.region(call, count, t);
        }
        if (mode == Mode.NON_BLOCKING && !write && (kind == Kind.AT || kind == Kind.INDIVIDUAL) && count > 0) {
            // A read that meets the end of the file is done at the call (Open MPI 4.1's
            // MPI_File_iread_at of such a range was seen never to complete); one wholly before
            // the end goes on after the call.
            long bytes = count * t.size;
            if (viewMap.readable(at * etypeSize, bytes, f.size()) < bytes) {
                StatusData now = new StatusData();
                f.readAt(at, b, count, t, now);
                if (user != null) External32.afterRead(b, user, count, t, now.bytes);
                return new io.github.mpi4j.spi.CompletedRequest(now);
            }
        }
        if (mode != Mode.BLOCKING) {
            int where = kind == Kind.AT || kind == Kind.INDIVIDUAL ? BackendFile.AT
                    : kind == Kind.AT_ALL || kind == Kind.INDIVIDUAL_ALL ? BackendFile.AT_ALL
                    : kind == Kind.SHARED ? BackendFile.SHARED : BackendFile.ORDERED;
            BackendRequest r = f.start(where, write, mode == Mode.SPLIT, at, b, count, t);
            return user == null ? r : External32.converting(r, b, write ? null : user, count, t);
        }
        switch (kind) {
            case AT:
            case INDIVIDUAL:
                if (write) f.writeAt(at, b, count, t, d); else f.readAt(at, b, count, t, d);
                break;
            case AT_ALL:
            case INDIVIDUAL_ALL:
                if (write) f.writeAtAll(at, b, count, t, d); else f.readAtAll(at, b, count, t, d);
                break;
            case SHARED:
                if (write) f.writeShared(b, count, t, d); else f.readShared(b, count, t, d);
                break;
            default:
                if (write) f.writeOrdered(b, count, t, d); else f.readOrdered(b, count, t, d);
                break;
        }
        if (user != null && !write) External32.afterRead(b, user, count, t, received(kind, at, count, t, d.bytes, f));
        return null;
    }

    private void split(String call, Kind kind, boolean write, long offset, Object buf, int count, Datatype type) {
        BackendRequest r = start(call, kind, write, offset, buf, count, type, null, Mode.SPLIT);
        splitCall = call;
        splitRequest = r;
    }

    private Status end(String call, String beginCall) {
        impl(call);
        if (!beginCall.equals(splitCall)) {
            throw MPIException.of(MPI.ERR_OTHER, "File." + call + ": no " + beginCall + " is active on " + filename
                    + (splitCall == null ? "" : " (" + splitCall + " is)"));
        }
        BackendRequest r = splitRequest;
        splitCall = null;
        splitRequest = null;
        StatusData d = new StatusData();
        r.waitFor(d);
        return new Status(d);
    }

    // ---- checks --------------------------------------------------------------------------------

    /**
     * Bytes a read at a known position got: the status's, but no more than the view holds before
     * the end of the file (ROMIO in MPICH 4.0 reports the whole count for a short read into a
     * non-contiguous memory type; converting that much would overwrite the user's elements past
     * the end with zeros).
     */
    private long received(Kind kind, long at, int count, TypeDesc t, long statusBytes, BackendFile f) {
        if (kind == Kind.SHARED || kind == Kind.ORDERED) return statusBytes;
        return Math.min(statusBytes, viewMap.readable(at * etypeSize, count * t.size, f.size()));
    }

    /** Whether an access of {@code t} goes through an external32 view that changes its bytes. */
    private boolean external32(TypeDesc t) {
        return view.getDataRep().equals(External32.NAME) && External32.changes(t);
    }

    private BackendFile impl(String name) {
        session.check();
        BackendFile f = impl;
        if (f == null) throw MPIException.of(MPI.ERR_FILE, "File." + name + ": " + filename + " has been closed");
        return f;
    }

    private BackendFile writable(String name) {
        BackendFile f = impl(name);
        if ((amode & MPI.MODE_RDONLY) != 0) {
            throw MPIException.of(MPI.ERR_READ_ONLY, "File." + name + ": " + filename
                    + " was opened with MPI.MODE_RDONLY (amode " + amode + ")");
        }
        return f;
    }

    private void notSequential(String name) {
        if ((amode & MPI.MODE_SEQUENTIAL) != 0) {
            throw MPIException.of(MPI.ERR_UNSUPPORTED_OPERATION, "File." + name + ": " + filename
                    + " was opened with MPI.MODE_SEQUENTIAL, which has no individual file pointer");
        }
    }

    private static void checkWhence(String call, int whence) {
        if (whence != MPI.SEEK_SET && whence != MPI.SEEK_CUR && whence != MPI.SEEK_END) {
            throw MPIException.of(MPI.ERR_ARG, call + ": whence " + whence + " is none of MPI.SEEK_SET ("
                    + MPI.SEEK_SET + "), MPI.SEEK_CUR (" + MPI.SEEK_CUR + "), MPI.SEEK_END (" + MPI.SEEK_END + ")");
        }
    }

    /** Where a seek moves a pointer now at {@code current}; never before the view's start. */
    private long target(String call, long offset, int whence, long current, BackendFile f) {
        checkWhence(call, whence);
        long base = whence == MPI.SEEK_SET ? 0
                : whence == MPI.SEEK_CUR ? current
                : endInEtypes(f.size());
        long to = base + offset;
        if (to < 0) {
            throw MPIException.of(MPI.ERR_ARG, call + ": offset " + offset + " from " + base
                    + " moves the pointer before the start of the view");
        }
        return to;
    }

    @Override
    public String toString() {
        return "File[" + filename + ", amode " + amode + (impl == null ? ", closed" : "") + "]";
    }

    // ---- issue 10: derived types with negative displacements ----

    /** MPI requires the displacements of an etype and a filetype to be non-negative (MPI-3.1 13.3). */
    private static void noDataBefore(String call, String arg, Datatype type, TypeDesc t) {
        if (t.derived instanceof io.github.mpi4j.spi.TypeMap && ((io.github.mpi4j.spi.TypeMap) t.derived).trueLb < 0) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": " + arg + " " + type + " has data at byte "
                    + ((io.github.mpi4j.spi.TypeMap) t.derived).trueLb + "; file views need displacements >= 0");
        }
    }

    // ---- issue 11 (h23): SEEK_END through any view ----

    /**
     * The end of a file of {@code fileSize} bytes as seen through the view, in etypes: the view's
     * data bytes before it, rounded up to whole etypes (MPI_File_seek's SEEK_END; ROMIO counts
     * the same way, so an end inside a hole or an etype means the next etype of the view).
     */
    private long endInEtypes(long fileSize) {
        return (viewMap.dataBefore(fileSize) + etypeSize - 1) / etypeSize;
    }
}
