package io.github.mpi4j.fabric;

import io.github.mpi4j.fabric.coll.ProgressThread;
import io.github.mpi4j.fabric.coll.Schedule;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.StatusData;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import mpi.MPIException;

/**
 * Numbering and failure of the collective calls of one fabric communicator.
 *
 * <p><b>Numbering.</b> Every collective call takes the next sequence number of its
 * communicator when it begins, at every rank and in call order (MPI requires all ranks to call
 * collectives in the same order) — also a call that then fails its argument checks at one rank
 * only, since the API opens the call before checking ({@code BackendComm.beginCollective}).
 * The messages of call {@code s} carry tags of its own block, {@code (s mod SEQ_MOD) * STEPS +
 * step}, so a message of one call can never be matched by another, whatever happened to the
 * calls before it. Non-blocking calls take their number when called: their algorithm is recorded
 * then, on the caller's thread, and the recorded schedule ({@code coll.Schedule}) is advanced
 * later by the request's test and wait and by the process's progress thread
 * ({@code coll.ProgressThread}), never on a thread that blocks.
 *
 * <p><b>Failure.</b> A rank whose part of a call fails (arguments only it can see are wrong, an
 * error inside the schedule, a deadline) sends a notice — the call's number and the reason —
 * to every other member, on the collective context under
 * {@link #NOTICE_TAG}. A rank waiting inside that call reads the notice, gives up its pending
 * operations and throws an {@code MPIException} naming the failed rank and its reason; a rank
 * that has not reached the call yet keeps the notice until it does. Messages already sent for
 * the failed call are discarded where they arrive. The communicator stays usable.
 */
final class CollSequencer {
    /** Tag of failure notices; no call's block reaches it. */
    static final int NOTICE_TAG = Integer.MAX_VALUE;
    /** Tags per call: one per step schedule the call runs (a call uses at most a few). */
    static final int STEPS = 16;
    /** Calls before tags repeat: (SEQ_MOD - 1) * STEPS + STEPS - 1 stays below NOTICE_TAG. */
    private static final long SEQ_MOD = Integer.MAX_VALUE / STEPS;
    /** Longest reason sent in a notice (characters): notices stay small, eager messages. */
    private static final int MAX_REASON = 1000;
    /** Failures of calls not begun here yet that are kept (a bound against a flood of notices). */
    private static final int MAX_NOTICES = 1024;
    /** Calls after a failure during which messages of finished calls are looked for. */
    private static final int STRAY_WATCH = 1024;

    /** The call in progress on this thread (blocking calls, and non-blocking ones while a thread advances them). */
    private static final ThreadLocal<Run> CURRENT = new ThreadLocal<>();

    private final FabricComm comm;
    private final Engine engine;
    private final int ctx;
    private final int[] members;

    private long nextSeq;
    /** Calls finished at this rank: all below {@code finishedBelow}, and these above. */
    private long finishedBelow;
    private final TreeSet<Long> finishedAbove = new TreeSet<>();
    /**
     * An emptied operations array of a finished blocking call, for the next call (a call that
     * tracks operations then allocates no list; collectives of one communicator run one at a
     * time, so one spare serves).
     */
    private final AtomicReference<Engine.Op[]> spareOps = new AtomicReference<>();
    /** Failures that peers reported for calls not finished here (usually: not begun yet). */
    private final Map<Long, Notice> notices = new HashMap<>();
    /** Calls left during which to look for strays: messages sent for failed calls. */
    private int strayWatch;
    private final Object drainLock = new Object();
    /** {@link Engine#unexpectedArrivals()} when the notices were last drained (under drainLock). */
    private long drainedAt = -1;

