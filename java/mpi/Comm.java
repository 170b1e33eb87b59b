package mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.buffer.OpRules;
import io.github.mpi4j.runtime.Session;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.SendMode;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.nio.Buffer;

/**
 * A communicator: point-to-point communication, collectives and management.
 *
 * <p>Two API styles live here side by side: the Open MPI Java bindings
 * ({@code getRank()}, {@code send(buf, count, type, dest, tag)}, {@code iSend}, ...) and
 * mpiJava 1.2 / MPJ Express ({@code Rank()}, {@code Send(buf, offset, count, type, dest, tag)},
 * {@code Isend}, ...). Both accept Java primitive arrays and direct NIO buffers in every call,
 * non-blocking ones included.
 *
 * <p>Every argument is checked in Java before any data moves; a bad argument throws an
 * {@link MPIException} naming the argument, its value and the limit.
 */
public class Comm implements Freeable, Cloneable {
    /** Split type of {@link Intracomm#splitType}: processes that can share memory (same node). */
    public static final int TYPE_SHARED = 1;

    final Session session;
    BackendComm impl;
    private String name;
    private Errhandler errhandler = MPI.ERRORS_RETURN;
    /** Hints given with setInfo/dupWithInfo (kept in Java; no backend uses them yet). */
    private Info info;
    /** User attributes (createKeyval/setAttr); created on first use. */
    private java.util.Map<Integer, Object> attrs;
    /** Request of the last iDup (already complete: duplication is done at once). */
    private Request dupRequest;

    /** Next user keyval; the predefined ones are MPI.TAG_UB..MPI.UNIVERSE_SIZE (0..6). */
    private static final java.util.concurrent.atomic.AtomicInteger NEXT_KEYVAL =
            new java.util.concurrent.atomic.AtomicInteger(100);
    private static final java.util.Set<Integer> KEYVALS = java.util.concurrent.ConcurrentHashMap.newKeySet();

    Comm(Session session, BackendComm impl, String name) {
        this.session = session;
        this.impl = impl;
        this.name = name;
    }

    // =====================================================================================
    // Checks shared by all calls
    // =====================================================================================

    /** The backend communicator, after checking MPI is running and this one is not freed. */
    final BackendComm impl(String call) {
        session.check();
        BackendComm c = impl;
        if (c == null) {
            throw MPIException.of(MPI.ERR_COMM, call + ": communicator " + name + " has been freed");
        }
        return c;
    }

    /**
     * The optional capability {@code kind} of this communicator (intercommunicators, topologies,
     * windows, files, device memory: see {@code BackendComm.capability}), or an MPIException
     * naming {@code what} and the backend when the backend does not provide it. The one way the
     * API reaches an optional part of a backend.
     */
    final <T> T capability(String call, Class<T> kind, String what) {
        BackendComm c = impl(call);
        T cap = c.capability(kind);
        if (cap == null) {
            throw MPIException.of(MPI.ERR_UNSUPPORTED_OPERATION, call + ": " + what + " is not supported by the "
                    + session.backend().name() + " backend");
        }
        return cap;
    }

    static TypeDesc type(String call, String arg, Datatype type) {
        if (type == null) throw MPIException.of(MPI.ERR_TYPE, call + ": " + arg + " is null");
        return type.desc(call, arg);
    }

    /**
     * Refuses, before anything moves, datatypes with a negative extent in the calls that do not
     * support them yet ({@code where}); null types and arrays pass (the call's own checks name them).
     * Collectives call it inside their error bracket (CallErrors), so the peers fail too.
     */
    static void noNegativeExtent(String call, String where, Datatype... types) {
        if (types == null) return;
        for (Datatype t : types) {
            if (t != null) Buffers.noNegativeExtent(call, where, MPI.ERR_UNSUPPORTED_OPERATION, t.desc);
        }
    }

    static OpDesc op(String call, Op op, TypeDesc type) {
        if (op == null) throw MPIException.of(MPI.ERR_OP, call + ": op is null");
        OpDesc o = op.desc(call);
        OpRules.check(call, o, type);
        return o;
    }

    static void checkDest(String call, BackendComm c, int dest) {
        if (dest == MPI.PROC_NULL) return;
        if (dest < 0 || dest >= c.peerCount()) {
            throw MPIException.of(MPI.ERR_RANK, call + ": dest " + dest + " is not a rank of " + peersOf(c)
                    + " (size " + c.peerCount() + "; MPI.PROC_NULL is also allowed)");
        }
    }

    static void checkSource(String call, BackendComm c, int source) {
        if (source == MPI.ANY_SOURCE || source == MPI.PROC_NULL) return;
        if (source < 0 || source >= c.peerCount()) {
            throw MPIException.of(MPI.ERR_RANK, call + ": source " + source + " is not a rank of " + peersOf(c)
                    + " (size " + c.peerCount() + "; MPI.ANY_SOURCE and MPI.PROC_NULL are also allowed)");
        }
    }

    /** What point-to-point ranks name (intercommunicators: the remote group; issue 10). */
    private static String peersOf(BackendComm c) {
        io.github.mpi4j.spi.Intercommunication ic = c.capability(io.github.mpi4j.spi.Intercommunication.class);
        return ic != null && ic.isInter() ? "the remote group" : "this communicator";
    }

    static void checkSendTag(String call, BackendComm c, int tag) {
        if (tag < 0 || tag > c.tagUpperBound()) {
            throw MPIException.of(MPI.ERR_TAG, call + ": tag " + tag + " is not in [0, " + c.tagUpperBound() + "]");
        }
    }

    static void checkRecvTag(String call, BackendComm c, int tag) {
        if (tag == MPI.ANY_TAG) return;
        if (tag < 0 || tag > c.tagUpperBound()) {
            throw MPIException.of(MPI.ERR_TAG, call + ": tag " + tag + " is not in [0, " + c.tagUpperBound()
                    + "] (MPI.ANY_TAG is also allowed)");
        }
    }

    static void checkRoot(String call, BackendComm c, int root) {
        if (root < 0 || root >= c.size()) {
            throw MPIException.of(MPI.ERR_ROOT, call + ": root " + root + " is not in [0, " + c.size() + ")");
        }
    }

    static void checkCount(String call, String arg, int count) {
        if (count < 0) throw MPIException.of(MPI.ERR_COUNT, call + ": " + arg + " must be >= 0, got " + count);
    }

