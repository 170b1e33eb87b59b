package io.github.mpi4j.fabric;

import io.github.mpi4j.buffer.BufAccess;
import io.github.mpi4j.fabric.bootstrap.Bootstrap;
import io.github.mpi4j.fabric.bootstrap.JobInfo;
import io.github.mpi4j.fabric.coll.SharedSlots;
import io.github.mpi4j.fabric.transport.LocalHub;
import io.github.mpi4j.fabric.transport.Transport;
import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.BaseKind;
import io.github.mpi4j.spi.Buf;
import io.github.mpi4j.spi.Mpi;
import io.github.mpi4j.spi.OpCode;
import io.github.mpi4j.spi.OpDesc;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import mpi.MPIException;

/**
 * mpi4j's own MPI engine in pure Java: shared memory inside a node, TCP across nodes, in-process
 * queues for ranks that are threads of one JVM. Used when no MPI launcher started the program:
 * under {@code mpi4jrun}, torchrun-style variables or SLURM, or as a world of one process.
 */
public final class FabricBackend implements Backend {
    static final OpDesc MAX = new OpDesc("MPI.MAX", OpCode.MAX, null, true);

    final Engine engine;
    private final JobInfo job;
    private final String reason;
    private final int threadLevel;
    private final int[] nodeOfWorld;
    /** World rank -> its collective arena in shared memory (local ranks only), or null: none. */
    private final ByteBuffer[] arenaOfWorld;
    private final Thread initThread = Thread.currentThread();
    private final long startNanos = System.nanoTime();
    private final FabricComm world;
    private final FabricComm self;
    private final Runnable onFinish;
    private int nextContextId = 2; // 0: world, 1: self
    private ByteBuffer attached;
    private final List<Object[]> bsends = new ArrayList<>();
    private long bsendBytes;

    FabricBackend(JobInfo job, Transport[] transports, int[] nodeOfWorld, ByteBuffer[] arenaOfWorld, int required,
                  String reason, Runnable onFinish) {
        this.job = job;
        this.reason = reason;
        this.threadLevel = required;
        this.nodeOfWorld = nodeOfWorld;
        this.arenaOfWorld = arenaOfWorld;
        this.onFinish = onFinish;
        this.engine = new Engine(job.rank, transports, job.timeoutSeconds, oversubscribed(job.localSize),
                required == Mpi.THREAD_MULTIPLE);
        int[] all = new int[job.size];
        for (int i = 0; i < all.length; i++) all[i] = i;
        this.world = new FabricComm(this, all, 0);
        this.self = new FabricComm(this, new int[] {job.rank}, 1);
        this.packingWorld = io.github.mpi4j.buffer.PackingComm.wrap(world, true);
        this.packingSelf = io.github.mpi4j.buffer.PackingComm.wrap(self, true);
    }

    /**
     * Whether {@code localRanks} ranks share fewer processors than that ({@code MPI4J_YIELD=1|0}
     * or {@code -Dmpi4j.yield} overrides the guess).
     */
    static boolean oversubscribed(int localRanks) {
        String forced = System.getProperty("mpi4j.yield", System.getenv("MPI4J_YIELD"));
        if (forced != null && !forced.isBlank()) return forced.trim().equals("1") || forced.trim().equalsIgnoreCase("true");
        return localRanks > Runtime.getRuntime().availableProcessors();
    }

    /** Whether the environment describes a fabric job (our launcher, torchrun-style or SLURM). */
    public static boolean isLaunched(Map<String, String> env) {
        return Bootstrap.isLaunched(env);
    }

    /** Starts the fabric for this process; {@code reason} is null when the environment decides. */
    public static Backend create(int requiredThreadLevel, Map<String, String> env, String reason) {
        Backend b = createWorld(requiredThreadLevel, env, reason);
        // A spawned process joins its parents (issue 11 item 3).
        if (b instanceof FabricBackend && env.containsKey("MPI4J_PARENT")) FabricSpawn.joinParent((FabricBackend) b, env);
        return b;
    }

