package io.github.mpi4j.spi;

/**
 * The Java element kinds a buffer can hold. Every datatype maps onto one of these for the
 * array or typed buffer it accepts, and onto one (possibly another) for reductions.
 */
public enum BaseKind {
    BYTE(1, byte[].class),
    BOOLEAN(1, boolean[].class),
    CHAR(2, char[].class),
    SHORT(2, short[].class),
    INT(4, int[].class),
    LONG(8, long[].class),
    FLOAT(4, float[].class),
    DOUBLE(8, double[].class),
    /** Java objects, serialized; buffers are {@code Object[]}. */
    OBJECT(0, Object[].class);

    /** Bytes per element in native memory (0 for OBJECT). */
    public final int bytes;
    /** The Java array class that holds elements of this kind. */
    public final Class<?> arrayClass;

    BaseKind(int bytes, Class<?> arrayClass) {
        this.bytes = bytes;
        this.arrayClass = arrayClass;
    }

    /** The kind of a primitive array or {@code Object[]}, or null if {@code array} is none. */
    public static BaseKind ofArray(Object array) {
        if (array instanceof byte[]) return BYTE;
        if (array instanceof int[]) return INT;
        if (array instanceof double[]) return DOUBLE;
        if (array instanceof long[]) return LONG;
        if (array instanceof float[]) return FLOAT;
        if (array instanceof char[]) return CHAR;
        if (array instanceof short[]) return SHORT;
        if (array instanceof boolean[]) return BOOLEAN;
        if (array instanceof Object[]) return OBJECT;
        return null;
    }

    /** Length of an array of this kind (a cast per kind: cheaper than reflection on hot paths). */
    public int length(Object array) {
        switch (this) {
            case BYTE: return ((byte[]) array).length;
            case INT: return ((int[]) array).length;
            case DOUBLE: return ((double[]) array).length;
            case LONG: return ((long[]) array).length;
            case FLOAT: return ((float[]) array).length;
            case CHAR: return ((char[]) array).length;
            case SHORT: return ((short[]) array).length;
            case BOOLEAN: return ((boolean[]) array).length;
            default: return ((Object[]) array).length;
        }
    }

    public boolean isFloatingPoint() {
        return this == FLOAT || this == DOUBLE;
    }

    public boolean isInteger() {
        return this == BYTE || this == CHAR || this == SHORT || this == INT || this == LONG;
    }
}
