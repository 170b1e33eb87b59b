package io.github.mpi4j.api;

import io.github.mpi4j.fabric.FabricBackend;
import io.github.mpi4j.spi.Backend;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Worlds;

/**
 * MPI.OBJECT against hostile data, in a fresh JVM per scenario (the JVM-wide filter and the
 * filter factory are per JVM): two fabric ranks as threads exchange objects; prints
 * "OBJECT-SAFETY OK <scenario>" when every check held, and exits 1 otherwise.
 *
 * <p>Scenarios: {@code jvm-filter} (run with -Djdk.serialFilter=!*), {@code factory} (installs
 * a filter factory first), {@code defaults} (no settings, small heap: what the default admits,
 * forged sizes, deep graphs, out of memory while encoding), {@code allow-list} (run with
 * -Dmpi4j.serialFilter=...).
 */
public final class ObjectSafetyProgram {
    private ObjectSafetyProgram() {
    }

    /** Counts the readObject calls of the test classes: a refused class must never run one. */
    static final AtomicInteger GADGET_RUNS = new AtomicInteger();
    static final AtomicInteger CUSTOM_RUNS = new AtomicInteger();

    /** A class whose readObject has a side effect (stands for a gadget). */
    static final class Gadget implements Serializable {
        private static final long serialVersionUID = 1L;
        final int payload;

        Gadget(int payload) {
            this.payload = payload;
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            GADGET_RUNS.incrementAndGet();
        }
    }

    /** A user class with its own readObject, admitted only when the allow-list names it. */
    static final class Custom implements Serializable {
        private static final long serialVersionUID = 1L;
        final String name;

        Custom(String name) {
            this.name = name;
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            CUSTOM_RUNS.incrementAndGet();
        }
    }

    /** A plain data class (no deserialization code), as mpiJava programs send. */
    static final class Plain implements Serializable {
        private static final long serialVersionUID = 1L;
        final int owner;
        final double[] position;
        final List<String> tags;

        Plain(int owner) {
            this.owner = owner;
            this.position = new double[] {owner, -owner};
            this.tags = new ArrayList<>(List.of("p" + owner, "x"));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Plain && ((Plain) o).owner == owner && Arrays.equals(((Plain) o).position, position)
                    && ((Plain) o).tags.equals(tags);
        }

        @Override
        public int hashCode() {
            return owner;
        }
    }

    /** A linked chain: serializing it recurses once per node. */
    static final class Node implements Serializable {
        private static final long serialVersionUID = 1L;
        final Node next;

        Node(Node next) {
            this.next = next;
        }

        static Node chain(int n) {
            Node head = null;
            for (int i = 0; i < n; i++) head = new Node(head);
            return head;
        }
    }

    enum Colour { RED, GREEN }

    private static int checks;

