package io.github.mpi4j.buffer;

import io.github.mpi4j.spi.Buf;
import java.nio.ByteBuffer;

/**
 * Copies into shared memory that another process reads next (the fabric's shared-memory rings
 * and collective slots), with plain or non-temporal stores: one writer's choice, made by timing
 * some of its copies of each kind.
 *
 * <p>Why a choice. Before a core can store to a line, it takes the line back from the core that
 * read it last. On the development guest, with the two cores in different core complexes,
 * plain copies into a ring the reader had just emptied ran at 2-7 GB/s, against 15-29 with the
 * two sharing a cache; non-temporal stores skip the take-back and ran at 22-33 GB/s in both.
 * Streaming therefore made a 64 KiB ping-pong about 5 times as fast there and a 16 MiB
 * allreduce about 3 times. But where the cores share a cache, streaming sends the data to
 * memory and the reader misses: the same ping-pong 1.2-1.4 times as slow, the allreduce 1.3
 * times (docs/performance.md, fortieth and forty-first sessions). The guest cannot tell which
 * case it is in, and the host moves it within seconds. So the writer streams while its timed
 * plain copies run at under {@link #STREAM_BELOW} of its timed streaming ones.
 *
 * <p>Cost: two clock reads on one large copy in {@link #TIMED_EVERY}; while streaming, a plain
 * copy after {@link #FIRST_GAP} copies, then after twice as many each time it is still slow, up
 * to {@link #MAX_GAP}. Copies under {@link #CHOSEN_FROM} bytes, copies where the
 * native library is not loaded and copies from device-side views go plain and untimed.
 *
 * <p>{@code MPI4J_STREAM_SHARED} (or {@code -Dmpi4j.stream.shared}): {@code auto} (default) as
 * above, {@code 1} always streaming, {@code 0} always plain. Not thread-safe: each writer (a
 * ring's producer, a communicator's slots) has its own and uses it from one thread at a time; a
 * race could only cost a poorer choice, never a wrong byte.
 */
public final class SharedStores {
    /**
     * Copies of at least this many bytes are chosen for; smaller ones go plain, in Java. From
     * 4 KiB a ping-pong with the cores apart took 3-8 us a message with plain stores and
     * 1.6-2 with the choice, which where they share a cache matched plain (0.57-0.85 us at
     * 4 KiB; docs/performance.md, forty-first session).
     */
    static final int CHOSEN_FROM = 4 * 1024;
    /** Stream while timed plain copies run at under this fraction of timed streaming ones. */
    static final double STREAM_BELOW = 0.4;
    /** One large copy in this many is timed: plain ones while plain, streaming ones while streaming. */
    static final int TIMED_EVERY = 8;
    /** While plain, one timed copy in this many is a streaming one, so its rate stays current. */
    static final int STREAM_REFRESH_EVERY = 8;
    /**
     * The streaming rate moves this fraction of the way to each new timing: one copy that
     * happened to run fast must not raise the bar that plain copies have to clear.
     */
    static final double STREAM_SMOOTHING = 0.25;
    /** Streaming copies before the first plain one that checks whether plain stores got cheap again. */
    static final int FIRST_GAP = 16;
    /** Most streaming copies between two such checks. */
    static final int MAX_GAP = 1024;

    /** What a copy does, as {@link #next} answers. */
    static final int PLAIN = 0, STREAM = 1, PLAIN_TIMED = 2, STREAM_TIMED = 3;

    private static final int POLICY = policy(System.getProperty("mpi4j.stream.shared",
            System.getenv().getOrDefault("MPI4J_STREAM_SHARED", "auto")));

    /** -1: always plain, 1: always streaming, 0: chosen by timing. */
    static int policy(String setting) {
        switch (setting.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "0": case "false": case "off": return -1;
            case "1": case "true": case "on": return 1;
            default: return 0;
        }
    }

    private final int policy;
    private boolean streaming;
    private int untilTimed = 1;      // large copies left until the next timed one (this one when 1)
    private int timedCopies;
    private int slowInARow;          // consecutive timed plain copies found slow while plain
    private int gap = FIRST_GAP;
    private int sincePlainCheck;     // copies streamed since plain was last timed
    private double plainRate = Double.NaN;   // bytes per ns: the last timed plain copy
    private double streamRate = Double.NaN;  // bytes per ns: timed streaming copies, smoothed