    private static Backend createWorld(int requiredThreadLevel, Map<String, String> env, String reason) {
        JobInfo job = Bootstrap.detect(env);
        String why = reason != null ? reason : "no MPI launcher; " + job.source;
        // A single rank started by mpi4jrun still joins the launcher's store: its connection is
        // the lifeline that ends the rank if the launcher dies, and reports MPI.Finalize.
        if (job.size == 1 && !("mpi4jrun".equals(job.source) && job.rendezvous != null)) {
            Transport[] t = {new LocalHub(1).endpoint(0)};
            return new FabricBackend(job, t, new int[] {0}, null, requiredThreadLevel, why, null);
        }
        return FabricConnector.connect(job, requiredThreadLevel, why);
    }

    /**
     * A world of {@code n} ranks that are threads of this JVM (tier-1 tests): one backend per
     * rank, connected by in-process queues. Start each rank's code in its own thread.
     */
    public static Backend[] threads(int n) {
        return threads(n, 120);
    }

    public static Backend[] threads(int n, double timeoutSeconds) {
        return threads(n, timeoutSeconds, new int[n]);
    }

    /**
     * The same, with rank r pretending to live on node {@code nodeOf[r]} (tests of the
     * node-aware schedules; the transport stays in-process).
     */
    public static Backend[] threads(int n, double timeoutSeconds, int[] nodeOf) {
        return threads(n, timeoutSeconds, nodeOf, Mpi.THREAD_MULTIPLE);
    }

    /**
     * The same, at {@code threadLevel}: below THREAD_MULTIPLE each rank's engine runs without
     * its lock while only its rank thread uses it (tests of that mode).
     */
    static Backend[] threads(int n, double timeoutSeconds, int[] nodeOf, int threadLevel) {
        if (nodeOf.length != n) throw new IllegalArgumentException("nodeOf has " + nodeOf.length + " entries for " + n + " ranks");
        LocalHub hub = new LocalHub(n);
        Backend[] out = new Backend[n];
        for (int r = 0; r < n; r++) {
            Transport[] t = new Transport[n];
            Transport mine = hub.endpoint(r);
            for (int p = 0; p < n; p++) t[p] = mine;
            JobInfo job = new JobInfo(r, n, r, n, "threads", null, null, "ranks as threads", timeoutSeconds);
            out[r] = new FabricBackend(job, t, nodeOf.clone(), null, threadLevel, "ranks as threads of one JVM",
                    null);
        }
        return out;
    }

    /**
     * Fails every pending and later operation of this rank with {@code why} (a peer died, or a
     * test harness ending a threads world after one rank failed).
     */
    public void fail(String why) {
        engine.onPeerLost(-1, why);
    }

    int nodeOfWorld(int worldRank) {
        return nodeOfWorld[worldRank];
    }

    /**
     * The collective arenas of {@code members} (world ranks), or null when one of them has none
     * (another node, no arenas on this node) or under THREAD_MULTIPLE. Arenas are per rank and
     * shared by all communicators: that is safe only while a rank runs one blocking collective
     * at a time, and each leaves the arenas free when it returns (see coll.ShmAllReduce).
     */
    SharedSlots sharedSlots(int[] members) {
        if (arenaOfWorld == null || threadLevel == Mpi.THREAD_MULTIPLE) return null;
        ByteBuffer[] slots = new ByteBuffer[members.length];
        for (int i = 0; i < members.length; i++) {
            slots[i] = arenaOfWorld[members[i]];
            if (slots[i] == null) return null;
        }
        return new SharedSlots(slots);
    }

    synchronized int nextContextId() {
        return nextContextId;
    }

    synchronized void contextIdUsed(int id) {
        nextContextId = Math.max(nextContextId, id + 1);
    }

    JobInfo job() {
        return job;
    }

    // ---- buffered sends: copied out of the user's buffer, accounted against the attached one ----