    /**
     * One collective call at this rank. As a {@code BooleanSupplier} it answers a wait's "did
     * this call fail at a peer?" (one object per call, not a lambda per wait).
     */
    final class Run implements BooleanSupplier {
        final long seq;
        final String call;
        final int base;
        final Run outer;
        int steps;
        int depth = 1;
        /** The call goes on after it returns (non-blocking): its operations are then tracked under the lock of this run. */
        boolean async;
        boolean failed;
        /** Why the call failed elsewhere, once a notice said so. */
        volatile Notice notice;
        /**
         * Operations still running when they were tracked (the first {@code opCount}), given up
         * if the call fails; the array is the sequencer's spare (see {@link #spareOps}).
         */
        Engine.Op[] ops;
        int opCount;

        void add(Engine.Op op) {
            if (ops == null) {
                ops = spareOps.getAndSet(null);
                if (ops == null) ops = new Engine.Op[8];
            }
            if (opCount == ops.length) ops = Arrays.copyOf(ops, 2 * opCount);
            ops[opCount++] = op;
        }

        /** The call is over, or gave its operations up: its array (emptied) becomes the next call's spare. */
        void releaseOps() {
            if (ops == null) return;
            Arrays.fill(ops, 0, opCount, null);
            spareOps.set(ops);
            ops = null;
            opCount = 0;
        }

        Run(long seq, String call, Run outer) {
            this.seq = seq;
            this.call = call;
            this.outer = outer;
            this.base = (int) (seq % SEQ_MOD) * STEPS;
        }

        CollSequencer owner() {
            return CollSequencer.this;
        }

        @Override
        public boolean getAsBoolean() {
            return failedElsewhere(this);
        }
    }

    /** A peer's report that call {@link #seq} failed there. */
    private static final class Notice {
        final int rank;
        final String reason;

        Notice(int rank, String reason) {
            this.rank = rank;
            this.reason = reason;
        }
    }

    CollSequencer(FabricComm comm, Engine engine, int ctx, int[] members) {
        this.comm = comm;
        this.engine = engine;
        this.ctx = ctx;
        this.members = members;
    }

    // =====================================================================================
    // Opening and closing calls
    // =====================================================================================

    /** Opens a call (or, inside a call of this communicator, a part of it). */
    void begin(String call) {
        Run r = CURRENT.get();
        if (r != null && r.owner() == this) {
            r.depth++;
            return;
        }
        long seq;
        synchronized (this) {
            seq = nextSeq++;
        }
        CURRENT.set(new Run(seq, call, r));
        discardStrays();
    }

    /** Closes what {@link #begin} opened; {@code failure} is what leaves it, or null. */
    void end(Throwable failure) {
        Run r = CURRENT.get();
        if (r == null || r.owner() != this) return;
        if (failure != null) fail(r, failure);
        if (--r.depth > 0) return;
        restore(r.outer);
        if (!r.async) {
            r.releaseOps();
            finish(r);
        }
    }

    private static void restore(Run outer) {
        // set(null), not remove(): the thread's entry stays, so the next call allocates none.
        CURRENT.set(outer);
    }

    private Run current() {
        Run r = CURRENT.get();
        return r != null && r.owner() == this ? r : null;
    }

    /** The tag of the next step schedule of the call in progress on this thread. */
    int tag() {
        Run r = current();
        if (r == null) throw new IllegalStateException("fabric collective step outside a collective call");
        if (r.steps == STEPS) throw new IllegalStateException(r.call + ": more than " + STEPS + " step schedules");
        return r.base + r.steps++;
    }

    /** Remembers an operation of the call in progress, to give it up if the call fails. */
    void track(Engine.Op op) {
        Run r = current();
        if (r == null || op.done) return;
        if (r.async) {
            synchronized (r) {
                r.add(op);
            }
        } else {
            r.add(op);
        }
    }

