package io.github.mpi4j.buffer;

import io.github.mpi4j.memory.NativeMemory;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.MemoryKind;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import mpi.MPIException;

/**
 * Turns the {@code Object buf} of an API call into a checked {@link Buf}. This is where the
 * buffer policy is enforced: Java arrays and direct NIO buffers everywhere; heap NIO buffers
 * through their backing array; native memory ({@code io.github.mpi4j.memory}) by address; the
 * element type must match the datatype; {@code count} items must fit between the offset and the
 * end of the array, buffer or memory. Nothing is sent or received
 * by a call whose buffer fails these checks.
 */
public final class Buffers {
    private Buffers() {
    }

    private static final Object[] EMPTY_OBJECTS = new Object[0];

    /**
     * Resolves {@code buf} for {@code count} items of {@code type} starting at {@code offset}
     * (in elements of the array or buffer).
     *
     * @param call     the API call, for messages ("send")
     * @param arg      the argument name, for messages ("buf", "sendbuf")
     * @param writable whether the call writes into the buffer (receive side)
     */
    public static Buf resolve(String call, String arg, Object buf, int offset, int count,
                              TypeDesc type, boolean writable) {
        // The common case first, in few enough bytecodes for the JIT to inline into every call: an
        // array or buffer met before from this offset in this direction (so every check that does
        // not depend on the count and type has passed), an elementwise type of its kind, and room
        // for the message. The full checks give the same descriptor for it; anything else, refusals
        // included, takes them. (The direct buffers' full checks are too big to inline; their
        // call cost the 8-byte message rate about 5 ns a side, issue 12 item 1.)
        if (type != null && type.elementwise && count >= 0) {
            Buf seen = RecentBufs.find(buf, offset, writable);
            if (seen != null && seen.kind == type.arrayKind && (long) count * type.arrayElementsPerItem <= seen.length) {
                return seen;
            }
        }
        return checked(call, arg, buf, offset, count, type, writable);
    }

