package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.CollectiveOps;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.SendMode;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;
import java.util.Map;
import mpi.MPIException;

/**
 * Derived datatypes for a backend communicator that moves contiguous items (the fabric), or that
 * copies Java arrays anyway and cannot reduce derived types (MPI): a buffer described by a
 * derived type is packed into contiguous memory at
 * the sender's edge (one bulk copy per block of the type map, {@link TypeMapCopy}) and unpacked
 * at the receiver's edge when the data is there; in between the data travels as items of the
 * type's leaf (its one predefined type, so reductions stay element-wise) or as bytes (types that
 * mix leaves). A derived type that is contiguous travels as its leaf with no copy at all. Calls
 * without derived types go straight through.
 *
 * <p>Non-blocking and persistent calls unpack inside the request's completing wait or test;
 * persistent sends pack again at each start, as the user's buffer may have changed.
 */
public final class PackingComm implements BackendComm, CollectiveOps {
    final BackendComm inner;
    private final CollectiveOps coll;
    /** Pack every buffer (the fabric), or only Java arrays (MPI: direct memory goes with the type's own handle). */
    private final boolean packAll;

    /**
     * Whether this is an intercommunicator: its collectives go to the backend as they are (their
     * roots and sizes are the remote group's, which the packing below does not model; the
     * {@code mpi} layer packs derived types with gaps there, {@link InterPacking}), point-to-point still packs.
     */
    private final boolean inter;

    private PackingComm(BackendComm inner, boolean packAll) {
        this.inner = inner;
        this.coll = inner.collectives();
        this.packAll = packAll;
        io.github.mpi4j.spi.Intercommunication ic = inner.capability(io.github.mpi4j.spi.Intercommunication.class);
        this.inter = ic != null && ic.isInter();
    }

    /**
     * {@code c} taking derived types: {@code packAll} packs every buffer (a backend that moves
     * contiguous items only); otherwise only Java arrays are packed, which the backend would copy
     * anyway, and reductions (which MPI does not apply to derived types).
     */
    public static BackendComm wrap(BackendComm c, boolean packAll) {
        return c == null || c instanceof PackingComm ? c : new PackingComm(c, packAll);
    }

    /** The backend's own communicator under {@code c}. */
    public static BackendComm unwrap(BackendComm c) {
        return c instanceof PackingComm ? ((PackingComm) c).inner : c;
    }

    private BackendComm wrap(BackendComm c) {
        return wrap(c, packAll);
    }

    // ---- how a derived type travels ---------------------------------------------------------

    private static boolean derived(TypeDesc t) {
        return t != null && t.layout == Layout.DERIVED && t.derived instanceof TypeMap;
    }

    /**
     * Whether {@code b}'s items of {@code t} travel as leaf items (packed, or in place for a
     * contiguous type) rather than as {@code t} itself. Decided per buffer: MPI matches the leaf
     * items of one side with the derived type of the other, as their type signatures agree.
     */
    private boolean converts(Buf b, TypeDesc t) {
        return derived(t) && (packAll || zeroCopy(t) || negative(t) || b == null || b == Buf.IN_PLACE || b.isArray());
    }

    /**
     * Negative extents are packed on every backend: Open MPI 4.1's MPI_Gather (at the root) and
     * MPI_Allgather (at sizes that are not powers of two) fail with MPI_ERR_INTERN on a receive
     * type of negative extent (docs/datatypes.md).
     */
    private static boolean negative(TypeDesc t) {
        return t.extent < 0;
    }

    private TypeDesc wire(Buf b, TypeDesc t) {
        return converts(b, t) ? wireR(t) : t;
    }

    private int wireCount(Buf b, long count, TypeDesc t) {
        return converts(b, t) ? countR(count, t) : (int) count;
    }

    private int[] scale(Buf b, int[] a, TypeDesc t) {
        return converts(b, t) ? scaleR(a, t) : a;
    }

    private Buf out(Buf b, long count, TypeDesc t) {
        return converts(b, t) ? outR(b, count, t) : b;
    }

    private Buf in(Buf b, long count, TypeDesc t) {
        return converts(b, t) ? inR(b, count, t) : b;
    }

    private Buf vOut(Buf b, int[] counts, int[] displs, TypeDesc t) {
        return converts(b, t) ? vOutR(b, counts, displs, t) : b;
    }

    private Buf vIn(Buf b, int[] counts, int[] displs, TypeDesc t) {
        return converts(b, t) ? vInR(b, counts, displs, t) : b;
    }

    // Reductions with a user function keep the items as the type lays them out, so the function
    // sees count items of the user's datatype on every backend (as MPI calls it): Java arrays
    // (and, on the fabric, every buffer) are staged item by item into memory of the type's span,
    // and the fabric moves those items whole as opaque items of the type's extent.

