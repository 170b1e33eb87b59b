package mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;

/**
 * MPI_Alltoallw / MPI_Ialltoallw: per-peer counts, datatypes and displacements in bytes. Every
 * type it takes is contiguous (no holes: predefined types, or derived ones whose size equals
 * their extent), so peer i's block is {@code count[i] × size(type[i])} bytes from byte
 * {@code displs[i]}, and the whole exchange is an allToAllv of bytes over the same memory. Both
 * backends run that allToAllv, so results are identical by construction.
 */
final class AllToAllw {
    private AllToAllw() {
    }

    /** The checked byte counts and displacements of one side, and its buffer as bytes. */
    private static final class Side {
        int[] bytes;
        int[] displs;
        Buf buf;
    }

    private static Side side(String call, BackendComm c, String bufName, Object buf, String countsName, int[] counts,
                             String displsName, int[] displs, String typesName, Datatype[] types, boolean writable) {
        int n = c.size();
        lengths(call, countsName, counts, n);
        lengths(call, displsName, displs, n);
        lengths(call, typesName, types, n);
        Side s = new Side();
        s.bytes = new int[n];
        s.displs = displs.clone();
        long end = 0;
        for (int i = 0; i < n; i++) {
            if (counts[i] < 0) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": " + countsName + "[" + i + "] = " + counts[i]
                        + " is negative");
            }
            if (displs[i] < 0) {
                throw MPIException.of(MPI.ERR_ARG, call + ": " + displsName + "[" + i + "] = " + displs[i]
                        + " is negative (displacements are bytes from the start of " + bufName + ")");
            }
            TypeDesc t = Comm.type(call, typesName + "[" + i + "]", types[i]);
            if (Comm.isObject(t)) {
                throw MPIException.of(MPI.ERR_TYPE, call + ": " + typesName + "[" + i + "] is MPI.OBJECT, which has no "
                        + "byte layout; allToAllw needs fixed-size types");
            }
            if (t.size != t.extent || t.lb != 0) {
                throw MPIException.of(MPI.ERR_TYPE, call + ": " + typesName + "[" + i + "] = " + t.name + " has holes "
                        + "(size " + t.size + ", extent " + t.extent + ", lb " + t.lb + "); allToAllw takes "
                        + "contiguous types");
            }
            // The element kind of the buffer must suit the type (the usual rule), even for an empty block.
            Buffers.resolve(call, bufName, buf, 0, 0, t, writable);
            long b = counts[i] * t.size;
            if (b > Integer.MAX_VALUE) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": " + countsName + "[" + i + "] = " + counts[i] + " of "
                        + t.name + " is " + b + " bytes, more than " + Integer.MAX_VALUE);
            }
            s.bytes[i] = (int) b;
            if (b > 0) end = Math.max(end, displs[i] + b);
        }
        if (end > Integer.MAX_VALUE) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": " + bufName + " would span " + end + " bytes, more than "
                    + Integer.MAX_VALUE);
        }
        s.buf = Buffers.resolve(call, bufName, buf, 0, (int) end, Predefined.T_BYTE, writable);
        return s;
    }

    private static void lengths(String call, String name, Object array, int n) {
        if (array == null) throw MPIException.of(MPI.ERR_ARG, call + ": " + name + " is null");
        int len = java.lang.reflect.Array.getLength(array);
        if (len != n) {
            throw MPIException.of(MPI.ERR_ARG, call + ": " + name + " has " + len + " entries but the communicator has "
                    + n + " ranks");
        }
    }

    static Request run(Comm comm, String call, boolean nb, Object sendbuf, int[] sendcounts, int[] sdispls,
                       Datatype[] sendtypes, Object recvbuf, int[] recvcounts, int[] rdispls, Datatype[] recvtypes) {
        BackendComm c = comm.impl(call);
        CallErrors.begin(c, call, nb);
        Throwable failure = null;
        try {
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            if (sendbuf == MPI.IN_PLACE) {
                throw MPIException.of(MPI.ERR_BUFFER, call + ": MPI.IN_PLACE is not supported as sendbuf of allToAllw");
            }
            Side s = side(call, c, "sendbuf", sendbuf, "sendcounts", sendcounts, "sdispls", sdispls, "sendtypes",
                    sendtypes, false);
            Side r = side(call, c, "recvbuf", recvbuf, "recvcounts", recvcounts, "rdispls", rdispls, "recvtypes",
                    recvtypes, true);
            TypeDesc b = Predefined.T_BYTE;
            if (!nb) {
                c.collectives().allToAllv(s.buf, s.bytes, s.displs, b, r.buf, r.bytes, r.displs, b);
                return null;
            }
            return comm.request(c.collectives().iAllToAllv(s.buf, s.bytes, s.displs, b, r.buf, r.bytes, r.displs, b),
                    new Object[] {sendbuf, recvbuf, s, r});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(comm, c, failure);
        }
    }
}