    /** {@link #resolve} with every check, each refusal naming what failed. */
    private static Buf checked(String call, String arg, Object buf, int offset, int count,
                               TypeDesc type, boolean writable) {
        if (type == null) {
            throw MPIException.of(Mpi.ERR_TYPE, call + ": datatype is null");
        }
        if (type.derived instanceof TypeMap && type.arrayKind == BaseKind.OBJECT) { // see mpi.ObjectTypes
            throw MPIException.of(Mpi.ERR_TYPE, call + ": datatype " + type.name + " is built over MPI.OBJECT; "
                    + "such types are taken by the point-to-point calls, the collectives, allToAllw and pack/unpack; "
                    + "one-sided windows and file views have no MPI.OBJECT (neither the Open MPI bindings nor "
                    + "mpiJava 1.2 have them)");
        }
        if (count < 0) {
            throw MPIException.of(Mpi.ERR_COUNT, call + ": count must be >= 0, got " + count);
        }
        if (offset < 0) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": " + arg + " offset must be >= 0, got " + offset);
        }
        if (buf == null) {
            if (count == 0) return empty(type);
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": " + arg + " is null but count is " + count);
        }
        if (buf == Mpi.IN_PLACE) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": MPI.IN_PLACE is not allowed as " + arg);
        }
        checkDerived(call, arg, buf, count, type);
        if (buf instanceof Buffer) {
            return resolveBuffer(call, arg, (Buffer) buf, offset, count, type, writable);
        }
        BaseKind kind = BaseKind.ofArray(buf);
        if (kind == null && buf instanceof NativeMemory) {
            return resolveNative(call, arg, (NativeMemory) buf, offset, count, type);
        }
        if (kind == null && count == 0) {
            // Nothing moves: programs written for Open MPI's bindings pass any object (an
            // Integer, say) as the buffer of an empty message.
            return empty(type);
        }
        if (kind == null) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": " + arg + " must be a Java array or a direct NIO buffer (or "
                    + "io.github.mpi4j.memory.NativeMemory), got "
                    + buf.getClass().getName());
        }
        int length = kind.length(buf);
        checkArray(call, arg, buf, kind, offset, length, count, type, offset);
        return RecentBufs.of(buf, kind, offset, length - offset, writable);
    }

    /**
     * Forgets the descriptors kept for recently used buffers ({@link RecentBufs#forgetAll}) and
     * this thread's typed views of byte buffers ({@link TypedViews#forgetAll}), as a collection
     * would.
     */
    public static void forgetRecentBuffers() {
        RecentBufs.forgetAll();
        TypedViews.forgetAll();
    }

    /** Resolves a send buffer that may be {@code MPI.IN_PLACE}. */
    public static Buf resolveSend(String call, String arg, Object buf, int offset, int count, TypeDesc type) {
        if (buf == Mpi.IN_PLACE) return Buf.IN_PLACE;
        return resolve(call, arg, buf, offset, count, type, false);
    }

    /** Elements of an array or buffer of {@code baseKind} that {@code count} items of {@code type} span. */
    public static long elementsNeeded(int count, TypeDesc type, BaseKind baseKind) {
        if (count == 0) return 0;
        if (type.layout == Layout.OBJECT) return count;
        long bytes = spanBytes(count, type);
        return (bytes + baseKind.bytes - 1) / baseKind.bytes;
    }

    /** Bytes from the first item's start to the end of the highest item. */
    public static long spanBytes(long count, TypeDesc type) {
        if (count == 0) return 0;
        if (type.derived instanceof TypeMap) {
            // Derived types: up to the end of the highest item's data (its true upper bound); items
            // go upward with a positive extent (the last is highest), downward with a negative one
            // (the first is).
            TypeMap m = (TypeMap) type.derived;
            return Math.max(0, (count - 1) * Math.max(0, type.extent) + m.trueLb + m.trueExtent);
        }
        return (count - 1) * type.extent + Math.max(type.size, type.extent);
    }

    /**
     * Derived types: data at byte offsets that are not whole elements of a typed array or buffer
     * are refused. Data before the message's start (a negative true lower bound, or items going
     * downward with a negative extent, as MPI allows) is checked against the room before the
     * offset by {@link #checkBelow}.
     */
    private static void checkDerived(String call, String arg, Object buf, int count, TypeDesc type) {
        if (count == 0 || !(type.derived instanceof TypeMap)) return;
        TypeMap m = (TypeMap) type.derived;
        int unit = elementBytes(buf, type);
        if (unit > 1 && m.granularity % unit != 0) {
            throw MPIException.of(Mpi.ERR_TYPE, call + ": datatype " + type.name + " places data at byte offsets "
                    + "that are not multiples of " + unit + ", the element size of " + arg + "; use a ByteBuffer");
        }
    }

    /** Bytes of one element of {@code buf} as a derived type's displacements address it. */
    private static int elementBytes(Object buf, TypeDesc type) {
        if (buf instanceof byte[] || buf instanceof ByteBuffer || buf instanceof NativeMemory) return 1;
        BaseKind k = buf instanceof Buffer ? kindOf((Buffer) buf) : BaseKind.ofArray(buf);
        // An array of the leaves' kind (a struct of ints over an int[]) counts its own elements;
        // any other goes by the type's base type (a wrong kind is reported by the kind check).
        if (k != null && TypeRules.leavesAre(k, type)) return k.bytes;
        return Math.max(1, type.arrayKind.bytes);
    }

    /**
     * The lowest byte {@code count} items of a derived type touch, relative to the first item's
     * start (0 or below): the true lower bound of the lowest item, which is the first with an
     * extent >= 0 and the last with a negative one. Zero for other types, types without data
     * and empty messages.
     */
    public static long lowestByte(long count, TypeDesc type) {
        if (count == 0 || !(type.derived instanceof TypeMap)) return 0;
        TypeMap m = (TypeMap) type.derived;
        if (m.blocks() == 0) return 0; // nothing is touched
        return Math.min(0, (count - 1) * Math.min(0, type.extent) + m.trueLb);
    }

    /**
     * Refuses, before anything moves, datatypes with a negative extent in a call that does not
     * support them ({@code where} says which, for the message; docs/datatypes.md, "Negative
     * extents", says why). Null types pass: the call's own checks name them.
     */
    public static void noNegativeExtent(String call, String where, int errorClass, TypeDesc... types) {
        for (TypeDesc t : types) {
            if (t != null && t.extent < 0) {
                throw MPIException.of(errorClass, call + ": datatype " + t.name + " has a negative extent ("
                        + t.extent + " bytes), which " + where + " do not support");
            }
        }
    }

    /**
     * Refuses a derived type whose data reach below the start of the memory: {@code room} bytes
     * lie before the first item's start (the offset, in bytes).
     */
    private static void checkBelow(String call, String arg, int count, TypeDesc type, long room, String what) {
        long low = lowestByte(count, type);
        if (low < 0 && -low > room) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": count " + count + " of " + type.name + " has data "
                    + (-low) + " bytes before the start of the message (its lowest byte is " + low + "; true lb "
                    + ((TypeMap) type.derived).trueLb + ", extent " + type.extent + "), but " + arg + " has only "
                    + room + " bytes before the offset (" + what + ")");
        }
    }

    private static Buf resolveArray(String call, String arg, Object array, BaseKind kind, int offset,
                                    int length, int count, TypeDesc type, int before) {
        checkArray(call, arg, array, kind, offset, length, count, type, before);
        return new Buf(array, kind, offset, length - offset);
    }

    private static void checkArray(String call, String arg, Object array, BaseKind kind, int offset,
                                   int length, int count, TypeDesc type, int before) {
        checkKind(call, arg, kind, type, array.getClass());
        if (lowestByte(count, type) < 0) {  // (the description is built only where it may be needed)
            checkBelow(call, arg, count, type, (long) before * kind.bytes,
                    "offset " + offset + " of " + kind.name().toLowerCase() + "[" + length + "]");
        }
        if (offset > length) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": " + arg + " offset " + offset + " is beyond the end of "
                    + kind.name().toLowerCase() + "[" + length + "]");
        }
        long need = elementsNeeded(count, type, kind);
        if (need > length - offset) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": count " + count + " of " + type.name + " needs " + need
                    + " elements of " + arg + " from offset " + offset + ", but "
                    + kind.name().toLowerCase() + "[" + length + "] has " + (length - offset));
        }
    }

    /**
     * Host or device memory given by address: offsets count bytes; the span of {@code count}
     * items must fit in the memory's byte size, and a null address is refused unless nothing
     * moves. Whether the backend accepts the kind is its own decision (it refuses by name).
     */
    private static Buf resolveNative(String call, String arg, NativeMemory m, int offset, int count, TypeDesc type) {
        MemoryKind memory = m.isDevice() ? MemoryKind.DEVICE : MemoryKind.HOST;
        if (type.layout == Layout.OBJECT) {
            throw MPIException.of(Mpi.ERR_TYPE, call + ": MPI.OBJECT needs an Object[] " + arg + ", got "
                    + memory.description + " (" + m + ")");
        }
        long size = m.byteSize();
        if (size < 0) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": " + arg + " is " + memory.description
                    + " with a negative byte size " + size + " (" + m + ")");
        }
        if (offset > size) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": " + arg + " offset " + offset + " is beyond the end of "
                    + memory.description + " of " + size + " bytes (" + m + ")");
        }
        // The device layer stages one span from the offset upward: items going downward do not fit it.
        if (memory == MemoryKind.DEVICE) noNegativeExtent(call, "device memory buffers", Mpi.ERR_TYPE, type);
        if (lowestByte(count, type) < 0) {
            checkBelow(call, arg, count, type, offset, "offset " + offset + " of " + memory.description + " of "
                    + size + " bytes");
        }
        if (memory == MemoryKind.DEVICE && lowestByte(count, type) < 0) {
            throw MPIException.of(Mpi.ERR_TYPE, call + ": datatype " + type.name + " has data before the start of "
                    + "each item, which device memory (staged from its offset on) does not support; use host memory");
        }
        long need = spanBytes(count, type);
        if (need > size - offset) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": count " + count + " of " + type.name + " needs " + need
                    + " bytes of " + arg + " from offset " + offset + ", but " + memory.description + " of " + size
                    + " bytes has " + (size - offset) + " (" + m + ")");
        }
        if (count > 0 && m.address() == 0) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": " + arg + " is " + memory.description
                    + " at address 0 (a null pointer) but count is " + count);
        }
        return new Buf(m, BaseKind.BYTE, offset, (int) Math.min(size - offset, Integer.MAX_VALUE));
    }

    private static Buf resolveBuffer(String call, String arg, Buffer b, int offset, int count,
                                     TypeDesc type, boolean writable) {
        BaseKind kind = kindOf(b);
        if (kind == null) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": unsupported buffer class " + b.getClass().getName());
        }
        if (writable && b.isReadOnly()) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": " + arg + " is a read-only buffer but the call writes into it");
        }
        if (!b.isDirect()) {
            if (!b.hasArray()) {
                throw MPIException.of(Mpi.ERR_BUFFER, call + ": " + arg + " is a read-only heap buffer; "
                        + "use a direct buffer (MPI.newXxxBuffer) or an array");
            }
            if (kind == BaseKind.BYTE && type.arrayKind != BaseKind.BYTE && !TypeRules.acceptsAsRaw(kind, type)) {
                throw MPIException.of(Mpi.ERR_BUFFER, call + ": " + arg + " is a heap ByteBuffer but " + type.name
                        + " needs native byte order; use a direct buffer (MPI.newByteBuffer) or a "
                        + type.arrayKind.name().toLowerCase() + "[] array");
            }
            Object array = b.array();
            int base = b.arrayOffset();
            // The buffer's element 0 is array[base]; its capacity bounds the view.
            // Data before the buffer's element 0 (a slice of an array) may be reached by a type
            // with a negative lower bound: the backing array holds them.
            Buf whole = resolveArray(call, arg, array, kind, offset, b.capacity(), count, type, base + offset);
            return new Buf(array, kind, base + whole.offset, whole.length);
        }
        if (type.layout == Layout.OBJECT) {
            throw MPIException.of(Mpi.ERR_TYPE, call + ": MPI.OBJECT needs an Object[] " + arg + ", got a "
                    + b.getClass().getSimpleName());
        }
        if (kind != BaseKind.BYTE) {
            checkKind(call, arg, kind, type, b.getClass());
        }
        long below = lowestByte(count, type);
        if (below < 0 && -below > (long) offset * kind.bytes) {
            // A slice made by MPI.slice: the bytes before it belong to its parent (as with Open MPI's addresses).
            SliceOrigins.Origin o = SliceOrigins.of(b);
            if (o != null) return resolveBuffer(call, arg, o.parent, offset + o.offset, count, type, writable);
        }
        int capacity = b.capacity();
        if (below < 0) {
            checkBelow(call, arg, count, type, (long) offset * kind.bytes, "offset " + offset + " of a "
                    + b.getClass().getSimpleName() + " of capacity " + capacity);
        }
        if (offset > capacity) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": " + arg + " offset " + offset + " is beyond the capacity "
                    + capacity + " of the buffer");
        }
        long need = elementsNeeded(count, type, kind);
        if (need > capacity - offset) {
            throw MPIException.of(Mpi.ERR_BUFFER, call + ": count " + count + " of " + type.name + " needs " + need
                    + (kind == BaseKind.BYTE ? " bytes" : " elements") + " of " + arg + " from offset " + offset
                    + ", but the buffer's capacity is " + capacity);
        }
        return RecentBufs.of(b, kind, offset, capacity - offset, writable);
    }

    /** {@code holder}: the class of the array or buffer, named only in a refusal (no string work per call). */
    private static void checkKind(String call, String arg, BaseKind kind, TypeDesc type, Class<?> holder) {
        if (type.arrayKind == kind || TypeRules.acceptsAsRaw(kind, type) || TypeRules.leavesAre(kind, type)) return;
        String what = holder.getSimpleName();
        // A derived type without data (an empty struct) moves nothing, so any primitive array or buffer will do.
        if (type.derived instanceof TypeMap && type.size == 0 && kind != BaseKind.OBJECT && type.layout != Layout.OBJECT) {
            return;
        }
        if (type.layout == Layout.OBJECT) {
            throw MPIException.of(Mpi.ERR_TYPE, call + ": MPI.OBJECT needs an Object[] " + arg + ", got " + what);
        }
        if (kind == BaseKind.OBJECT) {
            throw MPIException.of(Mpi.ERR_TYPE, call + ": " + arg + " is " + what + " but " + type.name
                    + " is not MPI.OBJECT");
        }
        String want = type.arrayKind == BaseKind.BYTE && type.layout != Layout.PRIMITIVE
                ? "a byte[] or direct ByteBuffer"
                : "a " + type.arrayKind.name().toLowerCase() + "[] or direct buffer";
        String raw = type.isPredefined() && kind != BaseKind.OBJECT
                ? " (MPI.BYTE takes any primitive buffer; -D" + TypeRules.RAW_PROPERTY + "=true lets every type do so)"
                : "";
        throw MPIException.of(Mpi.ERR_TYPE, call + ": datatype " + type.name + " needs " + want + " as " + arg
                + ", got " + what + raw);
    }

    /** Element kind of a NIO buffer. */
    public static BaseKind kindOf(Buffer b) {
        if (b instanceof ByteBuffer) return BaseKind.BYTE;
        if (b instanceof IntBuffer) return BaseKind.INT;
        if (b instanceof DoubleBuffer) return BaseKind.DOUBLE;
        if (b instanceof LongBuffer) return BaseKind.LONG;
        if (b instanceof FloatBuffer) return BaseKind.FLOAT;
        if (b instanceof CharBuffer) return BaseKind.CHAR;
        if (b instanceof ShortBuffer) return BaseKind.SHORT;
        return null;
    }

    private static Buf empty(TypeDesc type) {
        BaseKind k = type.arrayKind;
        Object a;
        switch (k) {
            case BOOLEAN: a = new boolean[0]; break;
            case CHAR: a = new char[0]; break;
            case SHORT: a = new short[0]; break;
            case INT: a = new int[0]; break;
            case LONG: a = new long[0]; break;
            case FLOAT: a = new float[0]; break;
            case DOUBLE: a = new double[0]; break;
            case OBJECT: a = EMPTY_OBJECTS; break;
            default: a = new byte[0];
        }
        return new Buf(a, k, 0, 0);
    }
}
