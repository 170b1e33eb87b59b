package mpi;

/** An MPI object that holds resources until freed. */
public interface Freeable {
    void free();
}
