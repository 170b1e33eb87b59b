package mpi;

import io.github.mpi4j.buffer.Buffers;
import io.github.mpi4j.buffer.SharedStores;
import io.github.mpi4j.fabric.coll.SlotWarmUp;
import io.github.mpi4j.runtime.JitQuiet;
import io.github.mpi4j.runtime.ThreadPolicy;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * A warm start ({@code MPI4J_WARMUP=1|0|auto} or {@code -Dmpi4j.warmup=...}): before
 * {@code MPI.Init} returns, the ranks run the library's common paths until the JIT has compiled
 * them, so a program's first messages run at compiled speed. {@code auto} turns it on where
 * every node has a processor per rank ({@link #skipUnderAuto}); {@code mpi4jrun} asks for {@code auto}
 * unless told otherwise, and the library alone does not warm up.
 *
 * <p>Why: a fresh JVM runs the send and receive paths in the interpreter (30-50 µs a message
 * against C's 0.45) and compiles them over the first second, on the cores the ranks spin on.
 * JDK 17 has no ahead-of-time code cache, so the only way to have compiled code at the first
 * message is to compile it before: here, inside Init. The cost is Init's time (1.3-1.8 s on two
 * cores), paid once: the launcher pays it by default, where the ranks are programs a user starts;
 * a program started otherwise (under mpirun, or embedded) asks for it.
 *
 * <p>What runs, on private communicators (so no message or sequence number the program sees is
 * touched): first barriers, broadcasts and sum allreduces of doubles from one element to 1 MiB,
 * arrays and direct buffers, on two duplicates of the world; where the large ones went through
 * the fabric's shared-memory slots, {@link #SLOT_ALLREDUCES} more of 1 MiB, most cut into many
 * small chunks, so the methods that run once per chunk are compiled too ({@link #slotAllreduces});
 * then ping-pongs between ranks 2k
 * and 2k+1 (the last rank of an odd world has none) on two communicators of the pair: 0, 8 and
 * 64 bytes from byte, int and double arrays and direct buffers, blocking and non-blocking, on
 * fresh buffers now and then, with barriers between, one side late now and then (so the waits'
 * yield and park branches are in the profile). The variety and the order matter: C2 compiles a
 * branch that its profile never saw taken as a trap, and taking it later throws the compiled
 * send path away (measured: a warm-up with one buffer and one communicator left the program's
 * first round at 16-28 µs a message, this one at about 0.6); and what runs last is what the
 * compiled code fits best. For the same reason it empties the buffer cache now and then, as a
 * collection would. At the end it frees its communicators but one, lets the young generation be
 * collected once, so the program does not pay for the warm-up's garbage; then each rank waits
 * until its compiler has finished nothing new for {@link #SETTLED_MS} ms (at most
 * {@link #SETTLE_LIMIT_MS} ms), and the ranks meet in a barrier; after it only the last
 * communicator is freed, its first-time costs paid by the others, and each rank's thread
 * moves to a core of its own ({@link #spreadOverCores}).
 */
final class WarmStart {
    private WarmStart() {
    }

    static final String ENV = "MPI4J_WARMUP";
    static final String PROPERTY = "mpi4j.warmup";
    /** Round trips between partners: about 1 s on two cores, most of it before the path is compiled. */
    static final int ROUND_TRIPS = 20_000;
    /** The round trip of the first long wait, and the round trips between them (see lateNanos). */
    static final int LONG_WAIT_AT = 2000;
    static final int LONG_WAIT_EVERY = 4096;
    /** Collective calls (each kind in turn). */
    static final int COLLECTIVES = 240;
    /** Allreduces of {@link #LARGE} doubles with small parts through the shared-memory slots. */
    static final int SLOT_ALLREDUCES = 300;
    /** One slot allreduce in this many runs with the ordinary parts (see slotAllreduces). */
    static final int ORDINARY_PARTS_EVERY = 5;
    /** Largest allreduce, in doubles (1 MiB): long enough for the copy and reduction loops to compile. */
    static final int LARGE = 1 << 17;
    static final long SETTLED_MS = 150;
    static final long SETTLE_LIMIT_MS = 3000;

    /** What one warm start did (for MPI4J_VERBOSE and the tests). */
    static final class Report {
        final int roundTrips;
        /** Allreduces of {@link #slotAllreduces} (0 where the world has no shared-memory slots). */
        final int slotAllreduces;
        final long millis;
        /** Whether the collector ran during the final allocation (false: not within YOUNG_LIMIT bytes). */
        final boolean youngCollected;
        /** Whether the compiler went quiet before the limit (false also where the JVM cannot tell). */
        final boolean settled;

        Report(int roundTrips, int slotAllreduces, long millis, boolean youngCollected, boolean settled) {
            this.roundTrips = roundTrips;
            this.slotAllreduces = slotAllreduces;
            this.millis = millis;
            this.youngCollected = youngCollected;
            this.settled = settled;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT,
                    "%d round trips, %d collectives, %d allreduces in shared memory, %d ms, young generation %s, compiler %s",
                    roundTrips, COLLECTIVES, slotAllreduces, millis, youngCollected ? "collected" : "not collected",
                    settled ? "settled" : "not settled");
        }
    }

    /** What the settings ask for: no warm start, one, or one where the ranks have a core each. */
    enum Setting {
        OFF, ON, AUTO
    }

    /** The setting of this process (the system property wins over the environment). */
    static Setting setting() {
        return setting(System.getProperty(PROPERTY), System.getenv());
    }

    static Setting setting(String property, Map<String, String> env) {
        String name = property != null ? "-D" + PROPERTY : ENV;
        String v = property != null ? property : env.get(ENV);
        if (v == null || v.isBlank()) return Setting.OFF;
        switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "1": case "true": case "on": case "yes":
                return Setting.ON;
            case "0": case "false": case "off": case "no":
                return Setting.OFF;
            case "auto":
                return Setting.AUTO;
            default:
                System.err.println("mpi4j: ignoring " + name + "=" + v + " (1, 0 or auto); no warm start");
                return Setting.OFF;
        }
    }

    /**
     * Under AUTO: why this job skips the warm start, or null to run it; every rank of
     * {@code world} must call this. A world of one process has no messages to warm up. Otherwise
     * the warm start runs where every node runs no more ranks than a rank there has processors:
     * that is where the JIT's compiler threads would take a core from a spinning rank, and where
     * the warm start is short (1.3-1.8 s at 2 ranks on 2 cores, against 3.5 s at 4 ranks on 2).
     * The ranks agree in one allreduce, so a job never half warms up.
     */
    static String skipUnderAuto(Intracomm world) {
        if (world.getSize() == 1) return "one process: no messages to warm up";
        int onNode = rankAndSizeOnNode(world)[1];
        int[] fits = {fitsProcessors(onNode, Runtime.getRuntime().availableProcessors()) ? 1 : 0};
        world.allReduce(fits, 1, MPI.INT, MPI.MIN);
        return fits[0] == 1 ? null : "a node runs more ranks than it has processors";
    }

    /** The AUTO rule of one node: as many ranks as processors, or fewer. */
    static boolean fitsProcessors(int ranksOnNode, int processors) {
        return ranksOnNode <= processors;
    }

    /**
     * Runs the warm start on {@code world}; every rank of it must call this (Init does). With
     * {@code print}, rank 0 prints the report to standard error before the last barrier:
     * printing after it set rank 0 about 20 ms behind the others when the program started (a
     * JVM's first String.format loads its classes), and its partner's first receive waited
     * that long.
     */
    static void run(Intracomm world, boolean print) {
        long start = System.nanoTime();
        int rank = world.getRank();
        int[] onNode = rankAndSizeOnNode(world);
        // Two duplicates of the world for the collectives, and of each pair of ranks (2k, 2k+1;
        // the last rank of an odd world alone) for the ping-pongs, whose barriers are the pair's.
        Intracomm pair = world.split(rank / 2, rank);
        Intracomm[] all = {world.dup(), world.dup(), pair, pair.dup()};
        try {
            Intracomm[] everyone = {all[0], all[1]};
            Intracomm[] partners = {all[2], all[3]};
            // Collectives first: their large messages and buffer classes reach the point-to-point
            // code too, and what runs last is what the compiled code fits best.
            SharedStores.rehearse();
            long viaSlots = SlotWarmUp.allreduces();
            collectives(everyone);
            int slotCalls = slotAllreduces(everyone, SlotWarmUp.allreduces() > viaSlots);
            int roundTrips = pingPongs(partners);
            // All but the last communicator go now: the first frees in a JVM took 0.7-2.3 ms
            // (code run for the first time), and whatever runs after the last barrier sets
            // the ranks that far apart when the program starts (its first message waited that
            // long: 0.6-1.5 ms measured, thirty-fourth session).
            freeFrom(all, 1);
            // The program starts with an empty young generation: the warm-up's garbage would
            // otherwise be collected in its first timed loop (4-6 ms measured).
            boolean young = collectYoungGeneration();
            boolean settled = waitForCompiler();
            if (print && rank == 0) {
                long millis = (System.nanoTime() - start) / 1_000_000;
                System.err.println("mpi4j: warm start: " + new Report(roundTrips, slotCalls, millis, young, settled));
            }
            everyone[0].barrier();
        } finally {
            freeFrom(all, 0);
        }
        spreadOverCores(onNode[0], onNode[1]);
    }

    /** This rank's rank on its node and the node's number of ranks. */
    private static int[] rankAndSizeOnNode(Intracomm world) {
        Intracomm node = world.splitType(Comm.TYPE_SHARED, 0, null);
        try {
            return new int[] {node.getRank(), node.getSize()};
        } finally {
            node.free();
        }
    }

    /**
     * The last step before the program starts: where a node has no more ranks than cores, each
     * rank's thread moves to a core of its own (the rank on the node picks it) and is left free
     * to run anywhere again ({@link ThreadPolicy#moveThisThread}). The waits of the last barrier
     * park the ranks, and two ranks woken on the same core shared it for about 8.5 ms while the
     * other core idled (thirty-eighth session). Nothing happens without libmpi4j_dl, or with
     * -Dmpi4j.spread=false.
     */
    static void spreadOverCores(int rankOnNode, int ranksOnNode) {
        if ("false".equals(System.getProperty("mpi4j.spread"))) return;
        if (!fitsProcessors(ranksOnNode, Runtime.getRuntime().availableProcessors())) return;
        String refused = ThreadPolicy.moveThisThread(rankOnNode);
        if (refused != null && io.github.mpi4j.Mpi4j.verbose()) {
            System.err.println("mpi4j: warm start: thread not spread over cores (" + refused + ")");
        }
    }

    /** Frees the communicators of {@code all} from index {@code first} on that are not freed yet. */
    private static void freeFrom(Intracomm[] all, int first) {
        for (int i = first; i < all.length; i++) {
            if (all[i] != null) all[i].free();
            all[i] = null;
        }
    }

    /** The kinds of small buffer a program sends from most: byte, double and int arrays and buffers. */
    private static final int KINDS = 6;

    private static Object freshBuffer(int kind) {
        switch (kind) {
            case 0: return new byte[64];
            case 1: return MPI.newByteBuffer(64);
            case 2: return new double[8];
            case 3: return MPI.newDoubleBuffer(8);
            case 4: return new int[16];
            default: return MPI.newIntBuffer(16);
        }
    }

    private static int elementBytes(int kind) {
        return kind < 2 ? 1 : kind < 4 ? 8 : 4;
    }

    private static int pingPongs(Intracomm[] comms) {
        if (comms[0].getSize() < 2) return 0;
        int partner = 1 - comms[0].getRank();
        boolean first = partner == 1;
        Object[] buffers = new Object[2 * KINDS];
        Request[] pair = new Request[2];
        for (int k = 0; k < ROUND_TRIPS; k++) {
            Intracomm c = comms[(k >> 4) & 1];
            int slot = k % buffers.length;
            int kind = slot % KINDS;
            // A fresh buffer now and then: the path that meets a buffer for the first time.
            if (buffers[slot] == null || (k & 63) == slot) buffers[slot] = freshBuffer(kind);
            Object buf = buffers[slot];
            Datatype type = kind < 2 ? MPI.BYTE : kind < 4 ? MPI.DOUBLE : MPI.INT;
            // 12 bytes now and then: the small copy's 4-byte step (BufAccess), linked here, not in a program's loop.
            int bytes = (k & 3) == 3 ? 64 : (k & 15) == 5 ? 0 : (k & 15) == 9 ? 12 : 8;
            int count = bytes / elementBytes(kind);
            // One side late now and then, so the waits spin long enough to yield and to park.
            if ((k & 255) == 7 && first) LockSupport.parkNanos(200_000);
            if ((k & 1023) == 9 && !first) LockSupport.parkNanos(1_000_000);
            long late = lateNanos(k, first);
            if (late > 0) LockSupport.parkNanos(late);
            if ((k & 7) == 6) {
                pair[0] = c.iRecv(buf, count, type, partner, 2);
                pair[1] = c.iSend(buf, count, type, partner, 2);
                Request.waitAll(pair);
            } else if (first) {
                c.send(buf, count, type, partner, 1);
                c.recv(buf, count, type, partner, 1);
            } else {
                c.recv(buf, count, type, partner, 1);
                c.send(buf, count, type, partner, 1);
            }
            if ((k & 127) == 11) c.barrier();
            // As a collection that freed old buffers would: the buffer cache's "cleared" path must
            // be in the profile, or a program's first collection throws the compiled send path away.
            if ((k & 4095) == 100) Buffers.forgetRecentBuffers();
        }
        return ROUND_TRIPS;
    }

    /**
     * How long this side of a pair sleeps before round trip {@code k} so that its partner waits
     * long enough to park: 5 ms (WaitPolicy's short park) and 12 ms (past 10 ms, its longer
     * park), each side waiting in its turn; 0 for most round trips. The profile must have both
     * park branches: a rank whose compiler settles later keeps its partner waiting in Init's
     * last barrier for milliseconds, and where the compiled wait loop had only seen one of
     * them, it was thrown away there and compiled again during a program's first messages
     * (measured: a first round of 12 µs a message, C2 at work 30-70 ms on one rank).
     */
    static long lateNanos(int k, boolean first) {
        int n = k - LONG_WAIT_AT;
        if (n < 0 || n % LONG_WAIT_EVERY != 0) return 0;
        n /= LONG_WAIT_EVERY;
        if (first != ((n & 1) == 0)) return 0;
        return (n & 2) == 0 ? 5_000_000 : 12_000_000;
    }

    private static void collectives(Intracomm[] comms) {
        double[] sendArray = new double[LARGE];
        double[] recvArray = new double[LARGE];
        DoubleBuffer sendDirect = MPI.newDoubleBuffer(LARGE);
        DoubleBuffer recvDirect = MPI.newDoubleBuffer(LARGE);
        ByteBuffer small = MPI.newByteBuffer(64);
        double[] one = new double[8];
        for (int k = 0; k < COLLECTIVES; k++) {
            Intracomm c = comms[k & 1];
            switch (k % 6) {
                case 0: c.barrier(); break;
                case 1: c.bcast((k & 8) == 0 ? one : small, 8, (k & 8) == 0 ? MPI.DOUBLE : MPI.BYTE, 0); break;
                case 2: c.allReduce(one, one.length, MPI.DOUBLE, MPI.SUM); break;
                case 3: c.allReduce(sendArray, recvArray, 4096, MPI.DOUBLE, MPI.SUM); break;
                case 4: c.allReduce(sendArray, recvArray, LARGE, MPI.DOUBLE, MPI.SUM); break;
                default: c.allReduce(sendDirect, recvDirect, directCount(k), MPI.DOUBLE, MPI.SUM);
            }
        }
    }

    /**
     * Doubles in the direct-buffer allreduce of collective call {@code k} (k % 6 == 5): large
     * and small in turn. Not by k's parity, which is always odd there: then no large one ran,
     * and a program's first large allreduce of direct buffers met code compiled without that path.
     */
    static int directCount(int k) {
        return (k / 6 & 1) == 0 ? LARGE : 4096;
    }

    /**
     * Where the world's large allreduces go through the fabric's shared-memory slots (every rank
     * saw its own go there: {@code mine}), runs {@link #SLOT_ALLREDUCES} of them, so the
     * methods that run once per chunk are compiled before the program's first large call
     * rather than in its 15th to 40th (measured at 16 MiB and 2 ranks: one call in each such
     * compilation took 3-6 times as long). Most run with small parts ({@link SlotWarmUp}), 32
     * chunks a call instead of 4, so this takes about half a second on two cores; every
     * {@link #ORDINARY_PARTS_EVERY}th runs with the ordinary ones, arrays and direct buffers in
     * turn, so the branches a program's large chunks take stay in the profile. Returns how
     * many ran.
     */
    private static int slotAllreduces(Intracomm[] comms, boolean mine) {
        int[] everywhere = {mine ? 1 : 0};
        comms[0].allReduce(everywhere, 1, MPI.INT, MPI.MIN);
        if (everywhere[0] == 0) return 0;
        double[] sendArray = new double[LARGE];
        double[] recvArray = new double[LARGE];
        DoubleBuffer sendDirect = MPI.newDoubleBuffer(LARGE);
        DoubleBuffer recvDirect = MPI.newDoubleBuffer(LARGE);
        try {
            for (int k = 0; k < SLOT_ALLREDUCES; k++) {
                Intracomm c = comms[k & 1];
                SlotWarmUp.smallParts(k % ORDINARY_PARTS_EVERY != ORDINARY_PARTS_EVERY - 1);
                // Two array calls, then two direct ones: with a period of 5, each kind gets
                // the ordinary parts in its turn.
                if ((k & 2) == 0) c.allReduce(sendArray, recvArray, LARGE, MPI.DOUBLE, MPI.SUM);
                else c.allReduce(sendDirect, recvDirect, LARGE, MPI.DOUBLE, MPI.SUM);
            }
        } finally {
            SlotWarmUp.smallParts(false);
        }
        return SLOT_ALLREDUCES;
    }

    /**
     * Allocates short-lived arrays until the collector has run once (at most {@link #YOUNG_LIMIT}
     * bytes). Not System.gc(): a full collection also shrinks the heap (G1 took a fresh JVM's
     * 380 MB to 40 MB), and a small heap collects more often and starts concurrent marking as
     * soon as a program allocates large arrays.
     */
    static boolean collectYoungGeneration() {
        List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
        long before = collections(collectors);
        for (long bytes = 0; bytes < YOUNG_LIMIT; bytes += SCRAP.length) {
            SCRAP = new byte[64 << 10];
            if (collections(collectors) != before) return true;
        }
        return false;
    }

    static final long YOUNG_LIMIT = 512L << 20;
    /** Where collectYoungGeneration's arrays go, so the JIT cannot drop the allocations. */
    static volatile byte[] SCRAP = new byte[64 << 10];

    private static long collections(List<GarbageCollectorMXBean> collectors) {
        long n = 0;
        for (GarbageCollectorMXBean gc : collectors) n += Math.max(0, gc.getCollectionCount());
        return n;
    }

    /** Waits until no compilation has finished for SETTLED_MS, or SETTLE_LIMIT_MS; whether it settled. */
    static boolean waitForCompiler() {
        JitQuiet jit = new JitQuiet();
        if (!jit.known()) return false;
        long limit = System.nanoTime() + SETTLE_LIMIT_MS * 1_000_000;
        while (System.nanoTime() - limit < 0) {
            LockSupport.parkNanos(10_000_000);
            if (jit.quietFor(SETTLED_MS * 1_000_000)) return true;
        }
        return false;
    }
}