    /** Rejects a send buffer aliasing the receive buffer (MPI requires MPI.IN_PLACE for that). */
    static void checkNotAliased(String call, Object sendbuf, Object recvbuf) {
        if (sendbuf != null && sendbuf == recvbuf && sendbuf != MPI.IN_PLACE) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": sendbuf and recvbuf are the same "
                    + (sendbuf instanceof Buffer ? "buffer" : "array")
                    + "; pass MPI.IN_PLACE as sendbuf (or use the in-place form) instead");
        }
    }

    /** A request over a backend request, keeping {@code keep} reachable until completion. */
    final Request request(BackendRequest r, Object keep) {
        return new Request(session, r, keep, null).on(this);
    }

    static boolean isObject(TypeDesc t) {
        return t.layout == Layout.OBJECT;
    }

    // =====================================================================================
    // Management
    // =====================================================================================

    /** This process's rank in the communicator. */
    public final int getRank() {
        return impl("getRank").rank();
    }

    /** Number of processes in the communicator. */
    public final int getSize() {
        return impl("getSize").size();
    }

    /** Duplicates the communicator: same group, a new context that never mixes traffic with this one. */
    public Comm dup() {
        BackendComm c = impl("dup");
        return CallErrors.inherit(this, new Comm(session, c.dup(), name + ".dup"));
    }

    @Override
    public Comm clone() {
        return dup();
    }

    /**
     * Non-blocking duplicate (MPI_Comm_idup). mpi4j duplicates at once, so the request of
     * {@link #getRequest()} is already complete; waiting on it is allowed and returns at once.
     */
    public Comm iDup() {
        Comm d = dup();
        dupRequest = Request.completed(session);
        return d;
    }

    /** The request of the last {@link #iDup()} on this communicator ({@code MPI.REQUEST_NULL} if none). */
    public final Request getRequest() {
        Request r = dupRequest;
        return r == null ? MPI.REQUEST_NULL : r;
    }

    /** Duplicates the communicator and gives the duplicate the hints {@code info}. */
    public Comm dupWithInfo(Info info) {
        Comm d = dup();
        try {
            d.setInfo(info);
        } catch (RuntimeException e) {
            d.free(); // collective like the dup: every rank refuses the same hints
            throw e;
        }
        return d;
    }

    /**
     * Sets hints (collective: every rank sets the same). They are stored and returned by
     * {@link #getInfo()} and handed to the backend's layers, which act on the keys they know:
     * {@code mpi4j_device_collectives} = {@code nccl} or {@code host} (see docs/gpu.md, "Device
     * buffers in mpi calls"). A value a layer refuses is an exception naming key and value, and
     * nothing is set.
     */
    public final void setInfo(Info info) {
        BackendComm c = impl("setInfo");
        if (info == null) throw MPIException.of(MPI.ERR_INFO, "setInfo: info is null");
        Info copy = info.dup();
        java.util.Map<String, String> hints = new java.util.LinkedHashMap<>();
        for (int i = 0; i < copy.size(); i++) {
            String k = copy.getKey(i);
            hints.put(k, copy.get(k));
        }
        c.hints(hints);
        this.info = copy;
    }

    /** A copy of the hints in use (empty if none were set). */
    public final Info getInfo() {
        impl("getInfo");
        Info i = info;
        return i == null ? new Info() : i.dup();
    }

    /** Topology: {@code MPI.CART}, {@code MPI.GRAPH}, {@code MPI.DIST_GRAPH} or {@code MPI.UNDEFINED}. */
    public final int getTopology() {
        impl("getTopology");
        if (this instanceof CartComm) return MPI.CART;
        if (this instanceof GraphComm) return ((GraphComm) this).isDistGraph() ? MPI.DIST_GRAPH : MPI.GRAPH;
        return MPI.UNDEFINED;
    }

    /**
     * Invokes this communicator's error handler with {@code errorCode} (MPI_Comm_call_errhandler):
     * {@code MPI.ERRORS_RETURN} throws an {@link MPIException} of that code; {@code
     * MPI.ERRORS_ARE_FATAL} and {@code MPI.ERRORS_ABORT} end the job with that code; a user
     * handler ({@link #createErrhandler}) is called with this communicator and the code, and this
     * call returns when it does.
     */
    public void callErrhandler(int errorCode) {
        impl("callErrhandler");
        Errhandlers.call(this, errhandler, errorCode);
    }

    // ---- attributes ----------------------------------------------------------------------

    /**
     * A new attribute key for {@link #setAttr}. Attributes are kept in Java and are not copied
     * to duplicates (as MPI_COMM_NULL_COPY_FN).
     */
    public static int createKeyval() {
        int k = NEXT_KEYVAL.getAndIncrement();
        KEYVALS.add(k);
        return k;
    }

    public static void freeKeyval(int keyval) {
        if (!KEYVALS.remove(keyval)) {
            throw MPIException.of(MPI.ERR_KEYVAL, "freeKeyval: " + keyval + " is not a keyval from createKeyval");
        }
    }

    private static void checkUserKeyval(String call, int keyval) {
        if (!KEYVALS.contains(keyval)) {
            throw MPIException.of(MPI.ERR_KEYVAL, call + ": keyval " + keyval
                    + " was not made by createKeyval (or was freed)");
        }
    }

    public final void setAttr(int keyval, Object value) {
        impl("setAttr");
        checkUserKeyval("setAttr", keyval);
        synchronized (this) {
            if (attrs == null) attrs = new java.util.HashMap<>();
            attrs.put(keyval, value);
        }
    }

    public final void deleteAttr(int keyval) {
        impl("deleteAttr");
        checkUserKeyval("deleteAttr", keyval);
        synchronized (this) {
            if (attrs != null) attrs.remove(keyval);
        }
    }

    // ---- pack / unpack ----------------------------------------------------------------------

    /** Bytes that {@code incount} items of {@code type} take when packed. */
    public final int packSize(int incount, Datatype type) {
        return packSizeImpl("packSize", incount, type);
    }

    /**
     * Packs {@code incount} items of {@code inbuf} into {@code outbuf} from byte {@code position}
     * (native byte order); returns the position after them.
     */
    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) {
        return packImpl("pack", inbuf, 0, incount, type, outbuf, position);
    }

    /**
     * Unpacks {@code outcount} items from {@code inbuf} at byte {@code position} into
     * {@code outbuf}; returns the position after them.
     */
    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type) {
        return unpackImpl("unpack", inbuf, position, outbuf, 0, outcount, type);
    }

    private int packSizeImpl(String call, int incount, Datatype type) {
        impl(call);
        TypeDesc t = packType(call, type);
        checkCount(call, "incount", incount);
        long bytes = io.github.mpi4j.buffer.TypeMapCopy.packedBytes(incount, t); // derived types: data only (issue 10)
        if (bytes > Integer.MAX_VALUE) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": " + incount + " items of " + t.name + " take " + bytes
                    + " bytes, more than " + Integer.MAX_VALUE);
        }
        return (int) bytes;
    }

    private static TypeDesc packType(String call, Datatype type) {
        TypeDesc t = type(call, "datatype", type);
        if (ObjectPack.isObjectish(t)) throw ObjectPack.noPackSize(call, t); // objects: see ObjectPack (issue 10)
        return t;
    }

    private static Buf packArea(String call, String arg, byte[] area, int position, int bytes) {
        if (area == null) throw MPIException.of(MPI.ERR_BUFFER, call + ": " + arg + " is null");
        if (position < 0 || position > area.length) {
            throw MPIException.of(MPI.ERR_ARG, call + ": position " + position + " is not in [0, " + area.length + "]");
        }
        if (bytes > area.length - position) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": " + bytes + " bytes from position " + position
                    + " do not fit in byte[" + area.length + "]");
        }
        return new Buf(area, io.github.mpi4j.spi.BaseKind.BYTE, position, area.length - position);
    }

    private int packImpl(String call, Object inbuf, int offset, int incount, Datatype type, byte[] outbuf,
                         int position) {
        if (type != null && type.desc != null && ObjectPack.isObjectish(type.desc)) { // objects (issue 10)
            impl(call);
            return ObjectPack.pack(call, inbuf, offset, incount, type, outbuf, position);
        }
        int bytes = packSizeImpl(call, incount, type);
        TypeDesc t = type.desc;
        Buf in = Buffers.resolve(call, "inbuf", inbuf, offset, incount, t, false);
        Buf out = packArea(call, "outbuf", outbuf, position, bytes);
        io.github.mpi4j.buffer.TypeMapCopy.pack(in, t, incount, out, 0); // follows a derived type's map (issue 10)
        return position + bytes;
    }

    private int unpackImpl(String call, byte[] inbuf, int position, Object outbuf, int offset, int outcount,
                           Datatype type) {
        if (type != null && type.desc != null && ObjectPack.isObjectish(type.desc)) { // objects (issue 10)
            impl(call);
            return ObjectPack.unpack(call, inbuf, position, outbuf, offset, outcount, type);
        }
        int bytes = packSizeImpl(call, outcount, type);
        TypeDesc t = type.desc;
        Buf in = packArea(call, "inbuf", inbuf, position, bytes);
        Buf out = Buffers.resolve(call, "outbuf", outbuf, offset, outcount, t, true);
        io.github.mpi4j.buffer.TypeMapCopy.unpack(in, 0, out, t, outcount, bytes); // derived types (issue 10)
        return position + bytes;
    }

    /** Frees the communicator; later calls on it throw. Freeing MPI.COMM_WORLD/COMM_SELF is an error. */
    @Override
    public void free() {
        BackendComm c = impl("free");
        if (this == MPI.COMM_WORLD || this == MPI.COMM_SELF) {
            throw MPIException.of(MPI.ERR_COMM, "free: " + name + " cannot be freed");
        }
        c.free();
        impl = null;
    }

    /** True once freed (MPI_COMM_NULL). */
    public final boolean isNull() {
        return impl == null;
    }

    public final boolean isInter() {
        impl("isInter");
        return this instanceof Intercomm;
    }

    /** MPI.IDENT, MPI.CONGRUENT, MPI.SIMILAR or MPI.UNEQUAL. */
    public static int compare(Comm comm1, Comm comm2) {
        if (comm1 == null || comm2 == null) {
            throw MPIException.of(MPI.ERR_COMM, "compare: " + (comm1 == null ? "comm1" : "comm2") + " is null");
        }
        BackendComm a = comm1.impl("compare");
        BackendComm b = comm2.impl("compare");
        if (a == b) return MPI.IDENT;
        int g = Group.compare(new Group(a.worldRanks(), -1), new Group(b.worldRanks(), -1));
        return g == MPI.IDENT ? MPI.CONGRUENT : g;
    }

    /** The group of processes in this communicator. */
    public final Group getGroup() {
        BackendComm c = impl("getGroup");
        int[] members = c.worldRanks();
        return new Group(members, members[c.rank()]);
    }

    /** Ends every process of the job with {@code errorcode}. */
    public final void abort(int errorcode) {
        BackendComm c = impl("abort");
        session.backend().abort(c, errorcode);
    }

    public final void setErrhandler(Errhandler errhandler) {
        impl("setErrhandler");
        if (errhandler == null) throw MPIException.of(MPI.ERR_ARG, "setErrhandler: errhandler is null");
        this.errhandler = errhandler;
    }

    public final Errhandler getErrhandler() {
        impl("getErrhandler");
        return errhandler;
    }

    public final void setName(String name) {
        impl("setName");
        if (name == null) throw MPIException.of(MPI.ERR_ARG, "setName: name is null");
        this.name = name;
    }

    public final String getName() {
        impl("getName");
        return name;
    }

    /** Largest tag this communicator accepts (the MPI_TAG_UB attribute). */
    public final int getTagUpperBound() {
        return impl("getTagUpperBound").tagUpperBound();
    }

    /**
     * Value of a predefined attribute ({@code MPI.TAG_UB}, {@code MPI.HOST}, {@code MPI.IO},
     * {@code MPI.WTIME_IS_GLOBAL}, {@code MPI.APPNUM}, {@code MPI.LASTUSEDCODE},
     * {@code MPI.UNIVERSE_SIZE}: the backend's values, null where it has none) or of one set with
     * {@link #setAttr}, or null.
     */
    public final Object getAttr(int keyval) {
        BackendComm c = impl("getAttr");
        if (keyval == MPI.TAG_UB) return c.tagUpperBound();
        if (keyval > MPI.TAG_UB && keyval <= MPI.UNIVERSE_SIZE) return session.backend().predefinedAttribute(keyval);
        synchronized (this) {
            // MPI.KEYVAL_INVALID is MPI_ERR_KEYVAL, as Open MPI's argument check answers; other
            // unknown keys read no value.
            if (keyval == MPI.KEYVAL_INVALID) {
                throw MPIException.of(MPI.ERR_KEYVAL, "getAttr: keyval is MPI.KEYVAL_INVALID");
            }
            return attrs == null ? null : attrs.get(keyval);
        }
    }

    // =====================================================================================
    // Point-to-point (implementation shared by both styles)
    // =====================================================================================

    private void sendBody(String call, Object buf, int offset, int count, Datatype type, int dest, int tag,
                          SendMode mode) {
        BackendComm c = impl(call);
        TypeDesc t = type(call, "datatype", type);
        checkDest(call, c, dest);
        checkSendTag(call, c, tag);
        if (ObjectTypes.isObjectDerived(t)) { // derived types over MPI.OBJECT (issue 10)
            ObjectTypes.send(call, c, buf, offset, count, t, dest, tag, mode);
            return;
        }
        if (isObject(t)) {
            ObjectMessages.send(call, c, buf, offset, count, dest, tag, mode);
            return;
        }
        Buf b = Buffers.resolve(call, "buf", buf, offset, count, t, false);
        c.send(b, count, t, dest, tag, mode);
    }

    private StatusData recvBody(String call, Object buf, int offset, int count, Datatype type, int source, int tag) {
        BackendComm c = impl(call);
        TypeDesc t = type(call, "datatype", type);
        checkSource(call, c, source);
        checkRecvTag(call, c, tag);
        if (ObjectTypes.isObjectDerived(t)) { // derived types over MPI.OBJECT (issue 10)
            return ObjectTypes.recv(call, c, buf, offset, count, t, source, tag);
        }
        if (isObject(t)) {
            return ObjectMessages.recv(call, c, buf, offset, count, source, tag);
        }
        Buf b = Buffers.resolve(call, "buf", buf, offset, count, t, true);
        StatusData d = CallErrors.scratchStatus();  // copied into the Status by the caller
        c.recv(b, count, t, source, tag, d);
        return d;
    }

    private Request isendBody(String call, Object buf, int offset, int count, Datatype type, int dest, int tag,
                              SendMode mode) {
        BackendComm c = impl(call);
        TypeDesc t = type(call, "datatype", type);
        checkDest(call, c, dest);
        checkSendTag(call, c, tag);
        if (ObjectTypes.isObjectDerived(t)) { // derived types over MPI.OBJECT (issue 10)
            return request(ObjectTypes.isend(call, c, buf, offset, count, t, dest, tag, mode), null);
        }
        if (isObject(t)) {
            return request(ObjectMessages.isend(call, c, buf, offset, count, dest, tag, mode), null);
        }
        Buf b = Buffers.resolve(call, "buf", buf, offset, count, t, false);
        return request(c.isend(b, count, t, dest, tag, mode), buf);
    }

    private Request irecvBody(String call, Object buf, int offset, int count, Datatype type, int source, int tag) {
        BackendComm c = impl(call);
        TypeDesc t = type(call, "datatype", type);
        checkSource(call, c, source);
        checkRecvTag(call, c, tag);
        if (ObjectTypes.isObjectDerived(t)) { // derived types over MPI.OBJECT (issue 10)
            return request(ObjectTypes.irecv(call, c, buf, offset, count, t, source, tag), buf);
        }
        if (isObject(t)) {
            return request(ObjectMessages.irecv(call, c, buf, offset, count, source, tag), buf);
        }
        Buf b = Buffers.resolve(call, "buf", buf, offset, count, t, true);
        return request(c.irecv(b, count, t, source, tag), buf);
    }

    private Status sendRecvBody(String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                                int dest, int sendtag, Object recvbuf, int recvoffset, int recvcount,
                                Datatype recvtype, int source, int recvtag) {
        BackendComm c = impl(call);
        TypeDesc st = type(call, "sendtype", sendtype);
        TypeDesc rt = type(call, "recvtype", recvtype);
        checkDest(call, c, dest);
        checkSendTag(call, c, sendtag);
        checkSource(call, c, source);
        checkRecvTag(call, c, recvtag);
        if (isObject(st) || isObject(rt) || ObjectTypes.isObjectDerived(st) || ObjectTypes.isObjectDerived(rt)) {
            Request r = isendImpl(call, sendbuf, sendoffset, sendcount, sendtype, dest, sendtag, SendMode.STANDARD);
            Status s = new Status(recvImpl(call, recvbuf, recvoffset, recvcount, recvtype, source, recvtag));
            r.waitFor();
            return s;
        }
        Buf sb = Buffers.resolve(call, "sendbuf", sendbuf, sendoffset, sendcount, st, false);
        Buf rb = Buffers.resolve(call, "recvbuf", recvbuf, recvoffset, recvcount, rt, true);
        StatusData d = new StatusData();
        c.sendRecv(sb, sendcount, st, dest, sendtag, rb, recvcount, rt, source, recvtag, d);
        return new Status(d);
    }

    private Status sendRecvReplaceBody(String call, Object buf, int offset, int count, Datatype type, int dest,
                                       int sendtag, int source, int recvtag) {
        BackendComm c = impl(call);
        TypeDesc t = type(call, "datatype", type);
        checkDest(call, c, dest);
        checkSendTag(call, c, sendtag);
        checkSource(call, c, source);
        checkRecvTag(call, c, recvtag);
        if (ObjectTypes.isObjectDerived(t)) { // derived types over MPI.OBJECT (issue 10)
            return new Status(ObjectTypes.sendRecvReplace(call, c, buf, offset, count, t, dest, sendtag, source, recvtag));
        }
        if (isObject(t)) {
            Request r = isendImpl(call, buf, offset, count, type, dest, sendtag, SendMode.STANDARD);
            Object[] tmp = new Object[count];
            Status s = new Status(recvImpl(call, tmp, 0, count, type, source, recvtag));
            r.waitFor();
            System.arraycopy(tmp, 0, buf, offset, count);
            return s;
        }
        Buf b = Buffers.resolve(call, "buf", buf, offset, count, t, true);
        StatusData d = new StatusData();
        c.sendRecvReplace(b, count, t, dest, sendtag, source, recvtag, d);
        return new Status(d);
    }

    private Status probeBody(String call, int source, int tag, boolean blocking) {
        BackendComm c = impl(call);
        checkSource(call, c, source);
        checkRecvTag(call, c, tag);
        StatusData d = new StatusData();
        if (blocking) {
            c.probe(source, tag, d);
        } else if (!c.iprobe(source, tag, d)) {
            return null;
        }
        return new Status(d);
    }

    private Prequest initBody(String call, Object buf, int offset, int count, Datatype type, int peer, int tag,
                              SendMode mode, boolean isSend) {
        BackendComm c = impl(call);
        TypeDesc t = type(call, "datatype", type);
        if (isSend) {
            checkDest(call, c, peer);
            checkSendTag(call, c, tag);
        } else {
            checkSource(call, c, peer);
            checkRecvTag(call, c, tag);
        }
        if (ObjectTypes.isObjectDerived(t)) { // derived types over MPI.OBJECT (issue 10)
            BackendRequest r = isSend ? ObjectRequests.typedSendInit(call, c, buf, offset, count, t, peer, tag, mode)
                    : ObjectRequests.typedRecvInit(call, c, buf, offset, count, t, peer, tag);
            return new Prequest(session, r, buf);
        }
        if (isObject(t)) {
            BackendRequest r = isSend ? ObjectRequests.sendInit(call, c, buf, offset, count, peer, tag, mode)
                    : ObjectRequests.recvInit(call, c, buf, offset, count, peer, tag);
            return new Prequest(session, r, buf);
        }
        Buf b = Buffers.resolve(call, "buf", buf, offset, count, t, !isSend);
        BackendRequest r = isSend ? c.sendInit(b, count, t, peer, tag, mode) : c.recvInit(b, count, t, peer, tag);
        return new Prequest(session, r, buf);
    }

    // =====================================================================================
    // Collectives (implementation shared by both styles; nb = non-blocking)
    // =====================================================================================

    /** Finishes a collective: blocking calls return null, non-blocking ones a request. */
    private Request done(boolean nb, BackendRequest r, Object keep) {
        return nb ? request(r, keep) : null;
    }

    final Request barrierImpl(String call, boolean nb) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.barrier(this, call, nb);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            if (nb) return request(c.collectives().iBarrier(), null);
            c.collectives().barrier();
            return null;
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request bcastImpl(String call, boolean nb, Object buf, int offset, int count, Datatype type, int root) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.bcast(this, call, nb, buf, offset, count, type, root);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            TypeDesc t = type(call, "datatype", type);
            checkRoot(call, c, root);
            if (ObjectTypes.isObjectDerived(t)) { // derived types over MPI.OBJECT (issue 10)
                ObjectTypes.bcast(call, c, buf, offset, count, t, root);
                return nb ? Request.completed(session) : null;
            }
            if (isObject(t)) {
                ObjectMessages.bcast(call, c, buf, offset, count, root);
                return nb ? Request.completed(session) : null;
            }
            Buf b = Buffers.resolve(call, "buf", buf, offset, count, t, c.rank() != root);
            if (!nb) {
                c.collectives().bcast(b, count, t, root);
                return null;
            }
            return done(true, c.collectives().iBcast(b, count, t, root), buf);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request reduceImpl(String call, boolean nb, Object sendbuf, int soff, Object recvbuf, int roff,
                             int count, Datatype type, Op op, int root) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.reduce(this, call, nb, sendbuf, soff, recvbuf, roff, count, type, op, root);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            TypeDesc t = type(call, "datatype", type);
            OpDesc o = op(call, op, t);
            checkRoot(call, c, root);
            boolean isRoot = c.rank() == root;
            checkNotAliased(call, sendbuf, recvbuf);
            if (ObjectTypeCollectives.reduce(call, c, sendbuf, soff, recvbuf, roff, count, t, o, root)) {
                return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
            }
            if (isObject(t)) {
                ObjectMessages.reduce(call, c, sendbuf, soff, recvbuf, roff, count, o, root, type);
                return nb ? Request.completed(session) : null;
            }
            Buf s;
            if (sendbuf == MPI.IN_PLACE) {
                if (!isRoot) {
                    throw MPIException.of(MPI.ERR_BUFFER, call + ": MPI.IN_PLACE is only allowed at the root (rank "
                            + root + "), this is rank " + c.rank());
                }
                s = Buf.IN_PLACE;
            } else {
                s = Buffers.resolve(call, "sendbuf", sendbuf, soff, count, t, false);
            }
            Buf r = isRoot ? Buffers.resolve(call, "recvbuf", recvbuf, roff, count, t, true) : null;
            if (!nb) {
                c.collectives().reduce(s, r, count, t, o, root);
                return null;
            }
            return done(true, c.collectives().iReduce(s, r, count, t, o, root), new Object[] {sendbuf, recvbuf});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request allReduceImpl(String call, boolean nb, Object sendbuf, int soff, Object recvbuf, int roff,
                                int count, Datatype type, Op op) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.allReduce(this, call, nb, sendbuf, soff, recvbuf, roff, count, type, op);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            TypeDesc t = type(call, "datatype", type);
            OpDesc o = op(call, op, t);
            checkNotAliased(call, sendbuf, recvbuf);
            if (ObjectTypeCollectives.allReduce(call, c, sendbuf, soff, recvbuf, roff, count, t, o)) {
                return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
            }
            if (isObject(t)) {
                ObjectMessages.allReduce(call, c, sendbuf, soff, recvbuf, roff, count, o, type);
                return nb ? Request.completed(session) : null;
            }
            Buf s = Buffers.resolveSend(call, "sendbuf", sendbuf, soff, count, t);
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, roff, count, t, true);
            if (!nb) {
                c.collectives().allReduce(s, r, count, t, o);
                return null;
            }
            return done(true, c.collectives().iAllReduce(s, r, count, t, o), new Object[] {sendbuf, recvbuf});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request gatherImpl(String call, boolean nb, Object sendbuf, int soff, int sendcount, Datatype sendtype,
                             Object recvbuf, int roff, int recvcount, Datatype recvtype, int root) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.gather(this, call, nb, sendbuf, soff, sendcount, sendtype, recvbuf, roff,
                    recvcount, null, null, recvtype, root);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            checkRoot(call, c, root);
            if (ObjectTypeCollectives.gather(call, c, sendbuf, soff, sendcount, sendtype, recvbuf, roff, recvcount,
                    recvtype, root)) {
                return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
            }
            boolean isRoot = c.rank() == root;
            checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc rt = isRoot ? type(call, "recvtype", recvtype) : null;
            if (isRoot) checkCount(call, "recvcount", recvcount);
            if (isRoot && isObject(rt) || sendbuf != MPI.IN_PLACE && isObject(type(call, "sendtype", sendtype))) {
                ObjectCollectives.gather(call, c, sendbuf, soff, sendcount, recvbuf, roff, recvcount, root);
                return nb ? Request.completed(session) : null;
            }
            Buf s;
            TypeDesc st;
            if (sendbuf == MPI.IN_PLACE) {
                if (!isRoot) throw inPlaceNotRoot(call, root, c.rank());
                s = Buf.IN_PLACE;
                st = rt;
                sendcount = recvcount;
            } else {
                st = type(call, "sendtype", sendtype);
                s = Buffers.resolve(call, "sendbuf", sendbuf, soff, sendcount, st, false);
            }
            Buf r = isRoot ? Buffers.resolve(call, "recvbuf", recvbuf, roff, mul(call, recvcount, c.size()), rt, true)
                    : null;
            if (!nb) {
                c.collectives().gather(s, sendcount, st, r, recvcount, rt, root);
                return null;
            }
            return done(true, c.collectives().iGather(s, sendcount, st, r, recvcount, rt, root),
                    new Object[] {sendbuf, recvbuf});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request gathervImpl(String call, boolean nb, Object sendbuf, int soff, int sendcount, Datatype sendtype,
                              Object recvbuf, int roff, int[] recvcounts, int[] displs, Datatype recvtype, int root) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.gather(this, call, nb, sendbuf, soff, sendcount, sendtype, recvbuf, roff, 0,
                    recvcounts, displs, recvtype, root);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            checkRoot(call, c, root);
            if (ObjectTypeCollectives.gatherv(call, c, sendbuf, soff, sendcount, sendtype, recvbuf, roff, recvcounts,
                    displs, recvtype, root)) {
                return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
            }
            if (ObjectCollectives.anyObject(sendtype, recvtype)) {
                ObjectCollectives.gatherv(call, c, sendbuf, soff, sendcount, recvbuf, roff, recvcounts, displs, root);
                return nb ? Request.completed(session) : null;
            }
            boolean isRoot = c.rank() == root;
            checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc rt = null;
            Buf r = null;
            if (isRoot) {
                rt = type(call, "recvtype", recvtype);
                int extentItems = checkCountsDispls(call, "recvcounts", recvcounts, "displs", displs, c.size());
                r = Buffers.resolve(call, "recvbuf", recvbuf, roff, extentItems, rt, true);
            }
            Buf s;
            TypeDesc st;
            if (sendbuf == MPI.IN_PLACE) {
                if (!isRoot) throw inPlaceNotRoot(call, root, c.rank());
                s = Buf.IN_PLACE;
                st = rt;
                sendcount = recvcounts[c.rank()];
            } else {
                st = type(call, "sendtype", sendtype);
                s = Buffers.resolve(call, "sendbuf", sendbuf, soff, sendcount, st, false);
            }
            if (!nb) {
                c.collectives().gatherv(s, sendcount, st, r, recvcounts, displs, rt, root);
                return null;
            }
            return done(true, c.collectives().iGatherv(s, sendcount, st, r, recvcounts, displs, rt, root),
                    new Object[] {sendbuf, recvbuf, recvcounts, displs});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request scatterImpl(String call, boolean nb, Object sendbuf, int soff, int sendcount, Datatype sendtype,
                              Object recvbuf, int roff, int recvcount, Datatype recvtype, int root) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.scatter(this, call, nb, sendbuf, soff, sendcount, null, null, sendtype,
                    recvbuf, roff, recvcount, recvtype, root);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            checkRoot(call, c, root);
            if (ObjectTypeCollectives.scatter(call, c, sendbuf, soff, sendcount, sendtype, recvbuf, roff, recvcount,
                    recvtype, root)) {
                return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
            }
            boolean isRoot = c.rank() == root;
            checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc st = isRoot ? type(call, "sendtype", sendtype) : null;
            if (isRoot) checkCount(call, "sendcount", sendcount);
            if (st != null && isObject(st) || !isRoot && recvtype != null && isObject(recvtype.desc)) {
                ObjectCollectives.scatter(call, c, sendbuf, soff, sendcount, recvbuf, roff, recvcount, root);
                return nb ? Request.completed(session) : null;
            }
            Buf s = isRoot ? Buffers.resolve(call, "sendbuf", sendbuf, soff, mul(call, sendcount, c.size()), st, false)
                    : null;
            Buf r;
            TypeDesc rt;
            if (recvbuf == MPI.IN_PLACE) {
                if (!isRoot) throw inPlaceNotRoot(call, root, c.rank());
                r = Buf.IN_PLACE;
                rt = st;
                recvcount = sendcount;
            } else {
                rt = type(call, "recvtype", recvtype);
                r = Buffers.resolve(call, "recvbuf", recvbuf, roff, recvcount, rt, true);
            }
            if (!nb) {
                c.collectives().scatter(s, sendcount, st, r, recvcount, rt, root);
                return null;
            }
            return done(true, c.collectives().iScatter(s, sendcount, st, r, recvcount, rt, root),
                    new Object[] {sendbuf, recvbuf});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request scattervImpl(String call, boolean nb, Object sendbuf, int soff, int[] sendcounts, int[] displs,
                               Datatype sendtype, Object recvbuf, int roff, int recvcount, Datatype recvtype,
                               int root) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.scatter(this, call, nb, sendbuf, soff, 0, sendcounts, displs, sendtype,
                    recvbuf, roff, recvcount, recvtype, root);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            checkRoot(call, c, root);
            if (ObjectTypeCollectives.scatterv(call, c, sendbuf, soff, sendcounts, displs, sendtype, recvbuf, roff,
                    recvcount, recvtype, root)) {
                return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
            }
            if (ObjectCollectives.anyObject(sendtype, recvtype)) {
                ObjectCollectives.scatterv(call, c, sendbuf, soff, sendcounts, displs, recvbuf, roff, recvcount, root);
                return nb ? Request.completed(session) : null;
            }
            boolean isRoot = c.rank() == root;
            checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc st = null;
            Buf s = null;
            if (isRoot) {
                st = type(call, "sendtype", sendtype);
                int extentItems = checkCountsDispls(call, "sendcounts", sendcounts, "displs", displs, c.size());
                s = Buffers.resolve(call, "sendbuf", sendbuf, soff, extentItems, st, false);
            }
            Buf r;
            TypeDesc rt;
            if (recvbuf == MPI.IN_PLACE) {
                if (!isRoot) throw inPlaceNotRoot(call, root, c.rank());
                r = Buf.IN_PLACE;
                rt = st;
                recvcount = sendcounts[c.rank()];
            } else {
                rt = type(call, "recvtype", recvtype);
                r = Buffers.resolve(call, "recvbuf", recvbuf, roff, recvcount, rt, true);
            }
            if (!nb) {
                c.collectives().scatterv(s, sendcounts, displs, st, r, recvcount, rt, root);
                return null;
            }
            return done(true, c.collectives().iScatterv(s, sendcounts, displs, st, r, recvcount, rt, root),
                    new Object[] {sendbuf, recvbuf, sendcounts, displs});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request allGatherImpl(String call, boolean nb, Object sendbuf, int soff, int sendcount,
                                Datatype sendtype, Object recvbuf, int roff, int recvcount, Datatype recvtype) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.allGather(this, call, nb, sendbuf, soff, sendcount, sendtype, recvbuf, roff,
                    recvcount, null, null, recvtype);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
