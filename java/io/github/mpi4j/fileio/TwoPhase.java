package io.github.mpi4j.fileio;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * Two-phase collective I/O (collective buffering) for the fabric. The byte range the ranks
 * access together is cut into one contiguous domain per aggregator ({@code cb_nodes} of them,
 * spread over the ranks); each round, every aggregator takes the next {@code cb_buffer_size}
 * bytes of its domain. Writing, the ranks send each aggregator the pieces of their accesses
 * that fall in its window, and the aggregator writes the pieces it got as few large runs (the
 * interleaved pieces of all ranks become one contiguous write where they meet). Reading, the
 * ranks send the positions they want, the aggregator reads the runs that cover them and sends
 * every rank its bytes. A rank whose file operation fails goes on taking part in every round,
 * so nobody waits; the caller then agrees on the outcome.
 */
final class TwoPhase {
    private TwoPhase() {
    }

    /** One rank's access: runs of file bytes in file order, and where each starts in the packed stream. */
    static final class Access {
        final long[] pos;
        final long[] len;
        final long[] at;
        final int n;

        private Access(long[] pos, long[] len, long[] at, int n) {
            this.pos = pos;
            this.len = len;
            this.at = at;
            this.n = n;
        }

        /** The runs of view data bytes {@code [p, p + bytes)}. */
        static Access of(ViewMap view, long p, long bytes) {
            long[][] r = {new long[16], new long[16], new long[16]};
            int[] n = {0};
            try {
                view.runs(p, bytes, (filePos, done, length) -> {
                    if (n[0] == r[0].length) for (int i = 0; i < 3; i++) r[i] = Arrays.copyOf(r[i], n[0] * 2);
                    r[0][n[0]] = filePos;
                    r[1][n[0]] = length;
                    r[2][n[0]] = done;
                    n[0]++;
                    return true;
                });
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            Access a = new Access(r[0], r[1], r[2], n[0]);
            return a.sorted() ? a : a.sortByPosition();
        }

        private boolean sorted() {
            for (int i = 1; i < n; i++) if (pos[i] < pos[i - 1] + len[i - 1]) return false;
            return true;
        }

        private Access sortByPosition() {
            Integer[] idx = new Integer[n];
            for (int i = 0; i < n; i++) idx[i] = i;
            Arrays.sort(idx, (x, y) -> Long.compare(pos[x], pos[y]));
            long[] p = new long[n], l = new long[n], a = new long[n];
            for (int i = 0; i < n; i++) {
                p[i] = pos[idx[i]];
                l[i] = len[idx[i]];
                a[i] = at[idx[i]];
            }
            return new Access(p, l, a, n);
        }

        long lo() {
            return n == 0 ? Long.MAX_VALUE : pos[0];
        }

        long hi() {
            long h = Long.MIN_VALUE;
            for (int i = 0; i < n; i++) h = Math.max(h, pos[i] + len[i]);
            return h;
        }

        /** Index of the first run that ends after {@code start}. */
        int firstEndingAfter(long start) {
            int a = 0, b = n;
            while (a < b) {
                int m = (a + b) >>> 1;
                if (pos[m] + len[m] <= start) a = m + 1;
                else b = m;
            }
            return a;
        }
    }

    /** How the ranks aggregate: the same at every rank, worked out from what every rank told. */
    static final class Plan {
        final long lo;
        final long domain;
        final long hi;
        final int[] aggregators;
        final long buffer;
        final int rounds;

        Plan(long lo, long hi, int[] aggregators, long buffer) {
            this.lo = lo;
            this.hi = hi;
            this.aggregators = aggregators;
            this.domain = (hi - lo + aggregators.length - 1) / aggregators.length;
            this.buffer = Math.min(buffer, Math.max(1, domain));
            this.rounds = (int) ((domain + this.buffer - 1) / this.buffer);
        }

        long windowStart(int agg, int round) {
            return lo + agg * domain + round * buffer;
        }

        long windowEnd(int agg, int round) {
            long s = windowStart(agg, round);
            return Math.max(s, Math.min(Math.min(hi, lo + (agg + 1) * domain), s + buffer));
        }

        /** Which aggregator index rank {@code rank} is, or -1. */
        int indexOf(int rank) {
            for (int i = 0; i < aggregators.length; i++) if (aggregators[i] == rank) return i;
            return -1;
        }
    }

    /** Words a rank contributes to the planning exchange: lo, hi, runs, bytes. */
    static final int WORDS = 4;

