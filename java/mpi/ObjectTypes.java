package mpi;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.SendMode;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;

/**
 * Derived datatypes built over {@code MPI.OBJECT} (mpiJava 1.2 / MPJ Express: a vector, indexed
 * or struct of objects). The type map selects elements of the {@code Object[]}; those objects
 * are gathered, in type-map order, into one {@code MPI.OBJECT} message of {@link ObjectMessages},
 * and a receiver scatters what arrives back to the elements its own type selects (the others
 * stay untouched). Point-to-point and bcast take such types here, the other intracommunicator
 * collectives in {@link ObjectTypeCollectives}, persistent requests in {@link ObjectRequests},
 * pack/unpack, allToAllw, neighbour and intercommunicator collectives in {@link ObjectPack},
 * {@link ObjectAllToAllw}, {@link ObjectNeighborCollectives}, {@link ObjectInterCollectives};
 * windows and file views refuse them ({@code Buffers.resolve}, {@code File}). Element
 * displacements count objects (MPI.OBJECT's extent is 1).
 */
final class ObjectTypes {
    private ObjectTypes() {
    }

    /** Marks the elements of a receive buffer a message did not fill. */
    private static final Object UNFILLED = new Object();

    /** A derived type whose leaves are all MPI.OBJECT. */
    static boolean isObjectDerived(TypeDesc t) {
        return t.layout == Layout.DERIVED && t.arrayKind == BaseKind.OBJECT;
    }

