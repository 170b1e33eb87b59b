package io.github.mpi4j.fabric.coll;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.Reductions;
import io.github.mpi4j.fabric.coll.CollChannel.CollOp;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import mpi.MPIException;

/**
 * The collective operations of one fabric communicator, as schedules of point-to-point steps
 * on its {@link CollChannel}. Each step schedule takes the next tag of the collective call in
 * progress ({@link CollChannel#tag}: all ranks number calls alike, and no two calls share a tag),
 * which keeps concurrent collectives — non-blocking ones run on a worker thread — and the
 * leftovers of a failed one apart.
 *
 * <p>Algorithms are picked by {@link CostModel} from message size and world size; see
 * docs/collectives.md. All byte offsets are whole elements of the buffers' kinds.
 */
public final class Collectives implements io.github.mpi4j.spi.CollectiveOps {
    private final CollChannel ch;
    private final CostModel model;
    /**
     * Whether this instance runs the blocking collectives of its communicator (the caller's
     * thread, one at a time): only those may use the shared-memory slots. Instances for
     * non-blocking collectives and for parts of the communicator never do.
     */
    private final boolean blocking;
    /** Node layout of the communicator, worked out at the first node-aware schedule. */
    private NodeLayout layout;

    public Collectives(CollChannel ch) {
        this.ch = ch;
        this.model = CostModel.fromSettings();
        this.blocking = true;
    }

    private int tag() {
        return ch.tag();
    }

    // =====================================================================================
    // Helpers
    // =====================================================================================

    private static long bytes(int count, TypeDesc t) {
        return t == null ? 0 : (long) count * t.extent;
    }

    /**
     * Reusable temporaries of the allreduce schedules: slot 0 holds the heap copy of a direct
     * buffer, slot 1 the schedule's receive area. Zeroing and collecting a fresh 16 MiB array
     * per call cost as much as moving the data; a communicator runs one blocking collective at a
     * time (non-blocking ones run on instances of their own), so reuse is safe. Every schedule
     * writes a region of its temporary before reading it.
     */
    private final Buf[] scratch = new Buf[2];

    private Buf scratch(int slot, TypeDesc t, long bytes) {
        Buf b = scratch[slot];
        if (b == null || b.kind != tempKind(t) || b.byteLength() < bytes) {
            b = temp(t, bytes);
            scratch[slot] = b;
        }
        return b;
    }

    /** Element kind of the temporaries for {@code t}: its array kind (bytes for objects). */
    private static BaseKind tempKind(TypeDesc t) {
        return t.arrayKind == BaseKind.OBJECT ? BaseKind.BYTE : t.arrayKind;
    }

    /** A temporary heap array for {@code bytes} of {@code t} (arrays reduce fastest: the JIT vectorizes them). */
    static Buf temp(TypeDesc t, long bytes) {
        return BufAccess.allocate(tempKind(t), Math.max(bytes, 0), false);
    }

    private static void copy(Buf src, long srcOff, Buf dst, long dstOff, long len) {
        if (len > 0) BufAccess.copy(src, srcOff, dst, dstOff, len);
    }

    /** Splits {@code count} items into {@code parts} nearly equal chunks; returns item offsets (parts + 1 entries). */
    static long[] chunks(int count, int parts) {
        long[] at = new long[parts + 1];
        long base = count / parts, extra = count % parts;
        for (int i = 0; i < parts; i++) at[i + 1] = at[i] + base + (i < extra ? 1 : 0);
        return at;
    }

    private void reduceInto(OpDesc op, TypeDesc t, Buf in, long inOff, Buf inout, long inoutOff, long items) {
        if (items > 0) Reductions.reduce(op, t, in, inOff, inout, inoutOff, (int) items);
    }

    // =====================================================================================
    // Barrier: dissemination. Round k: signal rank + 2^k, hear from rank - 2^k; after
    // ceil(log2 n) rounds everyone has (indirectly) heard from everyone.
    // =====================================================================================

    public void barrier() {
        barrier(ch, tag());
    }

    /** A dissemination barrier over {@code ch} on {@code tag} (also a step of other schedules). */
    static void barrier(CollChannel ch, int tag) {
        int n = ch.size(), r = ch.rank();
        Buf none = new Buf(new byte[0], BaseKind.BYTE, 0, 0);
        for (int k = 1; k < n; k <<= 1) {
            ch.sendRecv((r + k) % n, none, 0, 0, (r - k + n) % n, none, 0, 0, tag);
        }
    }

    // =====================================================================================
    // Broadcast
    // =====================================================================================

    public void bcast(Buf buf, int count, TypeDesc type, int root) {
        int n = ch.size();
        long len = bytes(count, type);
        if (n == 1 || len == 0) {
            return;
        }
        int tag = tag();
        if (model.bcastScatterAllgather(len, n) && count >= n) {
            bcastScatterAllgather(buf, count, type, root, tag);
        } else {
            bcastBinomial(buf, 0, len, root, tag);
        }
    }

