package mpi;

import static mpi.ObjectMessages.BYTES;
import static mpi.ObjectMessages.FAILED;
import static mpi.ObjectMessages.INTS;
import static mpi.ObjectMessages.buffer;
import static mpi.ObjectMessages.bytes;
import static mpi.ObjectMessages.concat;
import static mpi.ObjectMessages.deserialize;
import static mpi.ObjectMessages.displacements;
import static mpi.ObjectMessages.firstFailed;
import static mpi.ObjectMessages.ints;
import static mpi.ObjectMessages.objects;
import static mpi.ObjectMessages.peerFailed;
import static mpi.ObjectMessages.store;
import static mpi.ObjectMessages.total;
import static mpi.ObjectMessages.trySerialize;
import static mpi.ObjectMessages.withoutFailed;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.OpDesc;
import java.util.Arrays;

/**
 * {@code MPI.OBJECT} in the rooted and irregular collectives (mpiJava 1.2 / MPJ Express):
 * {@code Gather}, {@code Scatter} and their v-forms, {@code Allgatherv}, {@code Alltoallv},
 * {@code Scan}/{@code Exscan} and {@code Reduce_scatter}(_block) with user ops.
 *
 * <p>Counts and displacements count objects, offsets are indices into the {@code Object[]},
 * as in mpiJava. Each rank's part travels as one serialized {@code Object[]}: the sizes go
 * first (a rank that cannot serialize its part sends {@link ObjectMessages#FAILED}, so the
 * others throw in the same call instead of waiting), then the bytes through the backend's
 * byte collectives. Reductions ({@code Scan}, {@code Reduce_scatter}) gather every part at rank
 * 0, combine them there in rank order (right for non-commutative ops) and scatter the results;
 * a failure at rank 0 (a peer's serialization, a refused message, the user's op throwing)
 * reaches every rank through that scatter. Each rank receives deserialized copies, never the
 * sender's objects.
 */
final class ObjectCollectives {
    private ObjectCollectives() {
    }

    private static final byte[] NOTHING = new byte[0];

    /** Whether any datatype this rank passed is MPI.OBJECT (the ones MPI ignores here too, as all ranks agree). */
    static boolean anyObject(Datatype... types) {
        for (Datatype t : types) {
            if (t != null && t.desc != null && Comm.isObject(t.desc)) return true;
        }
        return false;
    }

    static MPIException inPlaceNotRoot(String call, int root, int rank) {
        return MPIException.of(MPI.ERR_BUFFER, call + ": MPI.IN_PLACE is only allowed at the root (rank " + root
                + "), this is rank " + rank);
    }

