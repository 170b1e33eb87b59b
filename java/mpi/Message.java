package mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendMessage;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;

/**
 * A matched message (MPI_Message), as in the Open MPI bindings: {@link #mProbe} or
 * {@link #imProbe} takes a message out of matching, so that no other receive, on any thread,
 * can take it; {@link #mRecv} or {@link #imRecv} then receives exactly that message, once.
 * A new Message is null; a probe from {@code MPI.PROC_NULL} gives the no-process message,
 * whose receive returns at once with an empty status.
 */
public final class Message {
    private enum State { NULL, NO_PROC, MATCHED }

    private State state = State.NULL;
    private BackendMessage impl;
    private Comm comm;
    /** Bytes of the matched message (an MPI.OBJECT message is received whole, so its size is needed). */
    private long bytes;
    /** Source of the matched message, for messages. */
    private int matchedSource;

    /** A null message (MPI_MESSAGE_NULL). */
    public Message() {
    }

    /** Whether this is the null message: never probed, or already received. */
    public boolean isNull() {
        return state == State.NULL;
    }

    /** Whether this is the no-process message (a probe from MPI.PROC_NULL). */
    public boolean isNoProc() {
        return state == State.NO_PROC;
    }

    /** MPI_Mprobe: waits for a message from {@code source} with {@code tag} on {@code comm} and takes it. */
    public Status mProbe(int source, int tag, Comm comm) {
        return probe("Message.mProbe", source, tag, comm, true);
    }

    /** MPI_Improbe: takes a matching message if one is there and returns its status; null if none. */
    public Status imProbe(int source, int tag, Comm comm) {
        return probe("Message.imProbe", source, tag, comm, false);
    }

    private Status probe(String call, int source, int tag, Comm comm, boolean blocking) {
        if (comm == null) throw MPIException.of(MPI.ERR_COMM, call + ": comm is null");
        BackendComm c = comm.impl(call);
        Comm.checkSource(call, c, source);
        Comm.checkRecvTag(call, c, tag);
        if (state == State.MATCHED) {
            throw MPIException.of(MPI.ERR_REQUEST, call + ": this Message still holds a matched message from "
                    + "source " + matchedSource + "; receive it (mRecv/imRecv) before probing again");
        }
        if (source == MPI.PROC_NULL) {
            set(State.NO_PROC, null, comm, 0, MPI.PROC_NULL);
            Status s = new Status();
            s.source = MPI.PROC_NULL;
            s.tag = MPI.ANY_TAG;
            return s;
        }
        StatusData d = new StatusData();
        BackendMessage m = blocking ? c.mprobe(source, tag, d) : c.improbe(source, tag, d);
        if (m == null) return null;
        set(State.MATCHED, m, comm, d.bytes, d.source);
        return new Status(d);
    }

    private void set(State s, BackendMessage m, Comm c, long b, int source) {
        state = s;
        impl = m;
        comm = c;
        bytes = b;
        matchedSource = source;
    }

    /** MPI_Mrecv: receives the matched message into {@code buf}; this message becomes null. */
    public Status mRecv(Object buf, int count, Datatype type) {
        String call = "Message.mRecv";
        if (state == State.NO_PROC) {
            Comm.type(call, "datatype", type);
            set(State.NULL, null, null, 0, 0);
            Status s = new Status();
            s.source = MPI.PROC_NULL;
            s.tag = MPI.ANY_TAG;
            return s;
        }
        checkState(call, type);
        if (Comm.isObject(type.desc)) return new Status(receiveObjects(call, buf, count));
        Buf b = checkReceive(call, buf, count, type);
        BackendMessage m = impl;
        TypeDesc t = type.desc;
        set(State.NULL, null, null, 0, 0);
        StatusData d = new StatusData();
        m.mrecv(b, count, t, d);
        return new Status(d);
    }

