package io.github.mpi4j.spi;

/**
 * A message that a matched probe ({@link BackendComm#mprobe}) took out of matching
 * (MPI_Message): no other receive can take it; exactly one of these calls receives it.
 */
public interface BackendMessage {

    /** MPI_Mrecv: receives the message into {@code buf}, filling {@code status}. */
    void mrecv(Buf buf, int count, TypeDesc type, StatusData status);

    /** MPI_Imrecv: starts receiving the message into {@code buf}. */
    BackendRequest imrecv(Buf buf, int count, TypeDesc type);
}