    private static int times(String call, String arg, int count, int size) {
        long n = (long) count * size;
        if (n > Integer.MAX_VALUE) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": " + arg + " " + count + " x " + size + " ranks exceeds "
                    + Integer.MAX_VALUE + " objects");
        }
        return (int) n;
    }

    private static int[] uniform(int count, int n) {
        int[] a = new int[n];
        Arrays.fill(a, count);
        return a;
    }

    private static int[] strided(int count, int n) {
        int[] a = new int[n];
        for (int r = 0; r < n; r++) a[r] = r * count;
        return a;
    }

    // ---- the two moves everything here is made of -------------------------------------------

    /**
     * Every rank's {@code count} objects from {@code src[off]}, decoded at {@code root} (one
     * {@code Object[]} per rank; null elsewhere). {@code none}: this rank contributes nothing (the
     * root of an in-place call), and its entry stays null. Throws at the rank that could not
     * serialize its part, and at the root when any part failed or was refused.
     */
    static Object[][] gatherParts(String call, BackendComm c, Object[] src, int off, int count, boolean none,
                                  int root) {
        int n = c.size();
        boolean isRoot = c.rank() == root;
        MPIException[] failure = new MPIException[1];
        byte[] mine = none ? NOTHING : trySerialize(call, src, off, count, failure);
        if (mine == null) mine = NOTHING;
        int[] lens = new int[n];
        int[] displs;
        byte[] all;
        try {
            c.collectives().gather(ints(new int[] {failure[0] != null ? FAILED : mine.length}), 1, INTS,
                    isRoot ? ints(lens) : null, 1, INTS, root);
            // Only the root knows of a failure now: the data exchange runs anyway, failed parts empty.
            int[] sizes = withoutFailed(lens);
            displs = displacements(sizes);
            all = isRoot ? buffer(call, total(sizes)) : null;
            c.collectives().gatherv(bytes(mine), mine.length, BYTES, isRoot ? bytes(all) : null, sizes, displs,
                    BYTES, root);
        } catch (RuntimeException e) {
            throw ObjectMessages.ownFirst(failure[0], e);
        }
        if (failure[0] != null) throw failure[0];
        if (!isRoot) return null;
        int failed = firstFailed(lens);
        if (failed >= 0) throw peerFailed(call, failed);
        Object[][] parts = new Object[n][];
        for (int r = 0; r < n; r++) {
            if (!(none && r == root)) parts[r] = deserialize(call, all, displs[r], lens[r]);
        }
        return parts;
    }

    /**
     * Scatters the root's serialized parts ({@code parts[r]} for rank r); returns this rank's
     * bytes, or null at every rank when {@code rootFailed} (the root then sends no data: each
     * caller throws, the root its own exception, the others one naming the root).
     */
    static byte[] scatterParts(String call, BackendComm c, byte[][] parts, boolean rootFailed, int root) {
        int n = c.size();
        boolean isRoot = c.rank() == root;
        int[] lens = new int[n];
        byte[] all = null;
        if (isRoot) {
            if (rootFailed) {
                Arrays.fill(lens, FAILED);
            } else {
                for (int r = 0; r < n; r++) lens[r] = parts[r].length;
                all = concat(parts, lens);
            }
        }
        int[] mine = new int[1];
        c.collectives().scatter(isRoot ? ints(lens) : null, 1, INTS, ints(mine), 1, INTS, root);
        // The root's FAILED reached every rank: all skip the data exchange alike.
        if (mine[0] == FAILED) return null;
        byte[] b = buffer(call, mine[0]);
        c.collectives().scatterv(isRoot ? bytes(all) : null, lens, displacements(lens), BYTES, bytes(b), b.length,
                BYTES, root);
        return b;
    }

    private static MPIException rootFailed(String call, int root, String what) {
        return MPIException.of(MPI.ERR_OTHER, call + ": " + what + " at rank " + root
                + " failed (the exception on rank " + root + " says why)");
    }

    // ---- gather ------------------------------------------------------------------------------

    static void gather(String call, BackendComm c, Object sendbuf, int soff, int sendcount, Object recvbuf,
                       int roff, int recvcount, int root) {
        int n = c.size();
        int span = 0;
        if (c.rank() == root) { // recvcount means nothing elsewhere
            Comm.checkCount(call, "recvcount", recvcount);
            span = times(call, "recvcount", recvcount, n);
        }
        gathervChecked(call, c, sendbuf, soff, sendcount, recvbuf, roff, uniform(recvcount, n),
                strided(recvcount, n), span, root);
    }

    static void gatherv(String call, BackendComm c, Object sendbuf, int soff, int sendcount, Object recvbuf,
                        int roff, int[] recvcounts, int[] displs, int root) {
        int span = c.rank() == root
                ? Comm.checkCountsDispls(call, "recvcounts", recvcounts, "displs", displs, c.size()) : 0;
        gathervChecked(call, c, sendbuf, soff, sendcount, recvbuf, roff, recvcounts, displs, span, root);
    }

    /** Rank r's objects land at {@code recvbuf[roff + displs[r]]}, at most {@code recvcounts[r]} of them. */
    private static void gathervChecked(String call, BackendComm c, Object sendbuf, int soff, int sendcount,
                                       Object recvbuf, int roff, int[] recvcounts, int[] displs, int span,
                                       int root) {
        boolean isRoot = c.rank() == root;
        boolean inPlace = sendbuf == MPI.IN_PLACE;
        if (inPlace && !isRoot) throw inPlaceNotRoot(call, root, c.rank());
        Object[] dst = isRoot ? objects(call, "recvbuf", recvbuf, roff, span) : null;
        Object[] src = inPlace ? null : objects(call, "sendbuf", sendbuf, soff, sendcount);
        Object[][] parts = gatherParts(call, c, src, soff, sendcount, inPlace, root);
        if (!isRoot) return;
        for (int r = 0; r < parts.length; r++) {
            if (parts[r] != null) store(call, parts[r], dst, roff + displs[r], recvcounts[r]);
        }
    }

    // ---- scatter -----------------------------------------------------------------------------

    static void scatter(String call, BackendComm c, Object sendbuf, int soff, int sendcount, Object recvbuf,
                        int roff, int recvcount, int root) {
        int n = c.size();
        boolean isRoot = c.rank() == root;
        int span = 0;
        if (isRoot) {
            Comm.checkCount(call, "sendcount", sendcount);
            span = times(call, "sendcount", sendcount, n);
        }
        scattervChecked(call, c, sendbuf, soff, uniform(sendcount, n), strided(sendcount, n), span, recvbuf, roff,
                recvcount, root);
    }

    static void scatterv(String call, BackendComm c, Object sendbuf, int soff, int[] sendcounts, int[] displs,
                         Object recvbuf, int roff, int recvcount, int root) {
        int span = c.rank() == root
                ? Comm.checkCountsDispls(call, "sendcounts", sendcounts, "displs", displs, c.size()) : 0;
        scattervChecked(call, c, sendbuf, soff, sendcounts, displs, span, recvbuf, roff, recvcount, root);
    }

    /** Rank r receives {@code sendbuf[soff + displs[r]]}, {@code sendcounts[r]} objects. */
    private static void scattervChecked(String call, BackendComm c, Object sendbuf, int soff, int[] sendcounts,
                                        int[] displs, int span, Object recvbuf, int roff, int recvcount, int root) {
        int n = c.size();
        boolean isRoot = c.rank() == root;
        boolean inPlace = recvbuf == MPI.IN_PLACE;
        if (inPlace && !isRoot) throw inPlaceNotRoot(call, root, c.rank());
        Object[] dst = inPlace ? null : objects(call, "recvbuf", recvbuf, roff, recvcount);
        byte[][] parts = null;
        MPIException[] failure = new MPIException[1];
        if (isRoot) {
            Object[] src = objects(call, "sendbuf", sendbuf, soff, span);
            parts = new byte[n][];
            for (int r = 0; r < n && failure[0] == null; r++) {
                parts[r] = inPlace && r == root ? NOTHING
                        : trySerialize(call, src, soff + displs[r], sendcounts[r], failure);
            }
        }
        byte[] b;
        try {
            b = scatterParts(call, c, parts, failure[0] != null, root);
        } catch (RuntimeException e) {
            throw ObjectMessages.ownFirst(failure[0], e);
        }
        if (failure[0] != null) throw failure[0];
        if (b == null) throw peerFailed(call, root);
        if (!inPlace) store(call, deserialize(call, b, 0, b.length), dst, roff, recvcount);
    }

    // ---- allGatherv, allToAllv -------------------------------------------------------------

    /** Rank r's objects land at {@code recvbuf[roff + displs[r]]} on every rank. */
    static void allGatherv(String call, BackendComm c, Object sendbuf, int soff, int sendcount, Object recvbuf,
                           int roff, int[] recvcounts, int[] displs) {
        int n = c.size();
        int me = c.rank();
        int span = Comm.checkCountsDispls(call, "recvcounts", recvcounts, "displs", displs, n);
        Object[] dst = objects(call, "recvbuf", recvbuf, roff, span);
        boolean inPlace = sendbuf == MPI.IN_PLACE;
        MPIException[] failure = new MPIException[1];
        byte[] mine = inPlace
                ? trySerialize(call, dst, roff + displs[me], recvcounts[me], failure)
                : trySerialize(call, objects(call, "sendbuf", sendbuf, soff, sendcount), soff, sendcount, failure);
        int[] lens = new int[n];
        try {
            c.collectives().allGather(ints(new int[] {mine == null ? FAILED : mine.length}), 1, INTS, ints(lens), 1,
                    INTS);
        } catch (RuntimeException e) {
            throw ObjectMessages.ownFirst(failure[0], e);
        }
        // Every rank sees the same sizes: all skip the data exchange if one failed.
        if (failure[0] != null) throw failure[0];
        int failed = firstFailed(lens);
        if (failed >= 0) throw peerFailed(call, failed);
        int[] at = displacements(lens);
        byte[] all = buffer(call, total(lens));
        c.collectives().allGatherv(bytes(mine), mine.length, BYTES, bytes(all), lens, at, BYTES);
        Object[][] got = new Object[n][];
        for (int r = 0; r < n; r++) {
            if (!(inPlace && r == me)) got[r] = deserialize(call, all, at[r], lens[r]);
        }
        for (int r = 0; r < n; r++) {
            if (got[r] != null) store(call, got[r], dst, roff + displs[r], recvcounts[r]);
        }
    }

    /**
     * Rank r gets {@code sendbuf[soff + sdispls[r]]} ({@code sendcounts[r]} objects) of every
     * rank at {@code recvbuf[roff + rdispls[src]]}. In place, the parts sent are read from
     * {@code recvbuf} with the receive counts and displacements, all before anything is stored.
     */
    static void allToAllv(String call, BackendComm c, Object sendbuf, int soff, int[] sendcounts, int[] sdispls,
                          Object recvbuf, int roff, int[] recvcounts, int[] rdispls) {
        int n = c.size();
        int rSpan = Comm.checkCountsDispls(call, "recvcounts", recvcounts, "rdispls", rdispls, n);
        Object[] dst = objects(call, "recvbuf", recvbuf, roff, rSpan);
        Object[] src;
        int off;
        if (sendbuf == MPI.IN_PLACE) {
            src = dst;
            off = roff;
            sendcounts = recvcounts;
            sdispls = rdispls;
        } else {
            int sSpan = Comm.checkCountsDispls(call, "sendcounts", sendcounts, "sdispls", sdispls, n);
            src = objects(call, "sendbuf", sendbuf, soff, sSpan);
            off = soff;
        }
        byte[][] parts = new byte[n][];
        int[] sendLens = new int[n];
        MPIException[] failure = new MPIException[1];
        for (int r = 0; r < n && failure[0] == null; r++) {
            parts[r] = trySerialize(call, src, off + sdispls[r], sendcounts[r], failure);
            if (parts[r] != null) sendLens[r] = parts[r].length;
        }
        if (failure[0] != null) Arrays.fill(sendLens, FAILED);
        int[] recvLens = new int[n];
        try {
            c.collectives().allToAll(ints(sendLens), 1, INTS, ints(recvLens), 1, INTS);
        } catch (RuntimeException e) {
            throw ObjectMessages.ownFirst(failure[0], e);
        }
        // A rank that failed sent FAILED to every rank: all skip the data exchange.
        if (failure[0] != null) throw failure[0];
        int failed = firstFailed(recvLens);
        if (failed >= 0) throw peerFailed(call, failed);
        int[] at = displacements(recvLens);
        byte[] all = buffer(call, total(recvLens));
        c.collectives().allToAllv(bytes(concat(parts, sendLens)), sendLens, displacements(sendLens), BYTES,
                bytes(all), recvLens, at, BYTES);
        Object[][] got = new Object[n][];
        for (int r = 0; r < n; r++) got[r] = deserialize(call, all, at[r], recvLens[r]);
        for (int r = 0; r < n; r++) store(call, got[r], dst, roff + rdispls[r], recvcounts[r]);
    }

    // ---- reductions computed at rank 0 --------------------------------------------------------

    /**
     * Inclusive ({@code v0 op ... op v_rank}) or exclusive ({@code v0 op ... op v_(rank-1)};
     * rank 0's recvbuf is left as it is) prefix reduction of {@code count} objects.
     */
    static void scan(String call, BackendComm c, boolean exclusive, Object sendbuf, int soff, Object recvbuf,
                     int roff, int count, OpDesc op, Datatype type) {
        int n = c.size();
        Object[] dst = objects(call, "recvbuf", recvbuf, roff, count);
        boolean inPlace = sendbuf == MPI.IN_PLACE;
        Object[] src = inPlace ? dst : objects(call, "sendbuf", sendbuf, soff, count);
        RuntimeException failure = null;
        byte[][] results = null;
        try {
            Object[][] parts = gatherParts(call, c, src, inPlace ? roff : soff, count, false, 0);
            if (parts != null) {
                // Each prefix is serialized as soon as it is made: the op may change its objects later.
                results = new byte[n][];
                Object[] acc = parts[0];
                results[0] = exclusive ? NOTHING : ObjectMessages.serialize(call, acc, 0, count);
                for (int r = 1; r < n; r++) {
                    if (exclusive) results[r] = ObjectMessages.serialize(call, acc, 0, count);
                    acc = ObjectMessages.combine(call, acc, parts[r], r, count, op, type);
                    if (!exclusive) results[r] = ObjectMessages.serialize(call, acc, 0, count);
                }
            }
        } catch (RuntimeException e) {
            failure = e; // this rank's own: its serialization, or (at rank 0) a peer's, a refusal, the op
        }
        byte[] b;
        try {
            b = scatterParts(call, c, results, c.rank() == 0 && failure != null, 0);
        } catch (RuntimeException e) {
            throw ObjectMessages.ownFirst(failure, e);
        }
        if (failure != null) throw failure;
        if (b == null) throw rootFailed(call, 0, "the reduction");
        if (exclusive && c.rank() == 0) return;
        store(call, deserialize(call, b, 0, b.length), dst, roff, count);
    }

    /** Reduce_scatter_block: every rank gets {@code recvcount} objects of the reduction. */
    static void reduceScatterBlock(String call, BackendComm c, Object sendbuf, int soff, Object recvbuf, int roff,
                                   int recvcount, OpDesc op, Datatype type) {
        Comm.checkCount(call, "recvcount", recvcount);
        int n = c.size();
        times(call, "recvcount", recvcount, n);
        reduceScatter(call, c, sendbuf, soff, recvbuf, roff, uniform(recvcount, n), op, type);
    }

    /**
     * The element-wise reduction of every rank's {@code sum(recvcounts)} objects, rank r getting
     * {@code recvcounts[r]} of them from index {@code recvcounts[0] + ... + recvcounts[r-1]}. In
     * place, each rank's contribution is read from {@code recvbuf} and its part of the result is
     * stored at the start of {@code recvbuf}, as MPI specifies.
     */
    static void reduceScatter(String call, BackendComm c, Object sendbuf, int soff, Object recvbuf, int roff,
                              int[] recvcounts, OpDesc op, Datatype type) {
        int n = c.size();
        int all = Comm.checkCounts(call, "recvcounts", recvcounts, n);
        boolean inPlace = sendbuf == MPI.IN_PLACE;
        Object[] dst = objects(call, "recvbuf", recvbuf, roff, inPlace ? all : recvcounts[c.rank()]);
        Object[] src = inPlace ? dst : objects(call, "sendbuf", sendbuf, soff, all);
        RuntimeException failure = null;
        byte[][] results = null;
        try {
            Object[][] parts = gatherParts(call, c, src, inPlace ? roff : soff, all, false, 0);
            if (parts != null) {
                Object[] acc = parts[0];
                for (int r = 1; r < n; r++) acc = ObjectMessages.combine(call, acc, parts[r], r, all, op, type);
                results = new byte[n][];
                int at = 0;
                for (int r = 0; r < n; r++) {
                    results[r] = ObjectMessages.serialize(call, acc, at, recvcounts[r]);
                    at += recvcounts[r];
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        byte[] b;
        try {
            b = scatterParts(call, c, results, c.rank() == 0 && failure != null, 0);
        } catch (RuntimeException e) {
            throw ObjectMessages.ownFirst(failure, e);
        }
        if (failure != null) throw failure;
        if (b == null) throw rootFailed(call, 0, "the reduction");
        store(call, deserialize(call, b, 0, b.length), dst, roff, recvcounts[c.rank()]);
    }
}
