package io.github.mpi4j.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.mpi4j.spi.Backend;
import io.github.mpi4j.spi.BackendComm;
import io.github.mpi4j.spi.Intercommunication;
import io.github.mpi4j.spi.Mpi;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/**
 * The fabric's ports below the API (issue 10 item 4): a stranger on a port does not disturb an
 * accept, a port that does not speak mpi4j's handshake or is not a {@code host:port} name fails
 * with ERR_PORT, an accept nobody connects to ends at the deadline, and without a launcher there
 * is no name service, said clearly.
 */
class FabricPortsTest {

    private static Intercommunication inter(BackendComm c) {
        return c.capability(Intercommunication.class);
    }

    /** Runs {@code body} as one collective call of {@code c} (the API's bracket). */
    private static <T> T collective(BackendComm c, Supplier<T> body) {
        c.beginCollective("test", false);
        Throwable failure = null;
        try {
            return body.get();
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            c.endCollective(failure);
        }
    }

    private static void assertMpi(int errorClass, String fragment, Runnable r) {
        MPIException e = assertThrows(MPIException.class, r::run);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
        assertTrue(e.getMessage().contains(fragment), "'" + e.getMessage() + "' should mention '" + fragment + "'");
    }

    @Test
    void strangersAreIgnoredAndTheRealPeerConnects() throws Exception {
        Backend[] world = FabricBackend.threads(2, 20);
        BackendComm server = world[0].self();
        BackendComm client = world[1].self();
        String port = inter(server).openPort();
        CompletableFuture<BackendComm> accepted = CompletableFuture.supplyAsync(
                () -> collective(server, () -> inter(server).accept(port, 0)));
        // A stranger first: it connects and talks nonsense; the accept goes on waiting.
        InetSocketAddress at = FabricPorts.address("test", port);
        try (Socket s = new Socket(at.getHostString(), at.getPort())) {
            OutputStream o = s.getOutputStream();
            o.write("GET / HTTP/1.0\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            o.flush();
            Thread.sleep(200);
        }
        BackendComm ic = collective(client, () -> inter(client).connect(port, 0));
        BackendComm other = accepted.get(20, TimeUnit.SECONDS);
        assertArrayEquals(new int[] {0}, inter(ic).remoteWorldRanks(), "the client's remote group is rank 0");
        assertArrayEquals(new int[] {1}, inter(other).remoteWorldRanks(), "the server's remote group is rank 1");
        assertTrue(inter(ic).isInter() && inter(other).isInter());
        inter(server).closePort(port);
        assertMpi(Mpi.ERR_PORT, "not open", () -> inter(server).closePort(port));
        ic.free();
        other.free();
        // MPI.Finalize is collective over the world: both ranks at once.
        CompletableFuture<Void> f = CompletableFuture.runAsync(world[1]::finish);
        world[0].finish();
        f.get(20, TimeUnit.SECONDS);
    }

    @Test
    void badPortsFailClearly() throws Exception {
        Backend[] world = FabricBackend.threads(1, 2);
        BackendComm c = world[0].self();
        for (String bad : new String[] {"nocolon", "host:", "host:0", "host:70000", "host:abc", ":5"}) {
            assertMpi(Mpi.ERR_PORT, bad, () -> collective(c, () -> inter(c).connect(bad, 0)));
        }
        assertMpi(Mpi.ERR_PORT, "was not opened", () -> collective(c, () -> inter(c).accept("127.0.0.1:1", 0)));
        // A listener that is not mpi4j's: it closes the connection at once.
        try (ServerSocket foreign = new ServerSocket(0)) {
            Thread t = new Thread(() -> {
                try (Socket s = foreign.accept()) {
                    s.getOutputStream().write(new byte[] {1, 2, 3});
                } catch (java.io.IOException ignored) {
                    // the test only needs the connection to end
                }
            });
            t.start();
            String port = "127.0.0.1:" + foreign.getLocalPort();
            assertMpi(Mpi.ERR_PORT, port, () -> collective(c, () -> inter(c).connect(port, 0)));
            t.join(5000);
        }
        // Nobody connects: the accept ends at the fabric's deadline (2 s here).
        String port = inter(c).openPort();
        long t0 = System.nanoTime();
        assertMpi(Mpi.ERR_PORT, "no process connected", () -> collective(c, () -> inter(c).accept(port, 0)));
        assertTrue(System.nanoTime() - t0 < 15_000_000_000L, "the accept ended near its deadline");
        inter(c).closePort(port);
        world[0].finish();
    }

    @Test
    void withoutALauncherThereIsNoNameService() {
        Backend b = FabricBackend.create(Mpi.THREAD_SINGLE, Map.of(), "test: a singleton");
        try {
            Intercommunication ic = inter(b.world());
            assertMpi(Mpi.ERR_NAME, "no name service is reachable", () -> ic.publishName("svc", "h:1"));
            assertMpi(Mpi.ERR_NAME, "no name service is reachable", () -> ic.lookupName("svc"));
            assertMpi(Mpi.ERR_NAME, "mpi4jrun", () -> ic.unpublishName("svc", "h:1"));
        } finally {
            b.finish();
        }
    }
}