    private void finish(Run r) {
        synchronized (this) {
            if (r.seq == finishedBelow) {
                finishedBelow++;
                // (the emptiness tests keep the common path free of boxed keys)
                while (!finishedAbove.isEmpty() && finishedAbove.remove(finishedBelow)) finishedBelow++;
            } else {
                finishedAbove.add(r.seq);
            }
            if (!notices.isEmpty()) notices.remove(r.seq);
            if (r.failed) strayWatch = STRAY_WATCH;
        }
        if (r.failed) discardStrays();
    }

    private synchronized boolean finished(long seq) {
        return seq < finishedBelow || finishedAbove.contains(seq);
    }

    // =====================================================================================
    // Waiting, and failing
    // =====================================================================================

    /** Waits for {@code op} of the call in progress; throws if a peer reports the call failed. */
    void waitFor(Engine.Op op) {
        Run r = current();
        if (r == null) {
            engine.waitFor(op, "collective");
            return;
        }
        engine.waitFor(op, r.call, r);
        if (!op.done) {
            Notice n = r.notice;
            throw MPIException.of(Mpi.ERR_OTHER, r.call + ": rank " + n.rank + " failed its part of this collective"
                    + " (call #" + r.seq + " on " + comm + "), so it cannot complete here: " + n.reason);
        }
    }

    private boolean failedElsewhere(Run r) {
        if (r.notice != null) return true;
        drainNotices();
        synchronized (this) {
            if (notices.isEmpty()) return false;  // (no boxed key on the common path)
            Notice n = notices.get(r.seq);
            if (n != null) r.notice = n;
            return n != null;
        }
    }

    /**
     * Reads the failure notices that have arrived. A wait asks this every few idle rounds; it
     * searches the queues only when some message was queued as unexpected since it last did
     * (the waiting loop itself makes progress, so a notice still in transit gets there), which
     * keeps the idle rounds of a collective small and its search code out of the JIT's hot set.
     */
    private void drainNotices() {
        synchronized (drainLock) {
            long arrivals = engine.unexpectedArrivals();
            if (arrivals == drainedAt) return;
            StatusData st = new StatusData();
            while (engine.iprobe(ctx, Mpi.ANY_SOURCE, NOTICE_TAG, st)) {
                byte[] b = new byte[(int) st.bytes];
                Engine.RecvOp op = engine.irecv(ctx, st.source, NOTICE_TAG, new Buf(b, BaseKind.BYTE, 0, b.length), 0,
                        b.length);
                engine.waitFor(op, "collective failure notice");
                if (b.length < 8) continue; // not a notice of ours
                ByteBuffer in = ByteBuffer.wrap(b);
                long seq = in.getLong();
                String reason = new String(b, in.position(), b.length - in.position(), StandardCharsets.UTF_8);
                int rank = comm.rankOfWorld(st.source);
                synchronized (this) {
                    if (!finished(seq) && notices.size() < MAX_NOTICES) {
                        notices.putIfAbsent(seq, new Notice(rank, reason));
                    }
                }
            }
            drainedAt = arrivals;
        }
    }

    /** Call {@code r} failed at this rank: give up its operations and, if the failure is ours, tell the peers. */
    private void fail(Run r, Throwable failure) {
        synchronized (this) {
            if (r.failed) return;
            r.failed = true;
        }
        Engine.Op[] ops;
        synchronized (r) {
            ops = r.ops == null ? new Engine.Op[0] : Arrays.copyOf(r.ops, r.opCount);
            r.releaseOps();
        }
        for (Engine.Op op : ops) engine.abandon(op);
        if (r.notice == null) tellPeers(r, failure);
    }

    private void tellPeers(Run r, Throwable failure) {
        String reason = failure.getMessage() != null ? failure.getMessage() : failure.toString();
        if (reason.length() > MAX_REASON) reason = reason.substring(0, MAX_REASON) + "...";
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        byte[] b = ByteBuffer.allocate(8 + text.length).putLong(r.seq).put(text).array();
        Buf buf = new Buf(b, BaseKind.BYTE, 0, b.length);
        Engine.Op[] sent = new Engine.Op[members.length];
        try {
            for (int p = 0; p < members.length; p++) {
                if (members[p] == engine.me) continue;
                sent[p] = engine.isend(ctx, members[p], NOTICE_TAG, buf, 0, b.length, false);
            }
            for (Engine.Op op : sent) if (op != null) engine.waitFor(op, "collective failure notice");
        } catch (MPIException e) {
            // The fabric itself failed (a peer is gone): every rank learns that anyway.
        }
    }

