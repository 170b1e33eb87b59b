package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;
import mpi.MPIException;

/**
 * Packing at the edges for the collectives {@link PackingComm} does not model: the neighbour
 * collectives (blocks per topology neighbour) and the collectives of intercommunicators (blocks
 * per rank of the remote group, roots {@code MPI.ROOT} / {@code MPI.PROC_NULL}). A buffer
 * described by a derived type with gaps (or a lower bound other than 0, or data before its start)
 * is packed into contiguous leaf items before the call and unpacked after it (for non-blocking
 * calls, when the request completes), exactly as PackingComm does for intracommunicator
 * collectives: on the fabric every such buffer, on MPI only Java arrays (direct memory goes to MPI
 * with the type's own handle). Reductions with predefined ops pack on every backend (MPI applies
 * its ops to predefined types only). Contiguous derived types go as they are.
 */
public final class EdgePacking {
    private final boolean passHandles;

    private EdgePacking(boolean passHandles) {
        this.passHandles = passHandles;
    }

    /** The packing rules for calls on {@code c}: MPI's (handles for direct memory) or the fabric's (pack all). */
    public static EdgePacking of(BackendComm c) {
        return new EdgePacking(PackingComm.passesHandles(c));
    }

    /** Whether {@code t} is a derived type whose items are not one contiguous run from their start. */
    public static boolean gaps(TypeDesc t) {
        return t != null && t.layout == Layout.DERIVED && t.derived instanceof TypeMap
                && !((TypeMap) t.derived).isContiguous();
    }

    private boolean packs(Buf b, TypeDesc t, boolean reduction) {
        return b != null && b != Buf.IN_PLACE && gaps(t) && (reduction || b.isArray() || !passHandles);
    }

    /** The predefined type packed items travel as: the one leaf, or bytes when leaves differ. */
    static TypeDesc wire(TypeDesc t) {
        TypeDesc leaf = ((TypeMap) t.derived).uniformLeaf;
        return leaf != null ? leaf : Predefined.T_BYTE;
    }

    static int wireCount(long count, TypeDesc t) {
        TypeMap m = (TypeMap) t.derived;
        long n = m.uniformLeaf != null ? count * m.leafItems : count * m.size;
        if (n > Integer.MAX_VALUE) {
            throw MPIException.of(Mpi.ERR_COUNT, count + " items of " + t.name + " pack into " + n + " items of "
                    + wire(t).name + ", more than " + Integer.MAX_VALUE);
        }
        return (int) n;
    }

    private static Buf temp(long items, TypeDesc t) {
        BaseKind k = wire(t).arrayKind == BaseKind.OBJECT ? BaseKind.BYTE : wire(t).arrayKind;
        return BufAccess.allocate(k, TypeMapCopy.packedBytes(items, t), false);
    }

    private static long vItems(int[] counts, int[] displs) {
        long end = 0;
        for (int i = 0; i < counts.length && i < displs.length; i++) {
            if (counts[i] > 0) end = Math.max(end, (long) displs[i] + counts[i]);
        }
        return end;
    }

    /** Refuses user functions over types with gaps here: they would need the items whole, in their layout. */
    static void checkOp(OpDesc op, TypeDesc t, String where) {
        if (op != null && op.code == OpCode.USER && gaps(t)) {
            throw MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION, "a user-defined op over derived datatype " + t.name
                    + ", which has gaps, is not supported in " + where + "; use a contiguous type or a predefined op");
        }
    }

    /** One buffer of a call: the user's, or a packed stand-in unpacked by {@link #back()}. */
    public static final class Edge {
        private final Buf user;
        private final Buf wire;
        private final TypeDesc type;
        private final long items;
        private final int[] counts;
        private final int[] displs;
        private final boolean send;

        private Edge(Buf user, Buf wire, TypeDesc type, long items, int[] counts, int[] displs, boolean send) {
            this.user = user;
            this.wire = wire;
            this.type = type;
            this.items = items;
            this.counts = counts;
            this.displs = displs;
            this.send = send;
        }

        private boolean packed() {
            return wire != user;
        }

        /** The buffer to give the backend. */
        public Buf buf() {
            return wire;
        }

        /** The datatype to give the backend. */
        public TypeDesc type() {
            return packed() ? wire(type) : type;
        }

        /** A count of items of the user's type as the backend counts them. */
        public int count(int c) {
            return packed() ? wireCount(c, type) : c;
        }

        /** Counts or displacements (in items of the user's type) as the backend counts them. */
        public int[] scale(int[] a) {
            if (!packed() || a == null) return a;
            int[] r = new int[a.length];
            for (int i = 0; i < a.length; i++) r[i] = wireCount(a[i], type);
            return r;
        }

        /** Unpacks what arrived into the user's buffer (receive edges; nothing for sends or unpacked ones). */
        public void back() {
            if (send || !packed()) return;
            if (counts == null) {
                TypeMapCopy.unpack(wire, 0, user, type, items, TypeMapCopy.packedBytes(items, type));
                return;
            }
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] > 0) {
                    TypeMapCopy.unpackTo(wire, (long) displs[i] * type.size, user, (long) displs[i] * type.extent,
                            type, counts[i], (long) counts[i] * type.size);
                }
            }
        }
    }

    /** {@code items} items of {@code t} to send from {@code b}: packed now when needed. */
    public Edge send(Buf b, long items, TypeDesc t) {
        return send(b, items, t, false);
    }

    /** As {@link #send}, for a reduction (packs on every backend). */
    public Edge send(Buf b, long items, TypeDesc t, boolean reduction) {
        if (!packs(b, t, reduction)) return new Edge(b, b, t, items, null, null, true);
        Buf w = temp(items, t);
        TypeMapCopy.pack(b, t, items, w, 0);
        return new Edge(b, w, t, items, null, null, true);
    }

    /** {@code items} items of {@code t} to receive into {@code b}. */
    public Edge recv(Buf b, long items, TypeDesc t) {
        return recv(b, items, t, false);
    }

    public Edge recv(Buf b, long items, TypeDesc t, boolean reduction) {
        if (!packs(b, t, reduction)) return new Edge(b, b, t, items, null, null, false);
        return new Edge(b, temp(items, t), t, items, null, null, false);
    }

    /** Blocks of {@code counts[i]} items at {@code displs[i]} items to send: packed block by block. */
    public Edge vSend(Buf b, int[] counts, int[] displs, TypeDesc t) {
        if (!packs(b, t, false)) return new Edge(b, b, t, 0, counts, displs, true);
        Buf w = temp(vItems(counts, displs), t);
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                TypeMapCopy.packFrom(b, (long) displs[i] * t.extent, t, counts[i], w, (long) displs[i] * t.size);
            }
        }
        return new Edge(b, w, t, 0, counts, displs, true);
    }

    public Edge vRecv(Buf b, int[] counts, int[] displs, TypeDesc t) {
        if (!packs(b, t, false)) return new Edge(b, b, t, 0, counts, displs, false);
        return new Edge(b, temp(vItems(counts, displs), t), t, 0, counts.clone(), displs.clone(), false);
    }
}