    /**
     * Binomial tree over ranks relative to the root: in round k a rank that has the data sends
     * it to the rank 2^k further on. log2(n) rounds, the whole message each time.
     */
    private void bcastBinomial(Buf buf, long off, long len, int root, int tag) {
        int n = ch.size(), vr = (ch.rank() - root + n) % n;
        int mask = 1;
        while (mask < n) {
            if ((vr & mask) != 0) {
                ch.recv((vr - mask + root) % n, tag, buf, off, len);
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while (mask > 0) {
            if (vr + mask < n) ch.send((vr + mask + root) % n, tag, buf, off, len);
            mask >>= 1;
        }
    }

    /**
     * Large broadcast (van de Geijn): the root scatters n nearly equal chunks (chunk i to rank i),
     * then a ring allgather circulates them; each rank moves about 2(n-1)/n of the message
     * instead of log2(n) whole copies.
     */
    private void bcastScatterAllgather(Buf buf, int count, TypeDesc type, int root, int tag) {
        int n = ch.size(), r = ch.rank();
        long[] at = chunks(count, n);
        long ext = type.extent;
        if (r == root) {
            CollOp[] ops = new CollOp[n];
            for (int i = 0; i < n; i++) {
                if (i != root) ops[i] = ch.isend(i, tag, buf, at[i] * ext, (at[i + 1] - at[i]) * ext);
            }
            ch.waitAll(ops);
        } else {
            ch.recv(root, tag, buf, at[r] * ext, (at[r + 1] - at[r]) * ext);
        }
        ringAllgather(buf, at, ext, tag);
    }

    /** Ring allgather of chunk i (held by rank i) in place: n-1 steps, each passing one chunk on. */
    private void ringAllgather(Buf buf, long[] at, long ext, int tag) {
        ringAllgather(buf, at, ext, tag, 0);
    }

    /** The same when rank r holds chunk (r + shift) mod n. */
    private void ringAllgather(Buf buf, long[] at, long ext, int tag, int shift) {
        int n = ch.size(), r = ch.rank();
        int right = (r + 1) % n, left = (r - 1 + n) % n;
        for (int s = 0; s < n - 1; s++) {
            int sendChunk = (r + shift - s + n) % n;
            int recvChunk = (r + shift - s - 1 + 2 * n) % n;
            ch.sendRecv(right, buf, at[sendChunk] * ext, (at[sendChunk + 1] - at[sendChunk]) * ext,
                    left, buf, at[recvChunk] * ext, (at[recvChunk + 1] - at[recvChunk]) * ext, tag);
        }
    }

    // =====================================================================================
    // Reduce
    // =====================================================================================

    public void reduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op, int root) {
        int n = ch.size(), me = ch.rank();
        long len = bytes(count, type);
        Buf src = s == Buf.IN_PLACE ? r : s;
        if (n == 1) {
            if (s != Buf.IN_PLACE) copy(s, 0, r, 0, len);
            return;
        }
        int tag = tag(), acceptedTag = tag();
        // As in gatherv, a non-root completes only once the root has taken part.
        CollOp[] accepted = me == root ? acceptAll(acceptedTag) : null;
        CollOp rootAccepted = me == root ? null : ch.irecv(root, acceptedTag, NONE, 0, 0);
        // An order-preserving binomial tree: rank 0's subtree combines lower ranks first, which
        // is right for non-commutative ops; commutative ones use ranks relative to the root.
        boolean commutative = op.commutative;
        int base = commutative ? root : 0;
        Buf acc = temp(type, len);
        copy(src, 0, acc, 0, len);
        Buf result = binomialReduce(acc, count, type, op, base, tag);
        if (commutative) {
            if (me == root) copy(result, 0, r, 0, len);
        } else if (root == 0) {
            if (me == 0) copy(result, 0, r, 0, len);
        } else if (me == 0) {
            ch.send(root, tag, result, 0, len);
        } else if (me == root) {
            ch.recv(0, tag, r, 0, len);
        }
        if (accepted != null) ch.waitAll(accepted);
        else ch.waitAll(rootAccepted);
    }

    /**
     * Binomial reduction toward {@code base} (ranks taken relative to it): in round k a rank
     * whose bit k is set sends its partial result (covering 2^k ranks) to the rank 2^k below and
     * stops; the receiver combines "own op received", keeping rank order. Returns the buffer
     * holding the final result at {@code base} (partial elsewhere).
     */
    private Buf binomialReduce(Buf acc, int count, TypeDesc type, OpDesc op, int base, int tag) {
        int n = ch.size(), vr = (ch.rank() - base + n) % n;
        long len = bytes(count, type);
        Buf tmp = null;
        for (int mask = 1; mask < n; mask <<= 1) {
            if ((vr & mask) != 0) {
                ch.send((vr - mask + base) % n, tag, acc, 0, len);
                break;
            }
            if (vr + mask < n) {
                if (tmp == null) tmp = temp(type, len);
                ch.recv((vr + mask + base) % n, tag, tmp, 0, len);
                // acc holds ranks [vr, vr+mask), tmp [vr+mask, vr+2mask): result = acc op tmp.
                reduceInto(op, type, acc, 0, tmp, 0, count);
                Buf t = acc;
                acc = tmp;
                tmp = t;
            }
        }
        return acc;
    }

    // =====================================================================================
    // Allreduce
    // =====================================================================================

    public void allReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        int n = ch.size();
        long len = bytes(count, type);
        boolean inSlots = blocking && n > 1 && count > 0 && model.allReduceInSlots(len);
        SharedSlots slots = inSlots ? ch.sharedSlots() : null;
        if (slots != null && ShmAllReduce.applies(slots, type, op)) {
            // All ranks on one node with slots: reduce directly in shared memory.
            ShmAllReduce.run(ch, slots, s == Buf.IN_PLACE ? r : s, r, count, type, op, tag());
            return;
        }
        if (n > 1 && count > 0 && !r.isArray() && op.code != OpCode.USER) {
            // Reductions run on Java arrays (the JIT vectorizes them); a schedule that reduced
            // into a direct buffer step by step would convert at every step. Work on one heap
            // copy instead: one copy in, one copy out.
            Buf work = scratch(0, type, len);
            copy(s == Buf.IN_PLACE ? r : s, 0, work, 0, len);
            allReduce(Buf.IN_PLACE, work, count, type, op);
            copy(work, 0, r, 0, len);
            return;
        }
        if (s != Buf.IN_PLACE) copy(s, 0, r, 0, len);
        if (n == 1 || count == 0) return;
        int tag = tag();
        if (!op.commutative) {
            Buf acc = temp(type, len);
            copy(r, 0, acc, 0, len);
            Buf result = binomialReduce(acc, count, type, op, 0, tag);
            if (ch.rank() == 0) copy(result, 0, r, 0, len);
            bcastBinomial(r, 0, len, 0, tag);
            return;
        }
        NodeLayout nodes = layout();
        if (nodes.hierarchical) {
            nodeAwareAllReduce(nodes, r, count, type, op, tag);
        } else {
            flatAllReduce(r, count, type, op, tag);
        }
    }

