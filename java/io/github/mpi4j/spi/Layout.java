package io.github.mpi4j.spi;

/** How the items of a datatype are laid out in memory. */
public enum Layout {
    /** One element of {@link TypeDesc#valueKind} per item. */
    PRIMITIVE,
    /** Two elements of the same kind per item: (value, index), for MINLOC/MAXLOC (INT2, DOUBLE2...). */
    PAIR,
    /**
     * A C struct {@code {value; int index}} with C alignment (SHORT_INT, LONG_INT, FLOAT_INT,
     * DOUBLE_INT); only raw memory (direct ByteBuffer or byte[]) holds it.
     */
    VALUE_INT,
    /** Complex numbers: (real, imaginary) of {@link TypeDesc#valueKind}. */
    COMPLEX,
    /** Opaque bytes produced by pack (MPI.PACKED). */
    PACKED,
    /** Serialized Java objects (MPI.OBJECT). */
    OBJECT,
    /** A derived datatype built from others; see {@link TypeDesc#derived}. */
    DERIVED
}
