package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;

/**
 * A channel that runs nothing: it records what an algorithm does into a {@link Schedule}, for a
 * non-blocking call. It is used on the caller's thread, inside the call, so the tags it hands
 * out ({@link #tag}) are the call's, taken in call order. It has no shared-memory slots
 * (schedules over them stay blocking-only).
 */
final class Recorder implements CollChannel {
    private final CollChannel real;
    final Schedule schedule;

    Recorder(CollChannel real) {
        this.real = real;
        this.schedule = new Schedule(real);
    }

    @Override
    public int rank() {
        return real.rank();
    }

    @Override
    public int size() {
        return real.size();
    }

    @Override
    public CollOp isend(int peer, int tag, Buf buf, long off, long len) {
        return schedule.post(true, peer, tag, buf, off, len);
    }

    @Override
    public CollOp irecv(int peer, int tag, Buf buf, long off, long len) {
        return schedule.post(false, peer, tag, buf, off, len);
    }

    @Override
    public void waitAll(CollOp... ops) {
        schedule.waitFor(ops);
    }

    @Override
    public void copy(Buf src, long srcOff, Buf dst, long dstOff, long len) {
        schedule.copy(src, srcOff, dst, dstOff, len);
    }

    @Override
    public void reduce(OpDesc op, TypeDesc t, Buf in, long inOff, Buf inout, long inoutOff, long items) {
        schedule.reduce(op, t, in, inOff, inout, inoutOff, items);
    }

    @Override
    public int tag() {
        return real.tag();
    }

    @Override
    public BackendRequest start(Schedule s) {
        throw new IllegalStateException("a recorded schedule cannot start another");
    }

    @Override
    public int[] nodeOf() {
        return real.nodeOf();
    }
}
