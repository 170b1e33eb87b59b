package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Layout;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.TypeMap;
import mpi.MPIException;

/**
 * Which predefined operation applies to which datatype, as the MPI standard groups them
 * (integer, floating point, logical, complex, pair types). Checked in Java before any
 * reduction starts, so every backend sees only valid combinations.
 */
public final class OpRules {
    private OpRules() {
    }

    /** Throws {@code MPI.ERR_OP} unless {@code op} is defined for {@code type} in a reduction. */
    public static void check(String call, OpDesc op, TypeDesc type) {
        if (op == null) {
            throw MPIException.of(Mpi.ERR_OP, call + ": op is null");
        }
        if (!allowed(op.code, type)) {
            throw MPIException.of(Mpi.ERR_OP, call + ": operation " + op.name + " is not defined for datatype "
                    + type.name + describe(op.code));
        }
        if (op.code == OpCode.USER && type.derived instanceof TypeMap) {
            // User functions get items staged one extent apart from 0, upward: a negative extent
            // does not fit, nor do data outside [0, extent).
            Buffers.noNegativeExtent(call, "user-defined ops (" + op.name + ")", Mpi.ERR_UNSUPPORTED_OPERATION,
                    type);
            TypeMap m = (TypeMap) type.derived;
            if (m.blocks() > 0 && (m.trueLb < 0 || m.trueLb + m.trueExtent > type.extent)) {
                throw MPIException.of(Mpi.ERR_UNSUPPORTED_OPERATION, call + ": user-defined op " + op.name
                        + " over datatype " + type.name + ", whose data lie outside its extent (true lb " + m.trueLb
                        + ", true ub " + (m.trueLb + m.trueExtent) + ", extent " + type.extent + " bytes), is not "
                        + "supported; use a predefined op or a type whose data lie in [0, extent)");
            }
        }
    }

    public static boolean allowed(OpCode code, TypeDesc type) {
        if (code == OpCode.USER) return true;
        if (type.derived instanceof TypeMap) {
            // A derived type reduces element-wise when all its leaves are one predefined type.
            TypeDesc leaf = ((TypeMap) type.derived).uniformLeaf;
            return leaf != null && allowed(code, leaf);
        }
        Layout layout = type.layout;
        BaseKind k = type.valueKind;
        switch (code) {
            case MAX:
            case MIN:
                return layout == Layout.PRIMITIVE && (k.isInteger() || k.isFloatingPoint());
            case SUM:
            case PROD:
                return (layout == Layout.PRIMITIVE && (k.isInteger() || k.isFloatingPoint()))
                        || layout == Layout.COMPLEX;
            case LAND:
            case LOR:
            case LXOR:
                return layout == Layout.PRIMITIVE && (k.isInteger() || k == BaseKind.BOOLEAN);
            case BAND:
            case BOR:
            case BXOR:
                return layout == Layout.PRIMITIVE && k.isInteger();
            case MINLOC:
            case MAXLOC:
                return layout == Layout.PAIR || layout == Layout.VALUE_INT;
            default:
                return false; // REPLACE and NO_OP belong to one-sided accumulate only
        }
    }

    private static String describe(OpCode code) {
        switch (code) {
            case MAX:
            case MIN:
                return " (it needs an integer or floating-point type)";
            case SUM:
            case PROD:
                return " (it needs an integer, floating-point or complex type)";
            case LAND:
            case LOR:
            case LXOR:
                return " (it needs an integer or MPI.BOOLEAN type)";
            case BAND:
            case BOR:
            case BXOR:
                return " (it needs an integer type)";
            case MINLOC:
            case MAXLOC:
                return " (it needs a pair type such as MPI.INT2 or MPI.DOUBLE_INT)";
            default:
                return " (MPI.REPLACE and MPI.NO_OP are for one-sided accumulate only)";
        }
    }
}