if (ObjectTypeCollectives.allGather(call, c, sendbuf, soff, sendcount, sendtype, recvbuf, roff, recvcount,
                    recvtype)) {
    return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
}
            checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc rt = type(call, "recvtype", recvtype);
            checkCount(call, "recvcount", recvcount);
            if (isObject(rt)) {
                ObjectMessages.allGather(call, c, sendbuf, soff, sendcount, recvbuf, roff, recvcount);
                return nb ? Request.completed(session) : null;
            }
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, roff, mul(call, recvcount, c.size()), rt, true);
            Buf s;
            TypeDesc st;
            if (sendbuf == MPI.IN_PLACE) {
                s = Buf.IN_PLACE;
                st = rt;
                sendcount = recvcount;
            } else {
                st = type(call, "sendtype", sendtype);
                s = Buffers.resolve(call, "sendbuf", sendbuf, soff, sendcount, st, false);
            }
            if (!nb) {
                c.collectives().allGather(s, sendcount, st, r, recvcount, rt);
                return null;
            }
            return done(true, c.collectives().iAllGather(s, sendcount, st, r, recvcount, rt),
                    new Object[] {sendbuf, recvbuf});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request allGathervImpl(String call, boolean nb, Object sendbuf, int soff, int sendcount,
                                 Datatype sendtype, Object recvbuf, int roff, int[] recvcounts, int[] displs,
                                 Datatype recvtype) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.allGather(this, call, nb, sendbuf, soff, sendcount, sendtype, recvbuf, roff, 0,
                    recvcounts, displs, recvtype);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