    /** A commutative allreduce in place over all ranks of {@link #ch}, the schedule picked by the model. */
    private void flatAllReduce(Buf r, int count, TypeDesc type, OpDesc op, int tag) {
        int n = ch.size();
        if (n == 1 || count == 0) return;
        switch (model.allReduce(bytes(count, type), n, count)) {
            case RING:
                ringAllReduce(r, count, type, op, tag);
                break;
            case RABENSEIFNER:
                rabenseifner(r, count, type, op, tag);
                break;
            default:
                recursiveDoubling(r, count, type, op, tag);
        }
    }

    private NodeLayout layout() {
        NodeLayout l = layout;
        if (l == null) layout = l = NodeLayout.of(ch);
        return l;
    }

    /** Schedules over the parts of the node layout, made once (their temporaries are reused). */
    private Collectives localPart, leadersPart, peersPart;

    /** The schedules over a part of this communicator (same cost model, tags given by the caller). */
    private Collectives over(CollChannel part) {
        NodeLayout l = layout();
        if (part == l.local) return localPart != null ? localPart : (localPart = new Collectives(part, model));
        if (part == l.leaders) return leadersPart != null ? leadersPart : (leadersPart = new Collectives(part, model));
        if (part == l.peers) return peersPart != null ? peersPart : (peersPart = new Collectives(part, model));
        return new Collectives(part, model);
    }

    /**
     * Node-aware allreduce (commutative ops), for ranks spread over several nodes:
     * <ul>
     *   <li>Large messages with the same number L of ranks on every node ("2D"): a ring
     *       reduce-scatter inside the node cuts the vector into L chunks and leaves chunk
     *       (l+1) mod L complete for the node at local rank l; the ranks with local index l on
     *       all nodes then allreduce just that chunk across nodes (1/L of the vector each, all
     *       L in parallel, so every node link carries 1/L of the data per rank); a ring
     *       allgather inside the node shares the finished chunks back.</li>
     *   <li>Otherwise: a binomial reduce to the node's first rank, an allreduce among those
     *       leaders (picked by the model for the number of nodes), a binomial bcast inside the
     *       node. Only one rank per node talks across nodes, log2(ranks per node) steps stay on
     *       shared memory.</li>
     * </ul>
     */
    private void nodeAwareAllReduce(NodeLayout nodes, Buf r, int count, TypeDesc type, OpDesc op, int tag) {
        Collectives local = over(nodes.local);
        int perNode = nodes.local.size();
        long len = bytes(count, type);
        boolean large = model.allReduce(len, ch.size(), count) != CostModel.AllReduce.RECURSIVE_DOUBLING;
        if (nodes.peers != null && large && count >= perNode) {
            long ext = type.extent;
            long[] at = chunks(count, perNode);
            local.ringReduceScatter(r, count, type, op, tag, at);
            int c = (nodes.local.rank() + 1) % perNode;
            long items = at[c + 1] - at[c];
            long off = at[c] * ext;
            if (items > 0 && off % r.kind.bytes == 0) {
                over(nodes.peers).flatAllReduce(r.plus((int) (off / r.kind.bytes)), (int) items, type, op, tag);
            } else if (items > 0) {
                // A chunk that does not start on an element of the buffer's kind: work on a copy.
                Buf t = temp(type, items * ext);
                copy(r, off, t, 0, items * ext);
                over(nodes.peers).flatAllReduce(t, (int) items, type, op, tag);
                copy(t, 0, r, off, items * ext);
            }
            local.ringAllgather(r, at, ext, tag, 1);
            return;
        }
        Buf acc = r;
        if (perNode > 1) {
            acc = temp(type, len);
            copy(r, 0, acc, 0, len);
            acc = local.binomialReduce(acc, count, type, op, 0, tag);
        }
        if (nodes.leaders != null) {
            if (acc != r) copy(acc, 0, r, 0, len);
            over(nodes.leaders).flatAllReduce(r, count, type, op, tag);
        }
        if (perNode > 1) local.bcastBinomial(r, 0, len, 0, tag);
    }

