package mpi;

import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.Predefined;
import io.github.mpi4j.spi.SendMode;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/**
 * {@code MPI.OBJECT}: Java objects sent as serialized bytes (mpiJava 1.2 / MPJ Express). Each
 * message is one serialized {@code Object[]} of the items sent; backends only ever see bytes.
 *
 * <p>Deserialization runs under {@link ObjectFilter} (limits tied to the message's size, and
 * which classes are admitted) merged with the JVM-wide filter: a class passes only if neither
 * refuses it. Every failure, on either side, is an {@link MPIException} on the rank that saw it:
 * refused or corrupt data, a graph too deep for the stack, out of memory. See docs/objects.md.
 */
final class ObjectMessages {
    private ObjectMessages() {
    }

    static final TypeDesc BYTES = Predefined.T_BYTE;
    static final TypeDesc INTS = Predefined.T_INT;

    // ---- serialization -----------------------------------------------------------------------

    static Object[] objects(String call, String arg, Object buf, int offset, int count) {
        if (count < 0) throw MPIException.of(MPI.ERR_COUNT, call + ": count must be >= 0, got " + count);
        if (buf == null) {
            if (count == 0) return new Object[0];
            throw MPIException.of(MPI.ERR_BUFFER, call + ": " + arg + " is null but count is " + count);
        }
        if (!(buf instanceof Object[])) {
            throw MPIException.of(MPI.ERR_TYPE, call + ": MPI.OBJECT needs an Object[] " + arg + ", got "
                    + buf.getClass().getSimpleName());
        }
        Object[] a = (Object[]) buf;
        if (offset < 0 || offset > a.length || count > a.length - offset) {
            throw MPIException.of(MPI.ERR_BUFFER, call + ": " + count + " objects from offset " + offset
                    + " do not fit in " + arg + " (Object[" + a.length + "])");
        }
        return a;
    }

