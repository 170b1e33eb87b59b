package io.github.mpi4j.nccl;

import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.TypeDesc;

/**
 * How datatypes and ops ({@code spi} descriptors) map to NCCL's enums. Reductions need an NCCL
 * arithmetic type (Java's byte, int, long, float, double: NCCL has no 16-bit integer and no char
 * or boolean arithmetic); data movement (broadcast, all-gather, send, receive) takes any
 * predefined type of fixed size without gaps and moves its bytes as {@code ncclInt8}. Everything
 * else (derived types, MPI.OBJECT, MPI.PACKED, the value-index pairs, user ops, MINLOC/MAXLOC,
 * bitwise and logical ops) NCCL cannot do. The {@code find} methods say null for those (the
 * device layer then takes its other path); the {@code for} methods refuse them by name.
 */
public final class NcclTypes {
    private NcclTypes() {
    }

    /** An NCCL datatype and the bytes of one element of the type it stands for. */
    public static final class Mapped {
        public final int ncclType;
        /** Elements of {@code ncclType} per element of the mapped type. */
        public final long factor;
        public final long elementBytes;

        Mapped(int ncclType, long factor, long elementBytes) {
            this.ncclType = ncclType;
            this.factor = factor;
            this.elementBytes = elementBytes;
        }
    }

    // One instance per mapping, so that checking a call's type allocates nothing.
    private static final Mapped INT8 = new Mapped(NcclNative.INT8, 1, 1);
    private static final Mapped INT32 = new Mapped(NcclNative.INT32, 1, 4);
    private static final Mapped INT64 = new Mapped(NcclNative.INT64, 1, 8);
    private static final Mapped FLOAT32 = new Mapped(NcclNative.FLOAT32, 1, 4);
    private static final Mapped FLOAT64 = new Mapped(NcclNative.FLOAT64, 1, 8);
    /** Data movement in bytes: index = bytes per element of the moved type. */
    private static final Mapped[] BYTES = new Mapped[17];

    static {
        for (int b : new int[] {1, 2, 4, 8, 16}) BYTES[b] = new Mapped(NcclNative.INT8, b, b);
    }

    /** Moving bytes: {@code ncclInt8}, one per byte. */
    public static Mapped bytes() {
        return INT8;
    }

    /** The NCCL type that reduces {@code type}'s elements, or null. */
    public static Mapped findReduction(TypeDesc type) {
        if (type == null || type.layout != Layout.PRIMITIVE) return null;
        switch (type.predefinedId) {
            case Predefined.BYTE: return INT8;
            case Predefined.INT: return INT32;
            case Predefined.LONG: return INT64;
            case Predefined.FLOAT: return FLOAT32;
            case Predefined.DOUBLE: return FLOAT64;
            default: return null;
        }
    }

    /** The NCCL type that moves {@code type}'s elements as bytes, or null: a predefined type of fixed size without gaps. */
    public static Mapped findMovement(TypeDesc type) {
        boolean fixed = type != null && type.isPredefined() && type.size > 0 && type.size == type.extent && type.lb == 0
                && type.layout != Layout.PACKED && type.layout != Layout.OBJECT && type.layout != Layout.VALUE_INT;
        return fixed && type.size < BYTES.length ? BYTES[(int) type.size] : null;
    }

    /** NCCL's reduction op for {@code op}, or -1: SUM, PROD, MAX and MIN. */
    public static int findOp(OpDesc op) {
        if (op == null) return -1;
        switch (op.code) {
            case SUM: return NcclNative.SUM;
            case PROD: return NcclNative.PROD;
            case MAX: return NcclNative.MAX;
            case MIN: return NcclNative.MIN;
            default: return -1;
        }
    }

    /** {@link #findReduction}, or an exception naming the type. */
    static Mapped forReduction(String call, TypeDesc type) {
        Mapped m = findReduction(type);
        if (m != null) return m;
        throw new IllegalArgumentException(call + ": type " + type + " cannot be reduced by NCCL (it reduces "
                + "MPI.BYTE, MPI.INT, MPI.LONG, MPI.FLOAT and MPI.DOUBLE)");
    }

    /** {@link #findMovement}, or an exception naming the type. */
    static Mapped forMovement(String call, TypeDesc type) {
        Mapped m = findMovement(type);
        if (m != null) return m;
        throw new IllegalArgumentException(call + ": type " + type + " cannot be moved by NCCL (derived types, "
                + "MPI.OBJECT and MPI.PACKED have no fixed-size device representation; use a predefined type)");
    }

    /** {@link #findOp}, or an exception naming the op. */
    static int forOp(String call, OpDesc op) {
        int o = findOp(op);
        if (o >= 0) return o;
        throw new IllegalArgumentException(call + ": op " + op + " is not supported by NCCL (it has MPI.SUM, MPI.PROD, "
                + "MPI.MAX and MPI.MIN; user ops, MINLOC/MAXLOC and logical or bitwise ops are not available)");
    }
}
