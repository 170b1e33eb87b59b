package mpi;

import java.nio.ByteBuffer;

/**
 * A user reduction in the style of the Open MPI bindings: override the array form, the
 * buffer form, or both. Each combines {@code inVec} into {@code inOutVec}:
 * {@code inOutVec[i] = inVec[i] op inOutVec[i]} for {@code count} items of {@code datatype}.
 */
public abstract class UserFunction {
    /** Array form: the buffers are Java arrays of the datatype's base type, starting at index 0. */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException("UserFunction.call(Object, Object, int, Datatype) is not implemented");
    }

    /** Buffer form: native-order direct buffers positioned at the first item. */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
        throw new UnsupportedOperationException("UserFunction.call(ByteBuffer, ByteBuffer, int, Datatype) is not implemented");
    }
}
