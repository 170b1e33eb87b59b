package io.github.mpi4j.fabric;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.buffer.Reductions;
import io.github.mpi4j.spi.BackendRequest;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.CollectiveOps;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpDesc;
import io.github.mpi4j.spi.StatusData;
import io.github.mpi4j.spi.TypeDesc;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import mpi.MPIException;

/**
 * The collectives of a {@link FabricIntercomm}, with MPI-3's intercommunicator semantics, built
 * from point-to-point messages on the intercommunicator's collective context as MPI's standard
 * algorithms do: inside a group, linear gathers and broadcasts through its leader (local rank
 * 0); between the groups, the two leaders exchange, or every rank talks to the remote ranks it
 * owes data to directly (gather, scatter, all-gather, all-to-all).
 *
 * <p>Every call, blocking or not, runs on the communicator's own worker thread in the order the
 * calls were made, so a non-blocking call progresses by itself while the program does other
 * work, and the calls of one rank never overtake each other. Each call gets a fresh tag from a
 * counter that every rank advances alike (MPI requires all ranks to call collectives in the
 * same order); messages of one call never match another's.
 */
final class FabricInterColl implements CollectiveOps {
    private static final Buf EMPTY = new Buf(new byte[0], BaseKind.BYTE, 0, 0);
    /** Tags per call: the steps of one call use tag + 0..STEPS-1. */
    private static final int STEPS = 4;

    private final FabricIntercomm c;
    private final Engine engine;
    private ExecutorService worker;
    private int calls;

    FabricInterColl(FabricIntercomm c) {
        this.c = c;
        this.engine = c.engine;
    }

    // ---- running calls in order --------------------------------------------------------------

    interface Body<T> {
        T run(int tag);
    }