    /**
     * Drops the messages of calls already finished here: they can never be received (no later
     * call has their tags), so they are strays of a failed call, sent by ranks that did not know
     * yet. Looked for only during a while after a failure.
     */
    private void discardStrays() {
        long below;
        Long[] above;
        synchronized (this) {
            if (strayWatch == 0) return;
            strayWatch--;
        }
        drainNotices(); // notices of finished calls go too
        synchronized (this) {
            below = finishedBelow;
            above = finishedAbove.toArray(new Long[0]);
        }
        engine.discard(ctx, tag -> tag != NOTICE_TAG && finishedIn(tag / STEPS, below, above));
    }

    /** Whether the call numbered {@code seqMod} (mod SEQ_MOD) is finished, given a snapshot of the record. */
    private static boolean finishedIn(long seqMod, long below, Long[] above) {
        long ahead = Math.floorMod(seqMod - below, SEQ_MOD);
        if (ahead >= SEQ_MOD / 2) return true; // before every unfinished call
        for (Long a : above) if (a == below + ahead) return true;
        return false;
    }

    // =====================================================================================
    // Non-blocking calls: a recorded schedule, advanced by progress
    // =====================================================================================

    /**
     * Starts {@code schedule}, recorded for the call in progress on this thread, as the rest of
     * that call: it runs as far as it can now without large copies or reductions
     * ({@link Schedule#advanceAtStart}), then the request's test and wait and the progress
     * thread advance it. A schedule that completes at once leaves the call to finish as a
     * blocking one does.
     */
    BackendRequest start(Schedule schedule) {
        Run r = current();
        if (r == null) throw new IllegalStateException("non-blocking collective outside a collective call");
        engine.poke();
        if (schedule.advanceAtStart()) return DONE;
        r.async = true;
        synchronized (this) {
            pending++;
        }
        NonBlocking req = new NonBlocking(r, schedule);
        engine.share("the progress thread");
        ProgressThread.add(req);
        return req;
    }

    /** Non-blocking calls started and not finished. */
    private int pending;
    /** What {@link #shutdown} left to do once they have. */
    private Runnable releaseWhenIdle;

    /** A request of a non-blocking collective call whose schedule runs elsewhere. */
    private final class NonBlocking implements BackendRequest, ProgressThread.Task {
        private final Run run;
        private final Schedule schedule;
        /** Held by whoever advances the schedule; the progress thread only tries it. */
        private final ReentrantLock lock = new ReentrantLock();
        private volatile boolean finished;
        /** Why the call failed here; thrown once, by the first test or wait to see it. */
        private RuntimeException failure;
        private boolean reported;
        /** Unsuccessful attempts, to look for failure notices every few. */
        private int attempts;

        NonBlocking(Run run, Schedule schedule) {
            this.run = run;
            this.schedule = schedule;
        }

        /**
         * A thread is in {@link #waitFor}: it runs the schedule to its end itself, so the
         * progress thread lets go of the call instead of competing with it for the call's lock
         * and its data.
         */
        private volatile boolean waited;

        @Override
        public Outcome tryAdvance() {
            return waited ? Outcome.FINISHED : advanceIfFree();
        }

        /** Advances unless another thread is advancing (then IDLE). */
        private Outcome advanceIfFree() {
            if (finished) return Outcome.FINISHED;
            if (!lock.tryLock()) return Outcome.IDLE;
            boolean worked;
            try {
                worked = advance(false);
            } finally {
                lock.unlock();
            }
            return finished ? Outcome.FINISHED : worked ? Outcome.WORKED : Outcome.IDLE;
        }

