package mpi;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;

/**
 * Derived datatypes over {@code MPI.OBJECT} (see {@link ObjectTypes}) in the collectives other
 * than bcast: gather, scatter, allgather, alltoall (and their v-forms), and the reductions with
 * a user op (reduce, allreduce, scan, exscan, reduce_scatter, reduce_scatter_block).
 *
 * <p>Each buffer is flattened: the objects its type selects ({@code count} items, item {@code k}
 * starting {@code offset + k * extent} elements in, each in type-map order) are copied into a
 * plain {@code Object[]}, the flat arrays go through the {@code MPI.OBJECT} collectives of
 * {@link ObjectCollectives}/{@link ObjectMessages} with counts and displacements in objects, and
 * a receive buffer's flat array (which starts as a copy of what its selection holds, so parts the
 * call does not write come back as they were) is written back to the selected elements. The
 * messages are those of plain {@code MPI.OBJECT}, so one rank may pass {@code MPI.OBJECT} where
 * another passes a type over it, as long as the numbers of objects agree.
 *
 * <p>Reductions hand the user function the objects in type-map order, with the count in objects
 * and {@code MPI.OBJECT} as its datatype.
 *
 * <p>Each method returns false, having done nothing, when no datatype that matters at this rank
 * is built over {@code MPI.OBJECT}; the caller then goes on as before.
 */
final class ObjectTypeCollectives {
    private ObjectTypeCollectives() {
    }

    static boolean derived(Datatype t) {
        return t != null && t.desc != null && ObjectTypes.isObjectDerived(t.desc);
    }

    // ---- selections ----------------------------------------------------------------------------

    /** Extent of one item, in elements of the Object[]. */
    private static long extent(TypeDesc t) {
        return Comm.isObject(t) ? 1 : t.extent;
    }