    private static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
        checks++;
    }

    /** Runs {@code action} and returns the MPIException it must throw (or fails). */
    private static MPIException refused(Runnable action, String what, String... fragments) {
        try {
            action.run();
        } catch (MPIException e) {
            for (String f : fragments) {
                check(String.valueOf(e.getMessage()).contains(f), what + ": message '" + e.getMessage()
                        + "' does not mention '" + f + "'");
            }
            checks++;
            return e;
        } catch (Throwable t) {
            throw new AssertionError(what + ": expected an MPIException but got " + t, t);
        }
        throw new AssertionError(what + ": expected an MPIException but the call succeeded");
    }

    public static void main(String[] args) throws Exception {
        String scenario = args[0];
        if (scenario.equals("factory")) installFactory();
        Backend[] backends = FabricBackend.threads(2, 60);
        Intracomm[] world = new Intracomm[2];
        for (int r = 0; r < 2; r++) world[r] = Worlds.worldOf(backends[r]);
        BiConsumer<Intracomm, Integer> body;
        switch (scenario) {
            case "jvm-filter": body = ObjectSafetyProgram::jvmFilter; break;
            case "factory": body = ObjectSafetyProgram::factory; break;
            case "defaults": body = ObjectSafetyProgram::defaults; break;
            case "allow-list": body = ObjectSafetyProgram::allowList; break;
            default: throw new IllegalArgumentException(scenario);
        }
        Throwable[] failure = new Throwable[2];
        Thread[] threads = new Thread[2];
        for (int r = 0; r < 2; r++) {
            int rank = r;
            threads[r] = new Thread(() -> {
                try {
                    body.accept(world[rank], rank);
                    world[rank].barrier();
                    Worlds.finish(world[rank]);
                } catch (Throwable t) {
                    failure[rank] = t;
                    for (Backend b : backends) ((FabricBackend) b).fail("rank " + rank + " failed: " + t);
                }
            }, "rank-" + r);
            threads[r].start();
        }
        for (Thread t : threads) t.join(90_000);
        boolean ok = true;
        for (int r = 0; r < 2; r++) {
            if (threads[r].isAlive()) {
                System.out.println("rank " + r + " did not finish");
                ok = false;
            } else if (failure[r] != null) {
                System.out.println("rank " + r + " failed: " + failure[r]);
                failure[r].printStackTrace(System.out);
                ok = false;
            }
        }
        if (!ok) System.exit(1);
        System.out.println("OBJECT-SAFETY OK " + scenario + " (" + checks + " checks)");
    }

    /** -Djdk.serialFilter=!* : nothing may be deserialized, and the gadget's readObject never runs. */
    private static void jvmFilter(Intracomm comm, int rank) {
        if (rank == 0) {
            comm.send(new Object[] {new Gadget(1)}, 1, MPI.OBJECT, 1, 1);
            comm.send(new Object[] {42}, 1, MPI.OBJECT, 1, 2);
        } else {
            refused(() -> comm.recv(new Object[1], 1, MPI.OBJECT, 0, 1), "recv of a gadget under jdk.serialFilter=!*",
                    "REJECTED", "jdk.serialFilter");
            refused(() -> comm.recv(new Object[1], 1, MPI.OBJECT, 0, 2), "recv of an Integer under !*",
                    "jdk.serialFilter");
        }
        Object[] b = {rank == 0 ? new Gadget(2) : null};
        if (rank == 0) {
            comm.bcast(b, 1, MPI.OBJECT, 0);
        } else {
            refused(() -> comm.bcast(b, 1, MPI.OBJECT, 0), "bcast of a gadget under jdk.serialFilter=!*",
                    "jdk.serialFilter");
        }
        comm.barrier();
        check(GADGET_RUNS.get() == 0, "the gadget's readObject ran " + GADGET_RUNS.get() + " times");
    }

    /**
     * A filter factory that gives every new stream a filter refusing {@link Plain} (which mpi4j
     * itself admits) and, like the JDK's built-in factory, lets a later setObjectInputFilter
     * replace it: a library that sets its own filter without keeping the stream's drops the rule.
     */
    private static void installFactory() {
        ObjectInputFilter noPlain = info -> info.serialClass() == Plain.class ? ObjectInputFilter.Status.REJECTED
                : ObjectInputFilter.Status.UNDECIDED;
        ObjectInputFilter.Config.setSerialFilterFactory((current, requested) -> {
            if (current == null) return requested == null ? noPlain : ObjectInputFilter.merge(requested, noPlain);
            return requested;
        });
    }

    /** The factory's decision holds although mpi4j's own filter would admit that class. */
    private static void factory(Intracomm comm, int rank) {
        if (rank == 0) {
            comm.send(new Object[] {new Plain(0)}, 1, MPI.OBJECT, 1, 1);
            comm.send(new Object[] {7, Colour.GREEN, new ArrayList<>(List.of("a"))}, 3, MPI.OBJECT, 1, 2);
        } else {
            refused(() -> comm.recv(new Object[1], 1, MPI.OBJECT, 0, 1), "recv refused by the filter factory",
                    "Plain");
            Object[] in = new Object[3];
            comm.recv(in, 3, MPI.OBJECT, 0, 2);
            check(in[0].equals(7) && in[1] == Colour.GREEN && in[2].equals(List.of("a")), "others pass the factory");
        }
    }

    /** Bytes of one MPI.OBJECT message holding {@code items}, as ObjectOutputStream writes it. */
    static byte[] serialized(Object[] items) {
        try {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(b)) {
                out.writeObject(items);
            }
            return b.toByteArray();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * A message that claims {@code long[claimed]} but carries the bytes of only {@code carried}
     * elements: the element count is patched in a real stream.
     */
    static byte[] forgedLongArray(int claimed, int carried) {
        int real = 4;
        byte[] b = serialized(new Object[] {new long[real]});
        // The stream ends with the array: its length (4 bytes), then 8 bytes per element.
        int at = b.length - 8 * real - 4;
        check(ByteBuffer.wrap(b, at, 4).getInt() == real, "found the array length in the stream");
        ByteBuffer.wrap(b, at, 4).putInt(claimed);
        return Arrays.copyOf(b, at + 4 + 8 * carried);
    }

    /** No settings, -Xmx64m: what the default admits and refuses, and the size limits. */
    private static void defaults(Intracomm comm, int rank) {
        Map<String, Integer> map = new HashMap<>();
        for (int i = 0; i < 1000; i++) map.put("k" + i, i);
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < 10000; i++) list.add(i * 3);
        long[] big = new long[200_000];
        for (int i = 0; i < big.length; i++) big[i] = i * 7L;
        Object[] admitted = {new Plain(rank), map, list, big, new String[] {"a", null, "c"}, new int[][] {{1}, {2, 3}},
            List.of(1, 2, 3), Colour.RED, 'c', 2.5, new java.math.BigDecimal("1.25"), Node.chain(200), null};
        if (rank == 0) {
            // Admitted: plain user classes and the usual java.base types, also large ones.
            comm.send(admitted, admitted.length, MPI.OBJECT, 1, 1);
            // Refused by default: a user class with its own readObject; a JDK class outside java.base.
            comm.send(new Object[] {new Gadget(3)}, 1, MPI.OBJECT, 1, 2);
            comm.send(new Object[] {new javax.management.BadAttributeValueExpException("x")}, 1, MPI.OBJECT, 1, 3);
            // Forged: a few dozen bytes that claim 99,999,999 longs (800 MB); a claim just over the bytes sent.
            byte[] forged = forgedLongArray(99_999_999, 0);
            comm.send(forged, forged.length, MPI.BYTE, 1, 4);
            byte[] over = forgedLongArray(1001, 1000);
            comm.send(over, over.length, MPI.BYTE, 1, 5);
            // A graph deeper than the stack allows fails on the sender, which sends nothing.
            refused(() -> comm.send(new Object[] {Node.chain(50_000)}, 1, MPI.OBJECT, 1, 6),
                    "send of a 50000-deep graph", "serialize");
            // A graph deeper than the receive limit is refused by the receiver.
            comm.send(new Object[] {Node.chain(600)}, 1, MPI.OBJECT, 1, 7);
            // Out of memory while encoding (the stream needs twice the array and more): an MPIException.
            Object[] chunks = new Object[6];
            for (int i = 0; i < chunks.length; i++) chunks[i] = new byte[4 << 20];
            refused(() -> comm.send(chunks, chunks.length, MPI.OBJECT, 1, 8), "send of 24 MiB in a 64 MiB heap",
                    "memory");
            Arrays.fill(chunks, null);
            comm.send(new Object[] {"still works"}, 1, MPI.OBJECT, 1, 9);
        } else {
            Object[] in = new Object[admitted.length];
            comm.recv(in, in.length, MPI.OBJECT, 0, 1);
            check(new Plain(0).equals(in[0]), "plain user class");
            check(map.equals(in[1]) && list.equals(in[2]) && Arrays.equals(big, (long[]) in[3]), "collections, arrays");
            check(Arrays.equals(new String[] {"a", null, "c"}, (String[]) in[4]), "String[]");
            check(Arrays.deepEquals(new int[][] {{1}, {2, 3}}, (int[][]) in[5]), "int[][]");
            check(List.of(1, 2, 3).equals(in[6]) && in[7] == Colour.RED && in[8].equals('c'), "List.of, enum, char");
            check(in[12] == null && in[11] instanceof Node, "null and a 200-deep chain");
            refused(() -> comm.recv(new Object[1], 1, MPI.OBJECT, 0, 2), "user class with readObject", "Gadget",
                    "mpi4j.serialFilter");
            refused(() -> comm.recv(new Object[1], 1, MPI.OBJECT, 0, 3), "JDK class outside java.base",
                    "BadAttributeValueExpException");
            long before = usedHeap();
            refused(() -> comm.recv(new Object[1], 1, MPI.OBJECT, 0, 4), "forged long[99999999]", "long[99999999]");
            refused(() -> comm.recv(new Object[1], 1, MPI.OBJECT, 0, 5), "array longer than its bytes", "long[1001]");
            check(usedHeap() - before < 16 << 20, "a forged size must not be allocated");
            refused(() -> comm.recv(new Object[1], 1, MPI.OBJECT, 0, 7), "graph deeper than the limit", "depth");
            Object[] last = new Object[1];
            comm.recv(last, 1, MPI.OBJECT, 0, 9);
            check("still works".equals(last[0]), "objects still flow after the refusals");
        }
        collectiveFailures(comm, rank);
        comm.barrier();
        check(GADGET_RUNS.get() == 0, "the gadget's readObject ran");
    }

    /**
     * A rank that cannot serialize its part of a collective throws, and so do the others,
     * naming it, at once (not at the fabric's deadline); the next collective works.
     */
    private static void collectiveFailures(Intracomm comm, int rank) {
        Object deep = Node.chain(50_000);
        Object[] b = {rank == 0 ? deep : null};
        refused(() -> comm.bcast(b, 1, MPI.OBJECT, 0), "bcast whose root cannot serialize",
                rank == 0 ? "too deep" : "rank 0 could not serialize");
        Object[] part = {rank == 1 ? new Object() : "r" + rank}; // java.lang.Object is not Serializable
        refused(() -> comm.allGather(part, 1, MPI.OBJECT, new Object[2], 1, MPI.OBJECT), "allGather",
                rank == 1 ? "NotSerializableException" : "rank 1 could not serialize");
        refused(() -> comm.gather(part, 1, MPI.OBJECT, new Object[2], 1, MPI.OBJECT, 0), "gather",
                rank == 1 ? "NotSerializableException" : "rank 1 could not serialize");
        Object[] sc = {"a", rank == 0 ? new Object() : null};
        refused(() -> comm.scatter(sc, 1, MPI.OBJECT, new Object[1], 1, MPI.OBJECT, 0), "scatter",
                rank == 0 ? "NotSerializableException" : "rank 0 could not serialize");
        refused(() -> comm.allToAll(new Object[] {part[0], part[0]}, 1, MPI.OBJECT, new Object[2], 1, MPI.OBJECT),
                "allToAll", rank == 1 ? "NotSerializableException" : "rank 1 could not serialize");
        Object[] all = new Object[2];
        comm.allGather(new Object[] {"r" + rank}, 1, MPI.OBJECT, all, 1, MPI.OBJECT);
        check(Arrays.equals(new Object[] {"r0", "r1"}, all), "allGather after the failures");
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    /** -Dmpi4j.serialFilter=<Custom>;java.base/*;!* : exactly those classes pass. */
    private static void allowList(Intracomm comm, int rank) {
        if (rank == 0) {
            comm.send(new Object[] {new Custom("listed"), 5, new ArrayList<>(List.of("a"))}, 3, MPI.OBJECT, 1, 1);
            comm.send(new Object[] {new Plain(0)}, 1, MPI.OBJECT, 1, 2);
            comm.send(new Object[] {new Gadget(4)}, 1, MPI.OBJECT, 1, 3);
        } else {
            Object[] in = new Object[3];
            comm.recv(in, 3, MPI.OBJECT, 0, 1);
            check(in[0] instanceof Custom && ((Custom) in[0]).name.equals("listed") && in[1].equals(5)
                    && in[2].equals(List.of("a")), "listed classes pass");
            check(CUSTOM_RUNS.get() == 1, "the listed class's readObject ran once");
            refused(() -> comm.recv(new Object[1], 1, MPI.OBJECT, 0, 2), "class not on the list", "Plain");
            refused(() -> comm.recv(new Object[1], 1, MPI.OBJECT, 0, 3), "gadget not on the list", "Gadget");
        }
        comm.barrier();
        check(GADGET_RUNS.get() == 0, "the gadget's readObject ran");
    }
}
