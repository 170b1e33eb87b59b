package io.github.mpi4j.nativeload;

import java.util.function.IntSupplier;

/**
 * The ABI version of mpi4j's JNI libraries, and the check {@link NativeLoader} runs right after
 * loading one. A library built from other sources than these classes (a copy left by an old jar,
 * an old build directory named by {@code mpi4j.native.path} or {@code mpi4j.native.<name>}) may
 * have other native signatures or constants: calling into it could crash the JVM or compute
 * wrong results. So each library exports a function returning the version it was built for,
 * and a library that returns another one, or has no such function (built before the check
 * existed), is refused with a message that says so.
 *
 * <p>The functions are declared here rather than on each library's own holder class so that the
 * loader can call them without depending on the layers above it; each library exports its own,
 * under a distinct name, because the JVM binds a native method to the first loaded library that
 * has its symbol.
 */
final class NativeAbi {
    private NativeAbi() {
    }

    /**
     * The version these classes need. Bump it together with {@code MPI4J_ABI_VERSION} in
     * {@code native/mpi4j_abi.h} (the C build asserts they are equal) whenever any JNI signature
     * changes (a native method added, removed, renamed, or given other parameters or result) or
     * any constant pinned across JNI changes value.
     */
    static final int VERSION = 7;

    /** The version {@code libmpi4j_dl} was built for. */
    static native int dynamicLinkerVersion0();

    /** The version the loaded MPI bridge ({@code libmpi4j_mpi_ompi} or {@code libmpi4j_mpi_mpich}) was built for. */
    static native int mpiBridgeVersion0();

    /** The version {@code libmpi4j_gpu} (CUDA and NCCL) was built for. */
    static native int gpuVersion0();

    /** The version function of mpi4j's library {@code name}, or null if it is not one of them. */
    static IntSupplier probe(String name) {
        if (name.equals(DynamicLinker.LIBRARY)) return NativeAbi::dynamicLinkerVersion0;
        if (name.equals(GpuLinker.LIBRARY)) return NativeAbi::gpuVersion0;
        for (MpiBridge.Family f : MpiBridge.Family.values()) {
            if (name.equals(f.bridge)) return NativeAbi::mpiBridgeVersion0;
        }
        return null;
    }

    /**
     * Asks the just-loaded library {@code name} which version it was built for. Returns null
     * when it is this jar's, otherwise why it cannot be used ({@code where} names the file and
     * how it was found).
     */
    static String check(String name, String where) {
        IntSupplier probe = probe(name);
        if (probe == null) {
            return "lib" + name + " has no ABI check in NativeAbi (every mpi4j library needs one)";
        }
        int built;
        try {
            built = probe.getAsInt();
        } catch (UnsatisfiedLinkError e) {
            return stale(where, "it has no ABI version (built before mpi4j checked one)");
        }
        return built == VERSION ? null : stale(where, "built for ABI " + built);
    }

    /** The message for a library loaded from {@code where} that was built for other classes. */
    static String stale(String where, String what) {
        return "stale native library " + where + ": " + what + ", this jar needs " + VERSION
                + "; use the library built with this jar (drop the override to use the copy inside the jar)";
    }
}
