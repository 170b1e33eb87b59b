package mpi;

import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;

/**
 * The pieces the remaining object calls share (intercommunicator and neighbour collectives,
 * allToAllw, pack/unpack; issue 10): which calls involve {@code MPI.OBJECT} or a type over it,
 * the elements a buffer's items select (see {@link ObjectTypeCollectives#select}), and storing
 * what arrived into a selection. Each part of an exchange is one serialized {@code Object[]}
 * (exactly a plain {@code MPI.OBJECT} message), decoded behind the filter of
 * {@link ObjectMessages#deserialize}.
 */
final class ObjectParts {
    private ObjectParts() {
    }

    static final byte[] NOTHING = new byte[0];

    /** Whether {@code t} is MPI.OBJECT or built over it. */
    static boolean isObjectish(Datatype t) {
        return t != null && t.desc != null && (Comm.isObject(t.desc) || ObjectTypes.isObjectDerived(t.desc));
    }

    /** Whether any of the given datatypes is MPI.OBJECT or built over it. */
    static boolean involved(Datatype... types) {
        for (Datatype t : types) if (isObjectish(t)) return true;
        return false;
    }

    /** Whether any of the given datatypes is MPI.OBJECT or built over it. */
    static boolean involvedAny(Datatype[]... lists) {
        for (Datatype[] l : lists) {
            if (l != null && involved(l)) return true;
        }
        return false;
    }

    /** Extent of one item, in elements of the Object[] (MPI.OBJECT: 1). */
    static long extent(TypeDesc t) {
        return Comm.isObject(t) ? 1 : t.extent;
    }

    /** Objects one item of {@code t} selects. */
    static long perItem(TypeDesc t) {
        return Comm.isObject(t) ? 1 : ((TypeMap) t.derived).leafItems;
    }

    /**
     * Element indices that {@code count} items of {@code type} select, item {@code k} starting
     * {@code offset + k * extent} elements into {@code buf}; checked (Object[] buffer, inside it).
     */
    static int[] select(String call, String arg, String typeArg, Object buf, long offset, int count, Datatype type) {
        TypeDesc t = Comm.type(call, typeArg, type);
        Comm.checkCount(call, arg + " count", count);
        return ObjectTypeCollectives.select(call, arg, buf, offset, count, t);
    }

    static Object[] take(Object buf, int[] idx) {
        Object[] out = new Object[idx.length];
        if (idx.length == 0) return out;
        Object[] a = (Object[]) buf;
        for (int i = 0; i < idx.length; i++) out[i] = a[idx[i]];
        return out;
    }

    /**
     * Stores {@code got} into the first elements of the selection {@code idx}; more objects than
     * selected is {@code MPI.ERR_TRUNCATE} naming where they came from.
     */
    static void land(String call, Object[] got, Object buf, int[] idx, String from) {
        if (got.length > idx.length) {
            throw MPIException.of(MPI.ERR_TRUNCATE, call + ": " + from + " sent " + got.length
                    + " objects but the receive selection there holds " + idx.length);
        }
        if (got.length == 0) return;
        Object[] a = (Object[]) buf;
        for (int i = 0; i < got.length; i++) a[idx[i]] = got[i];
    }

    /** A part as bytes, or the failure recorded in {@code failure[0]} (then null). */
    static byte[] trySerialize(String call, Object[] items, MPIException[] failure) {
        return ObjectMessages.trySerialize(call, items, 0, items.length, failure);
    }
}
