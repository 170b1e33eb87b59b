package io.github.mpi4j.spi;

/**
 * Where the bytes of a {@link Buf} live. Each backend accepts or refuses each kind explicitly;
 * a refusal is an {@code MPIException} that names the kind ({@link #description}) and the backend.
 */
public enum MemoryKind {
    /** A Java array (on the heap: pinned or staged by native backends). */
    ARRAY("a Java array"),
    /** A direct NIO buffer. */
    DIRECT("a direct NIO buffer"),
    /** A raw host address and length ({@code io.github.mpi4j.memory.HostMemory}). */
    HOST("host memory given by address"),
    /** Device memory: address, length and device number ({@code io.github.mpi4j.memory.DeviceMemory}). */
    DEVICE("device memory");

    /** For messages: "device memory", "a Java array", ... */
    public final String description;

    MemoryKind(String description) {
        this.description = description;
    }
}