    private synchronized CompletableFuture<Object> submit(String name, Body<?> body) {
        if (worker == null) {
            worker = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "mpi4j-intercomm-" + c.engine.me);
                t.setDaemon(true);
                return t;
            });
        }
        int tag = (calls++ * STEPS) & 0x3fffffff;
        engine.share("an intercommunicator's worker thread");
        return CompletableFuture.supplyAsync(() -> body.run(tag), worker);
    }

    /** Runs {@code body} in order with the other calls and waits for its result. */
    @SuppressWarnings("unchecked")
    <T> T serial(String name, Body<T> body) {
        return (T) join(name, submit(name, body));
    }

    private static Object join(String name, CompletableFuture<Object> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw MPIException.of(Mpi.ERR_OTHER, name + ": interrupted while waiting");
        } catch (ExecutionException e) {
            Throwable t = e.getCause();
            if (t instanceof RuntimeException) throw (RuntimeException) t;
            if (t instanceof Error) throw (Error) t;
            throw MPIException.of(Mpi.ERR_OTHER, name + ": " + t);
        }
    }

    private void blocking(String name, Body<?> body) {
        serial(name, body);
    }

    private BackendRequest async(String name, Body<?> body) {
        CompletableFuture<Object> f = submit(name, body);
        return new BackendRequest() {
            @Override
            public void waitFor(StatusData status) {
                join(name, f);
            }

            @Override
            public boolean test(StatusData status) {
                if (!f.isDone()) return false;
                join(name, f);
                return true;
            }

            @Override
            public void cancel() {
                // Collectives cannot be cancelled (MPI).
            }

            @Override
            public void free() {
            }
        };
    }

    synchronized void shutdown() {
        if (worker != null) worker.shutdown();
    }

    // ---- point-to-point steps on the collective context -----------------------------------------

    private static Buf nz(Buf b) {
        return b == null ? EMPTY : b;
    }

    private Engine.Op send(int world, int tag, Buf b, long off, long len) {
        return engine.isend(c.collCtx, world, tag, len == 0 ? EMPTY : b, len == 0 ? 0 : off, len, false, true);
    }

    private Engine.Op recv(int world, int tag, Buf b, long off, long cap) {
        return engine.irecv(c.collCtx, world, tag, cap == 0 ? EMPTY : b, cap == 0 ? 0 : off, cap);
    }

    private void waitAll(List<Engine.Op> ops, String what) {
        for (Engine.Op op : ops) engine.waitFor(op, what);
    }

    private boolean leader() {
        return c.rank == 0;
    }

    /** The leader sends {@code len} bytes of {@code b} to every other member of the local group. */
    private void localBcast(Buf b, long len, int tag, String what) {
        if (leader()) {
            List<Engine.Op> ops = new ArrayList<>();
            for (int i = 1; i < c.local.length; i++) ops.add(send(c.local[i], tag, b, 0, len));
            waitAll(ops, what);
        } else {
            engine.waitFor(recv(c.local[0], tag, b, 0, len), what);
        }
    }

    /**
     * Reduces the local group's {@code count} items into a new buffer at the leader (null
     * elsewhere), in rank order: s0 op (s1 op (... op s(n-1))), as MPI orders a reduction.
     */
    private Buf localReduce(Buf s, int count, TypeDesc t, OpDesc op, int tag, String what) {
        long len = Buffers.spanBytes(count, t);
        if (!leader()) {
            engine.waitFor(send(c.local[0], tag, s, 0, len), what);
            return null;
        }
        int n = c.local.length;
        Buf[] parts = new Buf[n];
        List<Engine.Op> ops = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            parts[i] = BufAccess.allocate(BaseKind.BYTE, len, false);
            ops.add(recv(c.local[i], tag, parts[i], 0, len));
        }
        waitAll(ops, what);
        Buf acc = BufAccess.allocate(BaseKind.BYTE, len, false);
        BufAccess.copy(n == 1 ? nz(s) : parts[n - 1], 0, acc, 0, len);
        for (int i = n - 2; i >= 0; i--) Reductions.reduce(op, t, i == 0 ? s : parts[i], 0, acc, 0, count);
        return acc;
    }

    /** The leaders swap buffers: {@code out} goes to the remote leader, {@code in} receives its. */
    private void leaderExchange(Buf out, long outLen, Buf in, long inCap, int tag, String what) {
        Engine.Op r = recv(c.remote[0], tag, in, 0, inCap);
        Engine.Op s = send(c.remote[0], tag, out, 0, outLen);
        engine.waitFor(s, what);
        engine.waitFor(r, what);
    }

    // ---- management helpers -------------------------------------------------------------------

    /**
     * A context id unused by every member of both groups, and the remote group's {@code flag}
     * (merge's {@code high}): {id, remote flag}.
     */
    int[] agree(int flag, int tag) {
        int[] mine = {c.backend.nextContextId(), flag};
        Buf b = new Buf(mine, BaseKind.INT, 0, 2);
        Buf max = localReduce(b, 2, io.github.mpi4j.spi.Predefined.T_INT, FabricBackend.MAX, tag, "intercomm");
        int[] out = new int[2];
        if (leader()) {
            int[] theirs = new int[2];
            int[] ours = {max == null ? mine[0] : maxInt(max), flag};
            leaderExchange(new Buf(ours, BaseKind.INT, 0, 2), 8, new Buf(theirs, BaseKind.INT, 0, 2), 8, tag + 1,
                    "intercomm");
            out[0] = Math.max(ours[0], theirs[0]);
            out[1] = theirs[1];
        }
        localBcast(new Buf(out, BaseKind.INT, 0, 2), 8, tag + 2, "intercomm");
        c.backend.contextIdUsed(out[0]);
        return out;
    }

    private static int maxInt(Buf b) {
        byte[] a = new byte[4];
        BufAccess.copy(b, 0, new Buf(a, BaseKind.BYTE, 0, 4), 0, 4);
        return java.nio.ByteBuffer.wrap(a).order(java.nio.ByteOrder.nativeOrder()).getInt();
    }

    void barrierNow(int tag) {
        long z = 0;
        if (leader()) {
            List<Engine.Op> ops = new ArrayList<>();
            for (int i = 1; i < c.local.length; i++) ops.add(recv(c.local[i], tag, EMPTY, 0, z));
            waitAll(ops, "barrier");
            leaderExchange(EMPTY, 0, EMPTY, 0, tag + 1, "barrier");
        } else {
            engine.waitFor(send(c.local[0], tag, EMPTY, 0, 0), "barrier");
        }
        localBcast(EMPTY, 0, tag + 2, "barrier");
    }

    // ---- the collectives (bodies run on the worker) -------------------------------------------

    private Object bcastNow(Buf buf, int count, TypeDesc t, int root, int tag) {
        if (root == Mpi.PROC_NULL) return null;
        long len = Buffers.spanBytes(count, t);
        if (root == Mpi.ROOT) {
            engine.waitFor(send(c.remote[0], tag, buf, 0, len), "bcast");
            return null;
        }
        if (leader()) engine.waitFor(recv(c.remote[root], tag, buf, 0, len), "bcast");
        localBcast(buf, len, tag + 1, "bcast");
        return null;
    }

    private Object reduceNow(Buf s, Buf r, int count, TypeDesc t, OpDesc op, int root, int tag) {
        if (root == Mpi.PROC_NULL) return null;
        long len = Buffers.spanBytes(count, t);
        if (root == Mpi.ROOT) {
            engine.waitFor(recv(c.remote[0], tag + 1, r, 0, len), "reduce");
            return null;
        }
        Buf acc = localReduce(s, count, t, op, tag, "reduce");
        if (acc != null) engine.waitFor(send(c.remote[root], tag + 1, acc, 0, len), "reduce");
        return null;
    }

    private Object allReduceNow(Buf s, Buf r, int count, TypeDesc t, OpDesc op, int tag) {
        long len = Buffers.spanBytes(count, t);
        Buf acc = localReduce(s, count, t, op, tag, "allReduce");
        if (acc != null) leaderExchange(acc, len, r, len, tag + 1, "allReduce");
        localBcast(r, len, tag + 2, "allReduce");
        return null;
    }

    private Object gatherNow(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, int rc, TypeDesc rt,
                             int root, int tag) {
        if (root == Mpi.PROC_NULL) return null;
        if (root == Mpi.ROOT) {
            List<Engine.Op> ops = new ArrayList<>();
            for (int i = 0; i < c.remote.length; i++) {
                int n = rcounts == null ? rc : rcounts[i];
                long at = (long) (rcounts == null ? i * rc : displs[i]) * rt.extent;
                ops.add(recv(c.remote[i], tag, r, at, Buffers.spanBytes(n, rt)));
            }
            waitAll(ops, "gather");
            return null;
        }
        engine.waitFor(send(c.remote[root], tag, s, 0, Buffers.spanBytes(sc, st)), "gather");
        return null;
    }

    private Object scatterNow(Buf s, int[] scounts, int[] displs, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt,
                              int root, int tag) {
        if (root == Mpi.PROC_NULL) return null;
        if (root == Mpi.ROOT) {
            List<Engine.Op> ops = new ArrayList<>();
            for (int i = 0; i < c.remote.length; i++) {
                int n = scounts == null ? sc : scounts[i];
                long at = (long) (scounts == null ? i * sc : displs[i]) * st.extent;
                ops.add(send(c.remote[i], tag, s, at, Buffers.spanBytes(n, st)));
            }
            waitAll(ops, "scatter");
            return null;
        }
        engine.waitFor(recv(c.remote[root], tag, r, 0, Buffers.spanBytes(rc, rt)), "scatter");
        return null;
    }

    /**
     * All-to-all exchange between the groups: block j of the send side goes to remote rank j
     * (the same block to all when {@code sameBlock}), block j of the receive side comes from it.
     */
    private Object exchangeNow(Buf s, int sc, int[] scounts, int[] sdispls, TypeDesc st, boolean sameBlock, Buf r,
                               int rc, int[] rcounts, int[] rdispls, TypeDesc rt, int tag, String what) {
        List<Engine.Op> ops = new ArrayList<>();
        for (int j = 0; j < c.remote.length; j++) {
            int n = rcounts == null ? rc : rcounts[j];
            long at = (long) (rcounts == null ? j * rc : rdispls[j]) * rt.extent;
            ops.add(recv(c.remote[j], tag, r, at, Buffers.spanBytes(n, rt)));
        }
        for (int j = 0; j < c.remote.length; j++) {
            int n = scounts == null ? sc : scounts[j];
            long at = sameBlock ? 0 : (long) (scounts == null ? j * sc : sdispls[j]) * st.extent;
            ops.add(send(c.remote[j], tag, s, at, Buffers.spanBytes(n, st)));
        }
        waitAll(ops, what);
        return null;
    }

    /**
     * Reduce-scatter between the groups: each group's data reduced at its leader, swapped
     * between the leaders, and the remote group's result scattered by this group's counts.
     */
    private Object reduceScatterNow(Buf s, Buf r, int[] rcounts, TypeDesc t, OpDesc op, int tag) {
        int n = c.local.length;
        long total = 0;
        for (int i = 0; i < n; i++) total += rcounts[i];
        long len = Buffers.spanBytes(total, t);
        Buf acc = localReduce(s, (int) total, t, op, tag, "reduceScatter");
        if (acc != null) {
            Buf theirs = BufAccess.allocate(BaseKind.BYTE, len, false);
            leaderExchange(acc, len, theirs, len, tag + 1, "reduceScatter");
            List<Engine.Op> ops = new ArrayList<>();
            long at = (long) rcounts[0] * t.extent;
            for (int i = 1; i < n; i++) {
                ops.add(send(c.local[i], tag + 2, theirs, at, Buffers.spanBytes(rcounts[i], t)));
                at += (long) rcounts[i] * t.extent;
            }
            BufAccess.copy(theirs, 0, nz(r), 0, Buffers.spanBytes(rcounts[0], t));
            waitAll(ops, "reduceScatter");
        } else {
            engine.waitFor(recv(c.local[0], tag + 2, r, 0, Buffers.spanBytes(rcounts[c.rank], t)), "reduceScatter");
        }
        return null;
    }

    private int[] block(int count) {
        int[] a = new int[c.local.length];
        java.util.Arrays.fill(a, count);
        return a;
    }

    private static MPIException noScan(String call) {
        return MPIException.of(Mpi.ERR_COMM, call + ": not defined on an intercommunicator");
    }

    // ---- CollectiveOps ------------------------------------------------------------------------

    @Override
    public void barrier() {
        blocking("barrier", tag -> {
            barrierNow(tag);
            return null;
        });
    }

    @Override
    public BackendRequest iBarrier() {
        return async("iBarrier", tag -> {
            barrierNow(tag);
            return null;
        });
    }

    @Override
    public void bcast(Buf buf, int count, TypeDesc type, int root) {
        blocking("bcast", tag -> bcastNow(buf, count, type, root, tag));
    }

    @Override
    public BackendRequest iBcast(Buf buf, int count, TypeDesc type, int root) {
        return async("iBcast", tag -> bcastNow(buf, count, type, root, tag));
    }

    @Override
    public void reduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op, int root) {
        blocking("reduce", tag -> reduceNow(s, r, count, type, op, root, tag));
    }

    @Override
    public BackendRequest iReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op, int root) {
        return async("iReduce", tag -> reduceNow(s, r, count, type, op, root, tag));
    }

    @Override
    public void allReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        blocking("allReduce", tag -> allReduceNow(s, r, count, type, op, tag));
    }

    @Override
    public BackendRequest iAllReduce(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        return async("iAllReduce", tag -> allReduceNow(s, r, count, type, op, tag));
    }

    @Override
    public void gather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        blocking("gather", tag -> gatherNow(s, sc, st, r, null, null, rc, rt, root, tag));
    }

    @Override
    public BackendRequest iGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        return async("iGather", tag -> gatherNow(s, sc, st, r, null, null, rc, rt, root, tag));
    }

    @Override
    public void gatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt, int root) {
        blocking("gatherv", tag -> gatherNow(s, sc, st, r, rcounts, displs, 0, rt, root, tag));
    }

    @Override
    public BackendRequest iGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt,
                                   int root) {
        return async("iGatherv", tag -> gatherNow(s, sc, st, r, rcounts, displs, 0, rt, root, tag));
    }

    @Override
    public void scatter(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        blocking("scatter", tag -> scatterNow(s, null, null, sc, st, r, rc, rt, root, tag));
    }

    @Override
    public BackendRequest iScatter(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        return async("iScatter", tag -> scatterNow(s, null, null, sc, st, r, rc, rt, root, tag));
    }

    @Override
    public void scatterv(Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt, int root) {
        blocking("scatterv", tag -> scatterNow(s, scounts, displs, 0, st, r, rc, rt, root, tag));
    }

    @Override
    public BackendRequest iScatterv(Buf s, int[] scounts, int[] displs, TypeDesc st, Buf r, int rc, TypeDesc rt,
                                    int root) {
        return async("iScatterv", tag -> scatterNow(s, scounts, displs, 0, st, r, rc, rt, root, tag));
    }

    @Override
    public void allGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        blocking("allGather", tag -> exchangeNow(s, sc, null, null, st, true, r, rc, null, null, rt, tag,
                "allGather"));
    }

    @Override
    public BackendRequest iAllGather(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        return async("iAllGather", tag -> exchangeNow(s, sc, null, null, st, true, r, rc, null, null, rt, tag,
                "iAllGather"));
    }

    @Override
    public void allGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs, TypeDesc rt) {
        blocking("allGatherv", tag -> exchangeNow(s, sc, null, null, st, true, r, 0, rcounts, displs, rt, tag,
                "allGatherv"));
    }

    @Override
    public BackendRequest iAllGatherv(Buf s, int sc, TypeDesc st, Buf r, int[] rcounts, int[] displs,
                                      TypeDesc rt) {
        return async("iAllGatherv", tag -> exchangeNow(s, sc, null, null, st, true, r, 0, rcounts, displs, rt, tag,
                "iAllGatherv"));
    }

    @Override
    public void allToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        blocking("allToAll", tag -> exchangeNow(s, sc, null, null, st, false, r, rc, null, null, rt, tag,
                "allToAll"));
    }

    @Override
    public BackendRequest iAllToAll(Buf s, int sc, TypeDesc st, Buf r, int rc, TypeDesc rt) {
        return async("iAllToAll", tag -> exchangeNow(s, sc, null, null, st, false, r, rc, null, null, rt, tag,
                "iAllToAll"));
    }

    @Override
    public void allToAllv(Buf s, int[] scounts, int[] sdispls, TypeDesc st, Buf r, int[] rcounts, int[] rdispls,
                          TypeDesc rt) {
        blocking("allToAllv", tag -> exchangeNow(s, 0, scounts, sdispls, st, false, r, 0, rcounts, rdispls, rt, tag,
                "allToAllv"));
    }

    @Override
    public BackendRequest iAllToAllv(Buf s, int[] scounts, int[] sdispls, TypeDesc st, Buf r, int[] rcounts,
                                     int[] rdispls, TypeDesc rt) {
        return async("iAllToAllv", tag -> exchangeNow(s, 0, scounts, sdispls, st, false, r, 0, rcounts, rdispls, rt,
                tag, "iAllToAllv"));
    }

    @Override
    public void reduceScatter(Buf s, Buf r, int[] rcounts, TypeDesc type, OpDesc op) {
        blocking("reduceScatter", tag -> reduceScatterNow(s, r, rcounts, type, op, tag));
    }

    @Override
    public BackendRequest iReduceScatter(Buf s, Buf r, int[] rcounts, TypeDesc type, OpDesc op) {
        return async("iReduceScatter", tag -> reduceScatterNow(s, r, rcounts, type, op, tag));
    }

    @Override
    public void reduceScatterBlock(Buf s, Buf r, int rcount, TypeDesc type, OpDesc op) {
        blocking("reduceScatterBlock", tag -> reduceScatterNow(s, r, block(rcount), type, op, tag));
    }

    @Override
    public BackendRequest iReduceScatterBlock(Buf s, Buf r, int rcount, TypeDesc type, OpDesc op) {
        return async("iReduceScatterBlock", tag -> reduceScatterNow(s, r, block(rcount), type, op, tag));
    }

    @Override
    public void scan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        throw noScan("scan");
    }

    @Override
    public BackendRequest iScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        throw noScan("iScan");
    }

    @Override
    public void exScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        throw noScan("exScan");
    }

    @Override
    public BackendRequest iExScan(Buf s, Buf r, int count, TypeDesc type, OpDesc op) {
        throw noScan("iExScan");
    }
}
