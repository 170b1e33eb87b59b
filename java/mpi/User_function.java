package mpi;

/**
 * A user reduction in the style of mpiJava 1.2: combines {@code count} items of
 * {@code invec} (from {@code inoffset}) into {@code inoutvec} (from {@code inoutoffset}).
 */
public abstract class User_function {
    public abstract void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset,
                              int count, Datatype datatype) throws MPIException;
}
