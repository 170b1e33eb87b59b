package io.github.mpi4j.fabric;

import io.github.mpi4j.spi.BackendMessage;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;

/**
 * A message a matched probe took out of the fabric's unexpected queue: an eager payload in hand,
 * or a rendezvous request whose sender waits for the receive (the clear-to-send goes out when it
 * is received). Received once.
 */
final class FabricMessage implements BackendMessage {
    private final FabricComm comm;
    private final Object matched;

    FabricMessage(FabricComm comm, Object matched) {
        this.comm = comm;
        this.matched = matched;
    }

    @Override
    public void mrecv(Buf buf, int count, TypeDesc type, StatusData status) {
        Engine.Op op = comm.startMatchedRecv(matched, buf, count, type);
        comm.waitMatched(op, "mRecv");
        comm.fillStatus(op, status);
    }

    @Override
    public BackendRequest imrecv(Buf buf, int count, TypeDesc type) {
        return new FabricRequest(comm, comm.startMatchedRecv(matched, buf, count, type), "imRecv");
    }
}
