package mpi;

import static mpi.ObjectMessages.BYTES;
import static mpi.ObjectMessages.FAILED;
import static mpi.ObjectMessages.INTS;
import static mpi.ObjectParts.NOTHING;

import io.github.mpi4j.spi.Topology;

/**
 * {@code MPI.OBJECT} and derived types over it in the neighbour collectives (issue 10):
 * neighborAllGather(v), neighborAllToAll(v) and their non-blocking forms, which complete before
 * they return. Block {@code j} of a buffer holds the items for destination (or from source)
 * {@code j}, at element {@code j * count * extent} (or {@code displs[j] * extent}) of the
 * {@code Object[]}. Each block is serialized on its own; the sizes move with a neighbour
 * all-to-all of ints, then the bytes with a neighbour all-to-allv, and every block is decoded
 * (behind the deserialization filter) before any is stored. A block from {@code MPI.PROC_NULL}
 * (a non-periodic Cartesian edge) leaves its elements untouched. A process whose arguments or
 * serialization failed sends "failed" sizes and no data, then throws its cause; its
 * destinations throw an exception naming the source index.
 */
final class ObjectNeighborCollectives {
    private ObjectNeighborCollectives() {
    }

    private static int[] blocks(int count, int n) {
        int[] a = new int[n];
        for (int j = 0; j < n; j++) a[j] = j * count;
        return a;
    }

    private static int[] uniform(int count, int n) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, count);
        return a;
    }

    private static int[][] selectEach(String call, String arg, String typeArg, Object buf, int[] counts,
                                      int[] displs, Datatype type, int n, String which) {
        if (counts == null || displs == null || counts.length < n || displs.length < n) {
            throw MPIException.of(MPI.ERR_ARG, call + ": the counts and displacements of " + arg + " need " + n
                    + " entries (this process's " + which + ")");
        }
        long ext = ObjectParts.extent(Comm.type(call, typeArg, type));
        int[][] idx = new int[n][];
        for (int j = 0; j < n; j++) {
            idx[j] = ObjectParts.select(call, arg, typeArg, buf, (long) displs[j] * ext, counts[j], type);
        }
        return idx;
    }

    /**
     * Sends {@code parts[j]} to destination j (or only "failed" sizes when {@code bad} is set),
     * receives one part from each source, and stores it into {@code ridx[j]} of {@code recvbuf}.
     */
    private static void exchange(String call, Topology t, int in, int out, byte[][] parts, MPIException bad,
                                 Object recvbuf, int[][] ridx) {
        int[] lens = new int[out];
        for (int j = 0; j < out; j++) {
            if (bad != null) {
                parts[j] = NOTHING;
                lens[j] = FAILED;
            } else {
                lens[j] = parts[j].length;
            }
        }
        int[] rl = new int[in]; // a source that is MPI.PROC_NULL leaves its 0: no part
        int[] rs, rd;
        byte[] all;
        try {
            t.neighborAllToAll(ObjectMessages.ints(lens), 1, INTS, ObjectMessages.ints(rl), 1, INTS);
            int[] ss = ObjectMessages.withoutFailed(lens);
            rs = ObjectMessages.withoutFailed(rl);
            rd = ObjectMessages.displacements(rs);
            all = ObjectMessages.buffer(call, ObjectMessages.total(rs));
            t.neighborAllToAllv(ObjectMessages.bytes(ObjectMessages.concat(parts, ss)), ss,
                    ObjectMessages.displacements(ss), BYTES, ObjectMessages.bytes(all), rs, rd, BYTES);
        } catch (RuntimeException e) {
            // This process's own failure first: a peer that failed too may end the call with a notice.
            throw bad != null ? bad : e;
        }
        if (bad != null) throw bad;
        int failed = ObjectMessages.firstFailed(rl);
        if (failed >= 0) {
            throw MPIException.of(MPI.ERR_OTHER, call + ": source " + failed + " of this process could not send its "
                    + "MPI.OBJECT data (the exception on that process says why)");
        }
        Object[][] got = new Object[in][];
        for (int j = 0; j < in; j++) {
            got[j] = rs[j] == 0 ? null : ObjectMessages.deserialize(call, all, rd[j], rs[j]);
        }
        for (int j = 0; j < in; j++) {
            if (got[j] != null) ObjectParts.land(call, got[j], recvbuf, ridx[j], "source " + j);
        }
    }

    private static void noInPlace(String call, Object sendbuf) {
        if (sendbuf == MPI.IN_PLACE) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": MPI.IN_PLACE is not allowed in neighbour collectives");
        }
    }

    private static Request done(Comm comm, boolean nb) {
        return nb ? Request.completed(comm.session) : null;
    }

    /** allGather ({@code recvcounts == null}) and allGatherv. */
    static Request allGather(Comm comm, String call, boolean nb, Topology t, int in, int out, Object sendbuf,
                             int sendcount, Datatype sendtype, Object recvbuf, int recvcount, int[] recvcounts,
                             int[] displs, Datatype recvtype) {
        byte[][] parts = new byte[out][];
        int[][] ridx = null;
        MPIException bad = null;
        try {
            noInPlace(call, sendbuf);
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            boolean v = recvcounts != null || displs != null;
            if (!v) Comm.checkCount(call, "recvcount", recvcount);
            ridx = selectEach(call, "recvbuf", "recvtype", recvbuf, v ? recvcounts : uniform(recvcount, in),
                    v ? displs : blocks(recvcount, in), recvtype, in, "sources");
            int[] s = ObjectParts.select(call, "sendbuf", "sendtype", sendbuf, 0, sendcount, sendtype);
            MPIException[] f = new MPIException[1];
            byte[] mine = ObjectParts.trySerialize(call, ObjectParts.take(sendbuf, s), f);
            if (f[0] != null) throw f[0];
            java.util.Arrays.fill(parts, mine);
        } catch (MPIException e) {
            bad = e;
        }
        exchange(call, t, in, out, parts, bad, recvbuf, ridx);
        return done(comm, nb);
    }

    /** allToAll ({@code sendcounts == null}) and allToAllv. */
    static Request allToAll(Comm comm, String call, boolean nb, Topology t, int in, int out, Object sendbuf,
                            int sendcount, int[] sendcounts, int[] sdispls, Datatype sendtype, Object recvbuf,
                            int recvcount, int[] recvcounts, int[] rdispls, Datatype recvtype) {
        byte[][] parts = new byte[out][];
        int[][] ridx = null;
        MPIException bad = null;
        try {
            noInPlace(call, sendbuf);
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            boolean v = sendcounts != null || recvcounts != null;
            if (!v) {
                Comm.checkCount(call, "sendcount", sendcount);
                Comm.checkCount(call, "recvcount", recvcount);
            }
            int[][] sidx = selectEach(call, "sendbuf", "sendtype", sendbuf, v ? sendcounts : uniform(sendcount, out),
                    v ? sdispls : blocks(sendcount, out), sendtype, out, "destinations");
            ridx = selectEach(call, "recvbuf", "recvtype", recvbuf, v ? recvcounts : uniform(recvcount, in),
                    v ? rdispls : blocks(recvcount, in), recvtype, in, "sources");
            MPIException[] f = new MPIException[1];
            for (int j = 0; j < out; j++) {
                parts[j] = ObjectParts.trySerialize(call, ObjectParts.take(sendbuf, sidx[j]), f);
                if (f[0] != null) throw f[0];
            }
        } catch (MPIException e) {
            bad = e;
        }
        exchange(call, t, in, out, parts, bad, recvbuf, ridx);
        return done(comm, nb);
    }
}
