package mpi;

import static mpi.ObjectMessages.FAILED;
import static mpi.ObjectParts.NOTHING;

import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * {@code MPI.OBJECT} and derived types over it in the collectives of an intercommunicator
 * (issue 10): bcast, gather(v), scatter(v), allgather(v), alltoall(v), and reduce, allreduce,
 * reduce_scatter(_block) with a user op. Roots, counts and displacements follow MPI's
 * intercommunicator rules ({@link InterCollectives}); counts and displacements count items,
 * offsets and extents count elements of the {@code Object[]} (mpiJava/MPJ Express).
 *
 * <p>Each part (the objects one rank sends one rank of the other group) is serialized on its
 * own; the sizes move first, with the intercommunicator collective of the same shape on
 * {@code MPI.INT} (which checks the roots across the groups), then the bytes with its v-form on
 * {@code MPI.BYTE}; every part is decoded (behind the deserialization filter) before any is
 * stored. A rank whose own arguments or serialization failed sends a "failed" size and empty
 * data, so the exchange completes everywhere; it then throws its own cause, and a rank that
 * expected a part from it throws an exception naming it. Reductions gather the other group's
 * parts and combine them in rank order ({@code inoutvec = invec op inoutvec}). The
 * non-blocking forms complete before they return.
 */
final class ObjectInterCollectives {
    private ObjectInterCollectives() {
    }

    /**
     * Runs one object collective as one call for the error handler: the byte collectives inside
     * it bracket themselves, and whatever fails (their errors, this rank's arguments, a peer's
     * failed part) reaches {@code comm}'s handler once, as for any call.
     */
    static Request guarded(Comm comm, java.util.function.Supplier<Request> body) {
        CallErrors.enter();
        Throwable failure = null;
        try {
            return body.get();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.leave(comm, failure);
        }
    }

    private static Request done(Comm comm, boolean nb) {
        return nb ? Request.completed(comm.session) : null;
    }

    private static int remote(Comm comm, String call) {
        return comm.impl(call).peerCount();
    }

    private static MPIException remoteFailed(String call, int r) {
        return MPIException.of(MPI.ERR_OTHER, call + ": rank " + r + " of the remote group could not send its "
                + "MPI.OBJECT data (the exception on that rank says why)");
    }

    private static MPIException rootFailed(String call, int r) {
        return MPIException.of(MPI.ERR_OTHER, call + ": the root (rank " + r + " of the remote group) could not "
                + "send its MPI.OBJECT data (the exception on that rank says why)");
    }

