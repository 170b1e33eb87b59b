package io.github.mpi4j.spi;

/**
 * The predefined datatypes: their ids (stable; the native MPI bridge indexes its handle table
 * with them) and descriptors. {@code mpi.MPI}'s datatype constants wrap these.
 *
 * <p>Java {@code byte} is signed and {@code char} is unsigned 16-bit; reductions follow Java
 * semantics (MIN/MAX over BYTE compare signed values, integer arithmetic wraps).
 */
public final class Predefined {
    private Predefined() {
    }

    public static final int BYTE = 0, CHAR = 1, SHORT = 2, BOOLEAN = 3, INT = 4, LONG = 5,
            FLOAT = 6, DOUBLE = 7, PACKED = 8, OBJECT = 9,
            SHORT2 = 10, INT2 = 11, LONG2 = 12, FLOAT2 = 13, DOUBLE2 = 14,
            SHORT_INT = 15, LONG_INT = 16, FLOAT_INT = 17, DOUBLE_INT = 18,
            FLOAT_COMPLEX = 19, DOUBLE_COMPLEX = 20, LB = 21, UB = 22;

    public static final TypeDesc[] ALL = new TypeDesc[TypeDesc.PREDEFINED_COUNT];

    public static final TypeDesc T_BYTE = prim("MPI.BYTE", BaseKind.BYTE, BYTE);
    public static final TypeDesc T_CHAR = prim("MPI.CHAR", BaseKind.CHAR, CHAR);
    public static final TypeDesc T_SHORT = prim("MPI.SHORT", BaseKind.SHORT, SHORT);
    public static final TypeDesc T_BOOLEAN = prim("MPI.BOOLEAN", BaseKind.BOOLEAN, BOOLEAN);
    public static final TypeDesc T_INT = prim("MPI.INT", BaseKind.INT, INT);
    public static final TypeDesc T_LONG = prim("MPI.LONG", BaseKind.LONG, LONG);
    public static final TypeDesc T_FLOAT = prim("MPI.FLOAT", BaseKind.FLOAT, FLOAT);
    public static final TypeDesc T_DOUBLE = prim("MPI.DOUBLE", BaseKind.DOUBLE, DOUBLE);
    public static final TypeDesc T_PACKED = add(new TypeDesc("MPI.PACKED", BaseKind.BYTE, BaseKind.BYTE,
            Layout.PACKED, 1, 1, 0, 1, PACKED, null));
    public static final TypeDesc T_OBJECT = add(new TypeDesc("MPI.OBJECT", BaseKind.OBJECT, BaseKind.OBJECT,
            Layout.OBJECT, 1, 1, 0, 1, OBJECT, null));

    public static final TypeDesc T_SHORT2 = pair("MPI.SHORT2", BaseKind.SHORT, SHORT2);
    public static final TypeDesc T_INT2 = pair("MPI.INT2", BaseKind.INT, INT2);
    public static final TypeDesc T_LONG2 = pair("MPI.LONG2", BaseKind.LONG, LONG2);
    public static final TypeDesc T_FLOAT2 = pair("MPI.FLOAT2", BaseKind.FLOAT, FLOAT2);
    public static final TypeDesc T_DOUBLE2 = pair("MPI.DOUBLE2", BaseKind.DOUBLE, DOUBLE2);

    // C structs {value; int}: size and extent follow the C ABI on LP64 Linux.
    public static final TypeDesc T_SHORT_INT = valueInt("MPI.SHORT_INT", BaseKind.SHORT, 6, 8, SHORT_INT);
    public static final TypeDesc T_LONG_INT = valueInt("MPI.LONG_INT", BaseKind.LONG, 12, 16, LONG_INT);
    public static final TypeDesc T_FLOAT_INT = valueInt("MPI.FLOAT_INT", BaseKind.FLOAT, 8, 8, FLOAT_INT);
    public static final TypeDesc T_DOUBLE_INT = valueInt("MPI.DOUBLE_INT", BaseKind.DOUBLE, 12, 16, DOUBLE_INT);

    public static final TypeDesc T_FLOAT_COMPLEX = add(new TypeDesc("MPI.FLOAT_COMPLEX", BaseKind.FLOAT,
            BaseKind.FLOAT, Layout.COMPLEX, 8, 8, 0, 2, FLOAT_COMPLEX, null));
    public static final TypeDesc T_DOUBLE_COMPLEX = add(new TypeDesc("MPI.DOUBLE_COMPLEX", BaseKind.DOUBLE,
            BaseKind.DOUBLE, Layout.COMPLEX, 16, 16, 0, 2, DOUBLE_COMPLEX, null));

    // Markers of mpiJava 1.2 for struct bounds: no data, no extent of their own.
    public static final TypeDesc T_LB = add(new TypeDesc("MPI.LB", BaseKind.BYTE, BaseKind.BYTE,
            Layout.PRIMITIVE, 0, 0, 0, 0, LB, null));
    public static final TypeDesc T_UB = add(new TypeDesc("MPI.UB", BaseKind.BYTE, BaseKind.BYTE,
            Layout.PRIMITIVE, 0, 0, 0, 0, UB, null));

    private static TypeDesc prim(String name, BaseKind k, int id) {
        return add(new TypeDesc(name, k, k, Layout.PRIMITIVE, k.bytes, k.bytes, 0, 1, id, null));
    }

    private static TypeDesc pair(String name, BaseKind k, int id) {
        return add(new TypeDesc(name, k, k, Layout.PAIR, 2L * k.bytes, 2L * k.bytes, 0, 2, id, null));
    }

    private static TypeDesc valueInt(String name, BaseKind value, long size, long extent, int id) {
        return add(new TypeDesc(name, BaseKind.BYTE, value, Layout.VALUE_INT, size, extent, 0,
                (int) extent, id, null));
    }

    private static TypeDesc add(TypeDesc t) {
        ALL[t.predefinedId] = t;
        return t;
    }
}
