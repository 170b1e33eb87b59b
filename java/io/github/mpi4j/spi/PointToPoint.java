package io.github.mpi4j.spi;

/**
 * Point-to-point communication on one communicator: every backend's communicators provide it
 * ({@link BackendComm} extends this interface). Arguments arrive checked by the {@code mpi}
 * layer; see {@link BackendComm} for the conventions on ranks, tags and buffers.
 */
public interface PointToPoint {

    void send(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode);

    void recv(Buf buf, int count, TypeDesc type, int source, int tag, StatusData status);

    BackendRequest isend(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode);

    BackendRequest irecv(Buf buf, int count, TypeDesc type, int source, int tag);

    void sendRecv(Buf sendBuf, int sendCount, TypeDesc sendType, int dest, int sendTag,
                  Buf recvBuf, int recvCount, TypeDesc recvType, int source, int recvTag,
                  StatusData status);

    /**
     * MPI_Sendrecv_replace. No default: composing it from {@link #sendRecv} needs a copy of the
     * buffer, and copying memory is a backend's business (its memory kinds), not the contract's.
     */
    void sendRecvReplace(Buf buf, int count, TypeDesc type, int dest, int sendTag,
                         int source, int recvTag, StatusData status);

    void probe(int source, int tag, StatusData status);

    /** Returns true and fills {@code status} if a matching message is waiting. */
    boolean iprobe(int source, int tag, StatusData status);

    /** Persistent send (MPI_Send_init and friends); inactive until started. */
    BackendRequest sendInit(Buf buf, int count, TypeDesc type, int dest, int tag, SendMode mode);

    /** Persistent receive (MPI_Recv_init); inactive until started. */
    BackendRequest recvInit(Buf buf, int count, TypeDesc type, int source, int tag);
}