    private static void noInPlace(String call, String arg, Object buf) {
        if (buf == MPI.IN_PLACE) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": " + arg + " is MPI.IN_PLACE, which MPI does not allow on "
                    + "an intercommunicator");
        }
    }

    /**
     * A rank whose own arguments or data failed throws that, even when a step of the exchange
     * fails first (on the fabric, a peer that failed too may end the call with a notice).
     */
    private static RuntimeException ownFirst(MPIException own, RuntimeException step) {
        return own != null ? own : step;
    }

    private static String remoteName(int r) {
        return "rank " + r + " of the remote group";
    }

    private static int[] sizes(int[] lens) {
        return ObjectMessages.withoutFailed(lens);
    }

    private static int firstFailed(int[] lens) {
        return ObjectMessages.firstFailed(lens);
    }

    /** Decodes part r of {@code all} (empty parts as no objects). */
    private static Object[][] decode(String call, byte[] all, int[] lens, int[] displs) {
        Object[][] got = new Object[lens.length][];
        for (int r = 0; r < lens.length; r++) {
            got[r] = lens[r] <= 0 ? new Object[0] : ObjectMessages.deserialize(call, all, displs[r], lens[r]);
        }
        return got;
    }

    /** Per-rank selections of {@code buf}: rank r's items at {@code offset + displs[r] * extent}. */
    private static int[][] selectEach(String call, String arg, String typeArg, Object buf, int offset, int[] counts,
                                      int[] displs, Datatype type, int n) {
        TypeDesc t = Comm.type(call, typeArg, type);
        if (counts == null || displs == null || counts.length < n || displs.length < n) {
            throw MPIException.of(MPI.ERR_ARG, call + ": the counts and displacements of " + arg + " need " + n
                    + " entries (the remote group's size)");
        }
        int[][] idx = new int[n][];
        for (int r = 0; r < n; r++) {
            if (counts[r] < 0) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": the count of " + arg + " for remote rank " + r + " is "
                        + counts[r]);
            }
            idx[r] = ObjectParts.select(call, arg, typeArg, buf, offset + (long) displs[r] * ObjectParts.extent(t),
                    counts[r], type);
        }
        return idx;
    }


    // ---- bcast ---------------------------------------------------------------------------------

    static Request bcast(Comm comm, String call, boolean nb, Object buf, int off, int count, Datatype type,
                         int root) {
        MPIException bad = null;
        int[] idx = null;
        byte[] mine = NOTHING;
        int[] len = {0};
        try {
            if (root == MPI.ROOT || root >= 0) idx = ObjectParts.select(call, "buf", "datatype", buf, off, count, type);
            if (root == MPI.ROOT) {
                mine = serialized(call, ObjectParts.take(buf, idx));
                len[0] = mine.length;
            }
        } catch (MPIException e) {
            bad = e;
            mine = NOTHING;
            len[0] = FAILED;
        }
        byte[] b;
        try {
            InterCollectives.bcast(comm, call, false, len, 0, 1, MPI.INT, root);
            b = root == MPI.ROOT ? mine : root >= 0 ? ObjectMessages.buffer(call, Math.max(0, len[0])) : null;
            InterCollectives.bcast(comm, call, false, b, 0, b == null ? 0 : b.length, MPI.BYTE, root);
        } catch (RuntimeException e) {
            throw ownFirst(bad, e);
        }
        if (bad != null) throw bad;
        if (root >= 0) {
            if (len[0] == FAILED) throw rootFailed(call, root);
            Object[] got = b.length == 0 ? new Object[0] : ObjectMessages.deserialize(call, b, 0, b.length);
            ObjectParts.land(call, got, buf, idx, "the root (rank " + root + " of the remote group)");
        }
        return done(comm, nb);
    }

    // ---- gather --------------------------------------------------------------------------------

    static Request gather(Comm comm, String call, boolean nb, Object sendbuf, int soff, int sendcount,
                          Datatype sendtype, Object recvbuf, int roff, int recvcount, int[] recvcounts, int[] displs,
                          Datatype recvtype, int root) {
        int n = remote(comm, call);
        MPIException bad = null;
        if (root == MPI.ROOT) {
            int[][] idx = null;
            try {
                noInPlace(call, "sendbuf", sendbuf);
                boolean v = recvcounts != null || displs != null;
                if (!v) Comm.checkCount(call, "recvcount", recvcount);
                idx = selectEach(call, "recvbuf", "recvtype", recvbuf, roff, v ? recvcounts : ObjectTypeCollectives.uniform(recvcount, n),
                        v ? displs : ObjectTypeCollectives.strided(recvcount, n), recvtype, n);
            } catch (MPIException e) {
                bad = e;
            }
            int[] lens = new int[n];
            int[] bd;
            byte[] all;
            try {
                InterCollectives.gather(comm, call, false, null, 0, 0, null, lens, 0, 1, null, null, MPI.INT, root);
                int[] sz = sizes(lens);
                bd = ObjectMessages.displacements(sz);
                all = ObjectMessages.buffer(call, ObjectMessages.total(sz));
                InterCollectives.gather(comm, call, false, null, 0, 0, null, all, 0, 0, sz, bd, MPI.BYTE, root);
            } catch (RuntimeException e) {
                throw ownFirst(bad, e);
            }
            if (bad != null) throw bad;
            int failed = firstFailed(lens);
            if (failed >= 0) throw remoteFailed(call, failed);
            Object[][] got = decode(call, all, lens, bd);
            for (int r = 0; r < n; r++) ObjectParts.land(call, got[r], recvbuf, idx[r], remoteName(r));
        } else {
            byte[] mine = NOTHING;
            int[] len = {0};
            if (root >= 0) {
                try {
                    noInPlace(call, "sendbuf", sendbuf);
                    int[] idx = ObjectParts.select(call, "sendbuf", "sendtype", sendbuf, soff, sendcount, sendtype);
                    mine = serialized(call, ObjectParts.take(sendbuf, idx));
                    len[0] = mine.length;
                } catch (MPIException e) {
                    bad = e;
                    mine = NOTHING;
                    len[0] = FAILED;
                }
            }
            boolean send = root >= 0;
            try {
                InterCollectives.gather(comm, call, false, send ? len : null, 0, send ? 1 : 0, MPI.INT, null, 0, 0,
                        null, null, null, root);
                InterCollectives.gather(comm, call, false, send ? mine : null, 0, mine.length, MPI.BYTE, null, 0, 0,
                        new int[n], new int[n], null, root);
            } catch (RuntimeException e) {
                throw ownFirst(bad, e);
            }
            if (bad != null) throw bad;
        }
        return done(comm, nb);
    }

    // ---- scatter -------------------------------------------------------------------------------

    static Request scatter(Comm comm, String call, boolean nb, Object sendbuf, int soff, int sendcount,
                           int[] sendcounts, int[] displs, Datatype sendtype, Object recvbuf, int roff, int recvcount,
                           Datatype recvtype, int root) {
        int n = remote(comm, call);
        MPIException bad = null;
        if (root == MPI.ROOT) {
            int[] lens = new int[n];
            byte[][] parts = new byte[n][];
            java.util.Arrays.fill(parts, NOTHING);
            try {
                noInPlace(call, "recvbuf", recvbuf);
                boolean v = sendcounts != null || displs != null;
                if (!v) Comm.checkCount(call, "sendcount", sendcount);
                int[][] idx = selectEach(call, "sendbuf", "sendtype", sendbuf, soff,
                        v ? sendcounts : ObjectTypeCollectives.uniform(sendcount, n), v ? displs : ObjectTypeCollectives.strided(sendcount, n), sendtype, n);
                MPIException[] f = new MPIException[1];
                for (int r = 0; r < n; r++) {
                    parts[r] = ObjectParts.trySerialize(call, ObjectParts.take(sendbuf, idx[r]), f);
                    if (f[0] != null) throw f[0];
                    lens[r] = parts[r].length;
                }
            } catch (MPIException e) {
                bad = e;
                java.util.Arrays.fill(parts, NOTHING);
                java.util.Arrays.fill(lens, FAILED);
            }
            int[] sz = sizes(lens);
            try {
                InterCollectives.scatter(comm, call, false, lens, 0, 1, null, null, MPI.INT, null, 0, 0, null, root);
                InterCollectives.scatter(comm, call, false, ObjectMessages.concat(parts, sz), 0, 0, sz,
                        ObjectMessages.displacements(sz), MPI.BYTE, null, 0, 0, null, root);
            } catch (RuntimeException e) {
                throw ownFirst(bad, e);
            }
            if (bad != null) throw bad;
        } else {
            int[] idx = null;
            if (root >= 0) {
                try {
                    noInPlace(call, "recvbuf", recvbuf);
                    idx = ObjectParts.select(call, "recvbuf", "recvtype", recvbuf, roff, recvcount, recvtype);
                } catch (MPIException e) {
                    bad = e;
                }
            }
            boolean recv = root >= 0;
            int[] len = {0};
            byte[] b;
            try {
                InterCollectives.scatter(comm, call, false, null, 0, 0, null, null, null, recv ? len : null, 0,
                        recv ? 1 : 0, MPI.INT, root);
                b = recv ? ObjectMessages.buffer(call, Math.max(0, len[0])) : null;
                InterCollectives.scatter(comm, call, false, null, 0, 0, new int[n], new int[n], null, b, 0,
                        b == null ? 0 : b.length, MPI.BYTE, root);
            } catch (RuntimeException e) {
                throw ownFirst(bad, e);
            }
            if (bad != null) throw bad;
            if (recv) {
                if (len[0] == FAILED) throw rootFailed(call, root);
                Object[] got = b.length == 0 ? new Object[0] : ObjectMessages.deserialize(call, b, 0, b.length);
                ObjectParts.land(call, got, recvbuf, idx, "the root (rank " + root + " of the remote group)");
            }
        }
        return done(comm, nb);
    }

    // ---- allgather, alltoall -------------------------------------------------------------------

    /** Each rank's part from every rank of the other group (one part sent to all of them). */
    private static Object[][] allGatherParts(Comm comm, String call, int n, byte[] mine, int myLen,
                                             MPIException bad) {
        int[] lens = new int[n];
        int[] bd;
        byte[] all;
        try {
            InterCollectives.allGather(comm, call, false, new int[] {myLen}, 0, 1, MPI.INT, lens, 0, 1, null, null,
                    MPI.INT);
            int[] sz = sizes(lens);
            bd = ObjectMessages.displacements(sz);
            all = ObjectMessages.buffer(call, ObjectMessages.total(sz));
            InterCollectives.allGather(comm, call, false, mine, 0, mine.length, MPI.BYTE, all, 0, 0, sz, bd,
                    MPI.BYTE);
        } catch (RuntimeException e) {
            throw ownFirst(bad, e);
        }
        if (bad != null) throw bad;
        int failed = firstFailed(lens);
        if (failed >= 0) throw remoteFailed(call, failed);
        return decode(call, all, lens, bd);
    }

    /** Serializes {@code items}; a failure goes to {@code bad[0]} and returns empty. */
    private static byte[] part(String call, Object[] items, MPIException[] bad) {
        if (bad[0] != null) return NOTHING;
        byte[] b = ObjectParts.trySerialize(call, items, bad);
        return b == null ? NOTHING : b;
    }

    static Request allGather(Comm comm, String call, boolean nb, Object sendbuf, int soff, int sendcount,
                             Datatype sendtype, Object recvbuf, int roff, int recvcount, int[] recvcounts,
                             int[] displs, Datatype recvtype) {
        int n = remote(comm, call);
        MPIException[] bad = new MPIException[1];
        int[][] idx = null;
        byte[] mine = NOTHING;
        try {
            noInPlace(call, "sendbuf", sendbuf);
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            boolean v = recvcounts != null || displs != null;
            if (!v) Comm.checkCount(call, "recvcount", recvcount);
            idx = selectEach(call, "recvbuf", "recvtype", recvbuf, roff, v ? recvcounts : ObjectTypeCollectives.uniform(recvcount, n),
                    v ? displs : ObjectTypeCollectives.strided(recvcount, n), recvtype, n);
            int[] s = ObjectParts.select(call, "sendbuf", "sendtype", sendbuf, soff, sendcount, sendtype);
            mine = part(call, ObjectParts.take(sendbuf, s), bad);
        } catch (MPIException e) {
            bad[0] = e;
            mine = NOTHING;
        }
        Object[][] got = allGatherParts(comm, call, n, mine, bad[0] != null ? FAILED : mine.length, bad[0]);
        for (int r = 0; r < n; r++) ObjectParts.land(call, got[r], recvbuf, idx[r], remoteName(r));
        return done(comm, nb);
    }

    static Request allToAll(Comm comm, String call, boolean nb, Object sendbuf, int soff, int sendcount,
                            int[] sendcounts, int[] sdispls, Datatype sendtype, Object recvbuf, int roff,
                            int recvcount, int[] recvcounts, int[] rdispls, Datatype recvtype) {
        int n = remote(comm, call);
        MPIException[] bad = new MPIException[1];
        int[][] ridx = null;
        byte[][] parts = new byte[n][];
        java.util.Arrays.fill(parts, NOTHING);
        int[] lens = new int[n];
        try {
            noInPlace(call, "sendbuf", sendbuf);
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            boolean v = sendcounts != null || recvcounts != null;
            if (!v) {
                Comm.checkCount(call, "sendcount", sendcount);
                Comm.checkCount(call, "recvcount", recvcount);
            }
            int[][] sidx = selectEach(call, "sendbuf", "sendtype", sendbuf, soff,
                    v ? sendcounts : ObjectTypeCollectives.uniform(sendcount, n), v ? sdispls : ObjectTypeCollectives.strided(sendcount, n), sendtype, n);
            ridx = selectEach(call, "recvbuf", "recvtype", recvbuf, roff, v ? recvcounts : ObjectTypeCollectives.uniform(recvcount, n),
                    v ? rdispls : ObjectTypeCollectives.strided(recvcount, n), recvtype, n);
            for (int r = 0; r < n && bad[0] == null; r++) {
                parts[r] = part(call, ObjectParts.take(sendbuf, sidx[r]), bad);
                lens[r] = parts[r].length;
            }
        } catch (MPIException e) {
            bad[0] = e;
        }
        if (bad[0] != null) {
            java.util.Arrays.fill(parts, NOTHING);
            java.util.Arrays.fill(lens, FAILED);
        }
        int[] rl = new int[n];
        int[] rd;
        byte[] all;
        try {
            InterCollectives.allToAll(comm, call, false, lens, 0, 1, null, null, MPI.INT, rl, 0, 1, null, null,
                    MPI.INT);
            int[] ss = sizes(lens), rs = sizes(rl);
            rd = ObjectMessages.displacements(rs);
            all = ObjectMessages.buffer(call, ObjectMessages.total(rs));
            InterCollectives.allToAll(comm, call, false, ObjectMessages.concat(parts, ss), 0, 0, ss,
                    ObjectMessages.displacements(ss), MPI.BYTE, all, 0, 0, rs, rd, MPI.BYTE);
        } catch (RuntimeException e) {
            throw ownFirst(bad[0], e);
        }
        if (bad[0] != null) throw bad[0];
        int failed = firstFailed(rl);
        if (failed >= 0) throw remoteFailed(call, failed);
        Object[][] got = decode(call, all, rl, rd);
        for (int r = 0; r < n; r++) ObjectParts.land(call, got[r], recvbuf, ridx[r], remoteName(r));
        return done(comm, nb);
    }

    // ---- reductions with a user op -------------------------------------------------------------

    /** {@code parts[0] op parts[1] op ...} in rank order; each part must hold {@code m} objects. */
    private static Object[] combineAll(String call, Object[][] parts, int m, OpDesc op) {
        if (parts.length == 0) return new Object[m];
        for (int r = 0; r < parts.length; r++) {
            if (parts[r].length != m) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": rank " + r + " of the remote group contributed "
                        + parts[r].length + " objects but " + m + " are expected here (the groups' counts must agree)");
            }
        }
        Object[] acc = parts[0];
        for (int r = 1; r < parts.length; r++) acc = ObjectMessages.combine(call, acc, parts[r], r, m, op, MPI.OBJECT);
        return acc;
    }

    private static OpDesc userOp(String call, Op op, Datatype type) {
        return Comm.op(call, op, Comm.type(call, "datatype", type));
    }

    static Request reduce(Comm comm, String call, boolean nb, Object sendbuf, int soff, Object recvbuf, int roff,
                          int count, Datatype type, Op op, int root) {
        int n = remote(comm, call);
        if (root == MPI.ROOT) {
            MPIException bad = null;
            int[] idx = null;
            OpDesc o = null;
            try {
                o = userOp(call, op, type);
                idx = ObjectParts.select(call, "recvbuf", "datatype", recvbuf, roff, count, type);
            } catch (MPIException e) {
                bad = e;
            }
            int m = idx == null ? 0 : idx.length;
            Object[] flat = new Object[m * n];
            try {
                gather(comm, call, false, null, 0, 0, null, flat, 0, m, null, null, MPI.OBJECT, root);
            } catch (MPIException e) {
                if (bad == null) throw e;
            }
            if (bad != null) throw bad;
            Object[][] parts = new Object[n][];
            for (int r = 0; r < n; r++) parts[r] = java.util.Arrays.copyOfRange(flat, r * m, (r + 1) * m);
            ObjectParts.land(call, combineAll(call, parts, m, o), recvbuf, idx, "the reduction");
        } else {
            MPIException bad = null;
            if (root >= 0) {
                try {
                    noInPlace(call, "sendbuf", sendbuf);
                    userOp(call, op, type);
                } catch (MPIException e) {
                    bad = e;
                }
            }
            // An argument failure goes through gather's own checks (they send a "failed" size).
            try {
                gather(comm, call, false, bad == null ? sendbuf : MPI.IN_PLACE, soff, count, type, null, 0, 0, null,
                        null, null, root);
            } catch (MPIException e) {
                if (bad == null) throw e;
            }
            if (bad != null) throw bad;
        }
        return done(comm, nb);
    }

    /**
     * Every rank of the other group's {@code total} items combined in rank order, as one flat
     * array of objects (the allreduce of an intercommunicator), or a failure.
     */
    private static Object[] allReduced(Comm comm, String call, Object sendbuf, int soff, int total, Datatype type,
                                       Op op, MPIException[] bad) {
        int n = remote(comm, call);
        OpDesc o = null;
        byte[] mine = NOTHING;
        try {
            noInPlace(call, "sendbuf", sendbuf);
            o = userOp(call, op, type);
            int[] s = ObjectParts.select(call, "sendbuf", "datatype", sendbuf, soff, total, type);
            mine = part(call, ObjectParts.take(sendbuf, s), bad);
        } catch (MPIException e) {
            bad[0] = e;
            mine = NOTHING;
        }
        Object[][] parts = allGatherParts(comm, call, n, mine, bad[0] != null ? FAILED : mine.length, bad[0]);
        TypeDesc t = Comm.type(call, "datatype", type);
        long m = (long) total * ObjectParts.perItem(t);
        return combineAll(call, parts, (int) m, o);
    }

    static Request allReduce(Comm comm, String call, boolean nb, Object sendbuf, int soff, Object recvbuf,
                             int roff, int count, Datatype type, Op op) {
        MPIException[] bad = new MPIException[1];
        int[] idx = null;
        try {
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            idx = ObjectParts.select(call, "recvbuf", "datatype", recvbuf, roff, count, type);
        } catch (MPIException e) {
            bad[0] = e;
        }
        Object[] acc = allReduced(comm, call, sendbuf, soff, count, type, op, bad);
        ObjectParts.land(call, acc, recvbuf, idx, "the reduction");
        return done(comm, nb);
    }

    /** reduceScatter ({@code recvcounts}, the local group's) and reduceScatterBlock ({@code recvcounts == null}). */
    static Request reduceScatter(Comm comm, String call, boolean nb, Object sendbuf, int soff, Object recvbuf,
                                 int roff, int recvcount, int[] recvcounts, Datatype type, Op op) {
        int size = comm.impl(call).size(), rank = comm.impl(call).rank();
        MPIException[] bad = new MPIException[1];
        int[] idx = null;
        int total = 0, before = 0;
        try {
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            int mine;
            if (recvcounts != null) {
                total = Comm.checkCounts(call, "recvcounts", recvcounts, size);
                for (int r = 0; r < rank; r++) before += recvcounts[r];
                mine = recvcounts[rank];
            } else {
                Comm.checkCount(call, "recvcount", recvcount);
                long t = (long) recvcount * size;
                if (t > Integer.MAX_VALUE) {
                    throw MPIException.of(MPI.ERR_COUNT, call + ": recvcount " + recvcount + " x " + size
                            + " ranks exceeds " + Integer.MAX_VALUE);
                }
                total = (int) t;
                before = recvcount * rank;
                mine = recvcount;
            }
            idx = ObjectParts.select(call, "recvbuf", "datatype", recvbuf, roff, mine, type);
        } catch (MPIException e) {
            bad[0] = e;
        }
        Object[] acc = allReduced(comm, call, sendbuf, soff, total, type, op, bad);
        int per = (int) ObjectParts.perItem(Comm.type(call, "datatype", type));
        Object[] block = java.util.Arrays.copyOfRange(acc, before * per, before * per + idx.length);
        ObjectParts.land(call, block, recvbuf, idx, "the reduction");
        return done(comm, nb);
    }

    /** This rank's objects serialized, or the MPIException that says why they cannot be. */
    private static byte[] serialized(String call, Object[] objects) {
        MPIException[] f = new MPIException[1];
        byte[] b = ObjectParts.trySerialize(call, objects, f);
        if (f[0] != null) throw f[0];
        return b;
    }
}
