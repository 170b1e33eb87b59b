package mpi;

import io.github.mpi4j.spi.BackendComm;

/**
 * {@code allToAllw} / {@code iAllToAllw} with {@code MPI.OBJECT} or derived types over it
 * (issue 10). Every send and receive type must then be one of those (a buffer is an
 * {@code Object[]}); displacements, which MPI counts in bytes, count elements of the
 * {@code Object[]} (the extent of {@code MPI.OBJECT} is 1, as in the byte displacements of
 * {@code Hvector}/{@code Hindexed} over it). Peer i's block is {@code counts[i]} items of
 * {@code types[i]} from element {@code displs[i]}; the blocks are flattened to plain
 * {@code Object[]}s in type-map order, exchanged as the {@code MPI.OBJECT} all-to-allv of
 * {@link ObjectCollectives} (counts in objects), and what arrives is written back to the
 * elements the receive types select; the others stay untouched. {@code MPI.IN_PLACE} takes
 * the data for peer i from the receive buffer as its block i describes. The non-blocking form
 * completes before it returns.
 */
final class ObjectAllToAllw {
    private ObjectAllToAllw() {
    }

    private static void lengths(String call, String name, Object array, int n) {
        if (array == null) throw MPIException.of(MPI.ERR_ARG, call + ": " + name + " is null");
        int len = java.lang.reflect.Array.getLength(array);
        if (len != n) {
            throw MPIException.of(MPI.ERR_ARG, call + ": " + name + " has " + len + " entries but the communicator has "
                    + n + " ranks");
        }
    }

    /** Per-peer selections of one side, all in one index array; flat counts and displacements out. */
    private static int[] side(String call, String bufName, Object buf, String countsName, int[] counts,
                              String displsName, int[] displs, String typesName, Datatype[] types, int n,
                              int[] flatCounts, int[] flatDispls) {
        lengths(call, countsName, counts, n);
        lengths(call, displsName, displs, n);
        lengths(call, typesName, types, n);
        int[][] each = new int[n][];
        long total = 0;
        for (int i = 0; i < n; i++) {
            if (displs[i] < 0) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + displsName + "[" + i + "] = " + displs[i]
                        + " is negative (with MPI.OBJECT, displacements count elements of " + bufName + ")");
            }
            if (!ObjectParts.isObjectish(types[i])) {
                Comm.type(call, typesName + "[" + i + "]", types[i]);
                throw MPIException.of(MPI.ERR_TYPE, call + ": " + typesName + "[" + i + "] is "
                        + types[i].desc.name + ", but another datatype of the call is MPI.OBJECT or built over it; "
                        + "objects and byte data cannot share an allToAllw");
            }
            each[i] = ObjectParts.select(call, bufName, typesName + "[" + i + "]", buf, displs[i], counts[i], types[i]);
            flatDispls[i] = (int) total;
            flatCounts[i] = each[i].length;
            total += each[i].length;
            if (total > Integer.MAX_VALUE - 8) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": " + bufName + " selects more objects than an array "
                        + "can hold");
            }
        }
        int[] all = new int[(int) total];
        for (int i = 0; i < n; i++) System.arraycopy(each[i], 0, all, flatDispls[i], each[i].length);
        return all;
    }

    static Request run(Comm comm, String call, boolean nb, BackendComm c, Object sendbuf, int[] sendcounts,
                       int[] sdispls, Datatype[] sendtypes, Object recvbuf, int[] recvcounts, int[] rdispls,
                       Datatype[] recvtypes) {
        int n = c.size();
        Comm.checkNotAliased(call, sendbuf, recvbuf);
        boolean inPlace = sendbuf == MPI.IN_PLACE;
        int[] sc = new int[n], sd = new int[n], rc = new int[n], rd = new int[n];
        int[] sIdx = inPlace ? null : side(call, "sendbuf", sendbuf, "sendcounts", sendcounts, "sdispls", sdispls,
                "sendtypes", sendtypes, n, sc, sd);
        int[] rIdx = side(call, "recvbuf", recvbuf, "recvcounts", recvcounts, "rdispls", rdispls, "recvtypes",
                recvtypes, n, rc, rd);
        Object[] flatRecv = ObjectParts.take(recvbuf, rIdx); // parts not written come back as they were
        Object flatSend = inPlace ? MPI.IN_PLACE : ObjectParts.take(sendbuf, sIdx);
        ObjectCollectives.allToAllv(call, c, flatSend, 0, sc, sd, flatRecv, 0, rc, rd);
        if (rIdx.length > 0) {
            Object[] a = (Object[]) recvbuf;
            for (int i = 0; i < rIdx.length; i++) a[rIdx[i]] = flatRecv[i];
        }
        return nb ? Request.completed(comm.session) : null;
    }
}