    /**
     * MPI.OBJECT: the message is the serialized array (as every object send makes it), of the
     * size the probe reported; received whole, deserialized through the filter, and stored.
     */
    private StatusData receiveObjects(String call, Object buf, int count) {
        Comm.checkCount(call, "count", count);
        if (!(buf instanceof Object[]) && !(buf == null && count == 0)) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": MPI.OBJECT needs an Object[] buf, got "
                    + (buf == null ? "null" : buf.getClass().getSimpleName()));
        }
        Object[] dst = buf == null ? new Object[0] : (Object[]) buf;
        if (count > dst.length) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": count " + count + " objects do not fit in buf (Object["
                    + dst.length + "])");
        }
        if (bytes > Integer.MAX_VALUE) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": an MPI.OBJECT message of " + bytes + " bytes is too large");
        }
        byte[] data = new byte[(int) bytes];
        BackendMessage m = impl;
        set(State.NULL, null, null, 0, 0);
        StatusData d = new StatusData();
        m.mrecv(new Buf(data, io.github.mpi4j.spi.BaseKind.BYTE, 0, data.length), data.length,
                io.github.mpi4j.spi.Predefined.T_BYTE, d);
        Object[] items = ObjectMessages.deserialize(call, data, 0, data.length);
        if (items.length > count) {
            throw MPIException.of(MPI.ERR_TRUNCATE, call + ": received " + items.length
                    + " objects but the receive count is " + count);
        }
        System.arraycopy(items, 0, dst, 0, items.length);
        d.objects = items.length;
        return d;
    }

    /** MPI_Imrecv: starts receiving the matched message into {@code buf}; this message becomes null. */
    public Request imRecv(Object buf, int count, Datatype type) {
        String call = "Message.imRecv";
        if (state == State.NO_PROC) {
            Comm.type(call, "datatype", type);
            Comm c = comm;
            set(State.NULL, null, null, 0, 0);
            // MPI: an active request that completes at once as a receive from MPI_PROC_NULL would
            // (not MPI_REQUEST_NULL); its wait or test gives the PROC_NULL status.
            io.github.mpi4j.spi.StatusData procNull = new io.github.mpi4j.spi.StatusData();
            procNull.setEmpty(MPI.PROC_NULL, MPI.ANY_TAG);
            return c.request(new io.github.mpi4j.spi.CompletedRequest(procNull), null);
        }
        checkState(call, type);
        if (Comm.isObject(type.desc)) {
            // The message is matched and on its way: receiving it here completes the request at once.
            Comm c = comm;
            return c.request(new Received(receiveObjects(call, buf, count)), buf);
        }
        Buf b = checkReceive(call, buf, count, type);
        BackendMessage m = impl;
        Comm c = comm;
        TypeDesc t = type.desc;
        set(State.NULL, null, null, 0, 0);
        return c.request(m.imrecv(b, count, t), buf);
    }

    /** Checks that a message is held, its communicator is usable and the type is given. */
    private void checkState(String call, Datatype type) {
        if (state == State.NULL) {
            throw MPIException.of(MPI.ERR_REQUEST, call + ": the message is null (no mProbe/imProbe matched one, "
                    + "or it was received already)");
        }
        comm.impl(call);
        Comm.type(call, "datatype", type);
    }

    /** Checks count and buffer before anything moves. */
    private Buf checkReceive(String call, Object buf, int count, Datatype type) {
        TypeDesc t = type.desc;
        Comm.checkCount(call, "count", count);
        return Buffers.resolve(call, "buf", buf, 0, count, t, true);
    }

    @Override
    public String toString() {
        return "Message[" + state + (state == State.MATCHED ? ", source " + matchedSource + ", " + bytes + " bytes" : "")
                + "]";
    }

    /** A request that completed inside the call which made it: it reports that receive's status. */
    private static final class Received implements io.github.mpi4j.spi.BackendRequest {
        private final StatusData done;

        Received(StatusData done) {
            this.done = done;
        }

        @Override
        public void waitFor(StatusData status) {
            if (status == null) return;
            status.set(done.source, done.tag, done.error, done.cancelled, done.bytes);
            status.objects = done.objects;
        }

        @Override
        public boolean test(StatusData status) {
            waitFor(status);
            return true;
        }

        @Override
        public void cancel() {
        }

        @Override
        public void free() {
        }
    }
}