if (ObjectTypeCollectives.allGatherv(call, c, sendbuf, soff, sendcount, sendtype, recvbuf, roff,
                    recvcounts, displs, recvtype)) {
    return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
}
            if (ObjectCollectives.anyObject(sendtype, recvtype)) {
                ObjectCollectives.allGatherv(call, c, sendbuf, soff, sendcount, recvbuf, roff, recvcounts, displs);
                return nb ? Request.completed(session) : null;
            }
            checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc rt = type(call, "recvtype", recvtype);
            int extentItems = checkCountsDispls(call, "recvcounts", recvcounts, "displs", displs, c.size());
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, roff, extentItems, rt, true);
            Buf s;
            TypeDesc st;
            if (sendbuf == MPI.IN_PLACE) {
                s = Buf.IN_PLACE;
                st = rt;
                sendcount = recvcounts[c.rank()];
            } else {
                st = type(call, "sendtype", sendtype);
                s = Buffers.resolve(call, "sendbuf", sendbuf, soff, sendcount, st, false);
            }
            if (!nb) {
                c.collectives().allGatherv(s, sendcount, st, r, recvcounts, displs, rt);
                return null;
            }
            return done(true, c.collectives().iAllGatherv(s, sendcount, st, r, recvcounts, displs, rt),
                    new Object[] {sendbuf, recvbuf, recvcounts, displs});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request allToAllImpl(String call, boolean nb, Object sendbuf, int soff, int sendcount, Datatype sendtype,
                               Object recvbuf, int roff, int recvcount, Datatype recvtype) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.allToAll(this, call, nb, sendbuf, soff, sendcount, null, null, sendtype,
                    recvbuf, roff, recvcount, null, null, recvtype);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
if (ObjectTypeCollectives.allToAll(call, c, sendbuf, soff, sendcount, sendtype, recvbuf, roff, recvcount,
                    recvtype)) {
    return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
}
            checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc rt = type(call, "recvtype", recvtype);
            checkCount(call, "recvcount", recvcount);
            if (isObject(rt)) {
                ObjectMessages.allToAll(call, c, sendbuf, soff, sendcount, recvbuf, roff, recvcount);
                return nb ? Request.completed(session) : null;
            }
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, roff, mul(call, recvcount, c.size()), rt, true);
            Buf s;
            TypeDesc st;
            if (sendbuf == MPI.IN_PLACE) {
                s = Buf.IN_PLACE;
                st = rt;
                sendcount = recvcount;
            } else {
                st = type(call, "sendtype", sendtype);
                checkCount(call, "sendcount", sendcount);
                s = Buffers.resolve(call, "sendbuf", sendbuf, soff, mul(call, sendcount, c.size()), st, false);
            }
            if (!nb) {
                c.collectives().allToAll(s, sendcount, st, r, recvcount, rt);
                return null;
            }
            return done(true, c.collectives().iAllToAll(s, sendcount, st, r, recvcount, rt),
                    new Object[] {sendbuf, recvbuf});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request allToAllvImpl(String call, boolean nb, Object sendbuf, int soff, int[] sendcounts, int[] sdispls,
                                Datatype sendtype, Object recvbuf, int roff, int[] recvcounts, int[] rdispls,
                                Datatype recvtype) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.allToAll(this, call, nb, sendbuf, soff, 0, sendcounts, sdispls, sendtype,
                    recvbuf, roff, 0, recvcounts, rdispls, recvtype);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