    /**
     * Indices of the elements {@code count} items of {@code t} select, item {@code k} starting
     * {@code offset + k * extent} elements in, in type-map order; all checked against the array.
     */
    static int[] indices(String call, String arg, Object buf, int offset, int count, TypeDesc t) {
        if (count < 0) throw MPIException.of(MPI.ERR_COUNT, call + ": count must be >= 0, got " + count);
        if (offset < 0) throw MPIException.of(MPI.ERR_BUFFER, call + ": " + arg + " offset must be >= 0, got " + offset);
        TypeMap m = (TypeMap) t.derived;
        long total = (long) count * m.leafItems;
        if (total > Integer.MAX_VALUE - 8) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": " + count + " items of " + t.name + " select " + total
                    + " objects, more than an array can hold");
        }
        if (buf == null) {
            if (total == 0) return new int[0];
            throw MPIException.of(MPI.ERR_BUFFER, call + ": " + arg + " is null but count is " + count);
        }
        if (!(buf instanceof Object[])) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": datatype " + t.name + " is built over MPI.OBJECT and needs an "
                    + "Object[] " + arg + ", got " + buf.getClass().getSimpleName());
        }
        int length = ((Object[]) buf).length;
        int[] idx = new int[(int) total];
        int n = 0;
        for (long k = 0; k < count; k++) {
            long base = offset + k * t.extent;
            for (int b = 0; b < m.blocks(); b++) {
                long step = m.leaf(b).extent;
                for (int j = 0; j < m.count(b); j++) {
                    long i = base + m.disp(b) + j * step;
                    if (i < 0 || i >= length) {
                        throw MPIException.of(MPI.ERR_BUFFER, call + ": " + count + " items of " + t.name
                                + " from offset " + offset + " reach element " + i + ", outside " + arg
                                + " (Object[" + length + "])");
                    }
                    idx[n++] = (int) i;
                }
            }
        }
        return idx;
    }

    private static Object[] gather(Object buf, int[] idx) {
        Object[] out = new Object[idx.length];
        if (idx.length == 0) return out;
        Object[] a = (Object[]) buf;
        for (int i = 0; i < idx.length; i++) out[i] = a[idx[i]];
        return out;
    }

    /** Writes the first {@code got} received objects back to their elements. */
    private static void scatter(Object[] got, int n, Object buf, int[] idx) {
        if (n == 0) return;
        Object[] a = (Object[]) buf;
        for (int i = 0; i < n; i++) a[idx[i]] = got[i];
    }

    /** The status in the type map's units: one byte per object, so counts are in items where whole. */
    private static void inObjects(StatusData d, int objects) {
        d.bytes = objects;
        d.objects = objects;
    }

    // ---- point-to-point ------------------------------------------------------------------------

    static void send(String call, BackendComm c, Object buf, int offset, int count, TypeDesc t, int dest, int tag,
                     SendMode mode) {
        Object[] items = gather(buf, indices(call, "buf", buf, offset, count, t));
        ObjectMessages.send(call, c, items, 0, items.length, dest, tag, mode);
    }

    static BackendRequest isend(String call, BackendComm c, Object buf, int offset, int count, TypeDesc t, int dest,
                                int tag, SendMode mode) {
        Object[] items = gather(buf, indices(call, "buf", buf, offset, count, t));
        return ObjectMessages.isend(call, c, items, 0, items.length, dest, tag, mode);
    }

    static StatusData recv(String call, BackendComm c, Object buf, int offset, int count, TypeDesc t, int source,
                           int tag) {
        int[] idx = indices(call, "buf", buf, offset, count, t);
        Object[] got = new Object[idx.length];
        StatusData d = ObjectMessages.recv(call, c, got, 0, got.length, source, tag);
        int n = Math.max(0, d.objects);
        scatter(got, n, buf, idx);
        inObjects(d, n);
        return d;
    }

    static BackendRequest irecv(String call, BackendComm c, Object buf, int offset, int count, TypeDesc t,
                                int source, int tag) {
        int[] idx = indices(call, "buf", buf, offset, count, t);
        return new ScatteringReceive(call, c, new Object[idx.length], buf, idx, source, tag);
    }

    /** Sends the selected objects, then receives into the same selection (MPI_Sendrecv_replace). */
    static StatusData sendRecvReplace(String call, BackendComm c, Object buf, int offset, int count, TypeDesc t,
                                      int dest, int sendtag, int source, int recvtag) {
        BackendRequest r = isend(call, c, buf, offset, count, t, dest, sendtag, SendMode.STANDARD);
        StatusData d = recv(call, c, buf, offset, count, t, source, recvtag);
        r.waitFor(new StatusData());
        return d;
    }

    /** A lazily matched object receive that scatters what it got into the selected elements. */
    static final class ScatteringReceive extends ObjectMessages.LazyReceive {
        private final Object[] got;
        private final Object buf;
        private final int[] idx;
        private boolean scattered;

        ScatteringReceive(String call, BackendComm c, Object[] got, Object buf, int[] idx, int source, int tag) {
            super(call, c, got, 0, got.length, source, tag);
            this.got = got;
            this.buf = buf;
            this.idx = idx;
        }

        @Override
        public void waitFor(StatusData status) {
            if (scattered) {
                super.waitFor(status);
                return;
            }
            StatusData d = new StatusData();
            super.waitFor(d);
            if (pending()) return;
            scattered = true;
            int n = d.cancelled ? 0 : Math.max(0, d.objects);
            scatter(got, n, buf, idx);
            if (status != null) {
                status.set(d.source, d.tag, d.error, d.cancelled, n);
                status.objects = n;
            }
        }
    }

    // ---- collectives ---------------------------------------------------------------------------

    /** The root gathers its selection and broadcasts it; every other rank scatters what arrives. */
    static void bcast(String call, BackendComm c, Object buf, int offset, int count, TypeDesc t, int root) {
        int[] idx = indices(call, "buf", buf, offset, count, t);
        if (c.rank() == root) {
            Object[] items = gather(buf, idx);
            ObjectMessages.bcast(call, c, items, 0, items.length, root);
            return;
        }
        Object[] got = new Object[idx.length];
        java.util.Arrays.fill(got, UNFILLED);
        ObjectMessages.bcast(call, c, got, 0, got.length, root);
        int n = 0;
        while (n < got.length && got[n] != UNFILLED) n++;
        scatter(got, n, buf, idx);
    }
}