    synchronized Engine.Op bufferedSend(FabricComm comm, int ctx, int dest, int tag, Buf buf, long len) {
        reapBufferedSends();
        if (attached == null) {
            if (len <= BSEND_WITHOUT_BUFFER_BYTES) return unbufferedSmallBsend(ctx, dest, tag, buf, len);
            throw MPIException.of(Mpi.ERR_BUFFER, "bSend: no buffer is attached (use MPI.attachBuffer) and the "
                    + "message of " + len + " bytes is longer than the " + BSEND_WITHOUT_BUFFER_BYTES
                    + " bytes sent without one");
        }
        // The copy and its bookkeeping live on the heap, so a message takes only its own bytes of
        // the attached buffer (MPI.BSEND_OVERHEAD is an upper bound): a buffer of exactly
        // Pack_size bytes holds its message, as under Open MPI and MPJ Express.
        long need = len;
        if (bsendBytes + need > attached.capacity()) {
            throw MPIException.of(Mpi.ERR_BUFFER, "bSend: message of " + len + " bytes does not fit in the attached "
                    + "buffer (" + attached.capacity() + " bytes, " + bsendBytes + " in use)");
        }
        Buf copy = BufAccess.allocate(BaseKind.BYTE, len, false);
        BufAccess.copy(buf, 0, copy, 0, len);
        Engine.Op op = engine.isend(ctx, dest, tag, copy, 0, len, false);
        bsends.add(new Object[] {op, need});
        bsendBytes += need;
        return Engine.SendOp.completed(engine.me, tag, len);
    }

    private void reapBufferedSends() {
        for (Iterator<Object[]> it = bsends.iterator(); it.hasNext(); ) {
            Object[] b = it.next();
            if (((Engine.Op) b[0]).done) {
                bsendBytes -= (Long) b[1];
                it.remove();
            }
        }
    }

    private void flushBufferedSends() {
        List<Object[]> pending;
        synchronized (this) {
            pending = new ArrayList<>(bsends);
        }
        for (Object[] b : pending) engine.waitFor((Engine.Op) b[0], "buffered send");
        synchronized (this) {
            reapBufferedSends();
        }
    }

    // ---- Backend -------------------------------------------------------------------------------

    @Override
    public String name() {
        return "fabric";
    }

    @Override
    public String reason() {
        return reason;
    }

    @Override
    public int threadLevel() {
        return threadLevel;
    }

    @Override
    public boolean isThreadMain() {
        return Thread.currentThread() == initThread;
    }

    @Override
    public BackendComm world() {
        return packingWorld;
    }

    @Override
    public BackendComm self() {
        return packingSelf;
    }

    @Override
    public double wtime() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    @Override
    public double wtick() {
        return 1e-9;
    }

    /**
     * The host the launcher placed this rank on ({@code MPI4J_NODE}: the same name that decides
     * which ranks share memory), so that ranks on hosts sharing one kernel (network namespaces,
     * containers with one UTS name) still report different processors; otherwise, or when the
     * launcher calls this machine "localhost", this machine's host name.
     */
    @Override
    public String processorName() {
        String node = "mpi4jrun".equals(job.source) ? System.getenv("MPI4J_NODE") : null;
        if (node != null && !node.isBlank() && !node.equals("localhost") && !node.equals("127.0.0.1")
                && !node.equals("::1")) {
            return node.trim();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "localhost";
        }
    }

    @Override
    public int[] version() {
        return new int[] {3, 1};
    }

    @Override
    public String libVersion() {
        return libraryVersion();
    }

    @Override
    public String errorString(int errorCode) {
        return "MPI error class " + errorCode;
    }

    @Override
    public int errorClass(int errorCode) {
        return errorCode;
    }

    @Override
    public void abort(BackendComm comm, int code) {
        System.out.flush();
        System.err.println("mpi4j: rank " + job.rank + " called abort(" + code + ")");
        System.err.flush();
        if (job.rendezvous == null && job.size > 1) {
            // Ranks are threads of one JVM (tests): end this rank only.
            throw MPIException.of(Mpi.ERR_OTHER, "abort(" + code + ") called");
        }
        FabricSpawn.killAll(this); // spawned children (issue 11 item 3)
        Runtime.getRuntime().halt(code == 0 ? 1 : code);
    }

