package mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;

/**
 * MPI_Alltoallw / MPI_Ialltoallw: per-peer counts, datatypes and displacements in bytes. When
 * every type is contiguous (no holes: predefined types, or derived ones whose size equals their
 * extent and lb is 0), peer i's block is {@code count[i] × size(type[i])} bytes from byte
 * {@code displs[i]}, and the whole exchange is an allToAllv of bytes over the same memory (zero
 * copy). Otherwise (types with holes or a negative lower bound, or {@code MPI.IN_PLACE}) each
 * block is packed in type-map order into one contiguous byte buffer, the packed blocks move as
 * an allToAllv of bytes, and each arriving block is unpacked into its place with its receive
 * type, so the holes keep their contents. {@code MPI.IN_PLACE} (MPI-2.2) takes the data sent to
 * peer i from the receive buffer as recvcounts[i], rdispls[i], recvtypes[i] describe it, all
 * packed before anything arrives. Both backends run the same allToAllv, so results are identical
 * by construction.
 */
final class AllToAllw {
    private AllToAllw() {
    }

    /** The checked byte counts and displacements of one side, and its buffer as bytes. */
    private static final class Side {
        int[] bytes;
        int[] displs;
        Buf buf;
        TypeDesc[] types;
        int[] counts;
        /** Whether some block's type has holes or data before its start: the blocks are packed. */
        boolean holes;
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
        s.types = new TypeDesc[n];
        s.counts = counts.clone();
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
            s.types[i] = t;
            if (t.size != t.extent || t.lb != 0 || Buffers.lowestByte(counts[i], t) < 0) s.holes |= counts[i] > 0;
            // The element kind of the buffer must suit the type (the usual rule), even for an empty block.
            Buffers.resolve(call, bufName, buf, 0, 0, t, writable);
            long low = displs[i] + Buffers.lowestByte(counts[i], t);
            if (low < 0) {
                throw MPIException.of(MPI.ERR_BUFFER, call + ": " + countsName + "[" + i + "] = " + counts[i] + " of "
                        + t.name + " at " + displsName + "[" + i + "] = " + displs[i] + " reach byte " + low + ", before "
                        + "the start of " + bufName + " (the type's true lower bound is "
                        + Buffers.lowestByte(counts[i], t) + " bytes)");
            }
            long b = counts[i] * t.size;
            if (b > Integer.MAX_VALUE) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": " + countsName + "[" + i + "] = " + counts[i] + " of "
                        + t.name + " is " + b + " bytes, more than " + Integer.MAX_VALUE);
            }
            long span = Buffers.spanBytes(counts[i], t);
            s.bytes[i] = (int) b;
            if (counts[i] > 0) end = Math.max(end, displs[i] + span);
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
            Comm.noNegativeExtent(call, "allToAllw", sendtypes); // inside the call: peers learn of the refusal
            Comm.noNegativeExtent(call, "allToAllw", recvtypes);
            if (ObjectParts.involvedAny(sendtypes, recvtypes)) { // MPI.OBJECT and types over it (issue 10)
                return ObjectAllToAllw.run(comm, call, nb, c, sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                        recvcounts, rdispls, recvtypes);
            }
            Comm.checkNotAliased(call, sendbuf, recvbuf);
            boolean inPlace = sendbuf == MPI.IN_PLACE;
            Side s = inPlace ? null : side(call, c, "sendbuf", sendbuf, "sendcounts", sendcounts, "sdispls", sdispls,
                    "sendtypes", sendtypes, false);
            Side r = side(call, c, "recvbuf", recvbuf, "recvcounts", recvcounts, "rdispls", rdispls, "recvtypes",
                    recvtypes, true);
            TypeDesc b = Predefined.T_BYTE;
            if (!inPlace && !s.holes && !r.holes) {
                if (!nb) {
                    c.collectives().allToAllv(s.buf, s.bytes, s.displs, b, r.buf, r.bytes, r.displs, b);
                    return null;
                }
                return comm.request(c.collectives().iAllToAllv(s.buf, s.bytes, s.displs, b, r.buf, r.bytes, r.displs,
                        b), new Object[] {sendbuf, recvbuf, s, r});
            }
            // Packed: the send side's blocks (the receive buffer's, in place) one after the other.
            Side from = inPlace ? r : s;
            int[] sPacked = packedDispls(call, "sendcounts", from.bytes);
            int[] rPacked = packedDispls(call, "recvcounts", r.bytes);
            Buf sw = packedArea(sPacked, from.bytes);
            Buf rw = packedArea(rPacked, r.bytes);
            for (int i = 0; i < from.types.length; i++) {
                packAt(from.buf, from.displs[i], from.types[i], from.counts[i], sw, sPacked[i]);
            }
            Runnable unpack = () -> {
                for (int i = 0; i < r.types.length; i++) {
                    unpackAt(rw, rPacked[i], r.buf, r.displs[i], r.types[i], r.counts[i], r.bytes[i]);
                }
            };
            if (!nb) {
                c.collectives().allToAllv(sw, from.bytes, sPacked, b, rw, r.bytes, rPacked, b);
                unpack.run();
                return null;
            }
            return comm.request(io.github.mpi4j.buffer.AfterCompletion.of(
                    c.collectives().iAllToAllv(sw, from.bytes, sPacked, b, rw, r.bytes, rPacked, b), unpack),
                    new Object[] {sendbuf, recvbuf, s, r, sw, rw});
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            CallErrors.end(comm, c, failure);
        }
    }

    // ---- packing of blocks with holes (and of IN_PLACE) ----

    /** Where each peer's packed block starts: the blocks one after the other. */
    private static int[] packedDispls(String call, String countsName, int[] bytes) {
        int[] d = new int[bytes.length];
        long at = 0;
        for (int i = 0; i < bytes.length; i++) {
            d[i] = (int) at;
            at += bytes[i];
            if (at > Integer.MAX_VALUE) {
                throw MPIException.of(MPI.ERR_COUNT, call + ": the packed blocks of " + countsName + " take " + at
                        + " bytes, more than " + Integer.MAX_VALUE);
            }
        }
        return d;
    }

    private static Buf packedArea(int[] displs, int[] bytes) {
        int n = displs.length == 0 ? 0 : displs[displs.length - 1] + bytes[bytes.length - 1];
        return new Buf(new byte[n], io.github.mpi4j.spi.BaseKind.BYTE, 0, n);
    }

    /** Packs {@code count} items of {@code t} starting {@code from} bytes into {@code user}. */
    private static void packAt(Buf user, long from, TypeDesc t, int count, Buf packed, long at) {
        if (count == 0) return;
        if (t.derived instanceof io.github.mpi4j.spi.TypeMap) {
            io.github.mpi4j.buffer.TypeMapCopy.packFrom(user, from, t, count, packed, at);
        } else {
            io.github.mpi4j.buffer.BufAccess.copy(user, from, packed, at, (long) count * t.extent);
        }
    }

    private static void unpackAt(Buf packed, long at, Buf user, long to, TypeDesc t, int count, long bytes) {
        if (count == 0) return;
        if (t.derived instanceof io.github.mpi4j.spi.TypeMap) {
            io.github.mpi4j.buffer.TypeMapCopy.unpackTo(packed, at, user, to, t, count, bytes);
        } else {
            io.github.mpi4j.buffer.BufAccess.copy(packed, at, user, to, bytes);
        }
    }
}