    /** The element indices {@code count} items of {@code t} select, for MPI.OBJECT or a type over it. */
    static int[] select(String call, String arg, Object buf, long offset, int count, TypeDesc t) {
        if (offset < 0 || offset > Integer.MAX_VALUE) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": " + arg + " items start at element " + offset
                    + ", outside any Object[]");
        }
        int off = (int) offset;
        if (Comm.isObject(t)) {
            ObjectMessages.objects(call, arg, buf, off, count);
            int[] idx = new int[count];
            for (int i = 0; i < count; i++) idx[i] = off + i;
            return idx;
        }
        if (ObjectTypes.isObjectDerived(t)) return ObjectTypes.indices(call, arg, buf, off, count, t);
        throw MPIException.of(MPI.ERR_TYPE, call + ": datatype " + t.name + " of " + arg + " is neither MPI.OBJECT "
                + "nor built over it, but the call's other datatype is built over MPI.OBJECT");
    }

    /** Rank r's items at {@code offset + displs[r] * extent}: per-rank selections and their flat counts. */
    private static int[] selectEach(String call, String arg, Object buf, int offset, int[] counts, int[] displs,
                                    TypeDesc t, int n, int[] flatCounts, int[] flatDispls) {
        int[][] each = new int[n][];
        long total = 0;
        for (int r = 0; r < n; r++) {
            each[r] = select(call, arg, buf, offset + displs[r] * extent(t), counts[r], t);
            flatDispls[r] = (int) total;
            flatCounts[r] = each[r].length;
            total += each[r].length;
            if (total > Integer.MAX_VALUE - 8) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": " + arg + " selects more objects than an array can hold");
            }
        }
        int[] all = new int[(int) total];
        for (int r = 0; r < n; r++) System.arraycopy(each[r], 0, all, flatDispls[r], each[r].length);
        return all;
    }

    private static Object[] pack(Object buf, int[] idx) {
        Object[] out = new Object[idx.length];
        if (idx.length == 0) return out;
        Object[] a = (Object[]) buf;
        for (int i = 0; i < idx.length; i++) out[i] = a[idx[i]];
        return out;
    }

    private static void unpack(Object[] flat, Object buf, int[] idx) {
        if (idx.length == 0) return;
        Object[] a = (Object[]) buf;
        for (int i = 0; i < idx.length; i++) a[idx[i]] = flat[i];
    }

    static int[] uniform(int count, int n) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, count);
        return a;
    }

    static int[] strided(int count, int n) {
        int[] a = new int[n];
        for (int r = 0; r < n; r++) a[r] = r * count;
        return a;
    }

    private static int objects(String call, int count, TypeDesc t) {
        long per = Comm.isObject(t) ? 1 : ((TypeMap) t.derived).leafItems;
        long m = (long) count * per;
        if (m > Integer.MAX_VALUE - 8) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": " + count + " items of " + t.name + " select " + m
                    + " objects, more than an array can hold");
        }
        return (int) m;
    }

    // ---- gather, scatter -----------------------------------------------------------------------

    static boolean gather(String call, BackendComm c, Object sendbuf, int soff, int sendcount, Datatype sendtype,
                          Object recvbuf, int roff, int recvcount, Datatype recvtype, int root) {
        boolean isRoot = c.rank() == root;
        if (!(sendbuf != MPI.IN_PLACE && derived(sendtype) || isRoot && derived(recvtype))) return false;
        int n = c.size();
        if (isRoot) Comm.checkCount(call, "recvcount", recvcount);
        gathervFlat(call, c, sendbuf, soff, sendcount, sendtype, recvbuf, roff,
                isRoot ? uniform(recvcount, n) : null, isRoot ? strided(recvcount, n) : null, recvtype, root);
        return true;
    }

    static boolean gatherv(String call, BackendComm c, Object sendbuf, int soff, int sendcount, Datatype sendtype,
                           Object recvbuf, int roff, int[] recvcounts, int[] displs, Datatype recvtype, int root) {
        boolean isRoot = c.rank() == root;
        if (!(sendbuf != MPI.IN_PLACE && derived(sendtype) || isRoot && derived(recvtype))) return false;
        gathervFlat(call, c, sendbuf, soff, sendcount, sendtype, recvbuf, roff, recvcounts, displs, recvtype, root);
        return true;
    }

    private static void gathervFlat(String call, BackendComm c, Object sendbuf, int soff, int sendcount,
                                    Datatype sendtype, Object recvbuf, int roff, int[] recvcounts, int[] displs,
                                    Datatype recvtype, int root) {
        int n = c.size();
        boolean isRoot = c.rank() == root;
        boolean inPlace = sendbuf == MPI.IN_PLACE;
        if (inPlace && !isRoot) throw ObjectCollectives.inPlaceNotRoot(call, root, c.rank());
        Comm.checkNotAliased(call, sendbuf, recvbuf);
        Object flatSend = MPI.IN_PLACE;
        int sent = 0;
        if (!inPlace) {
            Object[] s = pack(sendbuf, select(call, "sendbuf", sendbuf, soff, sendcount,
                    Comm.type(call, "sendtype", sendtype)));
            flatSend = s;
            sent = s.length;
        }
        Object[] flatRecv = null;
        int[] ri = null;
        int[] fc = null;
        int[] fd = null;
        if (isRoot) {
            TypeDesc rt = Comm.type(call, "recvtype", recvtype);
            Comm.checkCountsDispls(call, "recvcounts", recvcounts, "displs", displs, n);
            fc = new int[n];
            fd = new int[n];
            ri = selectEach(call, "recvbuf", recvbuf, roff, recvcounts, displs, rt, n, fc, fd);
            flatRecv = pack(recvbuf, ri);
        }
        ObjectCollectives.gatherv(call, c, flatSend, 0, sent, flatRecv, 0, fc, fd, root);
        if (isRoot) unpack(flatRecv, recvbuf, ri);
    }

    static boolean scatter(String call, BackendComm c, Object sendbuf, int soff, int sendcount, Datatype sendtype,
                           Object recvbuf, int roff, int recvcount, Datatype recvtype, int root) {
        boolean isRoot = c.rank() == root;
        if (!(isRoot && derived(sendtype) || recvbuf != MPI.IN_PLACE && derived(recvtype))) return false;
        int n = c.size();
        if (isRoot) Comm.checkCount(call, "sendcount", sendcount);
        scattervFlat(call, c, sendbuf, soff, isRoot ? uniform(sendcount, n) : null,
                isRoot ? strided(sendcount, n) : null, sendtype, recvbuf, roff, recvcount, recvtype, root);
        return true;
    }

    static boolean scatterv(String call, BackendComm c, Object sendbuf, int soff, int[] sendcounts, int[] displs,
                            Datatype sendtype, Object recvbuf, int roff, int recvcount, Datatype recvtype, int root) {
        boolean isRoot = c.rank() == root;
        if (!(isRoot && derived(sendtype) || recvbuf != MPI.IN_PLACE && derived(recvtype))) return false;
        scattervFlat(call, c, sendbuf, soff, sendcounts, displs, sendtype, recvbuf, roff, recvcount, recvtype, root);
        return true;
    }

    private static void scattervFlat(String call, BackendComm c, Object sendbuf, int soff, int[] sendcounts,
                                     int[] displs, Datatype sendtype, Object recvbuf, int roff, int recvcount,
                                     Datatype recvtype, int root) {
        int n = c.size();
        boolean isRoot = c.rank() == root;
        boolean inPlace = recvbuf == MPI.IN_PLACE;
        if (inPlace && !isRoot) throw ObjectCollectives.inPlaceNotRoot(call, root, c.rank());
        Comm.checkNotAliased(call, sendbuf, recvbuf);
        Object[] flatSend = null;
        int[] fc = null;
        int[] fd = null;
        if (isRoot) {
            TypeDesc st = Comm.type(call, "sendtype", sendtype);
            Comm.checkCountsDispls(call, "sendcounts", sendcounts, "displs", displs, n);
            fc = new int[n];
            fd = new int[n];
            flatSend = pack(sendbuf, selectEach(call, "sendbuf", sendbuf, soff, sendcounts, displs, st, n, fc, fd));
        }
        Object flatRecv = MPI.IN_PLACE;
        int[] ri = null;
        if (!inPlace) {
            ri = select(call, "recvbuf", recvbuf, roff, recvcount, Comm.type(call, "recvtype", recvtype));
            flatRecv = pack(recvbuf, ri);
        }
        ObjectCollectives.scatterv(call, c, flatSend, 0, fc, fd, flatRecv, 0, ri == null ? 0 : ri.length, root);
        if (!inPlace) unpack((Object[]) flatRecv, recvbuf, ri);
    }

    // ---- allgather, alltoall -------------------------------------------------------------------

    static boolean allGather(String call, BackendComm c, Object sendbuf, int soff, int sendcount,
                             Datatype sendtype, Object recvbuf, int roff, int recvcount, Datatype recvtype) {
        if (!(sendbuf != MPI.IN_PLACE && derived(sendtype) || derived(recvtype))) return false;
        int n = c.size();
        Comm.checkCount(call, "recvcount", recvcount);
        allGathervFlat(call, c, sendbuf, soff, sendcount, sendtype, recvbuf, roff, uniform(recvcount, n),
                strided(recvcount, n), recvtype);
        return true;
    }

    static boolean allGatherv(String call, BackendComm c, Object sendbuf, int soff, int sendcount,
                              Datatype sendtype, Object recvbuf, int roff, int[] recvcounts, int[] displs,
                              Datatype recvtype) {
        if (!(sendbuf != MPI.IN_PLACE && derived(sendtype) || derived(recvtype))) return false;
        allGathervFlat(call, c, sendbuf, soff, sendcount, sendtype, recvbuf, roff, recvcounts, displs, recvtype);
        return true;
    }

    private static void allGathervFlat(String call, BackendComm c, Object sendbuf, int soff, int sendcount,
                                       Datatype sendtype, Object recvbuf, int roff, int[] recvcounts, int[] displs,
                                       Datatype recvtype) {
        int n = c.size();
        Comm.checkNotAliased(call, sendbuf, recvbuf);
        TypeDesc rt = Comm.type(call, "recvtype", recvtype);
        Comm.checkCountsDispls(call, "recvcounts", recvcounts, "displs", displs, n);
        int[] fc = new int[n];
        int[] fd = new int[n];
        int[] ri = selectEach(call, "recvbuf", recvbuf, roff, recvcounts, displs, rt, n, fc, fd);
        Object[] flatRecv = pack(recvbuf, ri); // in place, this rank's part is read from here
        Object flatSend = MPI.IN_PLACE;
        int sent = 0;
        if (sendbuf != MPI.IN_PLACE) {
            Object[] s = pack(sendbuf, select(call, "sendbuf", sendbuf, soff, sendcount,
                    Comm.type(call, "sendtype", sendtype)));
            flatSend = s;
            sent = s.length;
        }
        ObjectCollectives.allGatherv(call, c, flatSend, 0, sent, flatRecv, 0, fc, fd);
        unpack(flatRecv, recvbuf, ri);
    }

    static boolean allToAll(String call, BackendComm c, Object sendbuf, int soff, int sendcount, Datatype sendtype,
                            Object recvbuf, int roff, int recvcount, Datatype recvtype) {
        if (!(sendbuf != MPI.IN_PLACE && derived(sendtype) || derived(recvtype))) return false;
        int n = c.size();
        Comm.checkCount(call, "recvcount", recvcount);
        if (sendbuf != MPI.IN_PLACE) Comm.checkCount(call, "sendcount", sendcount);
        allToAllvFlat(call, c, sendbuf, soff, uniform(sendcount, n), strided(sendcount, n), sendtype, recvbuf, roff,
                uniform(recvcount, n), strided(recvcount, n), recvtype);
        return true;
    }

    static boolean allToAllv(String call, BackendComm c, Object sendbuf, int soff, int[] sendcounts, int[] sdispls,
                             Datatype sendtype, Object recvbuf, int roff, int[] recvcounts, int[] rdispls,
                             Datatype recvtype) {
        if (!(sendbuf != MPI.IN_PLACE && derived(sendtype) || derived(recvtype))) return false;
        allToAllvFlat(call, c, sendbuf, soff, sendcounts, sdispls, sendtype, recvbuf, roff, recvcounts, rdispls,
                recvtype);
        return true;
    }

    private static void allToAllvFlat(String call, BackendComm c, Object sendbuf, int soff, int[] sendcounts,
                                      int[] sdispls, Datatype sendtype, Object recvbuf, int roff, int[] recvcounts,
                                      int[] rdispls, Datatype recvtype) {
        int n = c.size();
        Comm.checkNotAliased(call, sendbuf, recvbuf);
        TypeDesc rt = Comm.type(call, "recvtype", recvtype);
        Comm.checkCountsDispls(call, "recvcounts", recvcounts, "rdispls", rdispls, n);
        int[] frc = new int[n];
        int[] frd = new int[n];
        int[] ri = selectEach(call, "recvbuf", recvbuf, roff, recvcounts, rdispls, rt, n, frc, frd);
        Object[] flatRecv = pack(recvbuf, ri); // in place, the parts sent are read from here
        Object flatSend = MPI.IN_PLACE;
        int[] fsc = null;
        int[] fsd = null;
        if (sendbuf != MPI.IN_PLACE) {
            TypeDesc st = Comm.type(call, "sendtype", sendtype);
            Comm.checkCountsDispls(call, "sendcounts", sendcounts, "sdispls", sdispls, n);
            fsc = new int[n];
            fsd = new int[n];
            flatSend = pack(sendbuf, selectEach(call, "sendbuf", sendbuf, soff, sendcounts, sdispls, st, n, fsc,
                    fsd));
        }
        ObjectCollectives.allToAllv(call, c, flatSend, 0, fsc, fsd, flatRecv, 0, frc, frd);
        unpack(flatRecv, recvbuf, ri);
    }

    // ---- reductions with a user op ---------------------------------------------------------------

    static boolean reduce(String call, BackendComm c, Object sendbuf, int soff, Object recvbuf, int roff, int count,
                          TypeDesc t, OpDesc op, int root) {
        if (!ObjectTypes.isObjectDerived(t)) return false;
        boolean isRoot = c.rank() == root;
        boolean inPlace = sendbuf == MPI.IN_PLACE;
        if (inPlace && !isRoot) throw ObjectCollectives.inPlaceNotRoot(call, root, c.rank());
        int m = objects(call, count, t);
        int[] ri = isRoot ? select(call, "recvbuf", recvbuf, roff, count, t) : null;
        Object[] flatRecv = isRoot ? pack(recvbuf, ri) : null;
        Object flatSend = inPlace ? MPI.IN_PLACE : pack(sendbuf, select(call, "sendbuf", sendbuf, soff, count, t));
        ObjectMessages.reduce(call, c, flatSend, 0, flatRecv, 0, m, op, root, MPI.OBJECT);
        if (isRoot) unpack(flatRecv, recvbuf, ri);
        return true;
    }

    static boolean allReduce(String call, BackendComm c, Object sendbuf, int soff, Object recvbuf, int roff,
                             int count, TypeDesc t, OpDesc op) {
        if (!ObjectTypes.isObjectDerived(t)) return false;
        int m = objects(call, count, t);
        int[] ri = select(call, "recvbuf", recvbuf, roff, count, t);
        Object[] flatRecv = pack(recvbuf, ri);
        Object flatSend = sendbuf == MPI.IN_PLACE ? MPI.IN_PLACE
                : pack(sendbuf, select(call, "sendbuf", sendbuf, soff, count, t));
        ObjectMessages.allReduce(call, c, flatSend, 0, flatRecv, 0, m, op, MPI.OBJECT);
        unpack(flatRecv, recvbuf, ri);
        return true;
    }

    static boolean scan(String call, BackendComm c, boolean exclusive, Object sendbuf, int soff, Object recvbuf,
                        int roff, int count, TypeDesc t, OpDesc op) {
        if (!ObjectTypes.isObjectDerived(t)) return false;
        int m = objects(call, count, t);
        int[] ri = select(call, "recvbuf", recvbuf, roff, count, t);
        Object[] flatRecv = pack(recvbuf, ri);
        Object flatSend = sendbuf == MPI.IN_PLACE ? MPI.IN_PLACE
                : pack(sendbuf, select(call, "sendbuf", sendbuf, soff, count, t));
        ObjectCollectives.scan(call, c, exclusive, flatSend, 0, flatRecv, 0, m, op, MPI.OBJECT);
        unpack(flatRecv, recvbuf, ri);
        return true;
    }

    static boolean reduceScatterBlock(String call, BackendComm c, Object sendbuf, int soff, Object recvbuf,
                                      int roff, int recvcount, TypeDesc t, OpDesc op) {
        if (!ObjectTypes.isObjectDerived(t)) return false;
        Comm.checkCount(call, "recvcount", recvcount);
        return reduceScatter(call, c, sendbuf, soff, recvbuf, roff, uniform(recvcount, c.size()), t, op);
    }

    /** In place, the contribution is {@code sum(recvcounts)} items of recvbuf and the result its first items. */
    static boolean reduceScatter(String call, BackendComm c, Object sendbuf, int soff, Object recvbuf, int roff,
                                 int[] recvcounts, TypeDesc t, OpDesc op) {
        if (!ObjectTypes.isObjectDerived(t)) return false;
        int n = c.size();
        int total = Comm.checkCounts(call, "recvcounts", recvcounts, n);
        int[] fc = new int[n];
        for (int r = 0; r < n; r++) fc[r] = objects(call, recvcounts[r], t);
        objects(call, total, t);
        boolean inPlace = sendbuf == MPI.IN_PLACE;
        int[] ri = select(call, "recvbuf", recvbuf, roff, inPlace ? total : recvcounts[c.rank()], t);
        Object[] flatRecv = pack(recvbuf, ri);
        Object flatSend = inPlace ? MPI.IN_PLACE : pack(sendbuf, select(call, "sendbuf", sendbuf, soff, total, t));
        ObjectCollectives.reduceScatter(call, c, flatSend, 0, flatRecv, 0, fc, op, MPI.OBJECT);
        unpack(flatRecv, recvbuf, ri);
        return true;
    }
}