    /** With the process's setting ({@code MPI4J_STREAM_SHARED}). */
    public SharedStores() {
        this(POLICY);
    }

    SharedStores(int policy) {
        this.policy = policy;
        this.streaming = policy > 0;
    }

    /**
     * As {@link BufAccess#get}: {@code len} bytes of {@code src} from byte {@code srcOff} into
     * {@code dst} at absolute index {@code dstIndex}, which another process reads next.
     */
    public void copy(Buf src, long srcOff, ByteBuffer dst, int dstIndex, int len) {
        if (len >= CHOSEN_FROM && policy >= 0 && !src.isNative()) {
            int how = policy > 0 ? STREAM : next();
            boolean stream = how == STREAM || how == STREAM_TIMED, clocked = how >= PLAIN_TIMED;
            long start = clocked ? System.nanoTime() : 0;
            if (NativeCopy.tryCopyAnySize(src, srcOff, dst, dstIndex, len, true, stream)) {
                if (clocked) timed(stream, len, System.nanoTime() - start);
                return;
            }
        }
        BufAccess.get(src, srcOff, dst, dstIndex, len);
    }

    /** How the next large copy goes: {@link #PLAIN}, {@link #STREAM} or a timed one of either. */
    int next() {
        if (streaming && ++sincePlainCheck >= gap) {       // has plain got cheap again?
            sincePlainCheck = 0;
            untilTimed = TIMED_EVERY;
            return PLAIN_TIMED;
        }
        if (--untilTimed > 0) return streaming ? STREAM : PLAIN;
        untilTimed = TIMED_EVERY;
        if (streaming || Double.isNaN(streamRate)) return STREAM_TIMED;
        return ++timedCopies % STREAM_REFRESH_EVERY == 0 ? STREAM_TIMED : PLAIN_TIMED;
    }

    /** Takes a timed copy's duration into the choice. */
    void timed(boolean streamed, int bytes, long nanos) {
        double rate = bytes / (double) Math.max(nanos, 1);
        if (streamed) {
            streamRate = Double.isNaN(streamRate) ? rate : streamRate + STREAM_SMOOTHING * (rate - streamRate);
            if (Double.isNaN(plainRate)) untilTimed = 1;  // the very first plain copy comes timed right after
            return;
        }
        plainRate = rate;
        boolean slow = rate < STREAM_BELOW * streamRate;  // (a NaN streaming rate: never slow)
        if (streaming) {
            if (slow) {
                gap = Math.min(2 * gap, MAX_GAP);
            } else {
                streaming = false;
                slowInARow = 0;
            }
        } else if (slow && ++slowInARow >= 2) {          // two in a row: one preempted copy is not enough
            streaming = true;
            gap = FIRST_GAP;
            sincePlainCheck = 0;
        } else if (!slow) {
            slowInARow = 0;
        }
        if (!streaming && slow) untilTimed = 1;           // a slow plain copy is checked by the next one
    }

    /**
     * Runs a throwaway chooser through both cases with made-up timings (the warm start calls
     * this), so that the JIT's profile of {@link #next} and {@link #timed} has seen every
     * branch. A branch never seen is compiled as a trap, and the first real switch, perhaps
     * minutes into a job, would throw the compiled send path around it away (see ShmTransport).
     * Returns how many times the throwaway changed its choice (for tests).
     */
    public static int rehearse() {
        int bytes = CHOSEN_FROM;
        SharedStores s = new SharedStores(0);
        int changes = 0;
        for (int spell = 0; spell < 8; spell++) {
            boolean slowPlain = spell % 2 == 0;     // even spells: the cores apart
            for (int copies = 0; copies < 3 * MAX_GAP; copies++) {
                int how = s.next();
                if (how >= PLAIN_TIMED) {
                    boolean stream = how == STREAM_TIMED;
                    boolean was = s.streaming;
                    s.timed(stream, bytes, stream ? bytes / 30 : slowPlain ? bytes / 3 : bytes / 25);
                    if (s.streaming != was) changes++;
                }
            }
        }
        return changes;
    }

    /** Whether large copies stream now (for tests). */
    boolean streaming() {
        return streaming;
    }

    /** The rates in use, bytes per ns: the last timed plain copy, the smoothed streaming ones (NaN before the first of each). */
    double[] rates() {
        return new double[] {plainRate, streamRate};
    }
}