    /**
     * "automatic" aggregates when the ranks' runs are at most this long on average (bytes): on
     * the fabric a collective exchange costs more than a few large positional writes, and
     * measurements (docs/performance.md) put the break-even at pieces of a few hundred bytes.
     */
    static final long SMALL_RUNS = 256;

    static long[] describe(Access a) {
        long bytes = 0;
        for (int i = 0; i < a.n; i++) bytes += a.len[i];
        return new long[] {a.n == 0 ? -1 : a.lo(), a.n == 0 ? -1 : a.hi(), a.n, bytes};
    }

    /**
     * The plan for the ranks' descriptions ({@code all}: {@link #WORDS} per rank), or null to let
     * every rank do its own access: {@code mode} "disable", or "automatic" and the accesses do
     * not interleave, are one run everywhere, or are made of runs long enough to write as they are.
     */
    static Plan plan(long[] all, int size, Hints hints, String mode) {
        if (mode.equals("disable")) return null;
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        boolean split = false, interleaved = false;
        long runsAll = 0, bytesAll = 0;
        long[][] ranges = new long[size][];
        int k = 0;
        for (int r = 0; r < size; r++) {
            long l = all[WORDS * r], h = all[WORDS * r + 1], runs = all[WORDS * r + 2];
            if (runs == 0) continue;
            runsAll += runs;
            bytesAll += all[WORDS * r + 3];
            lo = Math.min(lo, l);
            hi = Math.max(hi, h);
            if (runs > 1) split = true;
            ranges[k++] = new long[] {l, h};
        }
        if (k == 0) return null;
        Arrays.sort(ranges, 0, k, (x, y) -> Long.compare(x[0], y[0]));
        long reach = Long.MIN_VALUE;
        for (int i = 0; i < k; i++) {
            if (ranges[i][0] < reach) interleaved = true;
            reach = Math.max(reach, ranges[i][1]);
        }
        if (mode.equals("automatic") && !(split && interleaved && bytesAll <= SMALL_RUNS * runsAll)) return null;
        int n = hints.aggregators(size);
        int[] aggs = new int[n];
        for (int i = 0; i < n; i++) aggs[i] = (int) ((long) i * size / n);
        return new Plan(lo, hi, aggs, hints.cbBufferSize);
    }

    // ---- writing ----------------------------------------------------------------------------

    /** The collective write of {@code stream} over {@code a}; returns the failure of this rank's file work, or null. */
    static RuntimeException write(String call, FileComm comm, FileChannel ch, int fd, Plan plan, Access a,
                                  byte[] stream) {
        int size = comm.size();
        int me = plan.indexOf(comm.rank());
        byte[] window = me < 0 ? null : new byte[(int) plan.buffer];
        RuntimeException failure = null;
        int[] counts = new int[size];
        for (int round = 0; round < plan.rounds; round++) {
            // Pieces for every aggregator: [n][pos, len]*n [data], aggregator after aggregator.
            Arrays.fill(counts, 0);
            int total = 0;
            int[][] spans = new int[plan.aggregators.length][];
            for (int g = 0; g < plan.aggregators.length; g++) {
                long ws = plan.windowStart(g, round), we = plan.windowEnd(g, round);
                int pieces = 0;
                long bytes = 0;
                int first = a.firstEndingAfter(ws);
                int j = first;
                for (; j < a.n && a.pos[j] < we; j++) {
                    pieces++;
                    bytes += Math.min(a.pos[j] + a.len[j], we) - Math.max(a.pos[j], ws);
                }
                spans[g] = new int[] {first, j};
                if (pieces > 0) {
                    int c = (int) (8 + 16L * pieces + bytes);
                    counts[plan.aggregators[g]] += c;
                    total += c;
                }
            }
            byte[] send = new byte[total];
            ByteBuffer out = ByteBuffer.wrap(send);
            for (int r = 0; r < size; r++) {
                // Ranks in order: the send buffer is rank after rank.
                for (int g = 0; g < plan.aggregators.length; g++) {
                    if (plan.aggregators[g] != r || spans[g][1] == spans[g][0]) continue;
                    long ws = plan.windowStart(g, round), we = plan.windowEnd(g, round);
                    out.putLong(spans[g][1] - spans[g][0]);
                    for (int j = spans[g][0]; j < spans[g][1]; j++) {
                        long s = Math.max(a.pos[j], ws), e = Math.min(a.pos[j] + a.len[j], we);
                        out.putLong(s).putLong(e - s);
                    }
                    for (int j = spans[g][0]; j < spans[g][1]; j++) {
                        long s = Math.max(a.pos[j], ws), e = Math.min(a.pos[j] + a.len[j], we);
                        out.put(stream, (int) (a.at[j] + s - a.pos[j]), (int) (e - s));
                    }
                }
            }
            int[] recvCounts = comm.allToAllInts(call, counts);
            byte[] got = comm.allToAllv(call, send, counts, recvCounts);
            if (me < 0 || failure != null) continue;
            try {
                writeWindow(ch, fd, plan.windowStart(me, round), window, got, recvCounts);
            } catch (IOException | RuntimeException e) {
                failure = e instanceof RuntimeException ? (RuntimeException) e
                        : new java.io.UncheckedIOException((IOException) e);
            }
        }
        return failure;
    }

