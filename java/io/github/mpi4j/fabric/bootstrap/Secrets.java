package io.github.mpi4j.fabric.bootstrap;

import io.github.mpi4j.spi.Mpi;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import mpi.MPIException;

/** The per-job secret every fabric connection proves it knows. */
public final class Secrets {
    private Secrets() {
    }

    public static final int BYTES = 32;

    /** A fresh random secret (the launcher makes one per job). */
    public static byte[] generate() {
        byte[] s = new byte[BYTES];
        new SecureRandom().nextBytes(s);
        return s;
    }

    public static String hex(byte[] secret) {
        return HexFormat.of().formatHex(secret);
    }

    /**
     * {@code MPI4J_SECRET} (hex) when set; otherwise, if {@code derivedFrom} is given, a secret
     * derived from the job's identity and the user id (weak: see docs/launching.md); else none.
     */
    public static byte[] fromEnv(Map<String, String> env, String derivedFrom) {
        String hex = env.get("MPI4J_SECRET");
        if (hex != null && !hex.isBlank()) {
            try {
                byte[] s = HexFormat.of().parseHex(hex.trim());
                if (s.length < 16) throw new IllegalArgumentException("too short");
                return s;
            } catch (IllegalArgumentException e) {
                throw MPIException.of(Mpi.ERR_OTHER, "MPI4J_SECRET must be at least 32 hex digits");
            }
        }
        if (derivedFrom == null) return null;
        return sha256("mpi4j-derived-secret:" + System.getProperty("user.name") + ":" + derivedFrom);
    }

    static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
