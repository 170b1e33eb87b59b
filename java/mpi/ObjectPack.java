package mpi;

import io.github.mpi4j.spi.TypeDesc;

/**
 * {@code pack}/{@code unpack} ({@code Pack}/{@code Unpack}) of {@code MPI.OBJECT} and derived
 * types over it (issue 10). The items select elements of an {@code Object[]} as in a send
 * (offset and extents in elements, type-map order); {@code pack} writes, from {@code position},
 * a 4-byte big-endian length followed by one serialized {@code Object[]} of the selected objects
 * (a plain {@code MPI.OBJECT} message), and returns the position after it. {@code unpack} reads
 * that length, decodes the objects behind the deserialization filter of
 * {@link ObjectMessages#deserialize}, stores them into the first elements its own type selects
 * (the others, and the holes of the type, stay untouched; more objects than selected is
 * {@code MPI.ERR_TRUNCATE}) and returns the position after the packed data. The packed size
 * depends on the objects, so {@code packSize} cannot know it (mpiJava 1.2 makes
 * {@code Pack_size} of {@code MPI.OBJECT} an error): it is refused, and {@code pack} into a
 * {@code byte[]} that is too small throws {@code MPI.ERR_BUFFER} saying how many bytes it needs.
 */
final class ObjectPack {
    private ObjectPack() {
    }

    static boolean isObjectish(TypeDesc t) {
        return Comm.isObject(t) || ObjectTypes.isObjectDerived(t);
    }

    static MPIException noPackSize(String call, TypeDesc t) {
        return MPIException.of(MPI.ERR_TYPE, call + ": datatype " + t.name + (Comm.isObject(t) ? ""
                : " (built over MPI.OBJECT)") + " has no fixed packed size: objects are packed serialized, so the "
                + "size depends on them (mpiJava 1.2: Pack_size of MPI.OBJECT is an error); pack into a large "
                + "enough byte[] (pack says how many bytes it needs if it is not)");
    }

    private static void area(String call, String arg, byte[] area, int position) {
        if (area == null) throw MPIException.of(MPI.ERR_BUFFER, call + ": " + arg + " is null");
        if (position < 0 || position > area.length) {
            throw MPIException.of(MPI.ERR_ARG, call + ": position " + position + " is not in [0, " + area.length + "]");
        }
    }

    static int pack(String call, Object inbuf, int offset, int incount, Datatype type, byte[] outbuf, int position) {
        TypeDesc t = Comm.type(call, "datatype", type);
        int[] idx = ObjectTypeCollectives.select(call, "inbuf", inbuf, checkedOffset(call, "inbuf", offset),
                checkedCount(call, "incount", incount), t);
        area(call, "outbuf", outbuf, position);
        byte[] b = ObjectMessages.serialize(call, ObjectParts.take(inbuf, idx), 0, idx.length);
        long need = 4L + b.length;
        if (need > outbuf.length - position) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": the " + idx.length + " packed objects take " + need
                    + " bytes (4 of length, " + b.length + " serialized) but outbuf (byte[" + outbuf.length + "]) has "
                    + (outbuf.length - position) + " from position " + position);
        }
        int p = position;
        outbuf[p] = (byte) (b.length >>> 24);
        outbuf[p + 1] = (byte) (b.length >>> 16);
        outbuf[p + 2] = (byte) (b.length >>> 8);
        outbuf[p + 3] = (byte) b.length;
        System.arraycopy(b, 0, outbuf, p + 4, b.length);
        return (int) (position + need);
    }

    static int unpack(String call, byte[] inbuf, int position, Object outbuf, int offset, int outcount,
                      Datatype type) {
        TypeDesc t = Comm.type(call, "datatype", type);
        int[] idx = ObjectTypeCollectives.select(call, "outbuf", outbuf, checkedOffset(call, "outbuf", offset),
                checkedCount(call, "outcount", outcount), t);
        area(call, "inbuf", inbuf, position);
        if (inbuf.length - position < 4) {
            throw MPIException.of(MPI.ERR_TRUNCATE, call + ": inbuf (byte[" + inbuf.length + "]) has no packed "
                    + "MPI.OBJECT data at position " + position + " (no room for its 4-byte length)");
        }
        int p = position;
        int len = (inbuf[p] & 0xff) << 24 | (inbuf[p + 1] & 0xff) << 16 | (inbuf[p + 2] & 0xff) << 8
                | (inbuf[p + 3] & 0xff);
        if (len <= 0 || len > inbuf.length - position - 4) {
            throw MPIException.of(MPI.ERR_TRUNCATE, call + ": the packed MPI.OBJECT data at position " + position
                    + " claims " + len + " bytes but inbuf (byte[" + inbuf.length + "]) has "
                    + (inbuf.length - position - 4) + " after its length (not data packed by pack?)");
        }
        Object[] got = ObjectMessages.deserialize(call, inbuf, p + 4, len);
        if (got.length > idx.length) {
            throw MPIException.of(MPI.ERR_TRUNCATE, call + ": the packed data holds " + got.length + " objects but "
                    + outcount + " items of " + t.name + " select " + idx.length);
        }
        ObjectParts.land(call, got, outbuf, idx, "the packed data");
        return position + 4 + len;
    }

    private static int checkedOffset(String call, String arg, int offset) {
        if (offset < 0) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": " + arg + " offset must be >= 0, got " + offset);
        }
        return offset;
    }

    private static int checkedCount(String call, String arg, int count) {
        if (count < 0) throw MPIException.of(MPI.ERR_COUNT, call + ": " + arg + " must be >= 0, got " + count);
        return count;
    }
}