    /**
     * The "excess ranks" step for non-powers of two: with p the largest power of two <= n and
     * rem = n - p, ranks below 2*rem pair up (even sends to odd, which combines) so that p ranks
     * remain. Returns this rank's index among the p (or -1 if it dropped out).
     */
    private int foldExcess(Buf buf, int count, TypeDesc type, OpDesc op, int p, int tag, Buf tmp) {
        int r = ch.rank(), rem = ch.size() - p;
        long len = bytes(count, type);
        if (r < 2 * rem) {
            if (r % 2 == 0) {
                ch.send(r + 1, tag, buf, 0, len);
                return -1;
            }
            ch.recv(r - 1, tag, tmp, 0, len);
            reduceInto(op, type, tmp, 0, buf, 0, count); // lower rank's data op mine
            return r / 2;
        }
        return r - rem;
    }

    private int realRank(int vr, int rem) {
        return vr < rem ? 2 * vr + 1 : vr + rem;
    }

    /** Gives the dropped-out even ranks the final result. */
    private void unfoldExcess(Buf buf, long len, int p, int tag) {
        int r = ch.rank(), rem = ch.size() - p;
        if (r < 2 * rem) {
            if (r % 2 == 0) ch.recv(r + 1, tag, buf, 0, len);
            else ch.send(r - 1, tag, buf, 0, len);
        }
    }

    /**
     * Small messages: recursive doubling. After folding the excess ranks, in round k each rank
     * exchanges its whole vector with the partner whose index differs in bit k and combines;
     * log2(p) rounds, every rank ends with the same bits (the lower partner's data always goes
     * first).
     */
    private void recursiveDoubling(Buf buf, int count, TypeDesc type, OpDesc op, int tag) {
        int n = ch.size();
        int p = Integer.highestOneBit(n), rem = n - p;
        long len = bytes(count, type);
        Buf tmp = scratch(1, type, len);
        int vr = foldExcess(buf, count, type, op, p, tag, tmp);
        if (vr >= 0) {
            for (int mask = 1; mask < p; mask <<= 1) {
                int partner = realRank(vr ^ mask, rem);
                ch.sendRecv(partner, buf, 0, len, partner, tmp, 0, len, tag);
                if ((vr & mask) != 0) {
                    // partner is lower: result = partner op mine
                    reduceInto(op, type, tmp, 0, buf, 0, count);
                } else {
                    reduceInto(op, type, buf, 0, tmp, 0, count);
                    copy(tmp, 0, buf, 0, len);
                }
            }
        }
        unfoldExcess(buf, len, p, tag);
    }

    /**
     * Medium messages (Rabenseifner): recursive halving reduce-scatter — in round k partners
     * exchange half of their current range and each reduces the half it keeps — then recursive
     * doubling allgather of the reduced pieces. Each rank moves about 2 len (p-1)/p bytes.
     */
    private void rabenseifner(Buf buf, int count, TypeDesc type, OpDesc op, int tag) {
        int n = ch.size();
        int p = Integer.highestOneBit(n), rem = n - p;
        long len = bytes(count, type), ext = type.extent;
        Buf tmp = scratch(1, type, len);
        int vr = foldExcess(buf, count, type, op, p, tag, tmp);
        if (vr >= 0) {
            long[] at = chunks(count, p); // piece i ends up complete at virtual rank i
            int lo = 0, hi = p; // current range of pieces [lo, hi)
            int[] los = new int[32], his = new int[32];
            int depth = 0;
            for (int mask = p >> 1; mask > 0; mask >>= 1) {
                int partner = realRank(vr ^ mask, rem);
                int mid = lo + (hi - lo) / 2;
                boolean keepLow = (vr & mask) == 0;
                int keepLo = keepLow ? lo : mid, keepHi = keepLow ? mid : hi;
                int sendLo = keepLow ? mid : lo, sendHi = keepLow ? hi : mid;
                long keepOff = at[keepLo] * ext, keepLen = (at[keepHi] - at[keepLo]) * ext;
                ch.sendRecv(partner, buf, at[sendLo] * ext, (at[sendHi] - at[sendLo]) * ext,
                        partner, tmp, keepOff, keepLen, tag);
                long items = at[keepHi] - at[keepLo];
                if (keepLow) {
                    // partner (higher) data: mine op theirs
                    reduceInto(op, type, buf, keepOff, tmp, keepOff, items);
                    copy(tmp, keepOff, buf, keepOff, keepLen);
                } else {
                    reduceInto(op, type, tmp, keepOff, buf, keepOff, items);
                }
                los[depth] = lo;
                his[depth] = hi;
                depth++;
                lo = keepLo;
                hi = keepHi;
            }
            // Allgather: retrace the halving in reverse, exchanging the pieces each side owns.
            for (int mask = 1; mask < p; mask <<= 1) {
                depth--;
                int partner = realRank(vr ^ mask, rem);
                int plo = los[depth], phi = his[depth];
                int mid = plo + (phi - plo) / 2;
                boolean mineLow = lo == plo;
                int otherLo = mineLow ? mid : plo, otherHi = mineLow ? phi : mid;
                ch.sendRecv(partner, buf, at[lo] * ext, (at[hi] - at[lo]) * ext,
                        partner, buf, at[otherLo] * ext, (at[otherHi] - at[otherLo]) * ext, tag);
                lo = plo;
                hi = phi;
            }
        }
        unfoldExcess(buf, len, p, tag);
    }

