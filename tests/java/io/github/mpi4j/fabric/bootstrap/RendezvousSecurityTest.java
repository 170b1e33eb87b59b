package io.github.mpi4j.fabric.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import mpi.MPIException;
import org.junit.jupiter.api.Test;

/** The rendezvous store over real sockets: authentication, bounded frames, deadlines. */
class RendezvousSecurityTest {
    private final List<String> log = new CopyOnWriteArrayList<>();

    private static long deadline(double s) {
        return System.nanoTime() + (long) (s * 1e9);
    }

    @Test
    void putAndGetAcrossClients() throws Exception {
        byte[] secret = Secrets.generate();
        try (RendezvousServer server = new RendezvousServer("127.0.0.1", 0, secret, log::add);
             RendezvousClient a = new RendezvousClient("127.0.0.1:" + server.port(), secret, 0, deadline(5));
             RendezvousClient b = new RendezvousClient("127.0.0.1:" + server.port(), secret, 1, deadline(5))) {
            Thread later = new Thread(() -> {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ignored) {
                    // test thread
                }
                a.put("k", "v1".getBytes(StandardCharsets.UTF_8));
            });
            later.start();
            assertArrayEquals("v1".getBytes(StandardCharsets.UTF_8), b.get("k", 5_000_000_000L), "get waits for the put");
            later.join();
            MPIException e = assertThrows(MPIException.class, () -> b.get("never", 300_000_000L));
            assertTrue(e.getMessage().contains("never"), e.getMessage());
        }
    }

    @Test
    void wrongSecretIsRefusedAndLogged() throws Exception {
        byte[] secret = Secrets.generate();
        try (RendezvousServer server = new RendezvousServer("127.0.0.1", 0, secret, log::add)) {
            MPIException e = assertThrows(MPIException.class,
                    () -> new RendezvousClient("127.0.0.1:" + server.port(), Secrets.generate(), 3, deadline(5)));
            assertTrue(e.getMessage().contains("wrong job secret"), e.getMessage());
            waitForLog("refused");
            assertTrue(log.stream().anyMatch(l -> l.contains("id 3") && l.contains("wrong job secret")), log.toString());
        }
    }

    @Test
    void aClientThatDoesNotSpeakTheProtocolIsDropped() throws Exception {
        byte[] secret = Secrets.generate();
        try (RendezvousServer server = new RendezvousServer("127.0.0.1", 0, secret, log::add);
             Socket s = new Socket("127.0.0.1", server.port())) {
            s.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            waitForLog("refused");
        }
    }

    @Test
    void anOversizedFrameIsRejectedWithoutAllocatingIt() throws Exception {
        byte[] secret = Secrets.generate();
        try (RendezvousServer server = new RendezvousServer("127.0.0.1", 0, secret, log::add);
             Socket s = new Socket("127.0.0.1", server.port())) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            Auth.connect(in, out, secret, 5);
            out.writeInt(Integer.MAX_VALUE); // claims 2 GiB
            out.flush();
            waitForLog("sent a frame of 2147483647 bytes");
            s.setSoTimeout(5000);
            assertThrows(EOFException.class, in::readInt, "the server closes the connection");
        }
    }

    @Test
    void authenticationIsMutual() throws Exception {
        // A fake server that does not know the secret cannot make a client trust it.
        byte[] secret = Secrets.generate();
        try (java.net.ServerSocket fake = new java.net.ServerSocket(0)) {
            Thread t = new Thread(() -> {
                try (Socket c = fake.accept()) {
                    DataInputStream in = new DataInputStream(c.getInputStream());
                    DataOutputStream out = new DataOutputStream(c.getOutputStream());
                    Auth.accept(in, out, Secrets.generate()); // wrong secret: rejects the client
                } catch (IOException expected) {
                    // the client's proof does not verify here
                }
            });
            t.start();
            MPIException e = assertThrows(MPIException.class,
                    () -> new RendezvousClient("127.0.0.1:" + fake.getLocalPort(), secret, 0, deadline(3)));
            assertTrue(e.getMessage().contains("rendezvous"), e.getMessage());
            t.join();
        }
    }

    private static long storeThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("mpi4j-rendezvous")).count();
    }

    /** 200 connections that never authenticate get a bounded number of threads, and the store still serves ranks. */
    @Test
    void idleConnectionsGetBoundedThreadsAndTheStoreStillServes() throws Exception {
        byte[] secret = Secrets.generate();
        List<Socket> idle = new java.util.ArrayList<>();
        try (RendezvousServer server = new RendezvousServer("127.0.0.1", 0, secret, log::add)) {
            long before = storeThreads();
            for (int i = 0; i < 200; i++) idle.add(new Socket("127.0.0.1", server.port()));
            Thread.sleep(500);
            long threads = storeThreads() - before;
            assertTrue(threads <= 20, threads + " store threads for 200 idle connections");
            try (RendezvousClient c = new RendezvousClient("127.0.0.1:" + server.port(), secret, 0, deadline(20))) {
                c.put("k", new byte[] {7});
                assertArrayEquals(new byte[] {7}, c.get("k", 5_000_000_000L));
            }
        } finally {
            for (Socket s : idle) s.close();
        }
    }

    /** 1,000 connect-and-close probes give a few log lines that say what happened, never 'null'. */
    @Test
    void refusedConnectionsAreLoggedSparinglyAndSayWhy() throws Exception {
        byte[] secret = Secrets.generate();
        try (RendezvousServer server = new RendezvousServer("127.0.0.1", 0, secret, log::add)) {
            for (int i = 0; i < 1000; i++) new Socket("127.0.0.1", server.port()).close();
            waitForLog("refused");
            Thread.sleep(500);
        }
        assertTrue(log.size() <= 12, log.size() + " lines: " + log);
        assertTrue(log.stream().noneMatch(l -> l.endsWith("null")), log.toString());
        assertTrue(log.stream().anyMatch(l -> l.contains("closed the connection")), log.toString());
        assertTrue(log.stream().anyMatch(l -> l.matches(".*\\d+ more refused connection.*")), log.toString());
    }

    /** A rank that fails authentication ends the others' waits at once, naming it. */
    @Test
    void aRankThatFailsAuthenticationAbortsTheWaitingRanks() throws Exception {
        byte[] secret = Secrets.generate();
        try (RendezvousServer server = new RendezvousServer("127.0.0.1", 0, secret, log::add);
             RendezvousClient a = new RendezvousClient("127.0.0.1:" + server.port(), secret, 0, deadline(5))) {
            Thread intruder = new Thread(() -> assertThrows(MPIException.class,
                    () -> new RendezvousClient("127.0.0.1:" + server.port(), Secrets.generate(), 1, deadline(5))));
            long t0 = System.nanoTime();
            intruder.start();
            MPIException e = assertThrows(MPIException.class, () -> a.get("addr/1", 60_000_000_000L));
            double secs = (System.nanoTime() - t0) / 1e9;
            intruder.join();
            assertTrue(secs < 10, "failed after " + secs + " s");
            assertTrue(e.getMessage().contains("rank 1") && e.getMessage().contains("authentication"), e.getMessage());
        }
    }

    private void waitForLog(String fragment) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            if (log.stream().anyMatch(l -> l.contains(fragment))) return;
            Thread.sleep(20);
        }
        assertEquals("a log line containing '" + fragment + "'", log.toString());
    }
}