    private static boolean userOp(OpDesc op, TypeDesc t) {
        return op != null && op.code == OpCode.USER && derived(t);
    }

    /** Whether {@code b} is staged for a user reduction (else it goes as it is, with the type's own handle). */
    private boolean staged(Buf b) {
        return b != null && b != Buf.IN_PLACE && (packAll || b.isArray());
    }

    /** The fabric's view of a derived type under a user function: opaque contiguous items of its extent. */
    private TypeDesc opaque(TypeDesc t) {
        if (!packAll) return t;
        TypeDesc o = new TypeDesc(t.name, t.arrayKind, t.valueKind, Layout.PACKED, t.extent, t.extent, 0,
                t.arrayElementsPerItem, -1, null);
        o.apiObject = t.apiObject;
        return o;
    }

    private static Buf itemsTemp(long count, TypeDesc t) {
        BaseKind k = t.arrayKind == BaseKind.OBJECT ? BaseKind.BYTE : t.arrayKind;
        long bytes = count * t.extent;
        return BufAccess.allocate(k, bytes + (k.bytes - bytes % k.bytes) % k.bytes, false);
    }

    private TypeDesc wireR(TypeDesc t, OpDesc op) {
        return userOp(op, t) ? opaque(t) : wireR(t);
    }

    private int countR(long count, TypeDesc t, OpDesc op) {
        return userOp(op, t) ? (int) count : countR(count, t);
    }

    private int[] scaleR(int[] a, TypeDesc t, OpDesc op) {
        return userOp(op, t) ? a : scaleR(a, t);
    }

    private Buf outR(Buf b, long count, TypeDesc t, OpDesc op) {
        if (!userOp(op, t)) return outR(b, count, t);
        if (!staged(b)) return b;
        Buf w = itemsTemp(count, t);
        TypeMapCopy.copyItems(b, w, t, count);
        return w;
    }

    private Buf inR(Buf b, long count, TypeDesc t, OpDesc op) {
        if (!userOp(op, t)) return inR(b, count, t);
        return staged(b) ? itemsTemp(count, t) : b;
    }

    private void backR(Buf w, Buf user, long count, TypeDesc t, OpDesc op) {
        if (!userOp(op, t)) {
            back(w, user, count, t);
        } else if (w != user && w != null && user != null) {
            TypeMapCopy.copyItems(w, user, t, count);
        }
    }

    private Buf inPlaceR(Buf rw, Buf r, long count, TypeDesc t, OpDesc op) {
        if (!userOp(op, t)) return inPlace(rw, r, count, t);
        if (rw != r && rw != null) TypeMapCopy.copyItems(r, rw, t, count);
        return Buf.IN_PLACE;
    }

    /** A reduce-scatter's input: in place, all of the receive buffer, staged as a send buffer would be. */
    private Buf scatterInput(Buf s, Buf r, long total, TypeDesc type, OpDesc op) {
        boolean stage = derived(type) && (userOp(op, type) ? staged(r) : !zeroCopy(type));
        return outR(s == Buf.IN_PLACE && stage ? r : s, total, type, op);
    }

    // Reductions convert every derived type, on every rank alike (the decision depends on the
    // type only): MPI applies its operations to predefined types, and user functions then see
    // the same leaf items on every backend.

    /** The predefined type the packed items travel as: the leaf, or bytes when the leaves differ. */
    private static TypeDesc wireR(TypeDesc t) {
        if (!derived(t)) return t;
        TypeDesc leaf = ((TypeMap) t.derived).uniformLeaf;
        return leaf != null ? leaf : Predefined.T_BYTE;
    }

    /** Items of {@link #wire} that {@code count} items of {@code t} pack into. */
    private static int countR(long count, TypeDesc t) {
        if (!derived(t)) return (int) count;
        TypeMap m = (TypeMap) t.derived;
        long n = m.uniformLeaf != null ? count * m.leafItems : count * m.size;
        if (n > Integer.MAX_VALUE) {
            throw MPIException.of(Mpi.ERR_COUNT, count + " items of " + t.name + " pack into " + n + " items of "
                    + wireR(t).name + ", more than " + Integer.MAX_VALUE);
        }
        return (int) n;
    }

    /** Whether {@code t} travels straight from the user's buffer (contiguous, one leaf). */
    private static boolean zeroCopy(TypeDesc t) {
        TypeMap m = (TypeMap) t.derived;
        return m.uniformLeaf != null && m.isContiguous();
    }

    private static Buf temp(long count, TypeDesc t) {
        TypeDesc w = wireR(t);
        return BufAccess.allocate(w.arrayKind == io.github.mpi4j.spi.BaseKind.OBJECT ? io.github.mpi4j.spi.BaseKind.BYTE
                : w.arrayKind, TypeMapCopy.packedBytes(count, t), false);
    }

