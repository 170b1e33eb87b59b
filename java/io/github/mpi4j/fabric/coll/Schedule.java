package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.Reductions;
import io.github.mpi4j.fabric.coll.CollChannel.CollOp;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import java.util.ArrayList;

/**
 * A collective algorithm recorded as a list of steps ({@link Recorder}), to be run later by
 * whoever makes progress on the non-blocking call: post a send or a receive, wait for
 * operations posted earlier, copy or reduce locally. The steps run in the order the algorithm
 * made them, so the data flow is exactly that of the same algorithm run directly; only the
 * waiting differs. That is possible because the control flow of the collective algorithms
 * never depends on the data they receive.
 *
 * <p>Not thread-safe: one thread at a time advances it (the caller's request makes sure).
 */
public final class Schedule {
    private final CollChannel real;
    private final ArrayList<Step> steps = new ArrayList<>();
    /** The next step to run. */
    private int pc;

    Schedule(CollChannel real) {
        this.real = real;
    }

    /**
     * Runs steps until the end (returns true) or, unless {@code block}, until one waits for an
     * operation that is not done yet (returns false). With {@code block} the waits are the
     * channel's own (deadline, failure notices). Throws what the channel throws.
     */
    public boolean advance(boolean block) {
        return advance(block, Long.MAX_VALUE);
    }

    /**
     * What the call that starts the schedule runs itself: posts, and copies and reductions of
     * up to {@link #START_WORK_BYTES} each; it stops before a larger one and leaves it to
     * progress (the progress thread, or the caller's test and wait). A 16 MiB iAllreduce spent
     * 1-2 ms inside the call copying its input before it returned, time the program could not
     * compute in. Returns true when the schedule is complete.
     */
    public boolean advanceAtStart() {
        return advance(false, START_WORK_BYTES);
    }

    static final long START_WORK_BYTES = 64 * 1024;

    private boolean advance(boolean block, long maxWork) {
        if (pc == steps.size()) return true;
        while (pc < steps.size()) {
            Step s = steps.get(pc);
            if (s.work() > maxWork || !s.run(block)) return false;
            pc++;
        }
        if (whenComplete != null) whenComplete.run();
        return true;
    }

    /** Runs once, on the thread that runs the last step; never for a schedule that failed. */
    private Runnable whenComplete;

    void whenComplete(Runnable r) {
        whenComplete = r;
    }

    /** Steps run so far (grows as the schedule advances). */
    public int position() {
        return pc;
    }

    /** Whether every step has run. */
    public boolean isComplete() {
        return pc == steps.size();
    }

    // ---- recording (Recorder) --------------------------------------------------------------

    Handle post(boolean send, int peer, int tag, Buf buf, long off, long len) {
        Handle h = new Handle();
        steps.add(new Post(h, send, peer, tag, buf, off, len));
        return h;
    }

    void waitFor(CollOp[] ops) {
        Handle[] hs = new Handle[ops.length];
        for (int i = 0; i < ops.length; i++) hs[i] = (Handle) ops[i];
        steps.add(new Wait(hs));
    }

    void copy(Buf src, long srcOff, Buf dst, long dstOff, long len) {
        if (len > 0) steps.add(new Copy(src, srcOff, dst, dstOff, len));
    }

    void reduce(OpDesc op, TypeDesc t, Buf in, long inOff, Buf inout, long inoutOff, long items) {
        if (items > 0) steps.add(new Reduce(op, t, in, inOff, inout, inoutOff, items));
    }

    // ---- steps ------------------------------------------------------------------------------

    /** A recorded operation: the channel's operation once its post has run. */
    static final class Handle implements CollOp {
        CollOp op;

        @Override
        public boolean isDone() {
            return op != null && op.isDone();
        }
    }

    private abstract static class Step {
        /** Runs the step; false if it has to wait (only when not {@code block}). */
        abstract boolean run(boolean block);

        /** Bytes the step copies or reduces itself (0 for posts and waits). */
        long work() {
            return 0;
        }
    }

    private final class Post extends Step {
        private final Handle h;
        private final boolean send;
        private final int peer, tag;
        private final Buf buf;
        private final long off, len;

        Post(Handle h, boolean send, int peer, int tag, Buf buf, long off, long len) {
            this.h = h;
            this.send = send;
            this.peer = peer;
            this.tag = tag;
            this.buf = buf;
            this.off = off;
            this.len = len;
        }

        @Override
        boolean run(boolean block) {
            h.op = send ? real.isend(peer, tag, buf, off, len) : real.irecv(peer, tag, buf, off, len);
            return true;
        }
    }

    private final class Wait extends Step {
        private final Handle[] hs;
        /** Entries before this one are known to be done. */
        private int checked;

        Wait(Handle[] hs) {
            this.hs = hs;
        }

        @Override
        boolean run(boolean block) {
            if (!block) {
                while (checked < hs.length && (hs[checked] == null || hs[checked].isDone())) checked++;
                if (checked < hs.length) return false;
            }
            // Done ones return at once: this surfaces their errors.
            CollOp[] ops = new CollOp[hs.length];
            for (int i = 0; i < hs.length; i++) ops[i] = hs[i] == null ? null : hs[i].op;
            real.waitAll(ops);
            return true;
        }
    }

    private static final class Copy extends Step {
        private final Buf src, dst;
        private final long srcOff, dstOff, len;

        Copy(Buf src, long srcOff, Buf dst, long dstOff, long len) {
            this.src = src;
            this.srcOff = srcOff;
            this.dst = dst;
            this.dstOff = dstOff;
            this.len = len;
        }

        @Override
        boolean run(boolean block) {
            BufAccess.copy(src, srcOff, dst, dstOff, len);
            return true;
        }

        @Override
        long work() {
            return len;
        }
    }

    private static final class Reduce extends Step {
        private final OpDesc op;
        private final TypeDesc t;
        private final Buf in, inout;
        private final long inOff, inoutOff, items;

        Reduce(OpDesc op, TypeDesc t, Buf in, long inOff, Buf inout, long inoutOff, long items) {
            this.op = op;
            this.t = t;
            this.in = in;
            this.inOff = inOff;
            this.inout = inout;
            this.inoutOff = inoutOff;
            this.items = items;
        }

        @Override
        boolean run(boolean block) {
            Reductions.reduce(op, t, in, inOff, inout, inoutOff, (int) items);
            return true;
        }

        @Override
        long work() {
            return items * t.extent;
        }
    }
}
