package io.github.mpi4j.fabric.coll;

import static io.github.mpi4j.fabric.coll.CollContext.bytes;
import static io.github.mpi4j.fabric.coll.CollContext.temp;

import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.CollectiveOps;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.TypeDesc;
import java.util.function.Consumer;
import mpi.MPIException;

/**
 * The collective operations of one fabric communicator, and the one place where their
 * algorithms are chosen ({@link CostModel}; see docs/collectives.md). Each algorithm lives in a
 * file of its own as a schedule of point-to-point steps on a {@link CollChannel}: {@link Barrier},
 * {@link Binomial}, {@link ScatterAllgather}, {@link RecursiveDoubling}, {@link Rabenseifner},
 * {@link Ring}, {@link NodeAware} (over {@link TwoLevel}), {@link ShmAllReduce}, {@link Bruck},
 * {@link Linear}, {@link Pairwise}, {@link BlockRing}, {@link Chain}.
 *
 * <p>Each step schedule takes the next tag of the collective call in progress
 * ({@link CollChannel#tag}: all ranks number calls alike, and no two calls share a tag), which
 * keeps concurrent collectives and the leftovers of a failed one apart. The order and number of
 * tags each operation takes is part of the wire protocol: every rank takes the same.
 *
 * <p>Blocking operations run their algorithm directly on the caller's thread, on the
 * communicator's channel. Non-blocking ones run the same algorithm on a {@link Recorder} at the
 * call, and the recorded {@link Schedule} is advanced by progress. Only blocking calls may use
 * the shared-memory slots (the recorder has none). All byte offsets are whole elements of the
 * buffers' kinds.
 */
public final class Collectives implements CollectiveOps {
    private final CollContext main;
    /** Temporaries of the non-blocking calls, kept between calls. */
    private final TempPool temps;

    public Collectives(CollChannel ch) {
        this.main = new CollContext(ch, CostModel.fromSettings());
        this.temps = new TempPool();
    }

    // =====================================================================================
    // Barrier
    // =====================================================================================

    public void barrier() {
        barrier(main);
    }

    private static void barrier(CollContext c) {
        Barrier.run(c.ch, c.tag());
    }

    // =====================================================================================
    // Broadcast: binomial tree, scatter + ring allgather for large messages, or the root's
    // shared-memory slot
    // =====================================================================================

    public void bcast(Buf buf, int count, TypeDesc type, int root) {
        bcast(main, buf, count, type, root);
    }

    private static void bcast(CollContext c, Buf buf, int count, TypeDesc type, int root) {
        int n = c.ch.size();
        long len = bytes(count, type);
        if (n == 1 || len == 0) return;
        int tag = c.tag();
        SharedSlots slots = c.model.bcastInSlots(len, n) ? c.ch.sharedSlots() : null;
        if (slots != null && ShmBcast.applies(slots)) {
            // All ranks on one node with slots: the root's slot carries the message.
            ShmBcast.run(c.ch, slots, buf, len, root, tag);
            return;
        }
        if (c.model.bcastScatterAllgather(len, n) && count >= n) {
            ScatterAllgather.bcast(c.ch, buf, count, type, root, tag);
        } else {
            Binomial.bcast(c.ch, buf, 0, len, root, tag);
        }
    }

    // =====================================================================================
    // Reduce: binomial tree, order-keeping; the root's "accepted" message ends a non-root's part
    // =====================================================================================