    /** {@code b} as the wire sees it: packed (or itself when nothing needs packing). */
    private static Buf outR(Buf b, long count, TypeDesc t) {
        if (b == null || b == Buf.IN_PLACE || !derived(t) || zeroCopy(t)) return b;
        Buf p = temp(count, t);
        TypeMapCopy.pack(b, t, count, p, 0);
        return p;
    }

    /** Where the wire delivers data for {@code b}: a temporary, or {@code b} itself. */
    private static Buf inR(Buf b, long count, TypeDesc t) {
        if (b == null || b == Buf.IN_PLACE || !derived(t) || zeroCopy(t)) return b;
        return temp(count, t);
    }

    /** Unpacks what arrived in {@code wire} into {@code user} (no-op when they are the same memory). */
    private static void back(Buf wire, Buf user, long count, TypeDesc t, long bytes) {
        if (wire == user || wire == null || user == null) return;
        TypeMapCopy.unpack(wire, 0, user, t, count, bytes);
    }

    private static void back(Buf wire, Buf user, long count, TypeDesc t) {
        back(wire, user, count, t, TypeMapCopy.packedBytes(count, t));
    }

    /** For an IN_PLACE send buffer: the receive buffer's contents packed, to reduce in place. */
    private static Buf inPlace(Buf recvWire, Buf recvUser, long count, TypeDesc t) {
        if (recvWire != recvUser && recvWire != null) TypeMapCopy.pack(recvUser, t, count, recvWire, 0);
        return Buf.IN_PLACE;
    }

    /** v-variant blocks: counts and displacements in wire items, and packing block by block. */
    private static int[] scaleR(int[] a, TypeDesc t) {
        if (a == null || !derived(t)) return a;
        int[] r = new int[a.length];
        for (int i = 0; i < a.length; i++) r[i] = countR(a[i], t);
        return r;
    }

    private static long vItems(int[] counts, int[] displs) {
        long end = 0;
        for (int i = 0; i < counts.length && i < displs.length; i++) {
            if (counts[i] > 0) end = Math.max(end, (long) displs[i] + counts[i]);
        }
        return end;
    }

