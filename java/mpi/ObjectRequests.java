package mpi;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.SendMode;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.util.function.Supplier;

/**
 * {@code MPI.OBJECT} in persistent requests ({@code Send_init}, {@code Bsend_init},
 * {@code Ssend_init}, {@code Rsend_init}, {@code Recv_init} + {@code Start}/{@code Startall}),
 * and the rule that lets the lazily matched object receives complete inside {@code Waitall}.
 *
 * <p>Arguments are checked when the request is made. Each start of a send serializes what the
 * buffer holds at that moment (so a program may refill it between starts, as with any
 * persistent send); each start of a receive posts a fresh {@link ObjectMessages.LazyReceive}
 * that stores into the buffer given at creation.
 */
final class ObjectRequests {
    private ObjectRequests() {
    }

    static BackendRequest sendInit(String call, BackendComm c, Object buf, int offset, int count, int dest, int tag,
                                   SendMode mode) {
        ObjectMessages.objects(call, "buf", buf, offset, count);
        return new Persistent(() -> ObjectMessages.isend(call, c, buf, offset, count, dest, tag, mode));
    }

    static BackendRequest recvInit(String call, BackendComm c, Object buf, int offset, int count, int source,
                                   int tag) {
        ObjectMessages.objects(call, "buf", buf, offset, count);
        return new Persistent(() -> ObjectMessages.irecv(call, c, buf, offset, count, source, tag));
    }

    /** A derived type over MPI.OBJECT (issue 10): each start gathers the selection anew. */
    static BackendRequest typedSendInit(String call, BackendComm c, Object buf, int offset, int count, TypeDesc t,
                                        int dest, int tag, SendMode mode) {
        ObjectTypes.indices(call, "buf", buf, offset, count, t);
        return new Persistent(() -> ObjectTypes.isend(call, c, buf, offset, count, t, dest, tag, mode));
    }

    /** A derived type over MPI.OBJECT (issue 10): each start scatters into the selection. */
    static BackendRequest typedRecvInit(String call, BackendComm c, Object buf, int offset, int count, TypeDesc t,
                                        int source, int tag) {
        ObjectTypes.indices(call, "buf", buf, offset, count, t);
        return new Persistent(() -> ObjectTypes.irecv(call, c, buf, offset, count, t, source, tag));
    }

    /**
     * Whether {@code r} is an object receive that has not matched its message yet. A wait on
     * several requests completes these first ({@code Request.waitAll}): blocking on a send before
     * them could wait forever, since the matching receive (or the receive of a message the peer
     * needs before it receives ours) would only be posted after it; a synchronous send to this
     * very rank, as in mpiJava's startO test, is the simplest case. Every send in the array is
     * already started, so waiting on the receives first cannot block what they wait for.
     */
    static boolean receivesLater(BackendRequest r) {
        if (r instanceof Persistent) r = ((Persistent) r).current;
        return r instanceof ObjectMessages.LazyReceive && ((ObjectMessages.LazyReceive) r).pending();
    }

    /** A persistent request whose every start makes a new object send or receive. */
    static final class Persistent implements BackendRequest {
        private final Supplier<BackendRequest> starter;
        /** The operation of the current start; null before the first. */
        BackendRequest current;

        Persistent(Supplier<BackendRequest> starter) {
            this.starter = starter;
        }

        @Override
        public boolean isPersistent() {
            return true;
        }

        @Override
        public void start() {
            current = starter.get();
        }

        @Override
        public void waitFor(StatusData status) {
            if (current != null) current.waitFor(status);
        }

        @Override
        public boolean test(StatusData status) {
            return current == null || current.test(status);
        }

        @Override
        public void cancel() {
            if (current != null) current.cancel();
        }

        @Override
        public void free() {
            if (current != null) current.free();
        }
    }
}
