package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;

/**
 * Which buffers a datatype accepts besides those of its own element kind (docs/buffers.md).
 *
 * <p>Untyped data: {@code MPI.BYTE}, {@code MPI.PACKED} and {@code MPI.CHAR} take any primitive
 * array or direct buffer as raw memory, counted in bytes (16-bit units for CHAR); programs
 * written for Open MPI's bindings send an {@code int[]} as bytes. Numeric types still need their
 * own element kind: an {@code int[]} sent as {@code MPI.DOUBLE} reinterprets bits, almost always
 * a bug. {@code -Dmpi4j.rawBuffers=true} lifts that too, for every predefined type but
 * {@code MPI.OBJECT}, as the bindings do.
 */
public final class TypeRules {
    private TypeRules() {
    }

    /** The switch that makes every predefined type accept any primitive buffer. */
    public static final String RAW_PROPERTY = "mpi4j.rawBuffers";

    private static volatile Boolean raw;

    /** Whether {@code -Dmpi4j.rawBuffers=true} (or {@code MPI4J_RAW_BUFFERS=true}) is set; read once. */
    public static boolean rawBuffers() {
        Boolean r = raw;
        if (r == null) {
            String v = System.getProperty(RAW_PROPERTY, System.getenv("MPI4J_RAW_BUFFERS"));
            raw = r = Boolean.parseBoolean(v == null ? null : v.trim());
        }
        return r;
    }

    /** For tests: forget the cached switch so the next call reads the property again. */
    public static void rereadSwitch() {
        raw = null;
    }

    /** Whether {@code type} is untyped data: MPI.BYTE, MPI.PACKED or MPI.CHAR. */
    public static boolean isUntyped(TypeDesc type) {
        int id = type.predefinedId;
        return id == Predefined.BYTE || id == Predefined.PACKED || id == Predefined.CHAR;
    }

    /**
     * Whether a buffer of primitive {@code kind} (not its own element kind) may hold data of
     * {@code type} as raw memory.
     */
    public static boolean acceptsAsRaw(BaseKind kind, TypeDesc type) {
        if (kind == BaseKind.OBJECT || type.layout == Layout.OBJECT) return false;
        if (isUntyped(type)) return true;
        return type.isPredefined() && rawBuffers();
    }

    /**
     * Whether {@code type} is a derived type whose leaves are all the primitive element kind
     * {@code kind} (a {@code createStruct} of {@code MPI.INT} blocks over an {@code int[]}, say):
     * such a buffer holds its data as they are, the byte displacements counting whole elements
     * (checked where the buffer is resolved).
     */
    public static boolean leavesAre(BaseKind kind, TypeDesc type) {
        if (kind == BaseKind.OBJECT || !(type.derived instanceof io.github.mpi4j.spi.TypeMap)) return false;
        TypeDesc leaf = ((io.github.mpi4j.spi.TypeMap) type.derived).uniformLeaf;
        return leaf != null && leaf.layout == Layout.PRIMITIVE && leaf.arrayKind == kind;
    }
}