    /**
     * Places the pieces that arrived in the window and writes the runs they cover (by
     * {@link NativeFileIo} through {@code fd}, or through the channel where {@code fd} is -1).
     */
    private static void writeWindow(FileChannel ch, int fd, long ws, byte[] window, byte[] got, int[] recvCounts)
            throws IOException {
        ByteBuffer in = ByteBuffer.wrap(got);
        long[] keys = new long[16];
        long[] lens = new long[16];
        int n = 0;
        int at = 0;
        for (int c : recvCounts) {
            int end = at + c;
            while (in.position() < end) {
                int pieces = (int) in.getLong();
                int meta = in.position();
                int data = meta + 16 * pieces;
                for (int i = 0; i < pieces; i++) {
                    long s = in.getLong(meta + 16 * i), l = in.getLong(meta + 16 * i + 8);
                    System.arraycopy(got, data, window, (int) (s - ws), (int) l);
                    data += (int) l;
                    if (n == keys.length) {
                        keys = Arrays.copyOf(keys, 2 * n);
                        lens = Arrays.copyOf(lens, 2 * n);
                    }
                    keys[n] = ((s - ws) << 32) | n;
                    lens[n] = l;
                    n++;
                }
                in.position(data);
            }
            at = end;
        }
        forEachRun(keys, lens, n, (s, e) -> {
            ByteBuffer b = ByteBuffer.wrap(window, (int) s, (int) (e - s));
            if (fd >= 0) {
                long done = NativeFileIo.runs(fd, b.slice(), new long[] {ws + s, e - s}, 1, true);
                if (done != e - s) throw new IOException("wrote " + done + " of " + (e - s) + " bytes");
                return;
            }
            while (b.hasRemaining()) ch.write(b, ws + b.position());
        });
    }

    private interface RunVisitor {
        void run(long start, long end) throws IOException;
    }

    /** The union of the pieces (window-relative start in the key's high half, index in the low), as sorted runs. */
    private static void forEachRun(long[] keys, long[] lens, int n, RunVisitor visit) throws IOException {
        Arrays.sort(keys, 0, n);
        long s = -1, e = -1;
        for (int i = 0; i < n; i++) {
            long ps = keys[i] >>> 32, pe = ps + lens[(int) (keys[i] & 0xffffffffL)];
            if (pe == ps) continue;
            if (s >= 0 && ps <= e) {
                e = Math.max(e, pe);
                continue;
            }
            if (s >= 0) visit.run(s, e);
            s = ps;
            e = pe;
        }
        if (s >= 0) visit.run(s, e);
    }

    // ---- reading ----------------------------------------------------------------------------