    /**
     * Large messages: ring reduce-scatter then ring allgather, over n chunks. In step s of the
     * reduce-scatter rank r sends chunk (r-s) to r+1 and receives chunk (r-s-1) from r-1,
     * reducing it into its own copy; after n-1 steps it holds chunk (r+1) complete. The
     * allgather then circulates the complete chunks. Each rank sends 2(n-1)/n of the message.
     * Chunks are further cut into segments of {@link CostModel#segmentBytes} so transfer and
     * reduction overlap.
     */
    private void ringAllReduce(Buf buf, int count, TypeDesc type, OpDesc op, int tag) {
        long[] at = chunks(count, ch.size());
        ringReduceScatter(buf, count, type, op, tag, at);
        // Rank r now holds chunk (r+1) complete; circulate.
        ringAllgather(buf, at, type.extent, tag, 1);
    }

    /**
     * The first half of the ring allreduce: afterwards rank r holds chunk (r+1) mod n of
     * {@code at} reduced over all ranks (other chunks hold partial sums).
     */
    private void ringReduceScatter(Buf buf, int count, TypeDesc type, OpDesc op, int tag, long[] at) {
        int n = ch.size(), r = ch.rank();
        long ext = type.extent;
        long maxChunk = 0;
        for (int i = 0; i < n; i++) maxChunk = Math.max(maxChunk, at[i + 1] - at[i]);
        int right = (r + 1) % n, left = (r - 1 + n) % n;
        long segItems = Math.max(1, model.segmentBytes / ext);
        Buf tmp = scratch(1, type, Math.min(maxChunk, 2 * segItems) * ext);
        for (int s = 0; s < n - 1; s++) {
            int sendChunk = (r - s + n) % n;
            int recvChunk = (r - s - 1 + 2 * n) % n;
            long sFrom = at[sendChunk], sTo = at[sendChunk + 1];
            long rFrom = at[recvChunk], rTo = at[recvChunk + 1];
            // Segments: post the sends of every segment of the chunk at once (one message per
            // segment: the receiver posts one receive per segment, and a message may not be
            // split over receives); receive segment by segment, reducing each while the next is
            // in flight (two temporaries alternate).
            CollOp[] sends = new CollOp[(int) ((sTo - sFrom + segItems - 1) / segItems)];
            for (int g = 0; g < sends.length; g++) {
                long from = sFrom + g * segItems;
                sends[g] = ch.isend(right, tag, buf, from * ext, Math.min(segItems, sTo - from) * ext);
            }
            long segs = (rTo - rFrom + segItems - 1) / segItems;
            CollOp prev = null;
            long prevFrom = 0, prevItems = 0, prevSlot = 0;
            for (long g = 0; g < segs; g++) {
                long from = rFrom + g * segItems;
                long items = Math.min(segItems, rTo - from);
                long slot = (g & 1) * segItems;
                CollOp cur = ch.irecv(left, tag, tmp, slot * ext, items * ext);
                if (prev != null) {
                    ch.waitAll(prev);
                    reduceInto(op, type, tmp, prevSlot * ext, buf, prevFrom * ext, prevItems);
                }
                prev = cur;
                prevFrom = from;
                prevItems = items;
                prevSlot = slot;
            }
            if (prev != null) {
                ch.waitAll(prev);
                reduceInto(op, type, tmp, prevSlot * ext, buf, prevFrom * ext, prevItems);
            }
            ch.waitAll(sends);
        }
    }

    /**
     * Many buffers in one operation: they are packed into one temporary, reduced once (so the
     * per-message cost is paid once, not per buffer), and unpacked.
     */
    public void allReduceMany(Buf[] s, Buf[] r, int[] counts, TypeDesc type, OpDesc op) {
        long total = 0;
        for (int c : counts) total += c;
        if (total > Integer.MAX_VALUE) {
            throw MPIException.of(Mpi.ERR_COUNT, "allReduce of buffers: " + total + " items in total");
        }
        Buf packed = temp(type, total * type.extent);
        long at = 0;
        for (int i = 0; i < counts.length; i++) {
            long len = bytes(counts[i], type);
            copy(s[i] == Buf.IN_PLACE ? r[i] : s[i], 0, packed, at, len);
            at += len;
        }
        allReduce(Buf.IN_PLACE, packed, (int) total, type, op);
        at = 0;
        for (int i = 0; i < counts.length; i++) {
            long len = bytes(counts[i], type);
            copy(packed, at, r[i], 0, len);
            at += len;
        }
    }

