package io.github.mpi4j.spi;

/**
 * What a backend needs to know of a datatype. Immutable but for its {@link #lifecycle}; owned by
 * one {@code mpi.Datatype} ({@code dup()} makes a new descriptor, since the copy is freed on its
 * own). Predefined types carry a stable {@link #predefinedId} that backends use to index their
 * own handle tables; a backend that makes a handle of its own for a type (an MPI_Datatype for a
 * derived type, at commit or first use) records it in the lifecycle, one per backend.
 */
public final class TypeDesc {
    /** Number of predefined ids; backends size their tables with it. */
    public static final int PREDEFINED_COUNT = 32;

    public final String name;
    /** Element kind of the Java array or typed buffer the type accepts. */
    public final BaseKind arrayKind;
    /** Element kind the values are reduced as (for PAIR and VALUE_INT: the value's kind). */
    public final BaseKind valueKind;
    public final Layout layout;
    /** Bytes of data in one item (MPI_Type_size). */
    public final long size;
    /** Bytes from one item to the next (MPI_Type_get_extent). */
    public final long extent;
    /** Lower bound in bytes. */
    public final long lb;
    /** Java array elements one item spans (1, or 2 for PAIR). For derived types: extent in elements. */
    public final int arrayElementsPerItem;
    /** Index of a predefined type, or -1 for a derived one. */
    public final int predefinedId;
    /** For DERIVED types: the description the backends build from; null otherwise. */
    public final Object derived;
    /**
     * Whether {@code count} items fill exactly {@code count * arrayElementsPerItem} elements of an
     * {@link #arrayKind} array or buffer from its offset: no type map, not MPI.OBJECT, items end to
     * end. The buffer checks take their shortest path for such types.
     */
    public final boolean elementwise;

    /** Which backends hold a handle for this type, and whether {@code Datatype.free()} was called. */
    public final Lifecycle lifecycle = new Lifecycle();

    /** The API object ({@code mpi.Datatype}) that made this descriptor; user reductions get it back. */
    public volatile Object apiObject;

    public TypeDesc(String name, BaseKind arrayKind, BaseKind valueKind, Layout layout, long size,
                    long extent, long lb, int arrayElementsPerItem, int predefinedId, Object derived) {
        this.name = name;
        this.arrayKind = arrayKind;
        this.valueKind = valueKind;
        this.layout = layout;
        this.size = size;
        this.extent = extent;
        this.lb = lb;
        this.arrayElementsPerItem = arrayElementsPerItem;
        this.predefinedId = predefinedId;
        this.derived = derived;
        this.elementwise = derived == null && layout != Layout.OBJECT && arrayKind != BaseKind.OBJECT && lb == 0
                && size <= extent && extent == (long) arrayElementsPerItem * arrayKind.bytes;
    }

    /** A descriptor of the same type with a life of its own (MPI_Type_dup). */
    public TypeDesc duplicate() {
        return new TypeDesc(name, arrayKind, valueKind, layout, size, extent, lb, arrayElementsPerItem, predefinedId,
                derived);
    }

    public boolean isPredefined() {
        return predefinedId >= 0;
    }

    /** Offset in bytes of the int index inside a VALUE_INT item (C alignment of int after the value). */
    public long valueIntIndexOffset() {
        long v = valueKind.bytes;
        return (v + 3) & ~3L;
    }

    @Override
    public String toString() {
        return name;
    }
}