    /** The collective read into {@code stream} over {@code a}; returns the failure of this rank's file work, or null. */
    static RuntimeException read(String call, FileComm comm, FileChannel ch, int fd, Plan plan, Access a,
                                 byte[] stream) {
        int size = comm.size();
        int me = plan.indexOf(comm.rank());
        byte[] window = me < 0 ? null : new byte[(int) plan.buffer];
        RuntimeException failure = null;
        int[] counts = new int[size];
        int[] want = new int[size];
        for (int round = 0; round < plan.rounds; round++) {
            Arrays.fill(counts, 0);
            Arrays.fill(want, 0);
            int[][] spans = new int[plan.aggregators.length][];
            int total = 0;
            for (int g = 0; g < plan.aggregators.length; g++) {
                long ws = plan.windowStart(g, round), we = plan.windowEnd(g, round);
                int first = a.firstEndingAfter(ws);
                int j = first;
                long bytes = 0;
                for (; j < a.n && a.pos[j] < we; j++) {
                    bytes += Math.min(a.pos[j] + a.len[j], we) - Math.max(a.pos[j], ws);
                }
                spans[g] = new int[] {first, j};
                counts[plan.aggregators[g]] += 16 * (j - first);
                want[plan.aggregators[g]] += (int) bytes;
                total += 16 * (j - first);
            }
            byte[] send = new byte[total];
            ByteBuffer out = ByteBuffer.wrap(send);
            for (int r = 0; r < size; r++) {
                for (int g = 0; g < plan.aggregators.length; g++) {
                    if (plan.aggregators[g] != r) continue;
                    long ws = plan.windowStart(g, round), we = plan.windowEnd(g, round);
                    for (int j = spans[g][0]; j < spans[g][1]; j++) {
                        long s = Math.max(a.pos[j], ws), e = Math.min(a.pos[j] + a.len[j], we);
                        out.putLong(s).putLong(e - s);
                    }
                }
            }
            int[] recvCounts = comm.allToAllInts(call, counts);
            byte[] asked = comm.allToAllv(call, send, counts, recvCounts);
            // The aggregator reads what was asked for and answers every rank in the order it asked.
            int[] replyCounts = new int[size];
            byte[] reply = new byte[0];
            if (me >= 0) {
                long ws = plan.windowStart(me, round);
                ByteBuffer in = ByteBuffer.wrap(asked);
                int pieces = asked.length / 16;
                long[] keys = new long[pieces];
                long[] lens = new long[pieces];
                long replyTotal = 0;
                int at = 0;
                for (int r = 0; r < size; r++) {
                    long bytes = 0;
                    for (int i = at; i < at + recvCounts[r] / 16; i++) {
                        long s = in.getLong(16 * i), l = in.getLong(16 * i + 8);
                        keys[i] = ((s - ws) << 32) | i;
                        lens[i] = l;
                        bytes += l;
                    }
                    at += recvCounts[r] / 16;
                    replyCounts[r] = (int) bytes;
                    replyTotal += bytes;
                }
                if (failure == null) {
                    try {
                        forEachRun(keys.clone(), lens, pieces, (s, e) -> {
                            ByteBuffer b = ByteBuffer.wrap(window, (int) s, (int) (e - s));
                            if (fd >= 0) {
                                long done = NativeFileIo.runs(fd, b.slice(), new long[] {ws + s, e - s}, 1, false);
                                Arrays.fill(window, (int) (s + done), (int) e, (byte) 0); // past the end of the file
                                return;
                            }
                            while (b.hasRemaining()) {
                                if (ch.read(b, ws + b.position()) < 0) {
                                    Arrays.fill(window, b.position(), (int) e, (byte) 0);
                                    break;
                                }
                            }
                        });
                    } catch (IOException | RuntimeException e) {
                        failure = e instanceof RuntimeException ? (RuntimeException) e
                                : new java.io.UncheckedIOException((IOException) e);
                    }
                }
                reply = new byte[(int) replyTotal];
                int o = 0;
                for (int i = 0; i < pieces; i++) {
                    long s = in.getLong(16 * i), l = in.getLong(16 * i + 8);
                    System.arraycopy(window, (int) (s - ws), reply, o, (int) l);
                    o += (int) l;
                }
            }
            byte[] back = comm.allToAllv(call, reply, replyCounts, want);
            // Back in the order asked: aggregators by rank, each one's pieces in file order.
            int o = 0;
            for (int r = 0; r < size; r++) {
                for (int g = 0; g < plan.aggregators.length; g++) {
                    if (plan.aggregators[g] != r) continue;
                    long ws = plan.windowStart(g, round), we = plan.windowEnd(g, round);
                    for (int j = spans[g][0]; j < spans[g][1]; j++) {
                        long s = Math.max(a.pos[j], ws), e = Math.min(a.pos[j] + a.len[j], we);
                        System.arraycopy(back, o, stream, (int) (a.at[j] + s - a.pos[j]), (int) (e - s));
                        o += (int) (e - s);
                    }
                }
            }
        }
        return failure;
    }

    /** Bytes of the access that a read got: its runs in access order, up to the first one the file's end cuts. */
    static long readable(Access a, long fileSize) {
        // Runs in stream order (their stream offsets increase along the access).
        Integer[] idx = new Integer[a.n];
        for (int i = 0; i < a.n; i++) idx[i] = i;
        Arrays.sort(idx, (x, y) -> Long.compare(a.at[x], a.at[y]));
        long got = 0;
        for (int k = 0; k < a.n; k++) {
            int i = idx[k];
            if (a.pos[i] + a.len[i] <= fileSize) {
                got += a.len[i];
            } else {
                got += Math.max(0, fileSize - a.pos[i]);
                break;
            }
        }
        return got;
    }
}
