package mpi;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Lifecycle;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import io.github.mpi4j.spi.UserReduction;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A reduction operation: one of the predefined {@code MPI.SUM}, {@code MPI.MAX}, ... or a user
 * function ({@link UserFunction}, Open MPI style, or {@link User_function}, mpiJava style).
 */
public final class Op implements Freeable {
    final OpDesc desc;

    Op(OpDesc desc) {
        this.desc = desc;
    }

    /** A user operation (Open MPI style). */
    public Op(UserFunction function, boolean commute) {
        this(new OpDesc("user op", OpCode.USER, adapt(requireFunction(function)), commute));
    }

    /** A user operation (mpiJava 1.2 style). */
    public Op(User_function function, boolean commute) {
        this(new OpDesc("user op", OpCode.USER, adapt(requireFunction(function)), commute));
    }

    OpDesc desc(String call) {
        if (desc.lifecycle.isFreed()) {
            throw MPIException.of(MPI.ERR_OP, call + ": op " + desc.name + " has been freed");
        }
        return desc;
    }

    public boolean isCommutative() {
        return desc.commutative;
    }

    /** mpiJava 1.2 name of {@link #isCommutative()}. */
    public boolean Is_commute() {
        return desc.commutative;
    }

    /**
     * Frees a user op: each backend that made native resources for it (on the MPI backend an
     * MPI_Op and a callback slot) releases them. Operations already started with the op complete
     * normally; later use, or a second free, throws.
     */
    @Override
    public void free() {
        if (desc.code != OpCode.USER) {
            throw MPIException.of(MPI.ERR_OP, "Op.free: predefined op " + desc.name + " cannot be freed");
        }
        Lifecycle.Held[] held = desc.lifecycle.free();
        if (held == null) throw MPIException.of(MPI.ERR_OP, "Op.free: op " + desc.name + " has been freed already");
        for (Lifecycle.Held h : held) h.backend.freeOp(desc, h.handle);
    }

    public void Free() {
        free();
    }

    public boolean isNull() {
        return desc.lifecycle.isFreed();
    }

    /** Has no effect: kept for source compatibility with the Open MPI bindings. */
    public void setDatatype(Datatype t) {
    }

    @Override
    public String toString() {
        return desc.name;
    }

    private static <T> T requireFunction(T f) {
        if (f == null) throw MPIException.of(MPI.ERR_OP, "Op: user function is null");
        return f;
    }

    private static Datatype datatypeOf(TypeDesc type) {
        Object o = type.apiObject;
        return o instanceof Datatype ? (Datatype) o : new Datatype(type).asConstant();
    }

    /** Java array elements (or buffer bytes) that {@code count} items of {@code type} cover. */
    private static int elementsOf(int count, TypeDesc type, BaseKind kind) {
        return (int) ((long) count * type.extent / kind.bytes);
    }

    // The user function sees plain arrays (from index 0) or byte buffers (from position 0).
    // When the backend hands over exactly that, it is passed straight through; otherwise the
    // items are copied into temporaries and the result copied back.
    private static UserReduction adapt(UserFunction f) {
        boolean[] forms = FORMS.get(f.getClass());
        boolean hasArrayForm = forms[0];
        boolean hasBufferForm = forms[1];
        return (in, inout, count, type) -> {
            Datatype dt = datatypeOf(type);
            boolean arrays = in.isArray() && inout.isArray();
            boolean useArrayForm = hasArrayForm && (arrays || !hasBufferForm || type.arrayKind != BaseKind.BYTE);
            if (useArrayForm) {
                if (arrays && in.offset == 0 && inout.offset == 0) {
                    f.call(in.base, inout.base, count, dt);
                    return;
                }
                BaseKind k = type.arrayKind;
                long bytes = (long) elementsOf(count, type, k) * k.bytes;
                Buf a = BufAccess.allocate(k, bytes, false);
                Buf b = BufAccess.allocate(k, bytes, false);
                BufAccess.copy(in, 0, a, 0, bytes);
                BufAccess.copy(inout, 0, b, 0, bytes);
                f.call(a.base, b.base, count, dt);
                BufAccess.copy(b, 0, inout, 0, bytes);
                return;
            }
            if (in.isDirect() && inout.isDirect() && in.kind == BaseKind.BYTE && inout.kind == BaseKind.BYTE) {
                f.call(byteView(in), byteView(inout), count, dt);
                return;
            }
            long bytes = (long) count * type.extent;
            Buf a = BufAccess.allocate(BaseKind.BYTE, bytes, true);
            Buf b = BufAccess.allocate(BaseKind.BYTE, bytes, true);
            BufAccess.copy(in, 0, a, 0, bytes);
            BufAccess.copy(inout, 0, b, 0, bytes);
            f.call(byteView(a), byteView(b), count, dt);
            BufAccess.copy(b, 0, inout, 0, bytes);
        };
    }

    /**
     * Per user-function class: whether it overrides the array form and the buffer form of call.
     * Looked up once per class, since programs may create many ops of one class.
     */
    private static final ClassValue<boolean[]> FORMS = new ClassValue<boolean[]>() {
        @Override
        protected boolean[] computeValue(Class<?> type) {
            return new boolean[] {overrides(type, Object.class), overrides(type, ByteBuffer.class)};
        }
    };

    /** Whether the user's class overrides the form of call taking {@code vecType}. */
    private static boolean overrides(Class<?> fClass, Class<?> vecType) {
        for (Class<?> c = fClass; c != UserFunction.class; c = c.getSuperclass()) {
            try {
                c.getDeclaredMethod("call", vecType, vecType, int.class, Datatype.class);
                return true;
            } catch (NoSuchMethodException e) {
                // keep looking up the hierarchy
            }
        }
        return false;
    }

    private static UserReduction adapt(User_function f) {
        return (in, inout, count, type) -> {
            Datatype dt = datatypeOf(type);
            if (in.isArray() && inout.isArray()) {
                f.Call(in.base, in.offset, inout.base, inout.offset, count, dt);
                return;
            }
            BaseKind k = type.arrayKind;
            long bytes = (long) elementsOf(count, type, k) * k.bytes;
            Buf a = BufAccess.allocate(k, bytes, false);
            Buf b = BufAccess.allocate(k, bytes, false);
            BufAccess.copy(in, 0, a, 0, bytes);
            BufAccess.copy(inout, 0, b, 0, bytes);
            f.Call(a.base, 0, b.base, 0, count, dt);
            BufAccess.copy(b, 0, inout, 0, bytes);
        };
    }

    private static ByteBuffer byteView(Buf b) {
        ByteBuffer bb = ((ByteBuffer) b.base).duplicate();
        bb.position(b.offset);
        return bb.slice().order(ByteOrder.nativeOrder());
    }
}