    private static Buf vOutR(Buf b, int[] counts, int[] displs, TypeDesc t) {
        if (b == null || b == Buf.IN_PLACE || !derived(t) || zeroCopy(t)) return b;
        Buf p = temp(vItems(counts, displs), t);
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                TypeMapCopy.packFrom(b, (long) displs[i] * t.extent, t, counts[i], p, (long) displs[i] * t.size);
            }
        }
        return p;
    }

    private static Buf vInR(Buf b, int[] counts, int[] displs, TypeDesc t) {
        if (b == null || b == Buf.IN_PLACE || !derived(t) || zeroCopy(t)) return b;
        return temp(vItems(counts, displs), t);
    }

    private static void vBack(Buf wire, Buf user, int[] counts, int[] displs, TypeDesc t) {
        if (wire == user || wire == null || user == null) return;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                TypeMapCopy.unpackTo(wire, (long) displs[i] * t.size, user, (long) displs[i] * t.extent, t,
                        counts[i], (long) counts[i] * t.size);
            }
        }
    }

    private static BackendRequest after(BackendRequest r, Runnable unpack) {
        return Unpacking.after(r, unpack);
    }

    // ---- management: delegated; communicators made from this one take derived types too ------

    @Override
    public int rank() {
        return inner.rank();
    }

    @Override
    public int size() {
        return inner.size();
    }

    @Override
    public int[] worldRanks() {
        return inner.worldRanks();
    }

    @Override
    public int peerCount() {
        return inner.peerCount();
    }

    @Override
    public int tagUpperBound() {
        return inner.tagUpperBound();
    }

    @Override
    public BackendComm dup() {
        return wrap(inner.dup());
    }

    @Override
    public BackendComm split(int color, int key) {
        return wrap(inner.split(color, key));
    }

    @Override
    public BackendComm splitShared(boolean sharedType, int key) {
        return wrap(inner.splitShared(sharedType, key));
    }

    @Override
    public BackendComm create(int[] ranks) {
        return wrap(inner.create(ranks));
    }

    @Override
    public void free() {
        inner.free();
    }

    @Override
    public void hints(Map<String, String> hints) {
        inner.hints(hints);
    }

    @Override
    public void beginCollective(String call, boolean nonBlocking) {
        inner.beginCollective(call, nonBlocking);
    }

    @Override
    public void endCollective(Throwable failure) {
        inner.endCollective(failure);
    }

    @Override
    public CollectiveOps collectives() {
        return inter ? coll : this;
    }

    /**
     * The backend's capabilities; the communicators a topology constructor makes take derived
     * types too. (Neighbour collectives are packed per call by {@link NeighborPacking}, which knows
     * the degrees.)
     */
    @Override
    public <T> T capability(Class<T> kind) {
        T c = inner.capability(kind);
        if (c != null && kind == io.github.mpi4j.spi.Topology.class) {
            return kind.cast(new io.github.mpi4j.spi.TopologyDecorator((io.github.mpi4j.spi.Topology) c) {
                @Override
                protected BackendComm made(BackendComm n) {
                    return wrap(n);
                }
            });
        }
        if (c != null && kind == io.github.mpi4j.spi.Intercommunication.class) {
            return kind.cast(new Inter((io.github.mpi4j.spi.Intercommunication) c));
        }
        // Spawning (issue 11): the spawned intercommunicators take derived types too.
        if (c != null && kind == io.github.mpi4j.spi.Spawning.class) {
            return kind.cast(new io.github.mpi4j.spi.SpawningDecorator((io.github.mpi4j.spi.Spawning) c, this::wrap));
        }
        return c;
    }

    /**
     * The backend's intercommunicator calls with this layer around every communicator they make,
     * and the backend's own communicator under a peer passed in.
     */
    private final class Inter implements io.github.mpi4j.spi.Intercommunication {
        private final io.github.mpi4j.spi.Intercommunication inner;

        Inter(io.github.mpi4j.spi.Intercommunication inner) {
            this.inner = inner;
        }

        @Override
        public BackendComm createIntercomm(int localLeader, BackendComm peer, int remoteLeader, int tag) {
            return wrap(inner.createIntercomm(localLeader, unwrap(peer), remoteLeader, tag));
        }

        @Override
        public boolean isInter() {
            return inner.isInter();
        }

        @Override
        public int remoteSize() {
            return inner.remoteSize();
        }

        @Override
        public int[] remoteWorldRanks() {
            return inner.remoteWorldRanks();
        }

        @Override
        public BackendComm merge(boolean high) {
            return wrap(inner.merge(high));
        }

        @Override
        public BackendComm createGroup(int[] ranks, int tag) {
            return wrap(inner.createGroup(ranks, tag));
        }

        @Override
        public String openPort() {
            return inner.openPort();
        }

        @Override
        public void closePort(String port) {
            inner.closePort(port);
        }

        @Override
        public BackendComm accept(String port, int root) {
            return wrap(inner.accept(port, root));
        }

        @Override
        public BackendComm connect(String port, int root) {
            return wrap(inner.connect(port, root));
        }

        @Override
        public void disconnect() {
            inner.disconnect();
        }

        @Override
        public void publishName(String service, String port) {
            inner.publishName(service, port);
        }

        @Override
        public void unpublishName(String service, String port) {
            inner.unpublishName(service, port);
        }

        @Override
        public String lookupName(String service) {
            return inner.lookupName(service);
        }
    }

    @Override
    public String toString() {
        return inner.toString();
    }

    // ---- point-to-point -----------------------------------------------------------------------

    @Override
    public void send(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        inner.send(out(buf, count, type), wireCount(buf, count, type), wire(buf, type), dest, tag, mode);
    }

    @Override
    public void recv(Buf buf, int count, TypeDesc type, int source, int tag, StatusData status) {
        Buf w = in(buf, count, type);
        inner.recv(w, wireCount(buf, count, type), wire(buf, type), source, tag, status);
        back(w, buf, count, type, status.bytes);
    }

    @Override
    public BackendRequest isend(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        return inner.isend(out(buf, count, type), wireCount(buf, count, type), wire(buf, type), dest, tag, mode);
    }

    @Override
    public BackendRequest irecv(Buf buf, int count, TypeDesc type, int source, int tag) {
        Buf w = in(buf, count, type);
        BackendRequest r = inner.irecv(w, wireCount(buf, count, type), wire(buf, type), source, tag);
        return w == buf ? r : new Unpacking(r, null, bytes -> back(w, buf, count, type, bytes));
    }

    @Override
    public void sendRecv(Buf sendBuf, int sendCount, TypeDesc sendType, int dest, int sendTag, Buf recvBuf,
                         int recvCount, TypeDesc recvType, int source, int recvTag, StatusData status) {
        Buf w = in(recvBuf, recvCount, recvType);
        inner.sendRecv(out(sendBuf, sendCount, sendType), wireCount(sendBuf, sendCount, sendType),
                wire(sendBuf, sendType), dest, sendTag, w, wireCount(recvBuf, recvCount, recvType),
                wire(recvBuf, recvType), source, recvTag, status);
        back(w, recvBuf, recvCount, recvType, status.bytes);
    }

    @Override
    public void sendRecvReplace(Buf buf, int count, TypeDesc type, int dest, int sendTag, int source, int recvTag,
                                StatusData status) {
        Buf w = out(buf, count, type);
        inner.sendRecvReplace(w, wireCount(buf, count, type), wire(buf, type), dest, sendTag, source, recvTag, status);
        back(w, buf, count, type, status.bytes);
    }

    @Override
    public void probe(int source, int tag, StatusData status) {
        inner.probe(source, tag, status);
    }

    @Override
    public boolean iprobe(int source, int tag, StatusData status) {
        return inner.iprobe(source, tag, status);
    }

    @Override
    public BackendRequest sendInit(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode) {
        if (!converts(buf, type) || zeroCopy(type) || buf == null) {
            return inner.sendInit(buf, wireCount(buf, count, type), wire(buf, type), dest, tag, mode);
        }
        Buf w = temp(count, type);
        BackendRequest r = inner.sendInit(w, wireCount(buf, count, type), wire(buf, type), dest, tag, mode);
        return new Unpacking(r, () -> TypeMapCopy.pack(buf, type, count, w, 0), null);
    }

    @Override
    public BackendRequest recvInit(Buf buf, int count, TypeDesc type, int source, int tag) {
        Buf w = in(buf, count, type);
        BackendRequest r = inner.recvInit(w, wireCount(buf, count, type), wire(buf, type), source, tag);
        return w == buf ? r : new Unpacking(r, null, bytes -> back(w, buf, count, type, bytes));
    }

    // ---- collectives --------------------------------------------------------------------------

    @Override
    public void barrier() {
        coll.barrier();
    }

    @Override
    public BackendRequest iBarrier() {
        return coll.iBarrier();
    }

    @Override
    public void bcast(Buf buf, int count, TypeDesc type, int root) {
        Buf w = rank() == root ? out(buf, count, type) : in(buf, count, type);
        coll.bcast(w, wireCount(buf, count, type), wire(buf, type), root);
        if (rank() != root) back(w, buf, count, type);
    }

    @Override
    public BackendRequest iBcast(Buf buf, int count, TypeDesc type, int root) {
        Buf w = rank() == root ? out(buf, count, type) : in(buf, count, type);
        BackendRequest r = coll.iBcast(w, wireCount(buf, count, type), wire(buf, type), root);
        return rank() == root || w == buf ? r : after(r, () -> back(w, buf, count, type));
    }

    @Override
    public void reduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op, int root) {
        Buf rw = inR(r, count, type, op);
        Buf sw = s == Buf.IN_PLACE ? inPlaceR(rw, r, count, type, op) : outR(s, count, type, op);
        coll.reduce(sw, rw, countR(count, type, op), wireR(type, op), op, root);
        if (rank() == root) backR(rw, r, count, type, op);
    }

    @Override
    public BackendRequest iReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op, int root) {
        Buf rw = inR(r, count, type, op);
        Buf sw = s == Buf.IN_PLACE ? inPlaceR(rw, r, count, type, op) : outR(s, count, type, op);
        BackendRequest q = coll.iReduce(sw, rw, countR(count, type, op), wireR(type, op), op, root);
        return rank() != root || rw == r ? q : after(q, () -> backR(rw, r, count, type, op));
    }

    /** The backend's fused schedule for predefined types; a derived type goes buffer by buffer. */
    @Override
    public void allReduceMany(Buf[] sendBufs, Buf[] recvBufs, int[] counts, TypeDesc type, OpDesc op) {
        if (!derived(type)) {
            coll.allReduceMany(sendBufs, recvBufs, counts, type, op);
            return;
        }
        for (int i = 0; i < counts.length; i++) allReduce(sendBufs[i], recvBufs[i], counts[i], type, op);
    }

    @Override
    public void allReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        Buf rw = inR(r, count, type, op);
        Buf sw = s == Buf.IN_PLACE ? inPlaceR(rw, r, count, type, op) : outR(s, count, type, op);
        coll.allReduce(sw, rw, countR(count, type, op), wireR(type, op), op);
        backR(rw, r, count, type, op);
    }

    @Override
    public BackendRequest iAllReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        Buf rw = inR(r, count, type, op);
        Buf sw = s == Buf.IN_PLACE ? inPlaceR(rw, r, count, type, op) : outR(s, count, type, op);
        BackendRequest q = coll.iAllReduce(sw, rw, countR(count, type, op), wireR(type, op), op);
        return rw == r ? q : after(q, () -> backR(rw, r, count, type, op));
    }

    @Override
    public void scan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        Buf rw = inR(r, count, type, op);
        Buf sw = s == Buf.IN_PLACE ? inPlaceR(rw, r, count, type, op) : outR(s, count, type, op);
        coll.scan(sw, rw, countR(count, type, op), wireR(type, op), op);
        backR(rw, r, count, type, op);
    }

    @Override
    public BackendRequest iScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        Buf rw = inR(r, count, type, op);
        Buf sw = s == Buf.IN_PLACE ? inPlaceR(rw, r, count, type, op) : outR(s, count, type, op);
        BackendRequest q = coll.iScan(sw, rw, countR(count, type, op), wireR(type, op), op);
        return rw == r ? q : after(q, () -> backR(rw, r, count, type, op));
    }

    @Override
    public void exScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        Buf rw = inR(r, count, type, op);
        Buf sw = s == Buf.IN_PLACE ? inPlaceR(rw, r, count, type, op) : outR(s, count, type, op);
        coll.exScan(sw, rw, countR(count, type, op), wireR(type, op), op);
        if (rank() > 0) backR(rw, r, count, type, op); // rank 0's receive buffer is undefined: left as it was
    }

    @Override
    public BackendRequest iExScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        Buf rw = inR(r, count, type, op);
        Buf sw = s == Buf.IN_PLACE ? inPlaceR(rw, r, count, type, op) : outR(s, count, type, op);
        BackendRequest q = coll.iExScan(sw, rw, countR(count, type, op), wireR(type, op), op);
        return rw == r || rank() == 0 ? q : after(q, () -> backR(rw, r, count, type, op));
    }

    @Override
    public void reduceScatter(Buf s, Buf r, int[] recvCounts, TypeDesc type, OpDesc op) {
        long total = 0;
        for (int c : recvCounts) total += c;
        int mine = recvCounts[rank()];
        Buf rw = inR(r, mine, type, op);
        Buf sw = scatterInput(s, r, total, type, op);
        coll.reduceScatter(sw, rw, scaleR(recvCounts, type, op), wireR(type, op), op);
        backR(rw, r, mine, type, op);
    }

    @Override
    public BackendRequest iReduceScatter(Buf s, Buf r, int[] recvCounts, TypeDesc type, OpDesc op) {
        long total = 0;
        for (int c : recvCounts) total += c;
        int mine = recvCounts[rank()];
        Buf rw = inR(r, mine, type, op);
        Buf sw = scatterInput(s, r, total, type, op);
        BackendRequest q = coll.iReduceScatter(sw, rw, scaleR(recvCounts, type, op), wireR(type, op), op);
        return rw == r ? q : after(q, () -> backR(rw, r, mine, type, op));
    }

    @Override
    public void reduceScatterBlock(Buf s, Buf r, int recvCount, TypeDesc type, OpDesc op) {
        long total = (long) recvCount * size();
        Buf rw = inR(r, recvCount, type, op);
        Buf sw = scatterInput(s, r, total, type, op);
        coll.reduceScatterBlock(sw, rw, countR(recvCount, type, op), wireR(type, op), op);
        backR(rw, r, recvCount, type, op);
    }

    @Override
    public BackendRequest iReduceScatterBlock(Buf s, Buf r, int recvCount, TypeDesc type, OpDesc op) {
        long total = (long) recvCount * size();
        Buf rw = inR(r, recvCount, type, op);
        Buf sw = scatterInput(s, r, total, type, op);
        BackendRequest q = coll.iReduceScatterBlock(sw, rw, countR(recvCount, type, op), wireR(type, op), op);
        return rw == r ? q : after(q, () -> backR(rw, r, recvCount, type, op));
    }

    // Gathers and scatters: the significant side's buffer holds size() blocks, one per rank, so
    // it packs and unpacks size() * count items in a row.

    /** IN_PLACE as the send buffer of a gather-like call: the block is in the receive buffer already. */
    private static Buf sendSide(Buf s, int sc, TypeDesc st) {
        return s == Buf.IN_PLACE ? s : outR(s, sc, st);
    }

    @Override
    public void gather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        boolean isRoot = rank() == root;
        long all = (long) rc * size();
        Buf rw = isRoot ? (s == Buf.IN_PLACE ? out(r, all, rt) : in(r, all, rt)) : r;
        coll.gather(sendSide(s, sc, st), wireCount(s, sc, st), wire(s, st), rw, isRoot ? wireCount(r, rc, rt) : rc,
                isRoot ? wire(r, rt) : rt, root);
        if (isRoot) back(rw, r, all, rt);
    }

    @Override
    public BackendRequest iGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        boolean isRoot = rank() == root;
        long all = (long) rc * size();
        Buf rw = isRoot ? (s == Buf.IN_PLACE ? out(r, all, rt) : in(r, all, rt)) : r;
        BackendRequest q = coll.iGather(sendSide(s, sc, st), wireCount(s, sc, st), wire(s, st), rw,
                isRoot ? wireCount(r, rc, rt) : rc, isRoot ? wire(r, rt) : rt, root);
        return !isRoot || rw == r ? q : after(q, () -> back(rw, r, all, rt));
    }

    @Override
    public void scatter(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        boolean isRoot = rank() == root;
        Buf sw = isRoot ? out(s, (long) sc * size(), st) : s;
        Buf rw = in(r, rc, rt);
        coll.scatter(sw, isRoot ? wireCount(s, sc, st) : sc, isRoot ? wire(s, st) : st, rw, wireCount(r, rc, rt),
                wire(r, rt), root);
        if (r != Buf.IN_PLACE) back(rw, r, rc, rt);
    }

    @Override
    public BackendRequest iScatter(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        boolean isRoot = rank() == root;
        Buf sw = isRoot ? out(s, (long) sc * size(), st) : s;
        Buf rw = in(r, rc, rt);
        BackendRequest q = coll.iScatter(sw, isRoot ? wireCount(s, sc, st) : sc, isRoot ? wire(s, st) : st, rw,
                wireCount(r, rc, rt), wire(r, rt), root);
        return rw == r ? q : after(q, () -> back(rw, r, rc, rt));
    }

    @Override
    public void allGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        long all = (long) rc * size();
        Buf rw = s == Buf.IN_PLACE ? out(r, all, rt) : in(r, all, rt);
        coll.allGather(sendSide(s, sc, st), wireCount(s, sc, st), wire(s, st), rw, wireCount(r, rc, rt), wire(r, rt));
        back(rw, r, all, rt);
    }

    @Override
    public BackendRequest iAllGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        long all = (long) rc * size();
        Buf rw = s == Buf.IN_PLACE ? out(r, all, rt) : in(r, all, rt);
        BackendRequest q = coll.iAllGather(sendSide(s, sc, st), wireCount(s, sc, st), wire(s, st), rw,
                wireCount(r, rc, rt), wire(r, rt));
        return rw == r ? q : after(q, () -> back(rw, r, all, rt));
    }

    @Override
    public void allToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        long all = (long) rc * size();
        Buf sw = s == Buf.IN_PLACE ? s : out(s, (long) sc * size(), st);
        Buf rw = s == Buf.IN_PLACE ? out(r, all, rt) : in(r, all, rt);
        coll.allToAll(sw, wireCount(s, sc, st), wire(s, st), rw, wireCount(r, rc, rt), wire(r, rt));
        back(rw, r, all, rt);
    }

    @Override
    public BackendRequest iAllToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        long all = (long) rc * size();
        Buf sw = s == Buf.IN_PLACE ? s : out(s, (long) sc * size(), st);
        Buf rw = s == Buf.IN_PLACE ? out(r, all, rt) : in(r, all, rt);
        BackendRequest q = coll.iAllToAll(sw, wireCount(s, sc, st), wire(s, st), rw, wireCount(r, rc, rt), wire(r, rt));
        return rw == r ? q : after(q, () -> back(rw, r, all, rt));
    }

    @Override
    public void gatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt, int root) {
        boolean isRoot = rank() == root;
        Buf rw = isRoot ? (s == Buf.IN_PLACE ? vOut(r, rcounts, displs, rt) : vIn(r, rcounts, displs, rt)) : r;
        coll.gatherv(sendSide(s, sc, st), wireCount(s, sc, st), wire(s, st), rw,
                isRoot ? scale(r, rcounts, rt) : rcounts, isRoot ? scale(r, displs, rt) : displs,
                isRoot ? wire(r, rt) : rt, root);
        if (isRoot) vBack(rw, r, rcounts, displs, rt);
    }

    @Override
    public BackendRequest iGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt,
                                   int root) {
        boolean isRoot = rank() == root;
        Buf rw = isRoot ? (s == Buf.IN_PLACE ? vOut(r, rcounts, displs, rt) : vIn(r, rcounts, displs, rt)) : r;
        BackendRequest q = coll.iGatherv(sendSide(s, sc, st), wireCount(s, sc, st), wire(s, st), rw,
                isRoot ? scale(r, rcounts, rt) : rcounts, isRoot ? scale(r, displs, rt) : displs, isRoot ? wire(r,
                        rt) : rt, root);
        return !isRoot || rw == r ? q : after(q, () -> vBack(rw, r, rcounts, displs, rt));
    }

    @Override
    public void scatterv(Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        boolean isRoot = rank() == root;
        Buf sw = isRoot ? vOut(s, scounts, displs, st) : s;
        Buf rw = in(r, rc, rt);
        coll.scatterv(sw, isRoot ? scale(s, scounts, st) : scounts, isRoot ? scale(s, displs, st) : displs,
                isRoot ? wire(s, st) : st, rw, wireCount(r, rc, rt), wire(r, rt), root);
        if (r != Buf.IN_PLACE) back(rw, r, rc, rt);
    }

    @Override
    public BackendRequest iScatterv(Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt,
                                    int root) {
        boolean isRoot = rank() == root;
        Buf sw = isRoot ? vOut(s, scounts, displs, st) : s;
        Buf rw = in(r, rc, rt);
        BackendRequest q = coll.iScatterv(sw, isRoot ? scale(s, scounts, st) : scounts,
                isRoot ? scale(s, displs, st) : displs, isRoot ? wire(s, st) : st, rw, wireCount(r, rc, rt), wire(r,
                        rt), root);
        return rw == r ? q : after(q, () -> back(rw, r, rc, rt));
    }

    @Override
    public void allGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt) {
        Buf rw = s == Buf.IN_PLACE ? vOut(r, rcounts, displs, rt) : vIn(r, rcounts, displs, rt);
        coll.allGatherv(sendSide(s, sc, st), wireCount(s, sc, st), wire(s, st), rw, scale(r, rcounts, rt),
                scale(r, displs, rt), wire(r, rt));
        vBack(rw, r, rcounts, displs, rt);
    }

    @Override
    public BackendRequest iAllGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt) {
        Buf rw = s == Buf.IN_PLACE ? vOut(r, rcounts, displs, rt) : vIn(r, rcounts, displs, rt);
        BackendRequest q = coll.iAllGatherv(sendSide(s, sc, st), wireCount(s, sc, st), wire(s, st), rw,
                scale(r, rcounts, rt), scale(r, displs, rt), wire(r, rt));
        return rw == r ? q : after(q, () -> vBack(rw, r, rcounts, displs, rt));
    }

    @Override
    public void allToAllv(Buf s, int[] scounts, int[] sdispls, TypeDesc st, Buf r, int[] rcounts, int[] rdispls,
                          TypeDesc rt) {
        boolean ip = s == Buf.IN_PLACE;
        Buf sw = ip ? s : vOut(s, scounts, sdispls, st);
        Buf rw = ip ? vOut(r, rcounts, rdispls, rt) : vIn(r, rcounts, rdispls, rt);
        coll.allToAllv(sw, ip ? scounts : scale(s, scounts, st), ip ? sdispls : scale(s, sdispls, st),
                ip ? st : wire(s, st), rw, scale(r, rcounts, rt), scale(r, rdispls, rt), wire(r, rt));
        vBack(rw, r, rcounts, rdispls, rt);
    }

    @Override
    public BackendRequest iAllToAllv(Buf s, int[] scounts, int[] sdispls, TypeDesc st, Buf r, int[] rcounts,
                                     int[] rdispls, TypeDesc rt) {
        boolean ip = s == Buf.IN_PLACE;
        Buf sw = ip ? s : vOut(s, scounts, sdispls, st);
        Buf rw = ip ? vOut(r, rcounts, rdispls, rt) : vIn(r, rcounts, rdispls, rt);
        BackendRequest q = coll.iAllToAllv(sw, ip ? scounts : scale(s, scounts, st),
                ip ? sdispls : scale(s, sdispls, st), ip ? st : wire(s, st), rw, scale(r, rcounts, rt),
                scale(r, rdispls, rt), wire(r, rt));
        return rw == r ? q : after(q, () -> vBack(rw, r, rcounts, rdispls, rt));
    }

    // ---- matched probes: the message is received like a receive, derived types unpacked --------

    @Override
    public io.github.mpi4j.spi.BackendMessage mprobe(int source, int tag, StatusData status) {
        return matched(inner.mprobe(source, tag, status));
    }

    @Override
    public io.github.mpi4j.spi.BackendMessage improbe(int source, int tag, StatusData status) {
        return matched(inner.improbe(source, tag, status));
    }

    private io.github.mpi4j.spi.BackendMessage matched(io.github.mpi4j.spi.BackendMessage m) {
        if (m == null) return null;
        return new io.github.mpi4j.spi.BackendMessage() {
            @Override
            public void mrecv(Buf buf, int count, TypeDesc type, StatusData status) {
                Buf w = in(buf, count, type);
                m.mrecv(w, wireCount(buf, count, type), wire(buf, type), status);
                back(w, buf, count, type, status.bytes);
            }

            @Override
            public BackendRequest imrecv(Buf buf, int count, TypeDesc type) {
                Buf w = in(buf, count, type);
                BackendRequest r = m.imrecv(w, wireCount(buf, count, type), wire(buf, type));
                return w == buf ? r : new Unpacking(r, null, bytes -> back(w, buf, count, type, bytes));
            }
        };
    }

    // ---- issue 10: packing at the edges outside this class (EdgePacking) ----

    /**
     * Whether {@code c} gives direct memory of derived types to its backend with the type's own
     * handle (MPI) rather than packing every buffer (the fabric); false for anything else, which
     * then packs every buffer.
     */
    static boolean passesHandles(BackendComm c) {
        return c instanceof PackingComm && !((PackingComm) c).packAll;
    }
}
