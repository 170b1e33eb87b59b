package io.github.mpi4j.fabric.bootstrap;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Mutual authentication of every fabric connection with the per-job secret, before any data:
 * an HMAC-SHA256 challenge-response in both directions.
 * <pre>
 *   acceptor  -> connector : MAGIC, nonceA (32 bytes)
 *   connector -> acceptor  : MAGIC, nonceC, id (int), HMAC(secret, "connect" | nonceA | nonceC | id)
 *   acceptor  -> connector : HMAC(secret, "accept" | nonceC | nonceA | id)
 * </pre>
 * The secret itself never crosses the wire; fresh nonces on both sides stop replays. A failure
 * closes the connection without a word to the peer and is reported to the caller (who logs it).
 */
public final class Auth {
    private Auth() {
    }

    private static final byte[] MAGIC = "MPI4J-1\n".getBytes(StandardCharsets.US_ASCII);
    private static final int NONCE = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Raised when the peer does not prove it knows the job secret (or does not speak the protocol). */
    public static final class Rejected extends IOException {
        private static final long serialVersionUID = 1L;
        /** The id (rank) the peer claimed, or -2 when it did not get that far. */
        public final int claimedId;

        public Rejected(String message) {
            this(message, -2);
        }

        public Rejected(String message, int claimedId) {
            super(message);
            this.claimedId = claimedId;
        }
    }

    private static byte[] nonce() {
        byte[] n = new byte[NONCE];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * Loads and initialises the HMAC provider before a connection is opened. Its first use costs
     * a class-loading burst that, on a heavily loaded node, could outlast the acceptor's deadline
     * for the handshake ({@code RendezvousServer.AUTH_TIMEOUT_MS}); paid here it is outside that window.
     */
    public static void warmUp() {
        hmac(new byte[NONCE], "warm-up", new byte[NONCE], new byte[NONCE], 0);
    }

    static byte[] hmac(byte[] secret, String label, byte[] first, byte[] second, int id) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            mac.update(label.getBytes(StandardCharsets.US_ASCII));
            mac.update(first);
            mac.update(second);
            mac.update(new byte[] {(byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id});
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    private static void readMagic(DataInputStream in) throws IOException {
        byte[] m = new byte[MAGIC.length];
        try {
            in.readFully(m);
        } catch (java.io.EOFException e) {
            throw new java.io.EOFException("the peer closed the connection before authenticating");
        }
        if (!Arrays.equals(m, MAGIC)) throw new Rejected("peer does not speak the mpi4j protocol");
    }

    /** The accepting side; returns the id the connector claimed (its rank, or -1 for a tool). */
    public static int accept(DataInputStream in, DataOutputStream out, byte[] secret) throws IOException {
        byte[] nonceA = nonce();
        out.write(MAGIC);
        out.write(nonceA);
        out.flush();
        readMagic(in);
        byte[] nonceC = new byte[NONCE];
        in.readFully(nonceC);
        int id = in.readInt();
        byte[] proof = new byte[32];
        in.readFully(proof);
        if (!MessageDigest.isEqual(proof, hmac(secret, "connect", nonceA, nonceC, id))) {
            throw new Rejected("connection claiming id " + id + " failed authentication (wrong job secret)", id);
        }
        out.write(hmac(secret, "accept", nonceC, nonceA, id));
        out.flush();
        return id;
    }

    /** The connecting side, identifying itself as {@code id}. */
    public static void connect(DataInputStream in, DataOutputStream out, byte[] secret, int id) throws IOException {
        readMagic(in);
        byte[] nonceA = new byte[NONCE];
        in.readFully(nonceA);
        byte[] nonceC = nonce();
        out.write(MAGIC);
        out.write(nonceC);
        out.writeInt(id);
        out.write(hmac(secret, "connect", nonceA, nonceC, id));
        out.flush();
        byte[] proof = new byte[32];
        try {
            in.readFully(proof);
        } catch (java.io.EOFException e) {
            throw new Rejected("the peer closed the connection during authentication: a wrong job secret,"
                    + " or this process answered after the peer's handshake deadline (an overloaded node)");
        }
        if (!MessageDigest.isEqual(proof, hmac(secret, "accept", nonceC, nonceA, id))) {
            throw new Rejected("the server failed authentication (wrong job secret)");
        }
    }
}
