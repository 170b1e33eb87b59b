package io.github.mpi4j.backend.mpi;

import io.github.mpi4j.spi.BackendMessage;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;

/** An MPI_Message from MPI_Mprobe / MPI_Improbe, received once by MPI_Mrecv or MPI_Imrecv. */
final class MpiMessage implements BackendMessage {
    private final MpiComm comm;
    private final long handle;

    MpiMessage(MpiComm comm, long handle) {
        this.comm = comm;
        this.handle = handle;
    }

    /** A status from the natives' {source, tag, bytes}. */
    static void fill(StatusData status, long[] st) {
        if (status != null) status.set((int) st[0], (int) st[1], 0, false, st[2]);
    }

    @Override
    public void mrecv(Buf buf, int count, TypeDesc type, StatusData status) {
        comm.mrecv(handle, buf, count, type, status);
    }

    @Override
    public BackendRequest imrecv(Buf buf, int count, TypeDesc type) {
        return comm.imrecv(handle, buf, count, type);
    }
}