    public void reduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op, int root) {
        reduce(main, s, r, count, type, op, root);
    }

    private static void reduce(CollContext c, Buf s, Buf r, int count, TypeDesc type, OpDesc op, int root) {
        CollChannel ch = c.ch;
        int n = ch.size(), me = ch.rank();
        long len = bytes(count, type);
        Buf src = s == Buf.IN_PLACE ? r : s;
        if (n == 1) {
            if (s != Buf.IN_PLACE) ch.copy(s, 0, r, 0, len);
            return;
        }
        int tag = c.tag(), acceptedTag = c.tag();
        CollChannel.CollOp[] accepted = me == root ? Accepted.sendAll(ch, acceptedTag) : null;
        CollChannel.CollOp rootAccepted = me == root ? null : Accepted.fromRoot(ch, root, acceptedTag);
        // An order-preserving binomial tree: rank 0's subtree combines lower ranks first, which
        // is right for non-commutative ops; commutative ones use ranks relative to the root.
        boolean commutative = op.commutative;
        int base = commutative ? root : 0;
        Buf acc = temp(type, len);
        ch.copy(src, 0, acc, 0, len);
        Buf result = Binomial.reduce(ch, acc, count, type, op, base, tag);
        if (commutative) {
            if (me == root) ch.copy(result, 0, r, 0, len);
        } else if (root == 0) {
            if (me == 0) ch.copy(result, 0, r, 0, len);
        } else if (me == 0) {
            ch.send(root, tag, result, 0, len);
        } else if (me == root) {
            ch.recv(0, tag, r, 0, len);
        }
        if (accepted != null) ch.waitAll(accepted);
        else ch.waitAll(rootAccepted);
    }

    // =====================================================================================
    // Allreduce
    // =====================================================================================

    public void allReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        allReduce(main, s, r, count, type, op);
    }

    private static void allReduce(CollContext c, Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        CollChannel ch = c.ch;
        int n = ch.size();
        long len = bytes(count, type);
        boolean inSlots = n > 1 && count > 0 && c.model.allReduceInSlots(len, n);
        SharedSlots slots = inSlots ? ch.sharedSlots() : null;
        if (slots != null && ShmAllReduce.applies(slots, type, op)) {
            // All ranks on one node with slots: reduce directly in shared memory.
            ShmAllReduce.run(ch, slots, s == Buf.IN_PLACE ? r : s, r, count, type, op, c.tag());
            return;
        }
        if (n > 1 && count > 0 && !r.isArray() && op.code != OpCode.USER && !ch.directTemporaries()) {
            // Reductions run fastest on Java arrays (the JIT vectorizes them); a schedule that
            // reduced into a direct buffer step by step would convert at every step. Work on one
            // heap copy instead: one copy in, one copy out. Not over TCP, which moves the
            // direct buffer itself without a copy (its temporaries are direct too).
            Buf work = c.scratch(0, type, len);
            ch.copy(s == Buf.IN_PLACE ? r : s, 0, work, 0, len);
            allReduce(c, Buf.IN_PLACE, work, count, type, op);
            ch.copy(work, 0, r, 0, len);
            return;
        }
        if (n == 1 || count == 0) {
            if (s != Buf.IN_PLACE) ch.copy(s, 0, r, 0, len);
            return;
        }
        int tag = c.tag();
        if (op.commutative && !c.layout().hierarchical) {
            flatAllReduce(c, s, r, count, type, op, tag);
            return;
        }
        if (s != Buf.IN_PLACE) ch.copy(s, 0, r, 0, len);
        if (!op.commutative) {
            // Order matters: an order-keeping reduce to rank 0, then a bcast.
            Buf acc = temp(type, len);
            ch.copy(r, 0, acc, 0, len);
            Buf result = Binomial.reduce(ch, acc, count, type, op, 0, tag);
            if (ch.rank() == 0) ch.copy(result, 0, r, 0, len);
            Binomial.bcast(ch, r, 0, len, 0, tag);
            return;
        }
        boolean large = c.model.allReduce(len, n, count) != CostModel.AllReduce.RECURSIVE_DOUBLING;
        NodeAware.allReduce(c.twoLevel(tag), r, count, type, op, large);
    }

    /**
     * A commutative allreduce of {@code s} (or {@link Buf#IN_PLACE}) into {@code r} over all
     * ranks of the context's channel, the algorithm picked by the model.
     *
     * <p>Over TCP (direct temporaries) the ring and Rabenseifner read {@code s} where they need
     * it and receive straight into {@code r}, which is written once instead of first filled with
     * a copy of {@code s}: a 16 MiB allreduce at np 4 took 6-12 % less. Over shared memory the
     * copy stays: there Rabenseifner's 512 KiB allreduce of arrays at np 2 measured 66-82 µs
     * without it against 52-57 with it (docs/performance.md, "Thirtieth session").
     */
    static void flatAllReduce(CollContext c, Buf s, Buf r, int count, TypeDesc type, OpDesc op, int tag) {
        int n = c.ch.size();
        long len = bytes(count, type);
        if (s != Buf.IN_PLACE && (n == 1 || count == 0 || !c.ch.directTemporaries())) {
            c.ch.copy(s, 0, r, 0, len);
            s = Buf.IN_PLACE;
        }
        if (n == 1 || count == 0) return;
        switch (c.model.allReduce(len, n, count)) {
            case RING:
                Ring.allReduce(c, s, r, count, type, op, tag);
                break;
            case RABENSEIFNER:
                Rabenseifner.allReduce(c, s, r, count, type, op, tag);
                break;
            default:
                if (s != Buf.IN_PLACE) c.ch.copy(s, 0, r, 0, len);
                RecursiveDoubling.allReduce(c, r, count, type, op, tag);
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
        CollChannel ch = main.ch;
        Buf packed = temp(type, total * type.extent);
        long at = 0;
        for (int i = 0; i < counts.length; i++) {
            long len = bytes(counts[i], type);
            ch.copy(s[i] == Buf.IN_PLACE ? r[i] : s[i], 0, packed, at, len);
            at += len;
        }
        allReduce(main, Buf.IN_PLACE, packed, (int) total, type, op);
        at = 0;
        for (int i = 0; i < counts.length; i++) {
            long len = bytes(counts[i], type);
            ch.copy(packed, at, r[i], 0, len);
            at += len;
        }
    }

    // =====================================================================================
    // Gather / scatter: linear
    // =====================================================================================

    public void gather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        gather(main, s, sc, st, r, rc, rt, root);
    }

    private static void gather(CollContext c, Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        int n = c.ch.size();
        int[] counts = new int[n], displs = new int[n];
        if (c.ch.rank() == root) {
            for (int i = 0; i < n; i++) {
                counts[i] = rc;
                displs[i] = i * rc;
            }
        }
        gatherv(c, s, sc, st, r, counts, displs, rt, root);
    }

    public void gatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt, int root) {
        gatherv(main, s, sc, st, r, rcounts, displs, rt, root);
    }

    private static void gatherv(CollContext c, Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs,
                                TypeDesc rt, int root) {
        int tag = c.tag(), acceptedTag = c.tag();
        Linear.gatherv(c.ch, s, sc, st, r, rcounts, displs, rt, root, tag, acceptedTag);
    }

    public void scatter(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        scatter(main, s, sc, st, r, rc, rt, root);
    }

    private static void scatter(CollContext c, Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        int n = c.ch.size();
        int[] counts = new int[n], displs = new int[n];
        if (c.ch.rank() == root) {
            for (int i = 0; i < n; i++) {
                counts[i] = sc;
                displs[i] = i * sc;
            }
        }
        scatterv(c, s, counts, displs, st, r, rc, rt, root);
    }

    public void scatterv(Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        scatterv(main, s, scounts, displs, st, r, rc, rt, root);
    }

    private static void scatterv(CollContext c, Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc,
                                 TypeDesc rt, int root) {
        Linear.scatterv(c.ch, s, scounts, displs, st, r, rc, rt, root, c.tag());
    }

    // =====================================================================================
    // Allgather: Bruck (small totals) or ring
    // =====================================================================================

    public void allGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        allGather(main, s, sc, st, r, rc, rt);
    }

    private static void allGather(CollContext c, Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        int n = c.ch.size();
        int[] counts = new int[n], displs = new int[n];
        for (int i = 0; i < n; i++) {
            counts[i] = rc;
            displs[i] = i * rc;
        }
        allGatherv(c, s, sc, st, r, counts, displs, rt);
    }

    public void allGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt) {
        allGatherv(main, s, sc, st, r, rcounts, displs, rt);
    }

    private static void allGatherv(CollContext c, Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs,
                                   TypeDesc rt) {
        CollChannel ch = c.ch;
        int n = ch.size(), me = ch.rank();
        long ext = rt.extent;
        if (s != Buf.IN_PLACE) ch.copy(s, 0, r, (long) displs[me] * ext, bytes(sc, st));
        if (n == 1) return;
        int tag = c.tag();
        long total = 0;
        for (int k : rcounts) total += k;
        if (c.model.allGatherBruck(total * ext, n)) {
            Bruck.allGatherv(ch, r, rcounts, displs, ext, tag);
        } else {
            Ring.allGatherv(ch, r, rcounts, displs, ext, tag);
        }
    }

    // =====================================================================================
    // All-to-all: pairwise exchange
    // =====================================================================================

    public void allToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        allToAll(main, s, sc, st, r, rc, rt);
    }

    private static void allToAll(CollContext c, Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        int n = c.ch.size();
        int[] scounts = new int[n], sdispls = new int[n], rcounts = new int[n], rdispls = new int[n];
        for (int i = 0; i < n; i++) {
            scounts[i] = sc;
            sdispls[i] = i * sc;
            rcounts[i] = rc;
            rdispls[i] = i * rc;
        }
        allToAllv(c, s, scounts, sdispls, st, r, rcounts, rdispls, rt);
    }

    public void allToAllv(Buf s, int[] sc, int[] sd, TypeDesc st, Buf r, int[] rc, int[] rd, TypeDesc rt) {
        allToAllv(main, s, sc, sd, st, r, rc, rd, rt);
    }

    private static void allToAllv(CollContext c, Buf s, int[] sc, int[] sd, TypeDesc st, Buf r, int[] rc, int[] rd,
                                  TypeDesc rt) {
        CollChannel ch = c.ch;
        int n = ch.size(), me = ch.rank();
        long rext = rt.extent;
        Buf src = s;
        long sext = st == null ? rext : st.extent;
        if (s == Buf.IN_PLACE) {
            // Send from a copy: the receive buffer is overwritten while blocks still leave it.
            long end = 0;
            for (int i = 0; i < n; i++) end = Math.max(end, ((long) rd[i] + rc[i]) * rext);
            src = temp(rt, end);
            ch.copy(r, 0, src, 0, end);
            sc = rc;
            sd = rd;
            sext = rext;
        }
        ch.copy(src, (long) sd[me] * sext, r, (long) rd[me] * rext, (long) sc[me] * sext);
        if (n == 1) return;
        Pairwise.allToAllv(ch, src, sc, sd, sext, r, rc, rd, rext, c.tag());
    }

    // =====================================================================================
    // Reduce-scatter: ring over the blocks (commutative), else reduce in rank order + scatter
    // =====================================================================================

    public void reduceScatterBlock(Buf s, Buf r, int rcount, TypeDesc type, OpDesc op) {
        reduceScatterBlock(main, s, r, rcount, type, op);
    }

    private static void reduceScatterBlock(CollContext c, Buf s, Buf r, int rcount, TypeDesc type, OpDesc op) {
        int[] counts = new int[c.ch.size()];
        java.util.Arrays.fill(counts, rcount);
        reduceScatter(c, s, r, counts, type, op);
    }

    public void reduceScatter(Buf s, Buf r, int[] rcounts, TypeDesc type, OpDesc op) {
        reduceScatter(main, s, r, rcounts, type, op);
    }

    private static void reduceScatter(CollContext c, Buf s, Buf r, int[] rcounts, TypeDesc type, OpDesc op) {
        CollChannel ch = c.ch;
        int n = ch.size(), me = ch.rank();
        long ext = type.extent;
        long[] at = new long[n + 1];
        for (int i = 0; i < n; i++) at[i + 1] = at[i] + rcounts[i];
        int total = (int) at[n];
        Buf work = temp(type, total * ext);
        ch.copy(s == Buf.IN_PLACE ? r : s, 0, work, 0, total * ext);
        if (n > 1 && op.commutative) {
            BlockRing.reduceScatter(ch, work, at, type, op, c.tag());
        } else if (n > 1) {
            Buf full = temp(type, total * ext);
            reduce(c, work, full, total, type, op, 0);
            int[] displs = new int[n];
            for (int i = 0; i < n; i++) displs[i] = (int) at[i];
            scatterv(c, full, rcounts, displs, type, work, rcounts[me], type, 0);
            ch.copy(work, 0, r, 0, rcounts[me] * ext);
            return;
        }
        ch.copy(work, at[me] * ext, r, 0, rcounts[me] * ext);
    }

    // =====================================================================================
    // Scans: a chain in rank order
    // =====================================================================================

    public void scan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        scan(main, s, r, count, type, op, false);
    }

    public void exScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        scan(main, s, r, count, type, op, true);
    }

    private static void scan(CollContext c, Buf s, Buf r, int count, TypeDesc type, OpDesc op, boolean exclusive) {
        CollChannel ch = c.ch;
        long len = bytes(count, type);
        Buf mine = temp(type, len);
        ch.copy(s == Buf.IN_PLACE ? r : s, 0, mine, 0, len);
        if (ch.size() == 1) {
            if (!exclusive) ch.copy(mine, 0, r, 0, len);
            return;
        }
        Chain.scan(ch, mine, r, count, type, op, exclusive, c.tag());
    }

    // =====================================================================================
    // Non-blocking: the same schedules, started in call order
    // =====================================================================================

    public BackendRequest iBarrier() {
        return start(Collectives::barrier);
    }

    public BackendRequest iBcast(Buf buf, int count, TypeDesc type, int root) {
        return start(c -> bcast(c, buf, count, type, root));
    }

    public BackendRequest iReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op, int root) {
        return start(c -> reduce(c, s, r, count, type, op, root));
    }

    public BackendRequest iAllReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        return start(c -> allReduce(c, s, r, count, type, op));
    }

    public BackendRequest iGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        return start(c -> gather(c, s, sc, st, r, rc, rt, root));
    }

    public BackendRequest iGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt,
                                   int root) {
        return start(c -> gatherv(c, s, sc, st, r, rcounts, displs, rt, root));
    }

    public BackendRequest iScatter(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        return start(c -> scatter(c, s, sc, st, r, rc, rt, root));
    }

    public BackendRequest iScatterv(Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt,
                                    int root) {
        return start(c -> scatterv(c, s, scounts, displs, st, r, rc, rt, root));
    }

    public BackendRequest iAllGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        return start(c -> allGather(c, s, sc, st, r, rc, rt));
    }

    public BackendRequest iAllGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt) {
        return start(c -> allGatherv(c, s, sc, st, r, rcounts, displs, rt));
    }

    public BackendRequest iAllToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        return start(c -> allToAll(c, s, sc, st, r, rc, rt));
    }

    public BackendRequest iAllToAllv(Buf s, int[] sc, int[] sd, TypeDesc st, Buf r, int[] rc, int[] rd,
                                     TypeDesc rt) {
        return start(c -> allToAllv(c, s, sc, sd, st, r, rc, rd, rt));
    }

    public BackendRequest iReduceScatter(Buf s, Buf r, int[] rcounts, TypeDesc type, OpDesc op) {
        return start(c -> reduceScatter(c, s, r, rcounts, type, op));
    }

    public BackendRequest iReduceScatterBlock(Buf s, Buf r, int rcount, TypeDesc type, OpDesc op) {
        return start(c -> reduceScatterBlock(c, s, r, rcount, type, op));
    }

    public BackendRequest iScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        return start(c -> scan(c, s, r, count, type, op, false));
    }

    public BackendRequest iExScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        return start(c -> scan(c, s, r, count, type, op, true));
    }

    /**
     * Records the algorithm now, on the caller's thread inside the call (so it takes the call's
     * tags, in call order), and starts the recorded schedule. A context of its own: no
     * shared-memory slots, its own temporaries.
     */
    private BackendRequest start(Consumer<CollContext> algorithm) {
        Recorder rec = new Recorder(main.ch);
        CollContext c = CollContext.pooled(rec, main.model, temps);
        algorithm.accept(c);
        rec.schedule.whenComplete(c::giveBack);
        return main.ch.start(rec.schedule);
    }
}