if (ObjectTypeCollectives.allToAllv(call, c, sendbuf, soff, sendcounts, sdispls, sendtype, recvbuf, roff,
                    recvcounts, rdispls, recvtype)) {
    return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
}
            if (ObjectCollectives.anyObject(sendtype, recvtype)) {
                ObjectCollectives.allToAllv(call, c, sendbuf, soff, sendcounts, sdispls, recvbuf, roff, recvcounts,
                        rdispls);
                return nb ? Request.completed(session) : null;
            }
            checkNotAliased(call, sendbuf, recvbuf);
            TypeDesc rt = type(call, "recvtype", recvtype);
            int rItems = checkCountsDispls(call, "recvcounts", recvcounts, "rdispls", rdispls, c.size());
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, roff, rItems, rt, true);
            Buf s;
            TypeDesc st;
            if (sendbuf == MPI.IN_PLACE) {
                s = Buf.IN_PLACE;
                st = rt;
                sendcounts = recvcounts;
                sdispls = rdispls;
            } else {
                st = type(call, "sendtype", sendtype);
                int sItems = checkCountsDispls(call, "sendcounts", sendcounts, "sdispls", sdispls, c.size());
                s = Buffers.resolve(call, "sendbuf", sendbuf, soff, sItems, st, false);
            }
            if (!nb) {
                c.collectives().allToAllv(s, sendcounts, sdispls, st, r, recvcounts, rdispls, rt);
                return null;
            }
            return done(true, c.collectives().iAllToAllv(s, sendcounts, sdispls, st, r, recvcounts, rdispls, rt),
                    new Object[] {sendbuf, recvbuf, sendcounts, sdispls, recvcounts, rdispls});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request reduceScatterImpl(String call, boolean nb, Object sendbuf, int soff, Object recvbuf, int roff,
                                    int[] recvcounts, Datatype type, Op op) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.reduceScatter(this, call, nb, sendbuf, soff, recvbuf, roff, 0, recvcounts,
                    type, op);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            TypeDesc t = type(call, "datatype", type);
            OpDesc o = op(call, op, t);
            checkNotAliased(call, sendbuf, recvbuf);
            if (ObjectTypeCollectives.reduceScatter(call, c, sendbuf, soff, recvbuf, roff, recvcounts, t, o)) {
                return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
            }
            if (isObject(t)) {
                ObjectCollectives.reduceScatter(call, c, sendbuf, soff, recvbuf, roff, recvcounts, o, type);
                return nb ? Request.completed(session) : null;
            }
            int total = checkCounts(call, "recvcounts", recvcounts, c.size());
            Buf s;
            Buf r;
            if (sendbuf == MPI.IN_PLACE) {
                s = Buf.IN_PLACE;
                r = Buffers.resolve(call, "recvbuf", recvbuf, roff, total, t, true);
            } else {
                s = Buffers.resolve(call, "sendbuf", sendbuf, soff, total, t, false);
                r = Buffers.resolve(call, "recvbuf", recvbuf, roff, recvcounts[c.rank()], t, true);
            }
            if (!nb) {
                c.collectives().reduceScatter(s, r, recvcounts, t, o);
                return null;
            }
            return done(true, c.collectives().iReduceScatter(s, r, recvcounts, t, o),
                    new Object[] {sendbuf, recvbuf, recvcounts});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request reduceScatterBlockImpl(String call, boolean nb, Object sendbuf, int soff, Object recvbuf,
                                         int roff, int recvcount, Datatype type, Op op) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            return InterCollectives.reduceScatter(this, call, nb, sendbuf, soff, recvbuf, roff, recvcount,
                    null, type, op);
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            TypeDesc t = type(call, "datatype", type);
            OpDesc o = op(call, op, t);
            checkNotAliased(call, sendbuf, recvbuf);
            if (ObjectTypeCollectives.reduceScatterBlock(call, c, sendbuf, soff, recvbuf, roff, recvcount, t, o)) {
                return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
            }
            if (isObject(t)) {
                ObjectCollectives.reduceScatterBlock(call, c, sendbuf, soff, recvbuf, roff, recvcount, o, type);
                return nb ? Request.completed(session) : null;
            }
            checkCount(call, "recvcount", recvcount);
            int total = mul(call, recvcount, c.size());
            Buf s;
            Buf r;
            if (sendbuf == MPI.IN_PLACE) {
                s = Buf.IN_PLACE;
                r = Buffers.resolve(call, "recvbuf", recvbuf, roff, total, t, true);
            } else {
                s = Buffers.resolve(call, "sendbuf", sendbuf, soff, total, t, false);
                r = Buffers.resolve(call, "recvbuf", recvbuf, roff, recvcount, t, true);
            }
            if (!nb) {
                c.collectives().reduceScatterBlock(s, r, recvcount, t, o);
                return null;
            }
            return done(true, c.collectives().iReduceScatterBlock(s, r, recvcount, t, o),
                    new Object[] {sendbuf, recvbuf});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    final Request scanImpl(String call, boolean nb, boolean exclusive, Object sendbuf, int soff, Object recvbuf,
                           int roff, int count, Datatype type, Op op) {
        BackendComm c = impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            TypeDesc t = type(call, "datatype", type);
            OpDesc o = op(call, op, t);
            checkNotAliased(call, sendbuf, recvbuf);
            if (ObjectTypeCollectives.scan(call, c, exclusive, sendbuf, soff, recvbuf, roff, count, t, o)) {
                return nb ? Request.completed(session) : null; // over MPI.OBJECT (issue 10)
            }
            if (isObject(t)) {
                ObjectCollectives.scan(call, c, exclusive, sendbuf, soff, recvbuf, roff, count, o, type);
                return nb ? Request.completed(session) : null;
            }
            Buf s = Buffers.resolveSend(call, "sendbuf", sendbuf, soff, count, t);
            Buf r = Buffers.resolve(call, "recvbuf", recvbuf, roff, count, t, true);
            if (!nb) {
                if (exclusive) c.collectives().exScan(s, r, count, t, o);
                else c.collectives().scan(s, r, count, t, o);
                return null;
            }
            BackendRequest br = exclusive ? c.collectives().iExScan(s, r, count, t, o)
                    : c.collectives().iScan(s, r, count, t, o);
            return done(true, br, new Object[] {sendbuf, recvbuf});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    private static MPIException inPlaceNotRoot(String call, int root, int rank) {
        return MPIException.of(MPI.ERR_BUFFER, call + ": MPI.IN_PLACE is only allowed at the root (rank " + root
                + "), this is rank " + rank);
    }

    private static int mul(String call, int count, int size) {
        long n = (long) count * size;
        if (n > Integer.MAX_VALUE) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": count " + count + " x " + size + " ranks exceeds "
                    + Integer.MAX_VALUE + " items");
        }
        return (int) n;
    }

    /** Checks a counts array of the v-variants; returns the sum of the counts. */
    static int checkCounts(String call, String name, int[] counts, int size) {
        if (counts == null) throw MPIException.of(MPI.ERR_ARG, call + ": " + name + " is null");
        if (counts.length < size) {
            throw MPIException.of(MPI.ERR_ARG, call + ": " + name + " has " + counts.length
                    + " entries but the communicator has " + size + " ranks");
        }
        long total = 0;
        for (int i = 0; i < size; i++) {
            if (counts[i] < 0) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": " + name + "[" + i + "] = " + counts[i] + " is negative");
            }
            total += counts[i];
        }
        if (total > Integer.MAX_VALUE) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": " + name + " add up to " + total + " items, more than "
                    + Integer.MAX_VALUE);
        }
        return (int) total;
    }

    /**
     * Checks the counts and displacements of a v-variant; returns how many items of the type
     * the buffer must span (the furthest end of any block).
     */
    static int checkCountsDispls(String call, String countsName, int[] counts, String displsName, int[] displs,
                                 int size) {
        checkCounts(call, countsName, counts, size);
        if (displs == null) throw MPIException.of(MPI.ERR_ARG, call + ": " + displsName + " is null");
        if (displs.length < size) {
            throw MPIException.of(MPI.ERR_ARG, call + ": " + displsName + " has " + displs.length
                    + " entries but the communicator has " + size + " ranks");
        }
        long end = 0;
        for (int i = 0; i < size; i++) {
            if (displs[i] < 0) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + displsName + "[" + i + "] = " + displs[i]
                        + " is negative");
            }
            if (counts[i] > 0) end = Math.max(end, (long) displs[i] + counts[i]);
        }
        if (end > Integer.MAX_VALUE) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": blocks reach item " + end + ", beyond "
                    + Integer.MAX_VALUE);
        }
        return (int) end;
    }

    // =====================================================================================
    // Collectives, Open MPI style (the forms without sendbuf are the in-place forms)
    // =====================================================================================

    public final void barrier() {
        barrierImpl("barrier", false);
    }

    public final Request iBarrier() {
        return barrierImpl("iBarrier", true);
    }

    public final void bcast(Object buf, int count, Datatype type, int root) {
        bcastImpl("bcast", false, buf, 0, count, type, root);
    }

    public final Request iBcast(Object buf, int count, Datatype type, int root) {
        return bcastImpl("iBcast", true, buf, 0, count, type, root);
    }

    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) {
        reduceImpl("reduce", false, sendbuf, 0, recvbuf, 0, count, type, op, root);
    }

    /** In place: at the root {@code buf} holds its contribution and receives the result. */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) {
        reduceInPlace("reduce", false, buf, count, type, op, root);
    }

    public final Request iReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) {
        return reduceImpl("iReduce", true, sendbuf, 0, recvbuf, 0, count, type, op, root);
    }

    public final Request iReduce(Object buf, int count, Datatype type, Op op, int root) {
        return reduceInPlace("iReduce", true, buf, count, type, op, root);
    }

    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        allReduceImpl("allReduce", false, sendbuf, 0, recvbuf, 0, count, type, op);
    }

    public final void allReduce(Object buf, int count, Datatype type, Op op) {
        allReduceImpl("allReduce", false, MPI.IN_PLACE, 0, buf, 0, count, type, op);
    }

    public final Request iAllReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) {
        return allReduceImpl("iAllReduce", true, sendbuf, 0, recvbuf, 0, count, type, op);
    }

    public final Request iAllReduce(Object buf, int count, Datatype type, Op op) {
        return allReduceImpl("iAllReduce", true, MPI.IN_PLACE, 0, buf, 0, count, type, op);
    }

    /**
     * Bucketed allreduce: reduces several buffers in one collective call, as gradient
     * all-reduction in data-parallel training does with its buckets of parameters. Equivalent to
     * {@code allReduce(sendbufs[i], recvbufs[i], counts[i], type, op)} for every {@code i} in
     * order, but backends that can fuse the buckets (mpi4j's fabric packs them into one
     * reduction) pay the per-message cost once instead of once per bucket.
     *
     * <p>Every rank must pass the same number of buckets, the same counts, type and op. Each
     * bucket may be a Java array or a direct buffer (they may be mixed); a count may be 0.
     * {@code sendbufs[i]} may be {@code MPI.IN_PLACE}, in which case {@code recvbufs[i]} holds
     * this rank's contribution. No receive buffer may appear twice or also be a send buffer.
     * All buffers and counts are checked before any data moves.
     *
     * @param sendbufs one send buffer per bucket (or {@code MPI.IN_PLACE} entries)
     * @param recvbufs one receive buffer per bucket
     * @param counts   items of {@code type} in each bucket
     */
    public final void allReduce(Object[] sendbufs, Object[] recvbufs, int[] counts, Datatype type, Op op) {
        allReduceManyImpl("allReduce", sendbufs, recvbufs, counts, type, op);
    }

    /**
     * In-place bucketed allreduce: each {@code bufs[i]} holds this rank's contribution of
     * {@code counts[i]} items and receives the result. See
     * {@link #allReduce(Object[], Object[], int[], Datatype, Op)}.
     */
    public final void allReduce(Object[] bufs, int[] counts, Datatype type, Op op) {
        allReduceManyImpl("allReduce", null, bufs, counts, type, op);
    }

    /** {@code sendbufs == null} means the in-place form. */
    private void allReduceManyImpl(String call, Object[] sendbufs, Object[] recvbufs, int[] counts, Datatype type,
                                   Op op) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            throw MPIException.of(MPI.ERR_COMM, call + ": the bucketed form is not supported on an intercommunicator; "
                    + "reduce the buckets one at a time");
        }
        BackendComm c = impl(call);
        CallErrors.begin(c, call, false);
        Throwable failure = null;
        try {
            TypeDesc t = type(call, "datatype", type);
            if (isObject(t)) {
                throw MPIException.of(MPI.ERR_TYPE, call + ": MPI.OBJECT is not supported by the bucketed form; "
                        + "reduce the object arrays one at a time");
            }
            OpDesc o = op(call, op, t);
            boolean inPlace = sendbufs == null;
            String recvName = inPlace ? "bufs" : "recvbufs";
            if (recvbufs == null) throw MPIException.of(MPI.ERR_BUFFER, call + ": " + recvName + " is null");
            if (counts == null) throw MPIException.of(MPI.ERR_ARG, call + ": counts is null");
            int n = counts.length;
            if (recvbufs.length != n) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + recvName + " has " + recvbufs.length
                        + " entries but counts has " + n);
            }
            if (!inPlace && sendbufs.length != n) {
                throw MPIException.of(MPI.ERR_ARG, call + ": sendbufs has " + sendbufs.length
                        + " entries but counts has " + n);
            }
            long total = 0;
            for (int i = 0; i < n; i++) {
                if (counts[i] < 0) {
                    throw MPIException.of(MPI.ERR_COUNT, call + ": counts[" + i + "] = " + counts[i] + " is negative");
                }
                total += counts[i];
            }
            if (total > Integer.MAX_VALUE) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": counts add up to " + total + " items, more than "
                        + Integer.MAX_VALUE);
            }
            // Where each buffer object was first seen, to reject buckets that share a buffer.
            java.util.IdentityHashMap<Object, String> seen = new java.util.IdentityHashMap<>();
            Buf[] s = new Buf[n];
            Buf[] r = new Buf[n];
            for (int i = 0; i < n; i++) {
                String rn = recvName + "[" + i + "]";
                if (recvbufs[i] == MPI.IN_PLACE) {
                    throw MPIException.of(MPI.ERR_BUFFER, call + ": " + rn + " is MPI.IN_PLACE; only send buffers "
                            + "may be MPI.IN_PLACE");
                }
                r[i] = Buffers.resolve(call, rn, recvbufs[i], 0, counts[i], t, true);
                claim(call, seen, recvbufs[i], rn);
            }
            for (int i = 0; i < n; i++) {
                if (inPlace) {
                    s[i] = Buf.IN_PLACE;
                    continue;
                }
                String sn = "sendbufs[" + i + "]";
                Object sb = sendbufs[i];
                if (sb != null && sb == recvbufs[i] && sb != MPI.IN_PLACE) {
                    throw MPIException.of(MPI.ERR_BUFFER, call + ": " + sn + " and recvbufs[" + i + "] are the same "
                            + (sb instanceof Buffer ? "buffer" : "array") + "; pass MPI.IN_PLACE as " + sn
                            + " (or use the in-place form) instead");
                }
                s[i] = Buffers.resolveSend(call, sn, sb, 0, counts[i], t);
                // Buckets may share a send buffer (it is only read) but never send from a receive buffer.
                String other = sb == null || sb == MPI.IN_PLACE ? null : seen.get(sb);
                if (other != null) {
                    throw MPIException.of(MPI.ERR_BUFFER, call + ": " + sn + " is the same "
                            + (sb instanceof Buffer ? "buffer" : "array") + " as " + other
                            + ", which receives another bucket's result");
                }
            }
            c.collectives().allReduceMany(s, r, counts.clone(), t, o);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, c, failure);
        }
    }

    /** Records that argument {@code name} uses {@code buf}; throws if another argument already does. */
    private static void claim(String call, java.util.IdentityHashMap<Object, String> seen, Object buf, String name) {
        if (buf == null) return;
        String other = seen.putIfAbsent(buf, name);
        if (other != null) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": " + name + " is the same "
                    + (buf instanceof Buffer ? "buffer" : "array") + " as " + other
                    + "; every bucket needs a receive buffer of its own");
        }
    }

    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                             Datatype recvtype, int root) {
        gatherImpl("gather", false, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype, root);
    }

    /** In place: at the root {@code buf} already holds the root's block; elsewhere it is the send buffer. */
    public final void gather(Object buf, int count, Datatype type, int root) {
        gatherInPlace("gather", false, buf, count, type, root);
    }

    public final Request iGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                 Datatype recvtype, int root) {
        return gatherImpl("iGather", true, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype, root);
    }

    public final Request iGather(Object buf, int count, Datatype type, int root) {
        return gatherInPlace("iGather", true, buf, count, type, root);
    }

    private Request gatherInPlace(String call, boolean nb, Object buf, int count, Datatype type, int root) {
        if (isRootHere(call, root)) {
            return gatherImpl(call, nb, MPI.IN_PLACE, 0, count, type, buf, 0, count, type, root);
        }
        return gatherImpl(call, nb, buf, 0, count, type, null, 0, count, type, root);
    }

    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                              int[] displs, Datatype recvtype, int root) {
        gathervImpl("gatherv", false, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, displs, recvtype, root);
    }

    /** In place, at the root: its block is already in {@code recvbuf}. */
    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        gathervImpl("gatherv", false, MPI.IN_PLACE, 0, 0, null, recvbuf, 0, recvcount, displs, recvtype, root);
    }

    /** The form for ranks other than the root (they receive nothing). */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) {
        gathervImpl("gatherv", false, sendbuf, 0, sendcount, sendtype, null, 0, null, null, null, root);
    }

    public final Request iGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                  int[] recvcount, int[] displs, Datatype recvtype, int root) {
        return gathervImpl("iGatherv", true, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, displs,
                recvtype, root);
    }

    public final Request iGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root) {
        return gathervImpl("iGatherv", true, MPI.IN_PLACE, 0, 0, null, recvbuf, 0, recvcount, displs, recvtype,
                root);
    }

    public final Request iGatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) {
        return gathervImpl("iGatherv", true, sendbuf, 0, sendcount, sendtype, null, 0, null, null, null, root);
    }

    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                              Datatype recvtype, int root) {
        scatterImpl("scatter", false, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype, root);
    }

    /** In place: at the root {@code buf} is the send buffer and keeps its own block; elsewhere it receives. */
    public final void scatter(Object buf, int count, Datatype type, int root) {
        scatterInPlace("scatter", false, buf, count, type, root);
    }

    public final Request iScatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                  int recvcount, Datatype recvtype, int root) {
        return scatterImpl("iScatter", true, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype,
                root);
    }

    public final Request iScatter(Object buf, int count, Datatype type, int root) {
        return scatterInPlace("iScatter", true, buf, count, type, root);
    }

    private Request scatterInPlace(String call, boolean nb, Object buf, int count, Datatype type, int root) {
        if (isRootHere(call, root)) {
            return scatterImpl(call, nb, buf, 0, count, type, MPI.IN_PLACE, 0, count, type, root);
        }
        return scatterImpl(call, nb, null, 0, count, type, buf, 0, count, type, root);
    }

    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                               int recvcount, Datatype recvtype, int root) {
        scattervImpl("scatterv", false, sendbuf, 0, sendcount, displs, sendtype, recvbuf, 0, recvcount, recvtype,
                root);
    }

    /** In place, at the root: it keeps its own block in {@code sendbuf}. */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root) {
        scattervImpl("scatterv", false, sendbuf, 0, sendcount, displs, sendtype, MPI.IN_PLACE, 0, 0, null, root);
    }

    /** The form for ranks other than the root (they send nothing). */
    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) {
        scattervImpl("scatterv", false, null, 0, null, null, null, recvbuf, 0, recvcount, recvtype, root);
    }

    public final Request iScatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
                                   Object recvbuf, int recvcount, Datatype recvtype, int root) {
        return scattervImpl("iScatterv", true, sendbuf, 0, sendcount, displs, sendtype, recvbuf, 0, recvcount,
                recvtype, root);
    }

    public final Request iScatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root) {
        return scattervImpl("iScatterv", true, sendbuf, 0, sendcount, displs, sendtype, MPI.IN_PLACE, 0, 0, null,
                root);
    }

    public final Request iScatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) {
        return scattervImpl("iScatterv", true, null, 0, null, null, null, recvbuf, 0, recvcount, recvtype, root);
    }

    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                Datatype recvtype) {
        allGatherImpl("allGather", false, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype);
    }

    public final void allGather(Object buf, int count, Datatype type) {
        allGatherImpl("allGather", false, MPI.IN_PLACE, 0, 0, null, buf, 0, count, type);
    }

    public final Request iAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                    int recvcount, Datatype recvtype) {
        return allGatherImpl("iAllGather", true, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype);
    }

    public final Request iAllGather(Object buf, int count, Datatype type) {
        return allGatherImpl("iAllGather", true, MPI.IN_PLACE, 0, 0, null, buf, 0, count, type);
    }

    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                 int[] recvcount, int[] displs, Datatype recvtype) {
        allGathervImpl("allGatherv", false, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, displs,
                recvtype);
    }

    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) {
        allGathervImpl("allGatherv", false, MPI.IN_PLACE, 0, 0, null, recvbuf, 0, recvcount, displs, recvtype);
    }

    public final Request iAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                     int[] recvcount, int[] displs, Datatype recvtype) {
        return allGathervImpl("iAllGatherv", true, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, displs,
                recvtype);
    }

    public final Request iAllGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) {
        return allGathervImpl("iAllGatherv", true, MPI.IN_PLACE, 0, 0, null, recvbuf, 0, recvcount, displs,
                recvtype);
    }

    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                               Datatype recvtype) {
        allToAllImpl("allToAll", false, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype);
    }

    public final Request iAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                   int recvcount, Datatype recvtype) {
        return allToAllImpl("iAllToAll", true, sendbuf, 0, sendcount, sendtype, recvbuf, 0, recvcount, recvtype);
    }

    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                                int[] recvcount, int[] rdispls, Datatype recvtype) {
        allToAllvImpl("allToAllv", false, sendbuf, 0, sendcount, sdispls, sendtype, recvbuf, 0, recvcount, rdispls,
                recvtype);
    }

    public final Request iAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                    Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        return allToAllvImpl("iAllToAllv", true, sendbuf, 0, sendcount, sdispls, sendtype, recvbuf, 0, recvcount,
                rdispls, recvtype);
    }

    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op) {
        reduceScatterImpl("reduceScatter", false, sendbuf, 0, recvbuf, 0, recvcounts, type, op);
    }

    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) {
        reduceScatterImpl("reduceScatter", false, MPI.IN_PLACE, 0, buf, 0, counts, type, op);
    }

    public final Request iReduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op) {
        return reduceScatterImpl("iReduceScatter", true, sendbuf, 0, recvbuf, 0, recvcounts, type, op);
    }

    public final Request iReduceScatter(Object buf, int[] counts, Datatype type, Op op) {
        return reduceScatterImpl("iReduceScatter", true, MPI.IN_PLACE, 0, buf, 0, counts, type, op);
    }

    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op) {
        reduceScatterBlockImpl("reduceScatterBlock", false, sendbuf, 0, recvbuf, 0, recvcount, type, op);
    }

    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) {
        reduceScatterBlockImpl("reduceScatterBlock", false, MPI.IN_PLACE, 0, buf, 0, count, type, op);
    }

    public final Request iReduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type,
                                             Op op) {
        return reduceScatterBlockImpl("iReduceScatterBlock", true, sendbuf, 0, recvbuf, 0, recvcount, type, op);
    }

    public final Request iReduceScatterBlock(Object buf, int count, Datatype type, Op op) {
        return reduceScatterBlockImpl("iReduceScatterBlock", true, MPI.IN_PLACE, 0, buf, 0, count, type, op);
    }

    /** Applies {@code op} locally: {@code inOutBuf[i] = inBuf[i] op inOutBuf[i]}. */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) {
        String call = "reduceLocal";
        TypeDesc t = type(call, "datatype", type);
        OpDesc o = op(call, op, t);
        checkNotAliased(call, inBuf, inOutBuf);
        Buf in = Buffers.resolve(call, "inBuf", inBuf, 0, count, t, false);
        Buf inout = Buffers.resolve(call, "inOutBuf", inOutBuf, 0, count, t, true);
        io.github.mpi4j.buffer.Reductions.reduce(o, t, in, 0, inout, 0, count);
    }

    /** Whether this rank is {@code root} (after checking root). */
    private boolean isRootHere(String call, int root) {
        if (this instanceof Intercomm) { // intercommunicators (issue 10)
            throw MPIException.of(MPI.ERR_ARG, call + ": the in-place form is not allowed on an intercommunicator "
                    + "(MPI defines none there); pass separate send and receive buffers");
        }
        BackendComm c = impl(call);
        checkRoot(call, c, root);
        return c.rank() == root;
    }

    /** In-place reduce: the root reduces into {@code buf}; the others send from it. */
    private Request reduceInPlace(String call, boolean nb, Object buf, int count, Datatype type, Op op, int root) {
        if (isRootHere(call, root)) {
            return reduceImpl(call, nb, MPI.IN_PLACE, 0, buf, 0, count, type, op, root);
        }
        return reduceImpl(call, nb, buf, 0, null, 0, count, type, op, root);
    }

    // =====================================================================================
    // Point-to-point, Open MPI style
    // =====================================================================================

    /** Blocking standard-mode send of {@code count} items of {@code type} from {@code buf}. */
    public final void send(Object buf, int count, Datatype type, int dest, int tag) {
        sendImpl("send", buf, 0, count, type, dest, tag, SendMode.STANDARD);
    }

    /** Blocking receive; returns the status. */
    public final Status recv(Object buf, int count, Datatype type, int source, int tag) {
        // The Status is made here, in a method small enough to inline into the caller's loop,
        // so the JIT drops it when the caller ignores it (no allocation per receive).
        return new Status(recvImpl("recv", buf, 0, count, type, source, tag));
    }

    /** Synchronous send: completes only once the receive has started. */
    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) {
        sendImpl("sSend", buf, 0, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    /** Buffered send through the buffer given to {@link MPI#attachBuffer}. */
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) {
        sendImpl("bSend", buf, 0, count, type, dest, tag, SendMode.BUFFERED);
    }

    /** Ready send: the matching receive must already be posted. */
    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) {
        sendImpl("rSend", buf, 0, count, type, dest, tag, SendMode.READY);
    }

    public final Request iSend(Object buf, int count, Datatype type, int dest, int tag) {
        return isendImpl("iSend", buf, 0, count, type, dest, tag, SendMode.STANDARD);
    }

    public final Request iSSend(Object buf, int count, Datatype type, int dest, int tag) {
        return isendImpl("iSSend", buf, 0, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    public final Request ibSend(Object buf, int count, Datatype type, int dest, int tag) {
        return isendImpl("ibSend", buf, 0, count, type, dest, tag, SendMode.BUFFERED);
    }

    public final Request iBSend(Object buf, int count, Datatype type, int dest, int tag) {
        return isendImpl("iBSend", buf, 0, count, type, dest, tag, SendMode.BUFFERED);
    }

    public final Request iRSend(Object buf, int count, Datatype type, int dest, int tag) {
        return isendImpl("iRSend", buf, 0, count, type, dest, tag, SendMode.READY);
    }

    public final Request iRecv(Object buf, int count, Datatype type, int source, int tag) {
        return irecvImpl("iRecv", buf, 0, count, type, source, tag);
    }

    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag) {
        return sendRecvImpl("sendRecv", sendbuf, 0, sendcount, sendtype, dest, sendtag, recvbuf, 0, recvcount,
                recvtype, source, recvtag);
    }

    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source,
                                        int recvtag) {
        return sendRecvReplaceImpl("sendRecvReplace", buf, 0, count, type, dest, sendtag, source, recvtag);
    }

    /** Waits for a matching message and returns its status without receiving it. */
    public final Status probe(int source, int tag) {
        return probeImpl("probe", source, tag, true);
    }

    /** The status of a matching waiting message, or null if there is none. */
    public final Status iProbe(int source, int tag) {
        return probeImpl("iProbe", source, tag, false);
    }

    public final Prequest sendInit(Object buf, int count, Datatype type, int dest, int tag) {
        return initImpl("sendInit", buf, 0, count, type, dest, tag, SendMode.STANDARD, true);
    }

    public final Prequest bSendInit(Object buf, int count, Datatype type, int dest, int tag) {
        return initImpl("bSendInit", buf, 0, count, type, dest, tag, SendMode.BUFFERED, true);
    }

    public final Prequest sSendInit(Object buf, int count, Datatype type, int dest, int tag) {
        return initImpl("sSendInit", buf, 0, count, type, dest, tag, SendMode.SYNCHRONOUS, true);
    }

    public final Prequest rSendInit(Object buf, int count, Datatype type, int dest, int tag) {
        return initImpl("rSendInit", buf, 0, count, type, dest, tag, SendMode.READY, true);
    }

    public final Prequest recvInit(Object buf, int count, Datatype type, int source, int tag) {
        return initImpl("recvInit", buf, 0, count, type, source, tag, SendMode.STANDARD, false);
    }

    // =====================================================================================
    // Point-to-point, mpiJava 1.2 / MPJ Express style (offsets in elements of the array)
    // =====================================================================================

    public final int Rank() {
        return getRank();
    }

    public final int Size() {
        return getSize();
    }

    public final void Send(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        sendImpl("Send", buf, offset, count, datatype, dest, tag, SendMode.STANDARD);
    }

    public final Status Recv(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        return new Status(recvImpl("Recv", buf, offset, count, datatype, source, tag));
    }

    public final void Ssend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        sendImpl("Ssend", buf, offset, count, datatype, dest, tag, SendMode.SYNCHRONOUS);
    }

    public final void Bsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        sendImpl("Bsend", buf, offset, count, datatype, dest, tag, SendMode.BUFFERED);
    }

    public final void Rsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        sendImpl("Rsend", buf, offset, count, datatype, dest, tag, SendMode.READY);
    }

    public final Request Isend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return isendImpl("Isend", buf, offset, count, datatype, dest, tag, SendMode.STANDARD);
    }

    public final Request Issend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return isendImpl("Issend", buf, offset, count, datatype, dest, tag, SendMode.SYNCHRONOUS);
    }

    public final Request Ibsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return isendImpl("Ibsend", buf, offset, count, datatype, dest, tag, SendMode.BUFFERED);
    }

    public final Request Irsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return isendImpl("Irsend", buf, offset, count, datatype, dest, tag, SendMode.READY);
    }

    public final Request Irecv(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        return irecvImpl("Irecv", buf, offset, count, datatype, source, tag);
    }

    public final Status Sendrecv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, int dest,
                                 int sendtag, Object recvbuf, int recvoffset, int recvcount, Datatype recvtype,
                                 int source, int recvtag) {
        return sendRecvImpl("Sendrecv", sendbuf, sendoffset, sendcount, sendtype, dest, sendtag, recvbuf,
                recvoffset, recvcount, recvtype, source, recvtag);
    }

    public final Status Sendrecv_replace(Object buf, int offset, int count, Datatype datatype, int dest,
                                         int sendtag, int source, int recvtag) {
        return sendRecvReplaceImpl("Sendrecv_replace", buf, offset, count, datatype, dest, sendtag, source,
                recvtag);
    }

    public final Status Probe(int source, int tag) {
        return probeImpl("Probe", source, tag, true);
    }

    /** The status of a matching waiting message, or null if there is none. */
    public final Status Iprobe(int source, int tag) {
        return probeImpl("Iprobe", source, tag, false);
    }

    public final Prequest Send_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return initImpl("Send_init", buf, offset, count, datatype, dest, tag, SendMode.STANDARD, true);
    }

    public final Prequest Bsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return initImpl("Bsend_init", buf, offset, count, datatype, dest, tag, SendMode.BUFFERED, true);
    }

    public final Prequest Ssend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return initImpl("Ssend_init", buf, offset, count, datatype, dest, tag, SendMode.SYNCHRONOUS, true);
    }

    public final Prequest Rsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) {
        return initImpl("Rsend_init", buf, offset, count, datatype, dest, tag, SendMode.READY, true);
    }

    public final Prequest Recv_init(Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        return initImpl("Recv_init", buf, offset, count, datatype, source, tag, SendMode.STANDARD, false);
    }

    public final Group Group() {
        return getGroup();
    }

    /** Duplicates the communicator (mpiJava 1.2). */
    public Object Clone() {
        return dup();
    }

    public Comm Dup() {
        return dup();
    }

    public static int Compare(Comm comm1, Comm comm2) {
        return compare(comm1, comm2);
    }

    public void Free() {
        free();
    }

    public final boolean Is_null() {
        return isNull();
    }

    public final boolean Test_inter() {
        return isInter();
    }

    public final void Abort(int errorcode) {
        abort(errorcode);
    }

    public final void Errhandler_set(Errhandler errhandler) {
        setErrhandler(errhandler);
    }

    public final Errhandler Errhandler_get() {
        return getErrhandler();
    }

    public final Object Attr_get(int keyval) {
        return getAttr(keyval);
    }

    /** mpiJava 1.2 spelling of {@link #getErrhandler()}. */
    public final Errhandler Errorhandler_get() {
        return getErrhandler();
    }

    /** mpiJava 1.2 spelling of {@link #setErrhandler(Errhandler)}. */
    public final void Errorhandler_set(Errhandler errhandler) {
        setErrhandler(errhandler);
    }

    /** MPJ Express spelling of {@link #deleteAttr(int)}. */
    public final void Attr_delete(int keyval) {
        deleteAttr(keyval);
    }

    /** Topology type: {@code MPI.CART}, {@code MPI.GRAPH}, {@code MPI.DIST_GRAPH} or {@code MPI.UNDEFINED}. */
    public final int Topo_test() {
        return getTopology();
    }

    public final int Pack_size(int incount, Datatype datatype) {
        return packSizeImpl("Pack_size", incount, datatype);
    }

    public final int Pack(Object inbuf, int offset, int incount, Datatype datatype, byte[] outbuf, int position) {
        return packImpl("Pack", inbuf, offset, incount, datatype, outbuf, position);
    }

    public final int Unpack(byte[] inbuf, int position, Object outbuf, int offset, int outcount,
                            Datatype datatype) {
        return unpackImpl("Unpack", inbuf, position, outbuf, offset, outcount, datatype);
    }

    @Override
    public String toString() {
        return name;
    }

    // ---- ApiBridge (issue 9 layering): the nccl facades reach descriptors through it ----
    static {
        io.github.mpi4j.spi.ApiBridge.set(new SpiBridge());
    }

    // ---- send-mode spellings and error handlers (issue 10) ----

    /** MPI_Issend under the Open MPI bindings' name; the same as {@link #iSSend}. */
    public final Request isSend(Object buf, int count, Datatype type, int dest, int tag) {
        return isendImpl("isSend", buf, 0, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    /** MPI_Irsend under the Open MPI bindings' name; the same as {@link #iRSend}. */
    public final Request irSend(Object buf, int count, Datatype type, int dest, int tag) {
        return isendImpl("irSend", buf, 0, count, type, dest, tag, SendMode.READY);
    }

    /** A user error handler (MPI_Comm_create_errhandler) for {@link #setErrhandler}. */
    public static Errhandler createErrhandler(ErrhandlerFunction function) {
        if (function == null) throw MPIException.of(MPI.ERR_ARG, "createErrhandler: function is null");
        return new Errhandler("user error handler " + function, function);
    }

    /**
     * MPI_Alltoallw: to each rank i, {@code sendcounts[i]} items of {@code sendtypes[i]} from byte
     * {@code sdispls[i]} of {@code sendbuf}; from each, {@code recvcounts[i]} of {@code recvtypes[i]}
     * at byte {@code rdispls[i]} of {@code recvbuf}. Displacements are bytes for arrays too.
     */
    public final void allToAllw(Object sendbuf, int[] sendcounts, int[] sdispls, Datatype[] sendtypes,
                                Object recvbuf, int[] recvcounts, int[] rdispls, Datatype[] recvtypes) {
        AllToAllw.run(this, "allToAllw", false, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                rdispls, recvtypes);
    }

    /** MPI_Ialltoallw: the non-blocking {@link #allToAllw}. */
    public final Request iAllToAllw(Object sendbuf, int[] sendcounts, int[] sdispls, Datatype[] sendtypes,
                                    Object recvbuf, int[] recvcounts, int[] rdispls, Datatype[] recvtypes) {
        return AllToAllw.run(this, "iAllToAllw", true, sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                rdispls, recvtypes);
    }

    /** mpiJava-style name of {@link #callErrhandler}. */
    public final void Call_errhandler(int errorCode) {
        callErrhandler(errorCode);
    }

    // ---- neighbour collectives (issue 10, topologies; see NeighborCollectives) ----

    public final void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                        int recvcount, Datatype recvtype) {
        NeighborCollectives.allGather(this, "neighborAllGather", false, sendbuf, sendcount, sendtype, recvbuf,
                recvcount, recvtype);
    }

    public final Request iNeighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                            int recvcount, Datatype recvtype) {
        return NeighborCollectives.allGather(this, "iNeighborAllGather", true, sendbuf, sendcount, sendtype, recvbuf,
                recvcount, recvtype);
    }

    public final void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                         int[] recvcount, int[] displs, Datatype recvtype) {
        NeighborCollectives.allGatherv(this, "neighborAllGatherv", false, sendbuf, sendcount, sendtype, recvbuf,
                recvcount, displs, recvtype);
    }

    public final Request iNeighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                             int[] recvcount, int[] displs, Datatype recvtype) {
        return NeighborCollectives.allGatherv(this, "iNeighborAllGatherv", true, sendbuf, sendcount, sendtype,
                recvbuf, recvcount, displs, recvtype);
    }

    public final void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                       int recvcount, Datatype recvtype) {
        NeighborCollectives.allToAll(this, "neighborAllToAll", false, sendbuf, sendcount, sendtype, recvbuf,
                recvcount, recvtype);
    }

    public final Request iNeighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                           int recvcount, Datatype recvtype) {
        return NeighborCollectives.allToAll(this, "iNeighborAllToAll", true, sendbuf, sendcount, sendtype, recvbuf,
                recvcount, recvtype);
    }

    public final void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                        Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        NeighborCollectives.allToAllv(this, "neighborAllToAllv", false, sendbuf, sendcount, sdispls, sendtype,
                recvbuf, recvcount, rdispls, recvtype);
    }

    public final Request iNeighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                            Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype) {
        return NeighborCollectives.allToAllv(this, "iNeighborAllToAllv", true, sendbuf, sendcount, sdispls, sendtype,
                recvbuf, recvcount, rdispls, recvtype);
    }

    // ---- intercommunicators and dynamic processes (issue 10) -------------------------------

    /**
     * MPI_Intercomm_create, called on the peer communicator (as the Open MPI bindings and
     * mpiJava 1.2 define it): {@code localComm} is this process's group, {@code localLeader} its
     * leader there; {@code remoteLeader} the other group's leader, as a rank of this (the peer)
     * communicator, significant at the local leader only; {@code tag} is used between the two
     * leaders on this communicator. Collective over {@code localComm}.
     */
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag) {
        return createIntercommImpl("createIntercomm", localComm, localLeader, remoteLeader, tag);
    }

    /** mpiJava 1.2 name of {@link #createIntercomm}. */
    public final Intercomm Create_intercomm(Comm local_comm, int local_leader, int remote_leader, int tag) {
        return createIntercommImpl("Create_intercomm", local_comm, local_leader, remote_leader, tag);
    }

    private Intercomm createIntercommImpl(String call, Comm localComm, int localLeader, int remoteLeader, int tag) {
        BackendComm peer = impl(call);
        if (localComm == null) throw MPIException.of(MPI.ERR_COMM, call + ": localComm is null");
        BackendComm local = localComm.impl(call);
        CallErrors.begin(local, call, false);
        Throwable failure = null;
        try {
            if (localComm instanceof Intercomm) {
                throw MPIException.of(MPI.ERR_COMM, call + ": localComm " + localComm.name
                        + " is an intercommunicator; it must be an intracommunicator");
            }
            if (localLeader < 0 || localLeader >= local.size()) {
                throw MPIException.of(MPI.ERR_RANK, call + ": localLeader " + localLeader + " is not a rank of localComm"
                        + " [0, " + local.size() + ")");
            }
            io.github.mpi4j.spi.Intercommunication ic = localComm.capability(call,
                    io.github.mpi4j.spi.Intercommunication.class, "intercommunicators");
            // The leader's arguments are checked there only; it tells its group before anyone waits.
            MPIException bad = null;
            if (local.rank() == localLeader) {
                if (remoteLeader < 0 || remoteLeader >= peer.size()) {
                    bad = MPIException.of(MPI.ERR_RANK, call + ": remoteLeader " + remoteLeader
                            + " is not a rank of the peer communicator " + name + " [0, " + peer.size() + ")");
                } else if (remoteLeader == peer.rank()) {
                    bad = MPIException.of(MPI.ERR_RANK, call + ": remoteLeader " + remoteLeader
                            + " is this process, the local leader; it must lead the other group");
                } else if (tag < 0 || tag > peer.tagUpperBound()) {
                    bad = MPIException.of(MPI.ERR_TAG, call + ": tag " + tag + " is not in [0, "
                            + peer.tagUpperBound() + "]");
                }
            }
            int[] verdict = {bad == null ? 0 : 1};
            local.collectives().bcast(new Buf(verdict, io.github.mpi4j.spi.BaseKind.INT, 0, 1), 1,
                    io.github.mpi4j.spi.Predefined.T_INT, localLeader);
            if (bad != null) throw bad;
            if (verdict[0] != 0) {
                throw MPIException.of(MPI.ERR_ARG, call + ": the local leader (rank " + localLeader
                        + ") refused its arguments; its exception says why");
            }
            return CallErrors.inherit(localComm, new Intercomm(session,
                    ic.createIntercomm(localLeader, peer, remoteLeader, tag), localComm.name + ".inter"));
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(this, local, failure);
        }
    }

    /**
     * MPI_Comm_disconnect: waits for the communicator's pending traffic (collective over it),
     * then frees it. MPI.COMM_WORLD and MPI.COMM_SELF cannot be disconnected.
     */
    public final void disconnect() {
        BackendComm c = impl("disconnect");
        if (this == MPI.COMM_WORLD || this == MPI.COMM_SELF) {
            throw MPIException.of(MPI.ERR_COMM, "disconnect: " + name + " cannot be disconnected");
        }
        io.github.mpi4j.spi.Intercommunication ic = capability("disconnect",
                io.github.mpi4j.spi.Intercommunication.class, "intercommunicators");
        ic.disconnect();
        impl = null;
    }

    /** mpiJava-style name of {@link #disconnect}. */
    public final void Disconnect() {
        disconnect();
    }

    // ---- error handlers applied to the calls' errors (issue 10 item 7; see CallErrors) ----
    // The point-to-point calls of both styles funnel through these; each opens a call so that
    // a failure reaches this communicator's handler once.

    /** This communicator's handler, without the checks of {@link #getErrhandler()} (it may be freed). */
    final Errhandler errhandlerOrNull() {
        return errhandler;
    }

    private void sendImpl(String call, Object buf, int offset, int count, Datatype type, int dest, int tag,
                          SendMode mode) {
        Throwable failure = null;
        int[] depth = CallErrors.enter();
        try {
            sendBody(call, buf, offset, count, type, dest, tag, mode);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.leave(depth, this, failure);
        }
    }

    /** Returns the status data, which the caller copies into a Status at once (it may be per-thread scratch). */
    private StatusData recvImpl(String call, Object buf, int offset, int count, Datatype type, int source, int tag) {
        Throwable failure = null;
        int[] depth = CallErrors.enter();
        try {
            return recvBody(call, buf, offset, count, type, source, tag);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.leave(depth, this, failure);
        }
    }

    private Request isendImpl(String call, Object buf, int offset, int count, Datatype type, int dest, int tag,
                              SendMode mode) {
        Throwable failure = null;
        int[] depth = CallErrors.enter();
        try {
            return isendBody(call, buf, offset, count, type, dest, tag, mode).on(this);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.leave(depth, this, failure);
        }
    }

    private Request irecvImpl(String call, Object buf, int offset, int count, Datatype type, int source, int tag) {
        Throwable failure = null;
        int[] depth = CallErrors.enter();
        try {
            return irecvBody(call, buf, offset, count, type, source, tag).on(this);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.leave(depth, this, failure);
        }
    }

    private Status sendRecvImpl(String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                                int dest, int sendtag, Object recvbuf, int recvoffset, int recvcount,
                                Datatype recvtype, int source, int recvtag) {
        Throwable failure = null;
        CallErrors.enter();
        try {
            return sendRecvBody(call, sendbuf, sendoffset, sendcount, sendtype, dest, sendtag, recvbuf, recvoffset,
                    recvcount, recvtype, source, recvtag);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.leave(this, failure);
        }
    }

    private Status sendRecvReplaceImpl(String call, Object buf, int offset, int count, Datatype type, int dest,
                                       int sendtag, int source, int recvtag) {
        Throwable failure = null;
        CallErrors.enter();
        try {
            return sendRecvReplaceBody(call, buf, offset, count, type, dest, sendtag, source, recvtag);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.leave(this, failure);
        }
    }

    private Status probeImpl(String call, int source, int tag, boolean blocking) {
        Throwable failure = null;
        CallErrors.enter();
        try {
            return probeBody(call, source, tag, blocking);
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.leave(this, failure);
        }
    }

    private Prequest initImpl(String call, Object buf, int offset, int count, Datatype type, int peer, int tag,
                              SendMode mode, boolean isSend) {
        Throwable failure = null;
        CallErrors.enter();
        try {
            Prequest p = initBody(call, buf, offset, count, type, peer, tag, mode, isSend);
            p.on(this);
            return p;
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.leave(this, failure);
        }
    }
}