    // =====================================================================================
    // Gather / scatter: the root exchanges with every rank directly (linear). Blocks are
    // (count x extent) bytes; block i of the root's buffer belongs to rank i.
    // =====================================================================================

    public void gather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        int n = ch.size();
        int[] counts = new int[n], displs = new int[n];
        if (ch.rank() == root) {
            for (int i = 0; i < n; i++) {
                counts[i] = rc;
                displs[i] = i * rc;
            }
        }
        gatherv(s, sc, st, r, counts, displs, rt, root);
    }

    /**
     * A non-root's part completes only with the root's "accepted" message (sent when the root
     * starts its part), so that a call the root refuses fails at every rank, not only there.
     */
    public void gatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt, int root) {
        int n = ch.size(), me = ch.rank(), tag = tag(), acceptedTag = tag();
        if (me != root) {
            CollOp accepted = ch.irecv(root, acceptedTag, NONE, 0, 0);
            ch.waitAll(ch.isend(root, tag, s, 0, bytes(sc, st)), accepted);
            return;
        }
        CollOp[] accepted = acceptAll(acceptedTag);
        long ext = rt.extent;
        CollOp[] ops = new CollOp[n];
        for (int i = 0; i < n; i++) {
            if (i == me) continue;
            ops[i] = ch.irecv(i, tag, r, (long) displs[i] * ext, (long) rcounts[i] * ext);
        }
        if (s != Buf.IN_PLACE) copy(s, 0, r, (long) displs[me] * ext, bytes(sc, st));
        ch.waitAll(ops);
        ch.waitAll(accepted);
    }

    private static final Buf NONE = new Buf(new byte[0], BaseKind.BYTE, 0, 0);

    /** The root tells every other rank that it has taken part (an empty message each). */
    private CollOp[] acceptAll(int acceptedTag) {
        int n = ch.size(), me = ch.rank();
        CollOp[] ops = new CollOp[n];
        for (int i = 0; i < n; i++) if (i != me) ops[i] = ch.isend(i, acceptedTag, NONE, 0, 0);
        return ops;
    }

    public void scatter(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        int n = ch.size();
        int[] counts = new int[n], displs = new int[n];
        if (ch.rank() == root) {
            for (int i = 0; i < n; i++) {
                counts[i] = sc;
                displs[i] = i * sc;
            }
        }
        scatterv(s, counts, displs, st, r, rc, rt, root);
    }

    public void scatterv(Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        int n = ch.size(), me = ch.rank(), tag = tag();
        if (me != root) {
            ch.recv(root, tag, r, 0, bytes(rc, rt));
            return;
        }
        long ext = st.extent;
        CollOp[] ops = new CollOp[n];
        for (int i = 0; i < n; i++) {
            if (i == me) continue;
            ops[i] = ch.isend(i, tag, s, (long) displs[i] * ext, (long) scounts[i] * ext);
        }
        if (r != Buf.IN_PLACE) copy(s, (long) displs[me] * ext, r, 0, (long) scounts[me] * ext);
        ch.waitAll(ops);
    }

    // =====================================================================================
    // Allgather
    // =====================================================================================

    public void allGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        int n = ch.size();
        int[] counts = new int[n], displs = new int[n];
        for (int i = 0; i < n; i++) {
            counts[i] = rc;
            displs[i] = i * rc;
        }
        allGatherv(s, sc, st, r, counts, displs, rt);
    }

    /**
     * Small totals: Bruck (below); otherwise a ring: every rank first puts its own block in
     * place; in step s it passes on the block it received in step s-1 (its own in step 0).
     * n-1 steps, each moving one block per rank.
     */
    public void allGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt) {
        int n = ch.size(), me = ch.rank();
        long ext = rt.extent;
        if (s != Buf.IN_PLACE) copy(s, 0, r, (long) displs[me] * ext, bytes(sc, st));
        if (n == 1) return;
        int tag = tag();
        long total = 0;
        for (int c : rcounts) total += c;
        if (model.allGatherBruck(total * ext, n)) {
            bruckAllGatherv(r, rcounts, displs, ext, tag);
            return;
        }
        int right = (me + 1) % n, left = (me - 1 + n) % n;
        for (int step = 0; step < n - 1; step++) {
            int sb = (me - step + n) % n, rb = (me - step - 1 + 2 * n) % n;
            ch.sendRecv(right, r, (long) displs[sb] * ext, (long) rcounts[sb] * ext,
                    left, r, (long) displs[rb] * ext, (long) rcounts[rb] * ext, tag);
        }
    }

    /**
     * Bruck's allgather, for any n in ceil(log2 n) steps. Work in a temporary that holds the
     * blocks of ranks me, me+1, ..., me+n-1 (mod n) back to back, so that "the first k blocks"
     * is always one contiguous range. In the step with distance d (1, 2, 4, ...) a rank holds its
     * first d blocks; it sends its first min(d, n-d) blocks to rank me-d and receives the same
     * number from rank me+d, which are exactly the blocks of ranks me+d, me+d+1, ... and land
     * right after the d it has. At the end the temporary is copied out block by block to the
     * caller's displacements (undoing the rotation).
     */
    private void bruckAllGatherv(Buf r, int[] rcounts, int[] displs, long ext, int tag) {
        int n = ch.size(), me = ch.rank();
        long[] at = new long[n + 1]; // byte offset of rotated block j (rank me+j) in the temporary
        for (int j = 0; j < n; j++) at[j + 1] = at[j] + (long) rcounts[(me + j) % n] * ext;
        Buf work = BufAccess.allocate(r.kind == BaseKind.OBJECT ? BaseKind.BYTE : r.kind, at[n], false);
        copy(r, (long) displs[me] * ext, work, 0, at[1]);
        for (int d = 1; d < n; d <<= 1) {
            int blocks = Math.min(d, n - d);
            int to = (me - d + n) % n, from = (me + d) % n;
            // Rank me+d's first blocks are those of ranks me+d.. : sizes known from rcounts.
            long recvLen = 0;
            for (int j = 0; j < blocks; j++) recvLen += (long) rcounts[(from + j) % n] * ext;
            ch.sendRecv(to, work, 0, at[blocks], from, work, at[d], recvLen, tag);
        }
        for (int j = 1; j < n; j++) copy(work, at[j], r, (long) displs[(me + j) % n] * ext, at[j + 1] - at[j]);
    }

    // =====================================================================================
    // All-to-all: pairwise exchange. In step k rank r sends its block for r+k and receives
    // the block from r-k; n-1 steps, one peer each, so no rank is flooded.
    // =====================================================================================

    public void allToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        int n = ch.size();
        int[] scounts = new int[n], sdispls = new int[n], rcounts = new int[n], rdispls = new int[n];
        for (int i = 0; i < n; i++) {
            scounts[i] = sc;
            sdispls[i] = i * sc;
            rcounts[i] = rc;
            rdispls[i] = i * rc;
        }
        allToAllv(s, scounts, sdispls, st, r, rcounts, rdispls, rt);
    }

    public void allToAllv(Buf s, int[] sc, int[] sd, TypeDesc st, Buf r, int[] rc, int[] rd, TypeDesc rt) {
        int n = ch.size(), me = ch.rank();
        long rext = rt.extent;
        Buf src = s;
        long sext = st == null ? rext : st.extent;
        if (s == Buf.IN_PLACE) {
            // Send from a copy: the receive buffer is overwritten while blocks still leave it.
            long end = 0;
            for (int i = 0; i < n; i++) end = Math.max(end, ((long) rd[i] + rc[i]) * rext);
            src = temp(rt, end);
            copy(r, 0, src, 0, end);
            sc = rc;
            sd = rd;
            sext = rext;
        }
        copy(src, (long) sd[me] * sext, r, (long) rd[me] * rext, (long) sc[me] * sext);
        if (n == 1) return;
        int tag = tag();
        for (int k = 1; k < n; k++) {
            int to = (me + k) % n, from = (me - k + n) % n;
            ch.sendRecv(to, src, (long) sd[to] * sext, (long) sc[to] * sext,
                    from, r, (long) rd[from] * rext, (long) rc[from] * rext, tag);
        }
    }

    // =====================================================================================
    // Reduce-scatter
    // =====================================================================================

    public void reduceScatterBlock(Buf s, Buf r, int rcount, TypeDesc type, OpDesc op) {
        int n = ch.size();
        int[] counts = new int[n];
        java.util.Arrays.fill(counts, rcount);
        reduceScatter(s, r, counts, type, op);
    }

    /**
     * Commutative ops: a ring over the blocks — in step s rank r sends its running sum of block
     * (r-s-1) to r+1 and adds the one it receives for block (r-s-2); after n-1 steps block r is
     * complete at rank r. Non-commutative ops: reduce in rank order at rank 0, then scatter.
     */
    public void reduceScatter(Buf s, Buf r, int[] rcounts, TypeDesc type, OpDesc op) {
        int n = ch.size(), me = ch.rank();
        long ext = type.extent;
        long[] at = new long[n + 1];
        for (int i = 0; i < n; i++) at[i + 1] = at[i] + rcounts[i];
        int total = (int) at[n];
        Buf work = temp(type, total * ext);
        copy(s == Buf.IN_PLACE ? r : s, 0, work, 0, total * ext);
        if (n > 1 && op.commutative) {
            int tag = tag();
            int right = (me + 1) % n, left = (me - 1 + n) % n;
            long maxBlock = 0;
            for (int c : rcounts) maxBlock = Math.max(maxBlock, c);
            Buf tmp = temp(type, maxBlock * ext);
            for (int step = 0; step < n - 1; step++) {
                int sb = (me - step - 1 + 2 * n) % n;
                int rb = (me - step - 2 + 2 * n) % n;
                ch.sendRecv(right, work, at[sb] * ext, (at[sb + 1] - at[sb]) * ext,
                        left, tmp, 0, (at[rb + 1] - at[rb]) * ext, tag);
                reduceInto(op, type, tmp, 0, work, at[rb] * ext, at[rb + 1] - at[rb]);
            }
        } else if (n > 1) {
            Buf full = temp(type, total * ext);
            reduce(work, full, total, type, op, 0);
            int[] displs = new int[n];
            for (int i = 0; i < n; i++) displs[i] = (int) at[i];
            scatterv(full, rcounts, displs, type, work, rcounts[me], type, 0);
            copy(work, 0, r, 0, rcounts[me] * ext);
            return;
        }
        copy(work, at[me] * ext, r, 0, rcounts[me] * ext);
    }

    // =====================================================================================
    // Scans: a chain. Rank r receives the prefix of ranks 0..r-1 from r-1, combines it with its
    // own data (prefix first, keeping rank order) and passes the new prefix to r+1.
    // =====================================================================================

    public void scan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        scanChain(s, r, count, type, op, false);
    }

    public void exScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        scanChain(s, r, count, type, op, true);
    }

    private void scanChain(Buf s, Buf r, int count, TypeDesc type, OpDesc op, boolean exclusive) {
        int n = ch.size(), me = ch.rank();
        long len = bytes(count, type);
        Buf mine = temp(type, len);
        copy(s == Buf.IN_PLACE ? r : s, 0, mine, 0, len);
        if (n == 1) {
            if (!exclusive) copy(mine, 0, r, 0, len);
            return;
        }
        int tag = tag();
        Buf prefix = mine;
        if (me > 0) {
            Buf before = temp(type, len);
            ch.recv(me - 1, tag, before, 0, len);
            if (exclusive) copy(before, 0, r, 0, len);
            reduceInto(op, type, before, 0, mine, 0, count); // before op mine
            prefix = mine;
        }
        if (!exclusive) copy(prefix, 0, r, 0, len);
        if (me < n - 1) ch.send(me + 1, tag, prefix, 0, len);
    }

    // =====================================================================================
    // Non-blocking: the same schedules on a worker thread of this communicator, started in
    // call order; the call is numbered when made, on the caller's thread.
    // =====================================================================================

    public BackendRequest iBarrier() {
        return ordered(Collectives::barrier);
    }

    public BackendRequest iBcast(Buf buf, int count, TypeDesc type, int root) {
        return ordered(c -> c.bcast(buf, count, type, root));
    }

    public BackendRequest iReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op, int root) {
        return ordered(c -> c.reduce(s, r, count, type, op, root));
    }

    public BackendRequest iAllReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        return ordered(c -> c.allReduce(s, r, count, type, op));
    }

    public BackendRequest iGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        return ordered(c -> c.gather(s, sc, st, r, rc, rt, root));
    }

    public BackendRequest iGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt,
                                   int root) {
        return ordered(c -> c.gatherv(s, sc, st, r, rcounts, displs, rt, root));
    }

    public BackendRequest iScatter(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        return ordered(c -> c.scatter(s, sc, st, r, rc, rt, root));
    }

    public BackendRequest iScatterv(Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt,
                                    int root) {
        return ordered(c -> c.scatterv(s, scounts, displs, st, r, rc, rt, root));
    }

    public BackendRequest iAllGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        return ordered(c -> c.allGather(s, sc, st, r, rc, rt));
    }

    public BackendRequest iAllGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt) {
        return ordered(c -> c.allGatherv(s, sc, st, r, rcounts, displs, rt));
    }

    public BackendRequest iAllToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        return ordered(c -> c.allToAll(s, sc, st, r, rc, rt));
    }

    public BackendRequest iAllToAllv(Buf s, int[] sc, int[] sd, TypeDesc st, Buf r, int[] rc, int[] rd,
                                     TypeDesc rt) {
        return ordered(c -> c.allToAllv(s, sc, sd, st, r, rc, rd, rt));
    }

    public BackendRequest iReduceScatter(Buf s, Buf r, int[] rcounts, TypeDesc type, OpDesc op) {
        return ordered(c -> c.reduceScatter(s, r, rcounts, type, op));
    }

    public BackendRequest iReduceScatterBlock(Buf s, Buf r, int rcount, TypeDesc type, OpDesc op) {
        return ordered(c -> c.reduceScatterBlock(s, r, rcount, type, op));
    }

    public BackendRequest iScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        return ordered(c -> c.scan(s, r, count, type, op));
    }

    public BackendRequest iExScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        return ordered(c -> c.exScan(s, r, count, type, op));
    }

    /**
     * Runs a blocking schedule later on the communicator's worker, as the rest of the call in
     * progress (whose tags it takes). A separate instance: no shared-memory slots, temporaries
     * of its own.
     */
    private BackendRequest ordered(java.util.function.Consumer<Collectives> schedule) {
        Collectives sub = new Collectives(ch, model);
        sub.layout = layout;
        return ch.later(() -> schedule.accept(sub));
    }

    private Collectives(CollChannel ch, CostModel model) {
        this.ch = ch;
        this.model = model;
        this.blocking = false;
    }
}