        /**
         * Advances the schedule as the call's thread would (its operations tracked, its notices
         * read); returns whether anything moved (frames, steps). Under the lock.
         */
        private boolean advance(boolean block) {
            if (finished) return false;
            Run outer = CURRENT.get();
            CURRENT.set(run);
            int before = schedule.position();
            int moved = 0;
            try {
                if (!block) {
                    moved = engine.poke();
                    engine.checkFailure();
                }
                if (schedule.advance(block)) {
                    end(null);
                } else if ((++attempts & 0xf) == 0 && failedElsewhere(run)) {
                    Notice n = run.notice;
                    throw MPIException.of(Mpi.ERR_OTHER, run.call + ": rank " + n.rank + " failed its part of this"
                            + " collective (call #" + run.seq + " on " + comm + "), so it cannot complete here: "
                            + n.reason);
                }
            } catch (RuntimeException | Error e) {
                end(e);
            } finally {
                restore(outer);
            }
            return moved > 0 || schedule.position() != before;
        }

        private void end(Throwable e) {
            if (e != null) {
                failure = e instanceof RuntimeException ? (RuntimeException) e : new MPIException(e);
                fail(run, e);
            }
            finish(run);
            finished = true;
            Runnable release = null;
            synchronized (CollSequencer.this) {
                if (--pending == 0) {
                    release = releaseWhenIdle;
                    releaseWhenIdle = null;
                }
            }
            if (release != null) release.run();
        }

        @Override
        public void waitFor(StatusData status) {
            if (!finished) {
                waited = true;
                // The progress thread holds the lock only for one non-blocking round: yield to
                // it rather than park (a parked waiter takes 50-100 µs to wake up here).
                while (!lock.tryLock()) Thread.yield();
                try {
                    advance(true);
                } finally {
                    lock.unlock();
                }
            }
            complete(status);
        }

        @Override
        public boolean test(StatusData status) {
            if (advanceIfFree() != Outcome.FINISHED) return false;
            complete(status);
            return true;
        }

        private void complete(StatusData status) {
            synchronized (this) {
                if (failure != null && !reported) {
                    reported = true;
                    throw failure;
                }
            }
            if (status != null) status.set(Mpi.ANY_SOURCE, Mpi.ANY_TAG, 0, false, 0);
        }

        @Override
        public void cancel() {
            throw MPIException.of(Mpi.ERR_REQUEST, run.call + ": a non-blocking collective cannot be cancelled"
                    + " (MPI_Cancel of a non-blocking collective request is erroneous); wait for it instead");
        }

        @Override
        public void free() {
            // The call goes on to completion (the progress thread keeps advancing it).
        }
    }

    /** The request of a non-blocking call that completed when started. */
    private static final BackendRequest DONE = new BackendRequest() {
        @Override
        public void waitFor(StatusData status) {
            if (status != null) status.set(Mpi.ANY_SOURCE, Mpi.ANY_TAG, 0, false, 0);
        }

        @Override
        public boolean test(StatusData status) {
            waitFor(status);
            return true;
        }

        @Override
        public void cancel() {
            throw MPIException.of(Mpi.ERR_REQUEST, "a non-blocking collective cannot be cancelled"
                    + " (MPI_Cancel of a non-blocking collective request is erroneous)");
        }

        @Override
        public void free() {
        }
    };

    /**
     * The communicator is freed: non-blocking calls already made still complete (MPI says they
     * do), then {@code release} runs; notices are dropped.
     */
    void shutdown(Runnable release) {
        synchronized (this) {
            notices.clear();
            finishedAbove.clear();
            strayWatch = 0;
            if (pending > 0) {
                releaseWhenIdle = release;
                return;
            }
        }
        release.run();
    }
}