    static byte[] serialize(String call, Object[] a, int offset, int count) {
        Object[] items = new Object[count];
        System.arraycopy(a, offset, items, 0, count);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(items);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException | RuntimeException e) {
            throw new MPIException(MPI.ERR_OTHER, MPI.ERR_OTHER, call + ": cannot serialize MPI.OBJECT data: " + e);
        } catch (StackOverflowError e) {
            throw new MPIException(MPI.ERR_OTHER, MPI.ERR_OTHER, call + ": cannot serialize MPI.OBJECT data: the "
                    + "object graph is too deep for this thread's stack (StackOverflowError); send a flatter "
                    + "structure, e.g. an array instead of a long linked chain");
        } catch (OutOfMemoryError e) {
            throw new MPIException(MPI.ERR_NO_MEM, MPI.ERR_NO_MEM, call + ": cannot serialize MPI.OBJECT data: out of "
                    + "memory while encoding " + count + " objects (" + bytes.size() + " bytes written so far)");
        }
    }

    static Object[] deserialize(String call, byte[] data, int from, int length) {
        ObjectFilter mine = new ObjectFilter(call, length);
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(data, from, length))) {
            in.setObjectInputFilter(withJvmFilter(mine, in.getObjectInputFilter()));
            Object o = in.readObject();
            if (!(o instanceof Object[])) {
                throw MPIException.of(MPI.ERR_OTHER, call + ": received data is not an MPI.OBJECT message");
            }
            return (Object[]) o;
        } catch (InvalidClassException e) {
            if (mine.refusal != null) {
                throw new MPIException(MPI.ERR_OTHER, MPI.ERR_OTHER, call + ": MPI.OBJECT message of " + length
                        + " bytes refused: " + mine.refusal);
            }
            throw new MPIException(MPI.ERR_OTHER, MPI.ERR_OTHER, call + ": MPI.OBJECT message of " + length
                    + " bytes refused" + (mine.lastClass == null ? "" : " at class " + mine.lastClass.getName())
                    + ": " + e.getMessage() + " (by the JVM-wide deserialization filter: jdk.serialFilter or "
                    + "the filter factory; or the class does not match the sender's)");
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            if (e instanceof MPIException) throw (MPIException) e;
            throw new MPIException(MPI.ERR_OTHER, MPI.ERR_OTHER, call + ": cannot deserialize an MPI.OBJECT message"
                    + " of " + length + " bytes (corrupt, or classes differ from the sender's): " + e);
        } catch (StackOverflowError e) {
            throw new MPIException(MPI.ERR_OTHER, MPI.ERR_OTHER, call + ": cannot deserialize an MPI.OBJECT message of "
                    + length + " bytes: the object graph is too deep for this thread's stack");
        } catch (OutOfMemoryError e) {
            throw new MPIException(MPI.ERR_NO_MEM, MPI.ERR_NO_MEM, call + ": out of memory while deserializing an "
                    + "MPI.OBJECT message of " + length + " bytes");
        }
    }

    /**
     * mpi4j's filter merged with the stream's own (what jdk.serialFilter or the filter factory
     * gave it): refused if either refuses, allowed if either allows, else undecided. The stream
     * passes the result to the filter factory again, so a factory keeps the last word.
     */
    private static ObjectInputFilter withJvmFilter(ObjectFilter mine, ObjectInputFilter jvm) {
        if (jvm == null) return mine;
        return info -> {
            ObjectInputFilter.Status a = mine.checkInput(info);
            ObjectInputFilter.Status b = jvm.checkInput(info);
            if (a == ObjectInputFilter.Status.REJECTED || b == ObjectInputFilter.Status.REJECTED) {
                if (b == ObjectInputFilter.Status.REJECTED && mine.refusal == null && info.serialClass() != null) {
                    String property = System.getProperty("jdk.serialFilter");
                    mine.refusal = info.serialClass().getName() + " is REJECTED by the JVM-wide deserialization "
                            + "filter (" + (property != null ? "jdk.serialFilter=" + property
                            : "jdk.serialFilter or the filter factory") + ")";
                }
                return ObjectInputFilter.Status.REJECTED;
            }
            if (a == ObjectInputFilter.Status.ALLOWED || b == ObjectInputFilter.Status.ALLOWED) {
                return ObjectInputFilter.Status.ALLOWED;
            }
            return ObjectInputFilter.Status.UNDECIDED;
        };
    }

    /** A receive buffer of a message's size; running out of memory is an MPIException. */
    static byte[] buffer(String call, long n) {
        try {
            return new byte[(int) n];
        } catch (OutOfMemoryError e) {
            throw new MPIException(MPI.ERR_NO_MEM, MPI.ERR_NO_MEM, call + ": out of memory for an MPI.OBJECT "
                    + "message of " + n + " bytes");
        }
    }

    static Buf bytes(byte[] b) {
        return new Buf(b, BaseKind.BYTE, 0, b.length);
    }

    static Buf ints(int[] a) {
        return new Buf(a, BaseKind.INT, 0, a.length);
    }

    static void store(String call, Object[] got, Object[] dst, int offset, int count) {
        if (got.length > count) {
            throw MPIException.of(MPI.ERR_TRUNCATE, call + ": received " + got.length
                    + " objects but the receive count is " + count);
        }
        System.arraycopy(got, 0, dst, offset, got.length);
    }

    // ---- point-to-point ---------------------------------------------------------------------

    static void send(String call, BackendComm c, Object buf, int offset, int count, int dest, int tag,
                     SendMode mode) {
        byte[] b = serialize(call, objects(call, "buf", buf, offset, count), offset, count);
        c.send(bytes(b), b.length, BYTES, dest, tag, mode);
    }

    static StatusData recv(String call, BackendComm c, Object buf, int offset, int count, int source, int tag) {
        Object[] dst = objects(call, "buf", buf, offset, count);
        StatusData d = new StatusData();
        if (source == MPI.PROC_NULL) {
            d.setEmpty(MPI.PROC_NULL, MPI.ANY_TAG);
            d.objects = 0;
            return d;
        }
        c.probe(source, tag, d);
        byte[] b = buffer(call, d.bytes);
        StatusData got = new StatusData();
        c.recv(bytes(b), b.length, BYTES, d.source, d.tag, got);
        Object[] items = deserialize(call, b, 0, b.length);
        store(call, items, dst, offset, count);
        got.objects = items.length;
        return got;
    }

    static BackendRequest isend(String call, BackendComm c, Object buf, int offset, int count, int dest, int tag,
                                SendMode mode) {
        byte[] b = serialize(call, objects(call, "buf", buf, offset, count), offset, count);
        return c.isend(bytes(b), b.length, BYTES, dest, tag, mode);
    }

    /** A receive of objects: the size is unknown until the message is probed, so it matches lazily. */
    static BackendRequest irecv(String call, BackendComm c, Object buf, int offset, int count, int source, int tag) {
        return new LazyReceive(call, c, objects(call, "buf", buf, offset, count), offset, count, source, tag);
    }

    /**
     * A non-blocking receive of objects. It matches its message when tested or waited on, not
     * when posted; {@code Request.waitAll} therefore completes these before waiting on anything
     * else, so that a send it waits for is never stuck behind a receive not yet matched.
     */
    static class LazyReceive implements BackendRequest {
        private final String call;
        private final BackendComm c;
        private final Object[] dst;
        private final int offset;
        private final int count;
        private final int source;
        private final int tag;
        private boolean done;
        private boolean cancelled;

        LazyReceive(String call, BackendComm c, Object[] dst, int offset, int count, int source, int tag) {
            this.call = call;
            this.c = c;
            this.dst = dst;
            this.offset = offset;
            this.count = count;
            this.source = source;
            this.tag = tag;
        }

        @Override
        public void waitFor(StatusData status) {
            if (done) return;
            if (cancelled) {
                done = true;
                if (status != null) {
                    status.set(MPI.PROC_NULL, MPI.ANY_TAG, 0, true, 0);
                    status.objects = 0;
                }
                return;
            }
            StatusData d = recv(call, c, dst, offset, count, source, tag);
            done = true;
            copy(d, status);
        }

        @Override
        public boolean test(StatusData status) {
            if (done) return true;
            StatusData probe = new StatusData();
            if (!cancelled && source != MPI.PROC_NULL && !c.iprobe(source, tag, probe)) return false;
            waitFor(status);
            return true;
        }

        /** Not matched yet, so always cancelled: completion then reports a cancelled status. */
        @Override
        public void cancel() {
            if (!done) cancelled = true;
        }

        @Override
        public void free() {
            done = true;
        }

        /** Not matched (nor cancelled) yet. */
        boolean pending() {
            return !done;
        }
    }

    private static void copy(StatusData from, StatusData to) {
        if (to == null) return;
        to.set(from.source, from.tag, from.error, from.cancelled, from.bytes);
        to.objects = from.objects;
    }

    // ---- collectives ---------------------------------------------------------------------------
    // Sizes travel first, so a rank that cannot serialize its part sends FAILED instead of a
    // size: the others learn of it in the same collective and throw too, instead of waiting.

    /** A size that says "this rank could not serialize its data". */
    static final int FAILED = -1;

    /** Serializes, or records the failure in {@code failure[0]} and returns null. */
    static byte[] trySerialize(String call, Object[] a, int offset, int count, MPIException[] failure) {
        try {
            return serialize(call, a, offset, count);
        } catch (MPIException e) {
            failure[0] = e;
            return null;
        }
    }

    static MPIException peerFailed(String call, int rank) {
        return MPIException.of(MPI.ERR_OTHER, call + ": rank " + rank + " could not serialize its MPI.OBJECT data "
                + "(the exception on rank " + rank + " says why)");
    }

    /**
     * What a rank that already holds its own failure ({@code own}, or null) throws when a step
     * of the exchange fails: its own cause. A peer that learned of the failure may end the call
     * first (on the fabric, with a notice that echoes it); this rank still reports why.
     */
    static RuntimeException ownFirst(RuntimeException own, RuntimeException step) {
        return own != null ? own : step;
    }

    /** The first rank whose size is FAILED, or -1. */
    static int firstFailed(int[] lens) {
        for (int r = 0; r < lens.length; r++) if (lens[r] == FAILED) return r;
        return -1;
    }

    /** FAILED sizes as empty parts, for the data exchange that follows. */
    static int[] withoutFailed(int[] lens) {
        int[] l = lens.clone();
        for (int r = 0; r < l.length; r++) if (l[r] == FAILED) l[r] = 0;
        return l;
    }

    static void bcast(String call, BackendComm c, Object buf, int offset, int count, int root) {
        Object[] a = objects(call, "buf", buf, offset, count);
        MPIException[] failure = new MPIException[1];
        byte[] b = c.rank() == root ? trySerialize(call, a, offset, count, failure) : null;
        try {
            b = bcastBytes(call, c, b, root, failure[0] != null);
        } catch (RuntimeException e) {
            throw ownFirst(failure[0], e);
        }
        if (failure[0] != null) throw failure[0];
        if (c.rank() != root) store(call, deserialize(call, b, 0, b.length), a, offset, count);
    }

    /** Broadcasts root's bytes (or that root failed, which every other rank then throws). */
    private static byte[] bcastBytes(String call, BackendComm c, byte[] b, int root, boolean rootFailed) {
        int[] len = {rootFailed ? FAILED : b == null ? 0 : b.length};
        c.collectives().bcast(ints(len), 1, INTS, root);
        if (c.rank() == root) {
            if (rootFailed) return null;
        } else if (len[0] == FAILED) {
            throw peerFailed(call, root);
        } else {
            b = buffer(call, len[0]);
        }
        c.collectives().bcast(bytes(b), b.length, BYTES, root);
        return b;
    }

    static void allGather(String call, BackendComm c, Object sendbuf, int soff, int sendcount, Object recvbuf,
                          int roff, int recvcount) {
        int n = c.size();
        Object[] dst = objects(call, "recvbuf", recvbuf, roff, recvcount * n);
        MPIException[] failure = new MPIException[1];
        byte[] mine = sendbuf == MPI.IN_PLACE
                ? trySerialize(call, dst, roff + c.rank() * recvcount, recvcount, failure)
                : trySerialize(call, objects(call, "sendbuf", sendbuf, soff, sendcount), soff, sendcount, failure);
        int[] lens = new int[n];
        try {
            c.collectives().allGather(ints(new int[] {mine == null ? FAILED : mine.length}), 1, INTS, ints(lens), 1,
                    INTS);
        } catch (RuntimeException e) {
            throw ownFirst(failure[0], e);
        }
        // Every rank sees the same sizes: all skip the data exchange if one failed.
        if (failure[0] != null) throw failure[0];
        int failed = firstFailed(lens);
        if (failed >= 0) throw peerFailed(call, failed);
        int[] displs = displacements(lens);
        byte[] all = buffer(call, total(lens));
        c.collectives().allGatherv(bytes(mine), mine.length, BYTES, bytes(all), lens, displs, BYTES);
        Object[][] got = new Object[n][]; // all decoded before any is stored
        for (int r = 0; r < n; r++) got[r] = deserialize(call, all, displs[r], lens[r]);
        for (int r = 0; r < n; r++) store(call, got[r], dst, roff + r * recvcount, recvcount);
    }

    static void allToAll(String call, BackendComm c, Object sendbuf, int soff, int sendcount, Object recvbuf,
                         int roff, int recvcount) {
        int n = c.size();
        Object[] dst = objects(call, "recvbuf", recvbuf, roff, recvcount * n);
        Object[] src = sendbuf == MPI.IN_PLACE ? dst : objects(call, "sendbuf", sendbuf, soff, sendcount * n);
        int sOff = sendbuf == MPI.IN_PLACE ? roff : soff;
        int sCount = sendbuf == MPI.IN_PLACE ? recvcount : sendcount;
        byte[][] parts = new byte[n][];
        int[] sendLens = new int[n];
        MPIException[] failure = new MPIException[1];
        for (int r = 0; r < n && failure[0] == null; r++) {
            parts[r] = trySerialize(call, src, sOff + r * sCount, sCount, failure);
            if (parts[r] != null) sendLens[r] = parts[r].length;
        }
        if (failure[0] != null) java.util.Arrays.fill(sendLens, FAILED);
        int[] recvLens = new int[n];
        try {
            c.collectives().allToAll(ints(sendLens), 1, INTS, ints(recvLens), 1, INTS);
        } catch (RuntimeException e) {
            throw ownFirst(failure[0], e);
        }
        // A rank that failed sent FAILED to every rank: all skip the data exchange.
        if (failure[0] != null) throw failure[0];
        int failed = firstFailed(recvLens);
        if (failed >= 0) throw peerFailed(call, failed);
        int[] rd = displacements(recvLens);
        byte[] all = buffer(call, total(recvLens));
        c.collectives().allToAllv(bytes(concat(parts, sendLens)), sendLens, displacements(sendLens), BYTES,
                bytes(all), recvLens, rd, BYTES);
        Object[][] got = new Object[n][]; // all decoded before any is stored
        for (int r = 0; r < n; r++) got[r] = deserialize(call, all, rd[r], recvLens[r]);
        for (int r = 0; r < n; r++) store(call, got[r], dst, roff + r * recvcount, recvcount);
    }

    /**
     * Reduction of objects with a user op: everything is gathered at the root and combined in
     * rank order, {@code acc = v0; acc = acc op v1; ...}, which is right for non-commutative ops.
     */
    static void reduce(String call, BackendComm c, Object sendbuf, int soff, Object recvbuf, int roff, int count,
                       OpDesc op, int root, Datatype type) {
        boolean isRoot = c.rank() == root;
        boolean inPlace = sendbuf == MPI.IN_PLACE;
        if (inPlace && !isRoot) throw ObjectCollectives.inPlaceNotRoot(call, root, c.rank());
        Object[] dst = isRoot ? objects(call, "recvbuf", recvbuf, roff, count) : null;
        Object[] src = inPlace ? dst : objects(call, "sendbuf", sendbuf, soff, count);
        Object[][] parts = ObjectCollectives.gatherParts(call, c, src, inPlace ? roff : soff, count, false, root);
        if (!isRoot) return;
        Object[] acc = parts[0];
        for (int r = 1; r < parts.length; r++) acc = combine(call, acc, parts[r], r, count, op, type);
        System.arraycopy(acc, 0, dst, roff, count);
    }

    /**
     * {@code acc op next} into {@code next} (MPI's {@code inoutvec = invec op inoutvec}) and
     * returns it; {@code next} is rank {@code rank}'s part, which must hold {@code count} objects.
     */
    static Object[] combine(String call, Object[] acc, Object[] next, int rank, int count, OpDesc op,
                            Datatype type) {
        if (next.length != count) {
            throw MPIException.of(MPI.ERR_COUNT, call + ": rank " + rank + " contributed " + next.length
                    + " objects but the count here is " + count + " (every rank must pass the same count)");
        }
        op.function.reduce(new Buf(acc, BaseKind.OBJECT, 0, count), new Buf(next, BaseKind.OBJECT, 0, count), count,
                type.desc);
        return next;
    }

    /** reduce at rank 0, then bcast; a failure in the reduce reaches every rank through the bcast. */
    static void allReduce(String call, BackendComm c, Object sendbuf, int soff, Object recvbuf, int roff, int count,
                          OpDesc op, Datatype type) {
        boolean isRoot = c.rank() == 0;
        if (sendbuf == MPI.IN_PLACE) { // every rank's contribution is in its recvbuf
            sendbuf = recvbuf;
            soff = roff;
        }
        // Arguments first: a failure caught below must come from the data, after the reduce's
        // exchange ran at this rank too (else the others would wait for this rank's part).
        objects(call, "recvbuf", recvbuf, roff, count);
        objects(call, "sendbuf", sendbuf, soff, count);
        RuntimeException failure = null; // this rank's own: serialization, or the user's op at rank 0
        try {
            reduce(call, c, sendbuf, soff, recvbuf, roff, count, op, 0, type);
        } catch (RuntimeException e) {
            failure = e;
        }
        Object[] a = objects(call, "recvbuf", recvbuf, roff, count);
        MPIException[] encoding = new MPIException[1];
        byte[] b = isRoot && failure == null ? trySerialize(call, a, roff, count, encoding) : null;
        try {
            b = bcastBytes(call, c, b, 0, isRoot && (failure != null || encoding[0] != null));
        } catch (MPIException e) {
            if (failure == null) {
                throw MPIException.of(MPI.ERR_OTHER, call + ": the reduction at rank 0 failed (the exception on "
                        + "rank 0 says why)");
            }
        }
        if (failure != null) throw failure;
        if (encoding[0] != null) throw encoding[0];
        if (!isRoot) store(call, deserialize(call, b, 0, b.length), a, roff, count);
    }

    static int[] displacements(int[] lens) {
        int[] d = new int[lens.length];
        for (int i = 1; i < lens.length; i++) d[i] = d[i - 1] + lens[i - 1];
        return d;
    }

    static int total(int[] lens) {
        long t = 0;
        for (int l : lens) t += l;
        if (t > Integer.MAX_VALUE) throw MPIException.of(MPI.ERR_COUNT, "MPI.OBJECT data exceeds 2 GiB");
        return (int) t;
    }

    static byte[] concat(byte[][] parts, int[] lens) {
        byte[] all = new byte[total(lens)];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }
}