    @Override
    public void finish() {
        FabricSpawn.finishAll(this); // spawned links and children (issue 11 item 3)
        flushBufferedSends();
        world.finalizeBarrier();
        engine.sayGoodbye();
        world.free();
        self.free();
        engine.close();
        if (onFinish != null) onFinish.run();
    }

    @Override
    public synchronized void attachBuffer(ByteBuffer buffer) {
        if (attached != null) throw MPIException.of(Mpi.ERR_BUFFER, "MPI.attachBuffer: a buffer is already attached");
        attached = buffer;
    }

    @Override
    public ByteBuffer detachBuffer() {
        flushBufferedSends();
        synchronized (this) {
            if (attached == null) throw MPIException.of(Mpi.ERR_BUFFER, "MPI.detachBuffer: no buffer is attached");
            ByteBuffer b = attached;
            attached = null;
            return b;
        }
    }

    // ---- environment (issue 10) ----

    /** The text of {@link #libVersion()}, known without a running backend. */
    static String libraryVersion() {
        return "mpi4j fabric " + io.github.mpi4j.Mpi4j.version() + " (pure Java: shared memory, TCP)";
    }

    /**
     * The fabric's answers, the same in every rank: no host process (PROC_NULL), every rank can
     * do I/O (ANY_SOURCE), clocks not synchronized (0), one application (APPNUM 0), a universe
     * of the world's ranks (no spawning), and no error codes beyond the predefined ones.
     */
    @Override
    public Integer predefinedAttribute(int key) {
        switch (key) {
            case io.github.mpi4j.spi.PredefinedAttribute.TAG_UB: return world.tagUpperBound();
            case io.github.mpi4j.spi.PredefinedAttribute.HOST: return Mpi.PROC_NULL;
            case io.github.mpi4j.spi.PredefinedAttribute.IO: return Mpi.ANY_SOURCE;
            case io.github.mpi4j.spi.PredefinedAttribute.WTIME_IS_GLOBAL: return 0;
            case io.github.mpi4j.spi.PredefinedAttribute.APPNUM: return 0;
            case io.github.mpi4j.spi.PredefinedAttribute.LASTUSEDCODE: return Mpi.ERR_LASTCODE;
            case io.github.mpi4j.spi.PredefinedAttribute.UNIVERSE_SIZE: return job.size;
            default: return null;
        }
    }

    // ---- derived datatypes (issue 10) ----
    /** The communicators the API gets: {@link #world} and {@link #self} taking derived datatypes. */
    private final BackendComm packingWorld, packingSelf;

    // ---- buffered sends without an attached buffer (issue 10) ----

    /**
     * Longest buffered send taken with no buffer attached. MPI makes such a send erroneous, but
     * Open MPI completes a small one as an eager send (up to about 4 KB to another process over
     * shared memory, 1 KB to itself) and programs written for it rely on that (a few ints sent
     * with ibSend and no attachBuffer); the MPI backend passes those to Open MPI, so the fabric
     * takes them too. Longer ones are refused with MPI.ERR_BUFFER as before.
     */
    static final int BSEND_WITHOUT_BUFFER_BYTES = 4000;

    /** A small buffered send with no buffer attached: copied at the call and sent, complete at once. */
    private Engine.Op unbufferedSmallBsend(int ctx, int dest, int tag, Buf buf, long len) {
        Buf copy = BufAccess.allocate(BaseKind.BYTE, len, false);
        BufAccess.copy(buf, 0, copy, 0, len);
        Engine.Op op = engine.isend(ctx, dest, tag, copy, 0, len, false);
        bsends.add(new Object[] {op, 0L}); // no attached bytes used; finalize and detach still wait for it
        return Engine.SendOp.completed(engine.me, tag, len);
    }
}
