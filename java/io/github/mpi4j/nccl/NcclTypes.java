package io.github.mpi4j.nccl;

import mpi.Datatype;
import mpi.MPI;
import mpi.Op;

/**
 * How {@code mpi} datatypes and ops map to NCCL's enums. Reductions need an NCCL arithmetic
 * type (Java's byte, int, long, float, double: NCCL has no 16-bit integer and no char or
 * boolean arithmetic); data movement (broadcast, all-gather, send, receive) takes any
 * fixed-size predefined type and moves its bytes as {@code ncclInt8}. Everything else (derived
 * types, MPI.OBJECT, MPI.PACKED, user ops, MINLOC/MAXLOC, bitwise and logical ops) is refused by
 * name: NCCL cannot do it.
 */
final class NcclTypes {
    private NcclTypes() {
    }

    /** An NCCL datatype and the bytes of one element of the {@code mpi} type it stands for. */
    static final class Mapped {
        final int ncclType;
        /** Elements of {@code ncclType} per element of the mpi type. */
        final long factor;
        final long elementBytes;

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
    /** Data movement in bytes: index = bytes per element of the mpi type. */
    private static final Mapped[] BYTES = new Mapped[17];

    static {
        for (int b : new int[] {1, 2, 4, 8, 16}) BYTES[b] = new Mapped(NcclNative.INT8, b, b);
    }

    /** The NCCL type that reduces {@code type}'s elements, or an exception naming it. */
    static Mapped forReduction(String call, Datatype type) {
        if (type == null) throw new IllegalArgumentException(call + ": type is null");
        if (type == MPI.BYTE) return INT8;
        if (type == MPI.INT) return INT32;
        if (type == MPI.LONG) return INT64;
        if (type == MPI.FLOAT) return FLOAT32;
        if (type == MPI.DOUBLE) return FLOAT64;
        throw new IllegalArgumentException(call + ": type " + name(type) + " cannot be reduced by NCCL (it reduces "
                + "MPI.BYTE, MPI.INT, MPI.LONG, MPI.FLOAT and MPI.DOUBLE)");
    }

    /** The NCCL type that moves {@code type}'s elements: bytes, for every fixed-size predefined type. */
    static Mapped forMovement(String call, Datatype type) {
        if (type == null) throw new IllegalArgumentException(call + ": type is null");
        // Bytes per element: mpi's getSize() counts base-type units, not bytes.
        int bytes = type == MPI.BYTE || type == MPI.BOOLEAN ? 1
                : type == MPI.CHAR || type == MPI.SHORT ? 2
                : type == MPI.INT || type == MPI.FLOAT || type == MPI.SHORT2 ? 4
                : type == MPI.LONG || type == MPI.DOUBLE || type == MPI.INT2 || type == MPI.FLOAT2
                        || type == MPI.FLOAT_COMPLEX ? 8
                : type == MPI.LONG2 || type == MPI.DOUBLE2 || type == MPI.DOUBLE_COMPLEX ? 16
                : 0;
        if (bytes > 0) return BYTES[bytes];
        throw new IllegalArgumentException(call + ": type " + name(type) + " cannot be moved by NCCL (derived types, "
                + "MPI.OBJECT and MPI.PACKED have no fixed-size device representation; use a predefined type)");
    }

    /** NCCL's reduction op for {@code op}, or an exception naming it. */
    static int op(String call, Op op) {
        if (op == null) throw new IllegalArgumentException(call + ": op is null");
        if (op == MPI.SUM) return NcclNative.SUM;
        if (op == MPI.PROD) return NcclNative.PROD;
        if (op == MPI.MAX) return NcclNative.MAX;
        if (op == MPI.MIN) return NcclNative.MIN;
        throw new IllegalArgumentException(call + ": op " + op + " is not supported by NCCL (it has MPI.SUM, MPI.PROD, "
                + "MPI.MAX and MPI.MIN; user ops, MINLOC/MAXLOC and logical or bitwise ops are not available)");
    }

    private static String name(Datatype t) {
        String n = t.getName();
        return n == null || n.isEmpty() ? t.toString() : n;
    }
}
